//! The abrupt end itself is heard: Claude Code's StopFailure (a turn that ends on an API error)
//! is installed, recorded with its kind, and appears in the emergency note as the end reason's
//! fact (never as a tool failure) and in the next session's recall.

use serde_json::json;

use crate::common;

use common::payloads::{bash_ok, hook, record};
use common::{Env, started, stdout_ok};

#[test]
fn an_api_error_stop_is_recorded_and_told() {
    let env = Env::new();
    let repo = started(&env, "r", 6);
    stdout_ok(repo.handoff().args(["hooks", "install", "--claude"]).output().unwrap());
    let settings: serde_json::Value =
        serde_json::from_slice(&repo.read(".claude/settings.json")).unwrap();
    let command = &settings["hooks"]["StopFailure"][0]["hooks"][0]["command"];
    assert_eq!(command, "git-handoff record --agent claude || exit 1", "{settings}");

    record(&repo, &bash_ok(&repo, "cargo build"));
    let failure = hook(
        &repo,
        "StopFailure",
        json!({"error_type": "rate_limit", "error": "429",
               "error_message": "Rate limit exceeded: 100 requests per minute"}),
    );
    record(&repo, &failure);
    let digest: serde_json::Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["digest", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!((digest["tool_calls"].as_u64(), digest["errors"].as_u64()), (Some(1), Some(0)));
    assert_eq!(digest["ended_on_error"]["kind"], "rate_limit", "{digest}");

    repo.write("src/half.rs", "fn half() {}\n");
    stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    let out = ["note", "--emergency", "--reason", "agent_request"];
    stdout_ok(repo.handoff().args(out).output().unwrap());
    let note = repo.git_text(["show", "HEAD:.agent/handoff/6.md"]);
    assert!(
        note.contains("The last turn ended on an API error: rate_limit (429: Rate limit exceeded"),
        "{note}"
    );
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(recall.contains("Ended on an API error: rate_limit (429: Rate limit"), "{recall}");

    // A turn that then ended normally is no longer an abrupt end.
    let env = Env::new();
    let repo = started(&env, "r", 6);
    record(&repo, &failure);
    record(&repo, &hook(&repo, "Stop", json!({"last_assistant_message": "done"})));
    let digest = stdout_ok(repo.handoff().args(["digest", "--json"]).output().unwrap());
    assert!(!digest.contains("ended_on_error"), "{digest}");
}

/// A hook that fails never blocks the agent (the installed command exits 1, which every agent
/// takes as a warning) and is not swallowed: `hooks status` shows it, and so does the next
/// session's recall.
#[test]
fn a_failing_hook_lets_the_agent_go_on_and_is_shown() {
    let env = Env::new();
    let repo = started(&env, "r", 6);
    stdout_ok(repo.handoff().args(["hooks", "install", "--claude"]).output().unwrap());
    let settings: serde_json::Value =
        serde_json::from_slice(&repo.read(".claude/settings.json")).unwrap();
    let command = settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"].as_str().unwrap();
    let payload = repo.home().join("bad.json");
    std::fs::write(&payload, "{\"hook_event_name\": \"PostToolUse\", \"tool_name\": 5}").unwrap();
    let out = repo.shell(&format!("({command}) < '{}'", payload.display()));
    assert_eq!(out.status.code(), Some(1), "a warning, never 2 (which blocks)");
    let status = stdout_ok(repo.handoff().args(["hooks", "status"]).output().unwrap());
    let line = status.lines().find(|l| l.starts_with("hook failures")).unwrap_or_default();
    assert!(line.contains("1 failed") && line.contains("record"), "{status}");
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(recall.contains("Hook failures: 1 in this attempt"), "{recall}");
}
