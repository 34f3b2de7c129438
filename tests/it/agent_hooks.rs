//! `hooks install --claude/--codex`: agent settings merged, everything else kept, idempotent.

use crate::common;

use common::{Env, stdout_ok};
use serde_json::{Value, json};

#[test]
fn claude_settings_keep_other_hooks_and_permissions_and_install_once() {
    let env = Env::new();
    let repo = env.repo("r");
    let existing = json!({
        "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(.env)"]},
        "hooks": {
            "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npx prettier --write"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
        },
        "env": {"FOO": "1"}
    });
    repo.write(".claude/settings.json", serde_json::to_string_pretty(&existing).unwrap());

    let diff = stdout_ok(
        repo.handoff().args(["hooks", "install", "--claude", "--dry-run"]).output().unwrap(),
    );
    assert!(diff.contains("+") && diff.contains("git-handoff record --agent claude"), "{diff}");
    assert_eq!(
        serde_json::from_slice::<Value>(&repo.read(".claude/settings.json")).unwrap(),
        existing,
        "dry run writes nothing"
    );

    stdout_ok(repo.git_handoff().args(["hooks", "install", "--claude"]).output().unwrap());
    let first = repo.read(".claude/settings.json");
    let settings: Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(settings["permissions"], existing["permissions"]);
    assert_eq!(settings["env"], existing["env"]);
    let post = settings["hooks"]["PostToolUse"].as_array().unwrap();
    assert_eq!(post[0], existing["hooks"]["PostToolUse"][0]);
    assert_eq!(post[1]["hooks"][0]["command"], "git-handoff record --agent claude || exit 1");
    assert_eq!(settings["hooks"]["Stop"][0], existing["hooks"]["Stop"][0]);
    for event in ["PostToolUseFailure", "Stop", "SessionStart", "SessionEnd", "UserPromptSubmit"] {
        assert!(settings["hooks"][event].is_array(), "{event}: {settings}");
    }
    assert_eq!(
        settings["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        "git-handoff recall --hook claude || exit 1"
    );
    assert_eq!(
        settings["hooks"]["SessionEnd"][0]["hooks"][0]["command"],
        "git-handoff note --digest-only || exit 1"
    );

    let skill = repo.read(".claude/skills/handoff/SKILL.md");
    let shipped =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/skills/handoff/SKILL.md")).unwrap();
    assert_eq!(skill, shipped, "the shipped skill is installed as it is");
    repo.write(".claude/skills/handoff/SKILL.md", "my own edits\n");

    let again = stdout_ok(repo.handoff().args(["hooks", "install", "--claude"]).output().unwrap());
    assert_eq!(
        repo.read(".claude/skills/handoff/SKILL.md"),
        b"my own edits\n",
        "a user's skill is kept"
    );
    assert!(again.contains("already installed"), "{again}");
    assert_eq!(repo.read(".claude/settings.json"), first, "a second install changes nothing");
    let dry = stdout_ok(
        repo.handoff().args(["hooks", "install", "--claude", "--dry-run"]).output().unwrap(),
    );
    assert!(!dry.contains("would"), "{dry}");
}

#[test]
fn codex_hooks_are_created_and_broken_settings_are_refused() {
    let env = Env::new();
    let repo = env.repo("r");
    let out = stdout_ok(repo.handoff().args(["hooks", "install", "--codex"]).output().unwrap());
    assert!(out.contains("approve them in its hook review"), "{out}");
    let settings: Value = serde_json::from_slice(&repo.read(".codex/hooks.json")).unwrap();
    assert_eq!(
        settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "git-handoff record --agent codex || exit 1"
    );
    // Codex 0.171 sends PreToolUse, compaction, subagents, approvals and SessionEnd too; it
    // holds SessionEnd to 3 seconds.
    let events: Vec<&String> = settings["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        events,
        [
            "PreToolUse",
            "PostToolUse",
            "UserPromptSubmit",
            "Stop",
            "PreCompact",
            "SubagentStart",
            "SubagentStop",
            "PermissionRequest",
            "SessionStart",
            "SessionEnd"
        ]
    );
    let approval = &settings["hooks"]["PermissionRequest"][0]["hooks"][0]["command"];
    assert_eq!(approval, "git-handoff record --agent codex || exit 0");
    assert_eq!(settings["hooks"]["PreToolUse"][0]["matcher"], "*");
    let end = &settings["hooks"]["SessionEnd"][0]["hooks"][0];
    assert_eq!(end["command"], "git-handoff note --digest-only || exit 1");
    assert_eq!(end["timeout"], 3);
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/skills/handoff/SKILL.md"));
    assert_eq!(repo.read(".agents/skills/handoff/SKILL.md"), shipped.unwrap());

    repo.write(".claude/settings.json", "{\n  \"hooks\": {,}\n}\n");
    let out = repo.handoff().args(["hooks", "install", "--claude"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(".claude/settings.json:2: not valid JSON")
    );
    assert_eq!(repo.read(".claude/settings.json"), b"{\n  \"hooks\": {,}\n}\n");
}

#[test]
fn pre_tool_use_is_recorded_so_a_call_still_running_at_the_limit_is_known() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "4"]).output().unwrap());
    stdout_ok(repo.handoff().args(["hooks", "install", "--claude"]).output().unwrap());
    let settings: Value = serde_json::from_slice(&repo.read(".claude/settings.json")).unwrap();
    let pre = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(pre["matcher"], "*");
    let command = pre["hooks"][0]["command"].as_str().unwrap();
    assert_eq!(command, "git-handoff record --agent claude || exit 0");

    // The installed command, fed the payload Claude Code sends before a long test run.
    let payload = common::payloads::hook(
        &repo,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_use_id": "toolu_01",
               "tool_input": {"command": "cargo test --workspace", "description": "tests"}}),
    );
    repo.write("payload.json", payload.to_string());
    let out = repo.shell(&format!("({command}) < payload.json"));
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    let digest: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["digest", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(digest["tool_calls"], 1);
    assert_eq!(digest["recent_calls"][0]["target"], "cargo test --workspace");
    assert_eq!(digest["recent_calls"][0]["ok"], Value::Null, "still running: {digest}");
}

