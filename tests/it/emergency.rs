//! The emergency note held to seed 000: every list capped, the session named from the payloads,
//! the soft threshold as the runtime says it, honest headings, one wording for a check that did
//! not finish, a trail whose Markdown no command can break, and a true word about a draft.

use crate::common;

use common::payloads::{bash_ok, edit, hook, record};
use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

fn started(env: &Env, name: &str, issue: u64) -> Repo {
    let repo = env.repo(name);
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    let args = ["start", "--issue", &issue.to_string(), "--started-at", "2026-11-30T03:48:52Z"];
    stdout_ok(repo.handoff().args(args).output().unwrap());
    repo
}

fn emergency(repo: &Repo, extra: &[&str]) -> std::process::Output {
    repo.handoff()
        .args(["note", "--emergency", "--reason", "token_hard_limit"])
        .args(extra)
        .output()
        .unwrap()
}

fn note_text(repo: &Repo, issue: u64) -> String {
    String::from_utf8(repo.git(["show", &format!("HEAD:.agent/handoff/{issue}.md")])).unwrap()
}

/// The lines after the first line that starts with `head`, blank lines right after it skipped,
/// up to the next blank line.
fn list_after<'a>(text: &'a str, head: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(head));
    assert!(lines.next().is_some(), "{head:?} missing: {text}");
    lines.skip_while(|l| l.is_empty()).take_while(|l| !l.is_empty()).collect()
}

#[test]
fn a_hundred_and_twenty_sealed_files_stay_within_the_caps_and_the_session_is_named() {
    let env = Env::new();
    let repo = started(&env, "r", 180);
    for i in 0..120 {
        repo.write(format!("src/f{i:03}.rs"), "x\n");
        record(&repo, &edit(&repo, &format!("src/f{i:03}.rs")));
    }
    stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    let out = emergency(&repo, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = note_text(&repo, 180);
    let lines = text.lines().count();
    assert!(lines <= 250, "{lines} lines: {text}");

    let stat = list_after(&text, "Diff stat (`git diff --stat");
    let stat: Vec<&str> = stat.iter().copied().filter(|l| !l.starts_with("```")).collect();
    assert_eq!(stat.len(), 52, "50 files, +70 more, the summary: {stat:?}");
    assert_eq!(stat[50], "+70 more");
    assert!(stat[51].contains("120 files changed"), "{stat:?}");
    let sealed = list_after(&text, "Sealed in ");
    assert_eq!(sealed.len(), 51, "{sealed:?}");
    assert_eq!(sealed[50], "- +70 more");
    let edited = list_after(&text, "Files edited or created (event log):");
    assert_eq!(edited.len(), 51);
    assert_eq!(edited[50], "- +70 more");
    assert_eq!(text.matches("- src/f119.rs\n").count(), 0, "capped: {text}");
    assert_eq!(text.matches("Files edited").count(), 1, "listed once: {text}");

    // Every payload carried `session_id`: the log keeps it, the note and the digest name it.
    assert!(text.contains("- Session id: abc\n"), "{text}");
    let digest: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["digest", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(digest["session_id"], "abc");
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());
}

#[test]
fn the_soft_threshold_is_taken_as_the_runtime_says_it() {
    let env = Env::new();
    for (issue, crossed, expected) in [
        (
            1u64,
            json!("turn 41 at 750,112 tokens"),
            "- soft threshold: crossed (turn 41 at 750,112 tokens)\n",
        ),
        (2, json!(true), "- soft threshold: crossed\n"),
        (3, json!(false), "- soft threshold: not crossed\n"),
    ] {
        let repo = started(&env, &format!("r{issue}"), issue);
        repo.write(
            "facts.json",
            json!({"budget": {"soft_threshold_crossed": crossed}}).to_string(),
        );
        let out = emergency(&repo, &["--facts", "facts.json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = note_text(&repo, issue);
        assert!(text.contains(expected), "{expected}: {text}");
    }
    let repo = started(&env, "r4", 4);
    repo.write("facts.json", r#"{"budget": {"soft_threshold_crossed": 41}}"#);
    let out = emergency(&repo, &["--facts", "facts.json"]);
    // A wrongly typed fact is a warning and shown as given: the note is still written.
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: facts: `budget.soft_threshold_crossed` is a number"), "{err}");
    assert!(note_text(&repo, 4).contains("- soft threshold: 41\n"));
}

#[test]
fn headings_say_what_is_there_and_an_unfinished_check_did_not_finish() {
    let env = Env::new();
    let repo = started(&env, "r", 9);
    record(&repo, &bash_ok(&repo, "echo `date` && echo ``x``"));
    // The call that mattered: still running when the limit fired (PreToolUse, no result).
    let running = hook(
        &repo,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_use_id": "t-9", "tool_input": {"command": "cargo test"}}),
    );
    record(&repo, &running);
    let out = emergency(&repo, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = note_text(&repo, 9);
    assert!(!text.contains("Last 15 tool calls"), "{text}");
    let calls = list_after(&text, "2 tool calls recorded:");
    assert_eq!(
        calls,
        ["- Bash ``` echo `date` && echo ``x`` ``` — ok", "- Bash `cargo test` — did not finish"],
        "{text}"
    );
    assert!(text.contains("Last check command: `cargo test` — did not finish\n"), "{text}");
    assert!(!text.contains("— error"), "nothing failed: {text}");

    let repo = env.repo("one");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "10"]).output().unwrap());
    record(&repo, &edit(&repo, "a.txt"));
    stdout_ok(emergency(&repo, &[]));
    let text = note_text(&repo, 10);
    assert_eq!(list_after(&text, "1 tool call recorded:"), ["- Edit `a.txt` — ok"], "{text}");
}

#[test]
fn an_incomplete_draft_is_reported_as_kept_not_as_uncommitted() {
    let env = Env::new();
    let repo = started(&env, "r", 6);
    record(&repo, &edit(&repo, "a.txt"));
    let draft = "# Handoff note: issue #6\n\nissue: 6\n\n## Summary\n\n- half written\n";
    repo.write(".agent/handoff/6.md", draft);
    let out = emergency(&repo, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("was not committed"), "{err}");
    assert!(err.contains(".agent/handoff/6.md does not pass its check"), "{err}");
    assert!(err.contains("kept verbatim in the emergency note, which was committed"), "{err}");
    assert!(text.starts_with("Emergency handoff note saved in "), "{text}");
    assert!(note_text(&repo, 6).contains(draft));
}
