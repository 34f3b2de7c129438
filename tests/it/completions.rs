//! Completions: the committed bash file has an arm for every command it names (clap issue 6421
//! left `git-handoff seal --<TAB>` empty), and real bash completes options, values and refs in both
//! forms (`git-handoff ...` and `git handoff ...` inside git's own completion); `completions
//! <SHELL>` prints the committed scripts; real fish completes `git handoff <TAB>` when installed.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{Env, stdout_ok};

const BASH_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/completions/git-handoff.bash");

#[test]
fn every_command_the_bash_script_names_has_its_arm() {
    let text = std::fs::read_to_string(BASH_FILE).unwrap();
    let set: BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("cmd=\"")?.strip_suffix('"'))
        .filter(|name| !name.is_empty())
        .collect();
    let arms: BTreeSet<&str> = text
        .lines()
        .filter(|l| l.starts_with("        ") && !l.starts_with("         "))
        .filter_map(|l| l.trim().strip_suffix(')'))
        .collect();
    assert!(set.len() > 15, "{set:?}");
    let missing: Vec<&&str> = set.iter().filter(|name| !arms.contains(**name)).collect();
    assert!(missing.is_empty(), "`cmd` values without a case arm: {missing:?}");
}

/// Runs bash with the completion files sourced and prints, for each line of `cases` (words
/// separated by spaces; a trailing space means an empty current word), the candidates.
fn complete_in_bash(repo: &common::Repo, cases: &[&str]) -> Vec<String> {
    let git_completion =
        ["/usr/share/bash-completion/completions/git", "/etc/bash_completion.d/git"]
            .into_iter()
            .find(|p| Path::new(p).is_file())
            .unwrap_or("/dev/null");
    let mut script = format!(
        "source {git_completion}\nsource {BASH_FILE}\n\
         run() {{ read -ra COMP_WORDS <<< \"$1\"; [ \"${{1: -1}}\" = ' ' ] && COMP_WORDS+=(''); \
         COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); COMP_LINE=\"$1\"; COMP_POINT=${{#COMP_LINE}}; \
         COMPREPLY=(); if [ \"${{COMP_WORDS[0]}}\" = git ]; then __git_wrap__git_main; else \
         _git__handoff git-handoff \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; fi; \
         echo \"${{COMPREPLY[*]}}\"; }}\n"
    );
    for case in cases {
        script.push_str(&format!("run '{case}'\n"));
    }
    let mut bash = std::process::Command::new("bash");
    common::hermetic(&mut bash, repo.home());
    let out = bash.current_dir(&repo.path).arg("-c").arg(script).output().unwrap();
    stdout_ok(out).lines().map(str::to_string).collect()
}

#[test]
fn bash_completes_options_values_and_refs_in_both_forms() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    repo.commit_all("init");
    repo.git(["branch", "feature-x"]);
    let has_git = Path::new("/usr/share/bash-completion/completions/git").is_file();
    let mut cases = vec![
        "git-handoff seal --",
        "git-handoff show ",
        "git-handoff validate --base ",
        "git-handoff --color ",
        "git-handoff note --reason token_",
        "git-handoff record --agent ",
        "git-handoff hooks ",
    ];
    if has_git {
        cases.extend([
            "git handoff seal --",
            "git handoff show fea",
            "git handoff validate --base=",
            "git handoff start --base ",
            "git handoff --color=",
            "git handoff note --reason=token_",
            "git handoff record --agent=",
            "git handoff recall --source ",
        ]);
    }
    let got = complete_in_bash(&repo, &cases);
    let expect = |i: usize, words: &[&str]| {
        for word in words {
            assert!(
                got[i].split_whitespace().any(|w| w == *word),
                "`{}<TAB>` offers {:?}, not {word}",
                cases[i],
                got[i]
            );
        }
    };
    expect(0, &["--message", "--allow-secrets"]);
    expect(1, &["main", "feature-x"]);
    expect(2, &["main", "feature-x", "HEAD"]);
    expect(3, &["auto", "always", "never"]);
    expect(4, &["token_soft_threshold", "token_hard_limit"]);
    expect(5, &["claude", "codex", "generic"]);
    expect(6, &["install", "uninstall", "status"]);
    if has_git {
        expect(7, &["--message=", "--allow-secrets"]);
        expect(8, &["feature-x"]);
        expect(9, &["main", "feature-x"]);
        expect(10, &["main", "feature-x"]);
        expect(11, &["auto", "always", "never"]);
        expect(12, &["token_soft_threshold", "token_hard_limit"]);
        expect(13, &["claude", "codex", "generic"]);
        expect(14, &["startup", "resume", "compact"]);
    } else {
        eprintln!("skipped the `git handoff` form: git's bash completion is not installed");
    }
}

#[test]
fn the_completions_command_prints_the_committed_scripts() {
    let env = Env::new();
    let repo = env.repo("r");
    for (shell, file) in [
        ("bash", "git-handoff.bash"),
        ("zsh", "_git-handoff"),
        ("fish", "git-handoff.fish"),
        ("elvish", "git-handoff.elv"),
        ("powershell", "_git-handoff.ps1"),
    ] {
        let printed = stdout_ok(repo.handoff().args(["completions", shell]).output().unwrap());
        let committed = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("completions").join(file),
        )
        .unwrap();
        assert_eq!(printed, committed, "{shell}");
    }
    let help = stdout_ok(repo.handoff().args(["completions", "--help"]).output().unwrap());
    assert!(
        help.contains("bash-completion/completions/git-handoff") && help.contains("$PROFILE"),
        "{help}"
    );
    let out = repo.handoff().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn fish_completes_git_handoff_through_git() {
    if std::process::Command::new("fish").arg("--version").output().is_err() {
        eprintln!("skipped: fish is not installed");
        return;
    }
    let env = Env::new();
    let repo = env.repo("r");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/completions/git-handoff.fish");
    let script = format!(
        "source {file}\ncomplete -C 'git handoff sn'\necho ==\ncomplete -C 'git handoff seal --'\n\
         echo ==\ncomplete -C 'git-handoff seal --'\n"
    );
    let mut fish = std::process::Command::new("fish");
    common::hermetic(&mut fish, repo.home());
    fish.env("PATH", common::path_with_binary()).current_dir(&repo.path);
    let text = stdout_ok(fish.arg("--no-config").arg("-c").arg(script).output().unwrap());
    let parts: Vec<&str> = text.split("==\n").collect();
    assert!(parts[0].lines().any(|l| l.starts_with("snapshot")), "{text}");
    assert!(parts[1].lines().any(|l| l.starts_with("--message")), "{text}");
    assert!(parts[2].lines().any(|l| l.starts_with("--message")), "{text}");
}
