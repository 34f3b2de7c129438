//! Codex recorded truly, from the payloads and rollout files Codex 0.171 really wrote (captured
//! with `codex exec --json` against a scripted model on 127.0.0.1, kept in `fixtures/codex`): its
//! `PostToolUse` for a shell command carries the output but no exit code, so the status is read
//! from the tail of the rollout file the payload's `transcript_path` names, and a failed command is
//! a failure all the way to the note, the agent tool's reply, `validate` and the recall.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common;

use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/fixtures/codex")
}

/// The captured payload `name`, moved into `repo`: its `cwd` the repository, its
/// `transcript_path` a copy of the rollout file Codex had written when the hook ran.
fn payload(env: &Env, repo: &Repo, name: &str) -> Value {
    let dir = fixtures();
    let mut value: Value =
        serde_json::from_slice(&std::fs::read(dir.join(format!("{name}.json"))).unwrap()).unwrap();
    value["cwd"] = json!(repo.path.to_str().unwrap());
    let rollout = dir.join(format!("{name}.rollout.jsonl"));
    let copy = env.home().join(format!("{name}.rollout.jsonl"));
    if rollout.is_file() {
        std::fs::copy(&rollout, &copy).unwrap();
    }
    value["transcript_path"] = json!(copy.to_str().unwrap());
    value
}

