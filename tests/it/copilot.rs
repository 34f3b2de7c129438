//! GitHub Copilot CLI (1.0): `hooks install --copilot` and its payloads, in the shapes its hooks
//! send them (observed in ../shared/research/copilot.md): camelCase keys, no call id, no event
//! name, a failing shell command as `resultType: "success"` with its status only in the text. And
//! Copilot running Claude Code's hooks beside its own: each call counts once.

use crate::common;

use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

const SESSION: &str = "5f0c7d2e-copilot";

fn copilot(repo: &Repo, extra: Value) -> Value {
    let mut value = json!({"sessionId": SESSION, "timestamp": 1796603281404u64,
                           "cwd": repo.path.to_str().unwrap()});
    for (k, v) in extra.as_object().unwrap() {
        value[k] = v.clone();
    }
    value
}

/// Runs `command` (as installed) with `payload` on stdin; returns the whole output.
fn hook(repo: &Repo, command: &str, payload: &Value) -> std::process::Output {
    let file = repo.home().join("payload.json");
    std::fs::write(&file, payload.to_string()).unwrap();
    repo.shell(&format!("({command}) < '{}'", file.display()))
}

/// A repository with attempt 7 started and the Copilot CLI hooks installed, and its hooks file.
fn installed_repo(env: &Env, flags: &[&str]) -> (Repo, Value) {
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "7"]).output().unwrap());
    stdout_ok(repo.handoff().args(["hooks", "install"]).args(flags).output().unwrap());
    let hooks: Value =
        serde_json::from_slice(&repo.read(".github/hooks/git-handoff.json")).unwrap();
    (repo, hooks)
}

fn installed(hooks: &Value, event: &str) -> String {
    hooks["hooks"][event][0]["bash"].as_str().unwrap().to_string()
}

fn digest(repo: &Repo) -> Value {
    let out = repo.handoff().args(["digest", "--json"]).output().unwrap();
    serde_json::from_str(&stdout_ok(out)).unwrap()
}

/// The calls of the research's session, each as its preToolUse and its end, through the installed
/// commands: a file created, one that could not be (no parent directory), `false` run (exit 1 in
/// the text only), `cargo test` failing, the note written, and the handoff's MCP tool.
#[test]
fn copilot_calls_count_once_and_are_judged_from_their_text() {
    let env = Env::new();
    let (repo, hooks) = installed_repo(&env, &["--copilot"]);
    assert_eq!(hooks["version"], 1);
    let events: Vec<&String> = hooks["hooks"].as_object().unwrap().keys().collect();
    for event in
        ["sessionStart", "preToolUse", "postToolUse", "postToolUseFailure", "errorOccurred"]
    {
        assert!(events.iter().any(|e| *e == event), "{event} not installed: {events:?}");
    }
    let mcp: Value = serde_json::from_slice(&repo.read(".mcp.json")).unwrap();
    assert_eq!(
        mcp["mcpServers"]["git-handoff"],
        json!({"command": "git-handoff", "args": ["mcp"]})
    );
    assert!(repo.path.join(".agents/skills/handoff/SKILL.md").is_file());

    let at = |path: &str| repo.path.join(path).to_str().unwrap().to_string();
    let shell = |status: i64| {
        json!({"resultType": "success",
               "textResultForLlm": format!("output\n<shellId: 0 completed with exit code {status}>")})
    };
    let ok = json!({"resultType": "success", "textResultForLlm": "Created file"});
    let calls: Vec<(&str, Value, Option<Value>, Option<&str>)> = vec![
        (
            "create",
            json!({"path": at("hello.txt"), "file_text": "hello\n"}),
            Some(ok.clone()),
            None,
        ),
        (
            "create",
            json!({"path": at("notes/hello.txt"), "file_text": "x"}),
            None,
            Some("Parent directory does not exist"),
        ),
        ("bash", json!({"command": "false", "description": "fails"}), Some(shell(1)), None),
        ("bash", json!({"command": "cargo test"}), Some(shell(101)), None),
        ("create", json!({"path": at(".agent/handoff/7.md"), "file_text": "x"}), Some(ok), None),
        (
            "git-handoff-handoff_note",
            json!({"goal": "g"}),
            Some(json!({"resultType": "success"})),
            None,
        ),
    ];
    for (tool, args, result, error) in &calls {
        let start = copilot(&repo, json!({"toolName": tool, "toolArgs": args}));
        let out = hook(&repo, &installed(&hooks, "preToolUse"), &start);
        assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
        let (event, end) = match (result, error) {
            (Some(result), _) => ("postToolUse", json!({"toolResult": result})),
            (None, Some(error)) => ("postToolUseFailure", json!({"error": error})),
            _ => unreachable!(),
        };
        let mut payload = copilot(&repo, json!({"toolName": tool, "toolArgs": args}));
        payload.as_object_mut().unwrap().extend(end.as_object().unwrap().clone());
        stdout_ok(hook(&repo, &installed(&hooks, event), &payload));
    }
    let digest = digest(&repo);
    assert_eq!(digest["tool_calls"], 4, "{digest}");
    assert_eq!(digest["errors"], 3, "{digest}");
    assert_eq!(digest["files_edited"], json!(["hello.txt"]), "{digest}");
    assert_eq!(digest["handoff_skill"], true, "{digest}");
    assert_eq!(digest["last_check"]["ok"], false, "{digest}");
    assert_eq!(digest["last_check"]["exit_code"], 101, "{digest}");
    assert_eq!(digest["session_id"], SESSION, "{digest}");

    // A model call that failed: the abrupt end, heard as such.
    let error = copilot(
        &repo,
        json!({"error": "429 Too Many Requests: rate limit exceeded", "errorContext": "model_call",
               "recoverable": false}),
    );
    stdout_ok(hook(&repo, &installed(&hooks, "errorOccurred"), &error));
    let digest = self::digest(&repo);
    assert_eq!(digest["ended_on_error"]["kind"], "rate_limit", "{digest}");
    assert_eq!(digest["tool_calls"], 4, "an error is no tool call: {digest}");
}

