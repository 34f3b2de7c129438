//! Gemini CLI (0.61): `hooks install --gemini` and its payloads, in the shapes its bundle builds
//! them (`createBaseInput`: session_id, transcript_path, cwd, hook_event_name, timestamp; AfterTool
//! adds tool_response `{llmContent, returnDisplay, error?}`, the shell tool writing `Exit Code: N`
//! into llmContent only when it is not 0).

use std::io::Write;
use std::process::Stdio;

use crate::common;

use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

fn gemini(repo: &Repo, event: &str, extra: Value) -> Value {
    let mut value = json!({"session_id": "8c1e-g", "transcript_path": "/home/u/.gemini/tmp/p/chats/session.json",
                           "cwd": repo.path.to_str().unwrap(), "hook_event_name": event,
                           "timestamp": "2026-12-05T12:00:00.000Z"});
    for (k, v) in extra.as_object().unwrap() {
        value[k] = v.clone();
    }
    value
}

/// Runs `command` (as installed) with `payload` on stdin; returns its stdout.
fn hook(repo: &Repo, command: &str, payload: &Value) -> String {
    let file = repo.home().join("payload.json");
    std::fs::write(&file, payload.to_string()).unwrap();
    stdout_ok(repo.shell(&format!("({command}) < '{}'", file.display())))
}

/// A repository with attempt 7 started and the Gemini CLI hooks installed, and its settings.
fn installed_repo(env: &Env) -> (Repo, Value) {
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "7"]).output().unwrap());
    stdout_ok(repo.handoff().args(["hooks", "install", "--gemini"]).output().unwrap());
    let settings: Value = serde_json::from_slice(&repo.read(".gemini/settings.json")).unwrap();
    (repo, settings)
}

fn installed(settings: &Value, event: &str) -> String {
    settings["hooks"][event][0]["hooks"][0]["command"].as_str().unwrap().to_string()
}

