//! The documentation is true: the README's commands run as written, `git handoff --help` opens
//! the man page once installed, and `git handoff <TAB>` completes inside git's own completion.

use crate::common;

use std::path::Path;

use common::payloads::{edit, record};
use common::{Env, stdout_ok};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// Every line of the README's ```sh blocks, without comments.
fn readme_commands() -> Vec<String> {
    let text = readme();
    let mut commands = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line == "```sh" {
            inside = true;
        } else if line == "```" {
            inside = false;
        } else if inside {
            let command = line.split("  #").next().unwrap().trim();
            if !command.is_empty() {
                commands.push(command.to_string());
            }
        }
    }
    commands
}

#[test]
fn the_readme_test_command_is_what_ci_runs() {
    let commands = readme_commands();
    assert!(commands.contains(&"cargo test --locked".to_string()), "{commands:?}");
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    assert!(ci.lines().any(|l| l.trim() == "cargo test --locked"), "{ci}");
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("cargo install --locked --path . && git handoff install-man"))
    );
}

#[test]
fn every_git_handoff_command_in_the_readme_runs_as_written() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("src/app.rs", "fn main() {}\n");
    repo.commit_all("init");
    repo.write(
        "facts.json",
        r#"{"session_id": "s1", "budget": {"budget_tokens": 1000, "turns": 3}}"#,
    );
    repo.git(["add", "facts.json"]);
    repo.git(["commit", "-q", "-m", "facts for the runtime"]);
    let mut ran = 0;
    for command in readme_commands() {
        let Some(rest) = command.strip_prefix("git handoff ") else { continue };
        if rest.starts_with("demo") || command.contains("&&") {
            continue; // the demo has its own test; `cargo install && ...` is the set-up line
        }
        if rest.starts_with("snapshot") {
            // The agent works between start and the soft threshold.
            repo.write("src/app.rs", "fn main() { work() }\n");
            record(&repo, &edit(&repo, "src/app.rs"));
        }
        let out = repo.shell(&command);
        assert!(
            out.status.success(),
            "README command `{command}` failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 10, "only {ran} README commands found");
}

#[test]
fn git_handoff_help_opens_the_installed_man_page() {
    if std::process::Command::new("man").arg("--version").output().is_err() {
        eprintln!("skipped: no `man` on this machine");
        return;
    }
    let env = Env::new();
    let repo = env.repo("r");
    let prefix = env.root.path().join("prefix");
    let man1 = prefix.join("share/man/man1");
    stdout_ok(repo.handoff().args(["install-man", man1.to_str().unwrap()]).output().unwrap());
    assert!(man1.join("git-handoff.1").is_file() && man1.join("git-handoff-snapshot.1").is_file());
    let out = repo
        .git_handoff()
        .arg("--help")
        .env("MANPATH", prefix.join("share/man"))
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "80")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("git-handoff") && text.contains("snapshot"), "{text}");
}

#[test]
fn bash_completes_git_handoff_subcommands_inside_gits_completion() {
    let git_completion =
        ["/usr/share/bash-completion/completions/git", "/etc/bash_completion.d/git"]
            .into_iter()
            .find(|p| Path::new(p).is_file());
    let Some(git_completion) = git_completion else {
        eprintln!("skipped: git's bash completion is not installed on this machine");
        return;
    };
    let ours = concat!(env!("CARGO_MANIFEST_DIR"), "/completions/git-handoff.bash");
    let script = format!(
        "source {git_completion}\nsource {ours}\n\
         complete_words() {{ COMP_WORDS=(\"$@\"); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
         COMP_LINE=\"$*\"; COMP_POINT=${{#COMP_LINE}}; COMPREPLY=(); __git_wrap__git_main; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"; }}\n\
         echo '--top'; complete_words git handoff s\n\
         echo '--progress'; complete_words git handoff progress ''\n\
         echo '--flags'; complete_words git handoff snapshot --max\n"
    );
    let env = Env::new();
    let repo = env.repo("r");
    let mut bash = std::process::Command::new("bash");
    common::hermetic(&mut bash, repo.home());
    let out = bash.current_dir(&repo.path).arg("-c").arg(script).output().unwrap();
    let text = stdout_ok(out);
    let top = text.split("--progress").next().unwrap();
    for word in ["snapshot ", "seal ", "show "] {
        assert!(top.contains(word), "{word:?} missing: {text}");
    }
    assert!(!top.contains("demo") && top.contains("start "), "the words starting with s: {text}");
    let progress = text.split("--progress").nth(1).unwrap().split("--flags").next().unwrap();
    for word in ["plan", "set", "show"] {
        assert!(progress.contains(word), "{word:?} missing: {text}");
    }
    assert!(text.split("--flags").nth(1).unwrap().contains("--max-lines="), "{text}");
}

/// The README's architecture map names every file and folder one level inside each layer of
/// `src/`, in that layer's entry, and names no layer that is gone.
#[test]
fn the_architecture_map_matches_the_tree() {
    let text = readme();
    let start = text.find("## Architecture").expect("an Architecture section");
    let block = &text[start..];
    let block = &block[block.find("```\n").unwrap() + 4..];
    let block = &block[..block.find("```").unwrap()];
    // Each layer's entry: from its `src/<layer>/` line to the next entry.
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        if let Some(name) = line.strip_prefix("src/").and_then(|l| l.split('/').next())
            && line.split_whitespace().next().is_some_and(|w| w.ends_with('/'))
        {
            entries.push((name.to_string(), line.to_string()));
        } else if let Some(last) = entries.last_mut()
            && line.starts_with(' ')
        {
            last.1.push('\n');
            last.1.push_str(line);
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    let mut layers: Vec<String> = Vec::new();
    for dir in std::fs::read_dir(&src).unwrap().map(|e| e.unwrap().path()) {
        if !dir.is_dir() {
            continue;
        }
        let layer = dir.file_name().unwrap().to_str().unwrap().to_string();
        layers.push(layer.clone());
        let Some((_, entry)) = entries.iter().find(|(name, _)| *name == layer) else {
            missing.push(format!("src/{layer}/ has no entry"));
            continue;
        };
        let words: Vec<&str> = entry
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        for child in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
            let name = child.file_stem().unwrap().to_str().unwrap();
            if name != "mod" && !words.contains(&name) {
                missing.push(format!("src/{layer}/{name}"));
            }
        }
    }
    for (name, _) in &entries {
        if !layers.contains(name) {
            missing.push(format!("src/{name}/ is in the map but not in the tree"));
        }
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "the README's architecture map misses: {}", missing.join(", "));
}
