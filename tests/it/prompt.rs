//! `snapshot --prompt`: the block a runtime injects at the token soft threshold (seed 001), with
//! the snapshot, the pre-filled header and the five steps, walked as an agent would walk them.

use crate::common;

use common::{Env, Repo, stdout_ok};
use serde_json::Value;

fn started(env: &Env, issue: u64) -> Repo {
    let repo = env.repo("r");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    let args = ["start", "--issue", &issue.to_string(), "--started-at", "2026-11-30T03:48:52Z"];
    stdout_ok(repo.handoff().args(args).output().unwrap());
    repo.write("src/lib.rs", "fn a() { b() }\n");
    repo.write("new file.txt", "n\n");
    repo
}

fn prompt(repo: &Repo, extra: &[&str]) -> String {
    stdout_ok(repo.handoff().args(["snapshot", "--prompt"]).args(extra).output().unwrap())
}

/// The text from `from` on, which must be there.
fn after<'a>(text: &'a str, from: &str) -> &'a str {
    let at = text.find(from).unwrap_or_else(|| panic!("{from:?} missing: {text}"));
    &text[at..]
}

#[test]
fn the_prompt_carries_the_snapshot_the_header_and_the_five_steps() {
    let env = Env::new();
    let repo = started(&env, 179);
    let head = repo.head();
    let text = prompt(&repo, &[]);

    // The snapshot, as `snapshot` prints it.
    for part in
        ["## git status --short", " M src/lib.rs", "?? \"new file.txt\"", "## git diff --stat"]
    {
        assert!(text.contains(part), "{part:?} missing: {text}");
    }
    assert!(text.contains(&format!("head: {head}")), "{text}");
    // The header, pre-filled for the soft threshold, then the five steps in order.
    let header = format!(
        "# Handoff note: issue #179\n\nissue: 179\nstarted_at: 2026-11-30T03:48:52Z\n\
         reason: token_soft_threshold\nlast_work_commit: {head}\n"
    );
    let rest = after(&text, &header);
    let rest = after(rest, "1. Do not run diagnostic commands");
    assert!(rest.contains("the state above is current"), "{rest}");
    let rest = after(rest, "2. Do not commit your work yourself");
    assert!(rest.contains("Sealing will commit"), "{rest}");
    let rest = after(rest, "3. Write `.agent/handoff/179.md`");
    let step3 = &rest[..rest.find("\n4. ").unwrap()];
    assert!(step3.contains("header above verbatim"), "{step3}");
    for section in ["`## Summary`", "`## Remaining work`", "`## Evidence`"] {
        assert!(step3.contains(section), "{section} missing: {step3}");
    }
    let rest = after(rest, "4. In one Bash call");
    let step4 = &rest[..rest.find("\n5. ").unwrap()];
    assert!(step4.contains("`git handoff note`"), "{step4}");
    assert!(
        step4.contains(
            "`git add .agent/handoff/179.md && git commit -m \"Handoff note: issue #179\"`"
        ),
        "{step4}"
    );
    assert!(after(rest, "5. Stop.").ends_with("5. Stop.\n"), "{text}");

    // `--json` carries the same text, beside the snapshot's fields.
    let json: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["snapshot", "--prompt", "--json"]).output().unwrap(),
    ))
    .unwrap();
    let carried = json["prompt"].as_str().unwrap();
    assert_eq!(strip_taken_at(carried), strip_taken_at(&text));
    assert_eq!(json["header"].as_str().unwrap(), header);
    let plain: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["snapshot", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert!(plain.get("prompt").is_none(), "no prompt without --prompt: {plain}");
}