#[test]
fn gemini_hooks_record_each_call_and_answer_session_start_in_json() {
    let env = Env::new();
    let (repo, settings) = installed_repo(&env);
    let events: Vec<&String> = settings["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        events,
        [
            "BeforeTool",
            "AfterTool",
            "BeforeAgent",
            "AfterAgent",
            "PreCompress",
            "SessionStart",
            "SessionEnd"
        ]
    );
    assert_eq!(settings["hooks"]["AfterTool"][0]["matcher"], ".*", "a regular expression");
    assert_eq!(settings["hooks"]["AfterTool"][0]["hooks"][0]["timeout"], 5000, "milliseconds");
    assert!(repo.path.join(".agents/skills/handoff/SKILL.md").is_file());

    let record = installed(&settings, "AfterTool");
    let shell = json!({"command": "cargo test", "description": "Run the tests"});
    let output = |text: &str| json!({"llmContent": format!("<untrusted_context>\n{text}\n</untrusted_context>"), "returnDisplay": ""});
    let calls = [
        gemini(&repo, "BeforeTool", json!({"tool_name": "run_shell_command", "tool_input": shell})),
        gemini(
            &repo,
            "AfterTool",
            json!({"tool_name": "run_shell_command", "tool_input": shell,
            "tool_response": output("Output: test result: FAILED\nExit Code: 101\nProcess Group PGID: 4242")}),
        ),
        gemini(
            &repo,
            "AfterTool",
            json!({"tool_name": "write_file",
            "tool_input": {"file_path": repo.path.join("a.txt").to_str().unwrap(), "content": "b\n"},
            "tool_response": {"llmContent": "Successfully overwrote file", "returnDisplay": ""}}),
        ),
        gemini(
            &repo,
            "AfterTool",
            json!({"tool_name": "run_shell_command", "tool_input": shell,
            "tool_response": output("Output: test result: ok\nProcess Group PGID: 4243")}),
        ),
    ];
    for call in &calls {
        assert_eq!(hook(&repo, &record, call), "", "stdout stays empty (JSON or nothing)");
    }
    let log = String::from_utf8(repo.read(".git/handoff/events.jsonl")).unwrap();
    let lines: Vec<Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let seen: Vec<(Value, Value, Value)> = lines
        .iter()
        .map(|l| (l["kind"].clone(), l["ok"].clone(), l["exit_code"].clone()))
        .collect();
    assert_eq!(
        seen,
        [
            (json!("tool_start"), Value::Null, Value::Null),
            (json!("tool_result"), json!(false), json!(101)),
            (json!("tool_result"), json!(true), Value::Null),
            (json!("tool_result"), json!(true), json!(0)),
        ]
    );
    assert_eq!(lines[2]["paths"], json!(["a.txt"]));
    assert!(lines.iter().all(|l| l["agent"] == "gemini" && l["session"] == "8c1e-g"));

    // Detected without --agent too.
    let mut child = repo.handoff().arg("record").stdin(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(calls[0].to_string().as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
    let last: Value = serde_json::from_str(
        String::from_utf8(repo.read(".git/handoff/events.jsonl")).unwrap().lines().last().unwrap(),
    )
    .unwrap();
    assert_eq!(last["agent"], "gemini");

    // SessionStart: JSON only on stdout. The agent changed a.txt: that is work, the files the
    // install wrote are not.
    repo.write("a.txt", "b\n");
    let start = gemini(&repo, "SessionStart", json!({"source": "startup"}));
    let answer: Value =
        serde_json::from_str(&hook(&repo, &installed(&settings, "SessionStart"), &start)).unwrap();
    let context = answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(context.contains("left 1 uncommitted path "), "{context}");

    // The session works, then SessionEnd stores its digest-only record and prints nothing.
    assert_eq!(hook(&repo, &record, &calls[2]), "");
    let end = gemini(&repo, "SessionEnd", json!({"reason": "exit"}));
    assert_eq!(hook(&repo, &installed(&settings, "SessionEnd"), &end), "");
    let notes = repo.git_text(["notes", "--ref", "refs/notes/handoff", "list"]);
    assert!(!notes.is_empty(), "a digest-only record");

    let out = stdout_ok(repo.handoff().args(["hooks", "status"]).output().unwrap());
    assert!(out.contains("Gemini CLI    .gemini/settings.json all 7 git-handoff hooks"), "{out}");
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--gemini"]).output().unwrap());
    assert!(!repo.path.join(".gemini").exists());
    assert!(!repo.path.join(".agents").exists());
}

/// Gemini's BeforeTool and AfterTool carry no call id: each pair is one call, paired by session,
/// tool and arguments. The handoff's own MCP tool (`mcp_git-handoff_handoff_note`) and the note's
/// own write never count, from their start on, and using the tool is using the handoff skill.
#[test]
fn gemini_calls_count_once_and_the_handoffs_own_never() {
    let env = Env::new();
    let (repo, settings) = installed_repo(&env);
    assert_eq!(
        settings["mcpServers"]["git-handoff"],
        json!({"command": "git-handoff", "args": ["mcp"]})
    );
    let record = installed(&settings, "AfterTool");
    let shell = json!({"command": "cargo test"});
    let failed = json!({"llmContent": "Output: FAILED\nExit Code: 101", "returnDisplay": ""});
    let passed = json!({"llmContent": "Output: ok", "returnDisplay": ""});
    let write =
        |path: &str| json!({"file_path": repo.path.join(path).to_str().unwrap(), "content": "x\n"});
    let wrote = json!({"llmContent": "Successfully wrote file", "returnDisplay": ""});
    let pair = |tool: &str, input: Value, response: Value| {
        [
            gemini(&repo, "BeforeTool", json!({"tool_name": tool, "tool_input": input})),
            gemini(
                &repo,
                "AfterTool",
                json!({"tool_name": tool, "tool_input": input, "tool_response": response}),
            ),
        ]
    };
    let mut calls = Vec::new();
    calls.extend(pair("run_shell_command", shell.clone(), failed));
    calls.extend(pair("write_file", write("a.txt"), wrote.clone()));
    calls.extend(pair("run_shell_command", shell, passed));
    calls.extend(pair("write_file", write(".agent/handoff/7.md"), wrote));
    calls.extend(pair(
        "mcp_git-handoff_handoff_note",
        json!({"goal": "g"}),
        json!({"llmContent": "saved"}),
    ));
    for call in &calls {
        hook(&repo, &record, call);
    }
    let digest: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["digest", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(digest["tool_calls"], 3, "{digest}");
    assert_eq!(digest["errors"], 1, "{digest}");
    assert_eq!(digest["files_edited"], json!(["a.txt"]), "{digest}");
    assert_eq!(digest["handoff_skill"], true, "{digest}");
    assert_eq!(digest["last_check"]["ok"], true, "{digest}");
    // Uninstall takes the server out with the hooks.
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--gemini"]).output().unwrap());
    assert!(!repo.path.join(".gemini").exists());
}

/// Gemini CLI's BeforeAgent and AfterAgent are installed and read as the prompt and the turn's
/// end: the emergency note's last model intent comes from them, as for the other agents.
#[test]
fn gemini_prompts_and_answers_are_recorded() {
    let env = Env::new();
    let (repo, settings) = installed_repo(&env);
    let prompt = gemini(&repo, "BeforeAgent", json!({"prompt": "Fix the parser"}));
    hook(&repo, &installed(&settings, "BeforeAgent"), &prompt);
    let answer = gemini(
        &repo,
        "AfterAgent",
        json!({"prompt": "Fix the parser",
        "prompt_response": "I fixed the parser; the lexer remains.", "stop_hook_active": false}),
    );
    hook(&repo, &installed(&settings, "AfterAgent"), &answer);
    let digest: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["digest", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(digest["turns"], 1, "{digest}");
    assert_eq!(digest["last_assistant_text"], "I fixed the parser; the lexer remains.", "{digest}");
    let out = ["note", "--emergency", "--reason", "turn_limit"];
    stdout_ok(repo.handoff().args(out).output().unwrap());
    let note = repo.git_text(["show", "HEAD:.agent/handoff/7.md"]);
    assert!(note.contains("I fixed the parser; the lexer remains."), "{note}");
}

/// Gemini CLI runs no hook in a folder it does not trust: `hooks status` says so, with the way
/// to trust it, and `--check` exits 1 until it is trusted (by its trustedFolders.json or the
/// environment, read as Gemini CLI reads them).
#[test]
fn hooks_status_tells_whether_gemini_trusts_the_folder() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["hooks", "install", "--gemini"]).output().unwrap());
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
    assert!(
        text.contains("Gemini CLI will run none of them") && text.contains("TRUST_FOLDER"),
        "{text}"
    );
    assert_eq!(status(&[("GEMINI_CLI_TRUST_WORKSPACE", "true")]).status.code(), Some(0));
    // A rule on the parent, as Gemini CLI writes it when you trust the parent folder.
    let parent = repo.path.parent().unwrap().join("some-sibling");
    let rules = json!({parent.to_str().unwrap(): "TRUST_PARENT"});
    std::fs::create_dir_all(repo.home().join(".gemini")).unwrap();
    std::fs::write(repo.home().join(".gemini/trustedFolders.json"), rules.to_string()).unwrap();
    let out = status(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    // A closer rule that distrusts wins.
    let above = repo.path.parent().unwrap().to_str().unwrap();
    let rules = json!({above: "TRUST_FOLDER", repo.path.to_str().unwrap(): "DO_NOT_TRUST"});
    std::fs::write(repo.home().join(".gemini/trustedFolders.json"), rules.to_string()).unwrap();
    assert_eq!(status(&[]).status.code(), Some(1));
}