/// Copilot CLI reads Claude Code's `.claude/settings.json` and runs our hooks with its own
/// payloads (snake_case, no call id, `tool_result` whose `result_type` is "success" for a command
/// that failed, the status only in the text, `path` for a written file): each call counts once
/// and a failing command is a failure, as Copilot CLI 1.0.102 was seen to send them.
#[test]
fn copilot_running_the_claude_hooks_is_counted_and_judged_truly() {
    use serde_json::json;
    let env = Env::new();
    let repo = crate::common::started(&env, "r", 5);
    let base = |event: &str| {
        json!({"hook_event_name": event, "session_id": "c0p1", "timestamp": "2026-12-07T00:30:39.119Z",
               "cwd": repo.path.to_str().unwrap()})
    };
    let with = |mut v: serde_json::Value, extra: serde_json::Value| {
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    let write =
        json!({"path": repo.path.join("hello.txt").to_str().unwrap(), "file_text": "hello\n"});
    let shell = json!({"command": "cargo test", "description": "the tests"});
    let failed = json!({"result_type": "success", "text_result_for_llm": "\n<shellId: 0 completed with exit code 101>"});
    let payloads = [
        with(base("PreToolUse"), json!({"tool_name": "Write", "tool_input": write})),
        with(
            base("PostToolUse"),
            json!({"tool_name": "Write", "tool_input": write,
            "tool_result": {"result_type": "success", "text_result_for_llm": "Created file"}}),
        ),
        with(base("PreToolUse"), json!({"tool_name": "Bash", "tool_input": shell})),
        with(
            base("PostToolUse"),
            json!({"tool_name": "Bash", "tool_input": shell, "tool_result": failed}),
        ),
    ];
    repo.write("hello.txt", "hello\n");
    for payload in &payloads {
        let mut cmd = repo.handoff();
        cmd.args(["record", "--agent", "claude"]);
        let out = crate::hostile_io::within(cmd, payload.to_string().as_bytes(), 30);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let digest: serde_json::Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["digest", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(
        (digest["tool_calls"].as_u64(), digest["errors"].as_u64()),
        (Some(2), Some(1)),
        "{digest}"
    );
    assert_eq!(digest["files_edited"], json!(["hello.txt"]), "{digest}");
    assert_eq!(digest["last_check"]["exit_code"], 101, "{digest}");
}

/// Claude Code's PreToolUse hook exits 0 whatever happens (GitHub Copilot CLI, which runs these
/// hooks too, denies a tool call whose PreToolUse hook exits non-zero at all); an install made
/// when it ended `|| exit 1` is rewritten in place, byte for byte otherwise, never doubled, the
/// other events' entries left as they are, and uninstall takes either out.
#[test]
fn the_pre_tool_use_hook_never_denies_and_an_older_install_is_rewritten() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["hooks", "install", "--claude"]).output().unwrap());
    let installed = String::from_utf8(repo.read(".claude/settings.json")).unwrap();
    let now = "git-handoff record --agent claude || exit 0";
    let before = "git-handoff record --agent claude || exit 1";
    assert_eq!(installed.matches(now).count(), 1, "{installed}");
    // Missing from PATH, the hook still lets the call go on.
    let out = std::process::Command::new("sh")
        .args(["-c", &format!("PATH=/nonexistent; {now}")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // As an earlier version installed it.
    let older = installed.replacen(now, before, 1);
    repo.write(".claude/settings.json", &older);
    let status = stdout_ok(repo.handoff().args(["hooks", "status"]).output().unwrap());
    assert!(status.contains("install again to update"), "{status}");
    stdout_ok(repo.handoff().args(["hooks", "install", "--claude"]).output().unwrap());
    assert_eq!(String::from_utf8(repo.read(".claude/settings.json")).unwrap(), installed);
    repo.write(".claude/settings.json", &older);
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--claude"]).output().unwrap());
    let left = std::fs::read_to_string(repo.path.join(".claude/settings.json")).unwrap_or_default();
    assert!(!left.contains("git-handoff record"), "{left}");
}