/// The `taken_at:` line differs between two runs a second apart.
fn strip_taken_at(text: &str) -> String {
    text.lines().filter(|l| !l.starts_with("taken_at: ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_follow_up_is_shorter_and_still_carries_the_state_and_the_steps() {
    let env = Env::new();
    let repo = started(&env, 42);
    let full = prompt(&repo, &[]);
    let followup = prompt(&repo, &["--followup"]);
    assert!(followup.len() < full.len(), "{followup}");
    assert!(followup.contains("?? \"new file.txt\""), "{followup}");
    assert!(followup.contains(&format!("last_work_commit: {}\n", repo.head())), "{followup}");
    for part in [".agent/handoff/42.md", "`git handoff note`", "Stop."] {
        assert!(followup.contains(part), "{part:?} missing: {followup}");
    }
    let out = repo.handoff().args(["snapshot", "--followup"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "--followup needs --prompt");
}

#[test]
fn without_git_handoff_on_the_path_the_plain_git_commit_is_the_step_and_the_layout_validates() {
    let env = Env::new();
    let repo = started(&env, 7);
    repo.write(".handoff.toml", "note_dir = \"docs/handoffs\"\n");
    let text = prompt(&repo, &["--plain-git"]);
    assert!(!text.contains("`git handoff note`"), "{text}");
    let step4 = after(&text, "4. In one Bash call");
    let command = step4.split('`').nth(1).unwrap();
    assert_eq!(
        command, "git add docs/handoffs/7.md && git commit -m \"Handoff note: issue #7\"",
        "{text}"
    );

    // Walk it: the header verbatim and three sections, the one command, then the runtime seals.
    let header = &text[text.find("# Handoff note: issue #7\n").unwrap()..];
    let header = &header[..header.find("last_work_commit: ").unwrap() + 59];
    let note = format!(
        "{header}\n## Summary\n\n- Called b()\n\n## Remaining work\n\n- Write b\n\n## Evidence\n\n\
         - no check run\n"
    );
    repo.write("docs/handoffs/7.md", note);
    stdout_ok(repo.shell(command));
    stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());
    let subjects = repo.git_text(["log", "--format=%s", "-3"]);
    assert!(subjects.starts_with("Seal leftover work: issue #7\nHandoff note: issue #7\n"));
}

#[test]
fn a_prompt_needs_an_issue() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    let out = repo.handoff().args(["snapshot", "--prompt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("git handoff start --issue"), "{err}");
    // With --issue the runtime stays stateless.
    let text = prompt(&repo, &["--issue", "3"]);
    assert!(text.contains("3. Write `.agent/handoff/3.md`"), "{text}");
}

#[test]
fn the_prompt_and_the_skill_give_the_same_five_steps() {
    let skill =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/skills/handoff/SKILL.md"))
            .unwrap();
    let env = Env::new();
    let repo = started(&env, 12);
    let text = prompt(&repo, &[]);
    for step in [
        "1. Do not run diagnostic commands",
        "2. Do not commit your work yourself",
        "3. Write `.agent/handoff/",
        "4. In one Bash call, commit the note: `git handoff note`",
        "5. Stop.",
    ] {
        assert!(skill.contains(step), "the skill lacks {step:?}");
        assert!(text.contains(step), "the prompt lacks {step:?}: {text}");
    }
    assert!(
        skill.contains("git handoff snapshot --prompt"),
        "the skill names where the state is from"
    );
}

/// A cloned repository's `.handoff.toml` is a stranger's: a path in it that a shell would read
/// as more than a name (a command substitution, a quote, a space, a leading `-`) is refused with
/// exit 2 at its file:line by every command that reads it, so it never reaches the command the
/// prompt tells the agent to run; the planted command never runs.
#[test]
fn a_config_path_that_would_run_a_command_is_refused_at_its_line() {
    let env = Env::new();
    let repo = started(&env, 7);
    let marker = env.home().join("planted");
    let planted = [
        format!("note_dir = \".agent/$(touch {})\"\n", marker.display()),
        format!("note_dir = \".agent/`touch {}`\"\n", marker.display()),
        format!("note_dir = \".agent/x;touch {}\"\n", marker.display()),
        "note_dir = \".agent/it's\"\n".to_string(),
        "note_dir = \"-n\"\n".to_string(),
        "note_dir = \".agent/a\\nb\"\n".to_string(),
        format!(
            "[recall]\nenabled = true\n\n[progress]\nwrite = \"$(touch {})\"\n",
            marker.display()
        ),
    ];
    for config in &planted {
        repo.write(".handoff.toml", config);
        let line = config.lines().count();
        for args in [&["snapshot", "--prompt"][..], &["snapshot", "--prompt", "--plain-git"]] {
            let out = repo.handoff().args(args).output().unwrap();
            let err = common::stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{config:?} {args:?}: {err}");
            assert!(err.contains(&format!(".handoff.toml:{line}: ")), "{config:?}: {err}");
            assert!(err.contains("may hold only letters"), "{config:?}: {err}");
            assert!(out.stdout.is_empty(), "{config:?}: nothing of the prompt is printed");
        }
    }
    assert!(!marker.exists(), "a planted command ran");
}

/// A path that needs quoting but holds nothing a shell runs (a non-ASCII name) is quoted in the
/// prompt's command, and that command, run by a real shell, commits the note as the layout wants.
#[test]
fn the_prompts_command_quotes_the_note_path_and_runs_as_written() {
    let env = Env::new();
    let repo = started(&env, 7);
    repo.write(".handoff.toml", "note_dir = \"docs/übergabe\"\n");
    repo.commit_all("config");
    let text = prompt(&repo, &["--plain-git"]);
    let step4 = after(&text, "4. In one Bash call");
    let command = step4.split('`').nth(1).unwrap();
    assert_eq!(
        command, "git add 'docs/übergabe/7.md' && git commit -m \"Handoff note: issue #7\"",
        "{text}"
    );
    let header = &text[text.find("# Handoff note: issue #7\n").unwrap()..];
    let header = &header[..header.find("last_work_commit: ").unwrap() + 59];
    repo.write(
        "docs/übergabe/7.md",
        format!(
            "{header}\n## Summary\n\n- a\n\n## Remaining work\n\n- b\n\n## Evidence\n\n- none\n"
        ),
    );
    stdout_ok(repo.shell(command));
    assert_eq!(repo.git_text(["log", "-1", "--format=%s"]).trim(), "Handoff note: issue #7");
    let files = repo.git_text(["-c", "core.quotePath=false", "show", "--name-only", "--format="]);
    assert_eq!(files.trim(), "docs/übergabe/7.md");
}
