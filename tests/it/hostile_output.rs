//! Untrusted text reaches neither a terminal nor an agent raw or unbounded: a branch name with a
//! C1 control or a bidirectional override is shown escaped by `snapshot` and spelled with JSON
//! escapes by `snapshot --json`, and a committed note with a 1 MB tag leaves `recall` and `recall
//! --hook` within their ten lines and their character cap.

use crate::common;

use common::{Env, started, stdout_ok};

/// What a terminal or a model must never get raw.
fn raw_control(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

#[test]
fn a_hostile_branch_name_is_shown_escaped_in_text_and_json() {
    let env = Env::new();
    let repo = started(&env, "r", 4);
    let branch = "fix\u{9b}31m-\u{202e}txt.exe";
    repo.git(["checkout", "-q", "-b", branch]);
    repo.write("a.txt", "a\n");
    let text = stdout_ok(repo.handoff().args(["snapshot"]).output().unwrap());
    assert_eq!(raw_control(&text), None, "{text}");
    assert!(text.contains("branch: fix\\u{9b}31m-\\u{202e}txt.exe"), "{text}");
    let prompt = stdout_ok(repo.handoff().args(["snapshot", "--prompt"]).output().unwrap());
    assert_eq!(raw_control(&prompt), None, "{prompt}");
    for args in [&["snapshot", "--json"][..], &["snapshot", "--json", "--prompt"]] {
        let json = stdout_ok(repo.handoff().args(args).output().unwrap());
        assert_eq!(raw_control(&json), None, "{json}");
        // The same value, spelled safely.
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let snap = value.get("snapshot").unwrap_or(&value);
        assert_eq!(snap["branch"], branch, "{json}");
    }
}

#[test]
fn a_note_with_a_megabyte_tag_keeps_recall_within_its_caps() {
    let env = Env::new();
    let repo = started(&env, "r", 5);
    let huge = "why ".repeat(1 << 18);
    let items: String =
        (0..30).map(|i| format!("- claim {i} done [unverified: {i} {huge}]\n")).take(3).collect();
    let note = format!(
        "# Handoff note: issue #5\n\nissue: 5\nstarted_at: {}\nreason: agent_request\n\
         last_work_commit: {}\n\n## Summary\n\n{items}\n## Remaining work\n\n- the rest\n\n\
         ## Evidence\n\n- none\n",
        common::STARTED,
        repo.head()
    );
    repo.write(".agent/handoff/5.md", &note);
    repo.git(["add", ".agent/handoff/5.md"]);
    repo.git(["commit", "-q", "-m", "Handoff note: issue #5"]);
    let text = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    let lines = text.lines().count();
    assert!(lines <= 10, "{lines} lines");
    assert!(text.chars().count() <= 1200, "{} characters", text.chars().count());
    let payload = serde_json::json!({"session_id": "s", "source": "startup",
        "hook_event_name": "SessionStart", "cwd": repo.path.to_str().unwrap()});
    let mut hook = repo.handoff();
    hook.args(["recall", "--hook", "claude"]);
    let out = crate::hostile_io::within(hook, payload.to_string().as_bytes(), 30);
    let answer = stdout_ok(out);
    let value: serde_json::Value = serde_json::from_str(&answer).unwrap();
    let context = value["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(context.lines().count() <= 10 && context.chars().count() <= 1200, "{context}");
    assert!(answer.len() < 4096, "{} bytes into the agent's context", answer.len());
}