/// The payload piped into the command `hooks install --codex` installs for it.
fn record_as_installed(repo: &Repo, payload: &Value) {
    let mut child = repo
        .handoff()
        .args(["record", "--agent", "codex"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(payload.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
}

fn log_lines(repo: &Repo) -> Vec<Value> {
    let text = std::fs::read_to_string(repo.path.join(".git/handoff/events.jsonl")).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn started(env: &Env) -> Repo {
    let repo = env.repo("r");
    repo.write("a.txt", "hi\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "44"]).output().unwrap());
    repo
}

const SESSION: [&str; 10] = [
    "01-SessionStart",
    "02-UserPromptSubmit",
    "03-PreToolUse",
    "04-PostToolUse",
    "05-PreToolUse",
    "06-PostToolUse",
    "07-PreToolUse",
    "08-PostToolUse",
    "09-Stop",
    "10-SessionEnd",
];

/// The whole captured session: `echo hello; exit 3`, `echo fine`, then `seq 1 200000; exit 101`,
/// whose finished line in the rollout is longer than the first tail read.
#[test]
fn a_real_codex_session_is_recorded_with_each_commands_exit_code() {
    let env = Env::new();
    let repo = started(&env);
    for name in SESSION {
        let payload = payload(&env, &repo, name);
        if name.ends_with("PostToolUse") {
            assert!(payload["tool_response"].is_string(), "no status in the payload: {payload}");
        }
        record_as_installed(&repo, &payload);
    }
    let lines = log_lines(&repo);
    let results: Vec<(Value, Value, Value)> = lines
        .iter()
        .filter(|l| l["event"] == "PostToolUse")
        .map(|l| (l["id"].clone(), l["ok"].clone(), l["exit_code"].clone()))
        .collect();
    assert_eq!(
        results,
        [
            (json!("call_0"), json!(false), json!(3)),
            (json!("call_1"), json!(true), json!(0)),
            (json!("call_2"), json!(false), json!(101)),
        ]
    );
    let starts = lines.iter().filter(|l| l["event"] == "PreToolUse").count();
    assert_eq!(starts, 3);
    assert!(lines.iter().all(|l| l["agent"] == "codex" && l["session"].is_string()), "{lines:?}");
    assert!(lines.iter().any(|l| l["event"] == "SessionEnd" && l["text"] == "other"));

    // Without its transcript a response's status is unknown, as before: the call is not failed.
    let mut lost = payload(&env, &repo, "04-PostToolUse");
    lost["transcript_path"] = json!(env.home().join("gone.jsonl").to_str().unwrap());
    lost["tool_use_id"] = json!("call_9");
    record_as_installed(&repo, &lost);
    let last = log_lines(&repo).pop().unwrap();
    assert_eq!((last["ok"].clone(), last["exit_code"].clone()), (json!(true), Value::Null));
}

fn call(id: u64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
}

/// A failing `cargo test` under Codex, in the shape Codex sends it (the captured failing call, its
/// command named `cargo test`), then the agent's handoff over MCP claiming the tests pass.
#[test]
fn a_failed_codex_test_run_tags_the_note_the_reply_validate_and_the_recall() {
    let env = Env::new();
    let repo = started(&env);
    repo.write("a.txt", "changed\n");
    for name in ["03-PreToolUse", "04-PostToolUse"] {
        let mut payload = payload(&env, &repo, name);
        payload["tool_input"]["command"] = json!("cargo test");
        record_as_installed(&repo, &payload);
    }
    let mut cmd = repo.handoff();
    cmd.arg("mcp");
    let request = call(
        1,
        "handoff_note",
        json!({"goal": "Fix the parser", "done": ["All tests pass"], "next": ["Ship it"]}),
    );
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(format!("{request}\n").as_bytes()).unwrap();
    let answer: Value =
        serde_json::from_str(stdout_ok(child.wait_with_output().unwrap()).trim()).unwrap();
    let reply = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(reply.contains("last `cargo test` failed"), "{reply}");
    assert!(reply.contains("Tagged [unverified]: \"All tests pass\""), "{reply}");

    let note = repo.git_text(["show", "HEAD:.agent/handoff/44.md"]);
    assert!(note.contains("- All tests pass [unverified: last `cargo test` failed]\n"), "{note}");
    stdout_ok(repo.handoff().arg("validate").output().unwrap());
    let recall = stdout_ok(repo.handoff().args(["recall", "--source", "resume"]).output().unwrap());
    assert!(recall.contains("All tests pass [unverified: last `cargo test` failed]"), "{recall}");
}

fn status(repo: &Repo, codex_home: &Path) -> (String, Value) {
    let run = |json: bool| {
        let mut cmd = repo.handoff();
        cmd.env("CODEX_HOME", codex_home).args(["hooks", "status"]);
        if json {
            cmd.arg("--json");
        }
        stdout_ok(cmd.output().unwrap())
    };
    (run(false), serde_json::from_str(&run(true)).unwrap())
}

/// Codex runs a project's hooks only once it trusts the project and the user approved each hook;
/// until then it skips them without a word. `hooks status` reads Codex's own configuration, in the
/// form Codex 0.171 writes it (`codex exec --trust`, and its hook review through the app server's
/// `config/batchWrite`), and says so.
#[test]
fn hooks_status_tells_when_codex_has_not_approved_the_hooks() {
    let env = Env::new();
    let repo = started(&env);
    let out = stdout_ok(repo.handoff().args(["hooks", "install", "--codex"]).output().unwrap());
    assert!(out.contains("Trust all and continue"), "{out}");
    let codex_home = env.home().join("codex-home");
    std::fs::create_dir_all(&codex_home).unwrap();

    let (text, json) = status(&repo, &codex_home);
    let review = &json["codex"]["review"];
    assert_eq!(review["project_trusted"], false, "{json}");
    assert_eq!(review["unapproved"].as_array().unwrap().len(), 10, "{json}");
    assert!(text.contains("NOT RUNNING: Codex does not trust this project yet"), "{text}");
    assert!(text.contains("Codex has not approved 10 of 10 in its hook review"), "{text}");
    assert!(text.contains("Trust all and continue"), "{text}");
    assert_eq!(json["codex_skill"]["state"], "unchanged", "{json}");

    // The project trusted, two hooks approved, one turned off.
    let top = repo.path.to_str().unwrap();
    let key = |event: &str| format!("{top}/.codex/hooks.json:{event}:0:0");
    let mut config = format!(
        "model = \"gpt-5\"\n\n[projects.\"{top}\"]\ntrust_level = \"trusted\"\n\n[hooks.state]\n\n"
    );
    for event in ["pre_tool_use", "post_tool_use"] {
        config.push_str(&format!(
            "[hooks.state.\"{}\"]\ntrusted_hash = \"sha256:8771ff29c9e6729b3ea6370367ef1f5f5bd2045918a538cfaedaf3884841ea98\"\n\n",
            key(event)
        ));
    }
    config.push_str(&format!("[hooks.state.\"{}\"]\nenabled = false\n", key("stop")));
    std::fs::write(codex_home.join("config.toml"), &config).unwrap();
    let (text, json) = status(&repo, &codex_home);
    let review = &json["codex"]["review"];
    assert_eq!(review["project_trusted"], true, "{json}");
    assert_eq!(review["approved"], json!(["PreToolUse", "PostToolUse"]));
    let unapproved = [
        "UserPromptSubmit",
        "PreCompact",
        "SubagentStart",
        "SubagentStop",
        "PermissionRequest",
        "SessionStart",
        "SessionEnd",
    ];
    assert_eq!(review["unapproved"], json!(unapproved));
    assert_eq!(review["disabled"], json!(["Stop"]));
    assert!(!text.contains("does not trust"), "{text}");
    assert!(text.contains("has not approved 7 of 10"), "{text}");
    assert!(text.contains("turned off in Codex: Stop"), "{text}");

    // Every hook approved: no warning.
    let rest = [
        "stop",
        "user_prompt_submit",
        "pre_compact",
        "subagent_start",
        "subagent_stop",
        "permission_request",
        "session_start",
        "session_end",
    ];
    for event in rest {
        config =
            config.replace(&format!("[hooks.state.\"{}\"]\nenabled = false\n", key(event)), "");
        config.push_str(&format!(
            "\n[hooks.state.\"{}\"]\ntrusted_hash = \"sha256:00\"\n",
            key(event)
        ));
    }
    std::fs::write(codex_home.join("config.toml"), &config).unwrap();
    let (text, json) = status(&repo, &codex_home);
    assert_eq!(json["codex"]["review"]["unapproved"], json!([]), "{json}");
    assert!(!text.contains("NOT RUNNING"), "{text}");

    // Uninstall takes out the hooks and the skill where Codex reads it.
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--codex"]).output().unwrap());
    assert!(!repo.path.join(".codex").exists());
    assert!(!repo.path.join(".agents").exists());
}

fn session_start(repo: &Repo, hook: &str) -> String {
    let mut child = repo
        .handoff()
        .args(["recall", "--hook", hook])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let payload = json!({"session_id": "s", "transcript_path": "/t.jsonl",
                         "cwd": repo.path.to_str().unwrap(), "hook_event_name": "SessionStart",
                         "model": "gpt-test", "source": "startup"});
    child.stdin.take().unwrap().write_all(payload.to_string().as_bytes()).unwrap();
    stdout_ok(child.wait_with_output().unwrap())
}

/// Right after `start` and `hooks install`, nothing is unsealed: the attempt has no tool call
/// yet, and the files the install wrote are set-up. Once an agent worked, only its work counts.
/// A fresh start's line names the `handoff_recall` tool where the MCP server is registered.
#[test]
fn session_start_tells_the_truth() {
    let env = Env::new();
    let repo = started(&env);
    let installed = ["hooks", "install", "--claude", "--codex"];
    stdout_ok(repo.handoff().args(installed).output().unwrap());
    for hook in ["claude", "codex"] {
        assert_eq!(session_start(&repo, hook), "", "a fresh attempt has nothing to seal");
    }

    // The agent edits a file (and Codex's prompt is recorded): one path is work, the rest set-up.
    record_as_installed(&repo, &payload(&env, &repo, "02-UserPromptSubmit"));
    assert_eq!(session_start(&repo, "codex"), "", "a prompt is no work");
    repo.write("a.txt", "changed\n");
    let mut edit = payload(&env, &repo, "03-PreToolUse");
    edit["tool_name"] = json!("apply_patch");
    edit["hook_event_name"] = json!("PostToolUse");
    edit["tool_input"] = json!({"command": "*** Begin Patch\n*** Update File: a.txt\n@@\n-hi\n+changed\n*** End Patch\n"});
    edit["tool_response"] = json!("Success. Updated the following files:\nM a.txt\n");
    record_as_installed(&repo, &edit);
    let answer: Value = serde_json::from_str(&session_start(&repo, "codex")).unwrap();
    let context = answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(context.contains("left 1 uncommitted path and no handoff note"), "{context}");

    // Handed off: the fresh start's line names the agent tool where the server is registered.
    let mut cmd = repo.handoff();
    cmd.arg("mcp");
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let request = call(1, "handoff_note", json!({"done": ["Changed a.txt"], "next": ["Test"]}));
    child.stdin.take().unwrap().write_all(format!("{request}\n").as_bytes()).unwrap();
    stdout_ok(child.wait_with_output().unwrap());
    for hook in ["claude", "codex"] {
        let answer: Value = serde_json::from_str(&session_start(&repo, hook)).unwrap();
        let context = answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
        assert!(context.contains("call the `handoff_recall` tool"), "{hook}: {context}");
        assert!(!context.contains("Unsealed"), "{context}");
    }
    let plain = stdout_ok(repo.handoff().args(["recall", "--source", "startup"]).output().unwrap());
    assert!(plain.contains("`git handoff recall --source resume`"), "{plain}");
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--codex"]).output().unwrap());
    let answer: Value = serde_json::from_str(&session_start(&repo, "codex")).unwrap();
    let context = answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(!context.contains("handoff_recall"), "no server registered for Codex: {context}");
}