/// The hooks never deny a call: a payload git-handoff cannot read is logged, and the preToolUse
/// hook still exits 0 (Copilot CLI denies a call whose preToolUse hook exits non-zero at all).
#[test]
fn a_failing_copilot_hook_never_denies_the_call() {
    let env = Env::new();
    let (repo, hooks) = installed_repo(&env, &["--copilot"]);
    let out = hook(&repo, &installed(&hooks, "preToolUse"), &json!({"sessionId": 5}));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let status = stdout_ok(repo.handoff().args(["hooks", "status"]).output().unwrap());
    assert!(status.contains("hook failures"), "{status}");
    // Where git-handoff is not on PATH at all, the shell's own failure exits 0 as well.
    let missing = installed(&hooks, "preToolUse").replace("git-handoff ", "git-handoff-missing ");
    let out = hook(&repo, &missing, &copilot(&repo, json!({"toolName": "bash"})));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// Copilot CLI runs Claude Code's hooks (snake_case payloads, Claude Code's tool names) as well as
/// its own: with both installed, the Claude Code hooks leave its calls to its own, so each call
/// counts once; with Claude Code's alone, they record them.
#[test]
fn copilot_running_claude_hooks_counts_each_call_once() {
    let env = Env::new();
    let (repo, hooks) = installed_repo(&env, &["--copilot", "--claude"]);
    let claude = "git-handoff record --agent claude || exit 1";
    let snake = |event: &str, extra: Value| {
        let mut value = json!({"hook_event_name": event, "session_id": SESSION,
            "timestamp": "2026-12-07T00:30:39.119Z", "cwd": repo.path.to_str().unwrap()});
        value.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        value
    };
    let input = json!({"command": "false", "description": "fails"});
    let result = json!({"result_type": "success",
        "text_result_for_llm": "\n<shellId: 0 completed with exit code 1>"});
    let both = |repo: &Repo| {
        let pre = snake("PreToolUse", json!({"tool_name": "Bash", "tool_input": input}));
        stdout_ok(hook(repo, claude, &pre));
        let post = snake(
            "PostToolUse",
            json!({"tool_name": "Bash", "tool_input": input, "tool_result": result}),
        );
        stdout_ok(hook(repo, claude, &post));
        let args = json!({"toolName": "bash", "toolArgs": input});
        stdout_ok(hook(repo, &installed(&hooks, "preToolUse"), &copilot(repo, args.clone())));
        let mut post = copilot(repo, args);
        post["toolResult"] = json!({"resultType": "success",
            "textResultForLlm": "\n<shellId: 0 completed with exit code 1>"});
        stdout_ok(hook(repo, &installed(&hooks, "postToolUse"), &post));
    };
    both(&repo);
    let digest = digest(&repo);
    assert_eq!((digest["tool_calls"].as_u64(), digest["errors"].as_u64()), (Some(1), Some(1)));
    // SessionStart through Claude Code's hook answers nothing: Copilot's own answers.
    let start = snake("SessionStart", json!({"source": "new", "initial_prompt": "go"}));
    let out = hook(&repo, "git-handoff recall --hook claude || exit 1", &start);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");

    // Copilot's own hooks taken out: Claude Code's record its calls again, judged from the text.
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--copilot"]).output().unwrap());
    assert!(!repo.path.join(".github").exists());
    let mcp: Value = serde_json::from_slice(&repo.read(".mcp.json")).unwrap();
    assert!(mcp["mcpServers"]["git-handoff"].is_object(), "Claude Code's server stays: {mcp}");
    let pre = snake("PreToolUse", json!({"tool_name": "Bash", "tool_input": input}));
    stdout_ok(hook(&repo, claude, &pre));
    let post = snake(
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_input": input, "tool_result": result}),
    );
    stdout_ok(hook(&repo, claude, &post));
    let digest = self::digest(&repo);
    assert_eq!((digest["tool_calls"].as_u64(), digest["errors"].as_u64()), (Some(2), Some(2)));
}

/// `hooks status` says whether Copilot CLI trusts the folder (it loads no repository hook in an
/// untrusted one), and `--check` exits 1 until it does; uninstall gives the tree back as it was.
#[test]
fn hooks_status_tells_whether_copilot_trusts_the_folder() {
    let env = Env::new();
    let (repo, _) = installed_repo(&env, &["--copilot"]);
    let status = |extra: &[(&str, &str)]| {
        let mut cmd = repo.handoff();
        cmd.args(["hooks", "status", "--check"]);
        for (k, v) in extra {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    let out = status(&[]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("Copilot CLI will run none of them"), "{text}");
    assert!(text.contains("all 10 git-handoff hooks"), "{text}");
    assert_eq!(status(&[("COPILOT_ALLOW_ALL", "true")]).status.code(), Some(0));
    // Trusted for future sessions: the parent folder in `trusted_folders`.
    let parent = repo.path.parent().unwrap().to_str().unwrap();
    std::fs::create_dir_all(repo.home().join(".copilot")).unwrap();
    // As Copilot CLI writes it: comments above the JSON.
    let config = json!({"trusted_folders": [parent], "firstLaunchAt": "2026-12-07T00:00:00Z"});
    let text = format!(
        "// User settings belong in settings.json.\n// This file is managed automatically.\n{config:#}\n"
    );
    std::fs::write(repo.home().join(".copilot/config.json"), text).unwrap();
    let out = status(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let json: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["--json", "hooks", "status"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(json["copilot"]["trust"]["trusted"], true, "{json}");

    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--copilot"]).output().unwrap());
    for gone in [".github", ".mcp.json", ".agents"] {
        assert!(!repo.path.join(gone).exists(), "{gone} is left");
    }
}

/// A hooks file the user changed is theirs: install leaves it, uninstall keeps it.
#[test]
fn a_changed_copilot_hooks_file_is_kept() {
    let env = Env::new();
    let (repo, hooks) = installed_repo(&env, &["--copilot"]);
    let mut theirs = hooks.clone();
    theirs["hooks"]["preToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "command", "bash": "./audit.sh"}));
    let text = serde_json::to_string_pretty(&theirs).unwrap();
    repo.write(".github/hooks/git-handoff.json", &text);
    let out = stdout_ok(repo.handoff().args(["hooks", "install", "--copilot"]).output().unwrap());
    assert!(out.contains("kept"), "{out}");
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--copilot"]).output().unwrap());
    assert_eq!(repo.read(".github/hooks/git-handoff.json"), text.as_bytes());
}
