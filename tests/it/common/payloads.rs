//! Agent hook payloads in the exact shapes Claude Code sends (see the research sheet), and a way to
//! feed them to `git handoff record`.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Output, Stdio};

use serde_json::{Value, json};

use super::Repo;

/// Pipes one payload into `git handoff record` and asserts it was taken.
pub fn record(repo: &Repo, payload: &Value) {
    let mut child = repo
        .handoff()
        .arg("record")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(payload.to_string().as_bytes()).unwrap();
    let out: Output = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}\n{payload}", String::from_utf8_lossy(&out.stderr));
}

/// A payload of `event` with the common fields and `extra` merged in.
pub fn hook(repo: &Repo, event: &str, extra: Value) -> Value {
    let mut value = json!({
        "session_id": "abc", "transcript_path": "/t.jsonl", "cwd": repo.path.to_str().unwrap(),
        "permission_mode": "default", "hook_event_name": event,
    });
    for (k, v) in extra.as_object().unwrap() {
        value[k] = v.clone();
    }
    value
}

pub fn bash_ok(repo: &Repo, command: &str) -> Value {
    hook(
        repo,
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_use_id": format!("ok-{command}"),
               "tool_input": {"command": command, "description": "run"},
               "tool_response": {"stdout": "ok", "stderr": "", "interrupted": false}}),
    )
}

pub fn bash_failed(repo: &Repo, command: &str, code: i64) -> Value {
    hook(
        repo,
        "PostToolUseFailure",
        json!({"tool_name": "Bash", "tool_use_id": format!("fail-{command}"),
               "tool_input": {"command": command},
               "error": format!("Exit code {code}\nsome output")}),
    )
}

pub fn edit(repo: &Repo, path: &str) -> Value {
    let abs = repo.path.join(path);
    hook(
        repo,
        "PostToolUse",
        json!({"tool_name": "Edit", "tool_use_id": format!("e-{path}"),
               "tool_input": {"file_path": abs.to_str().unwrap(), "old_string": "a", "new_string": "b"},
               "tool_response": {"filePath": abs.to_str().unwrap()}}),
    )
}

pub fn stop(repo: &Repo, text: &str) -> Value {
    hook(repo, "Stop", json!({"stop_hook_active": false, "last_assistant_message": text}))
}
