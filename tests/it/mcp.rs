//! `mcp`: the agent tools over JSON-RPC on stdio, spoken to the binary directly (the official
//! Python SDK's client drives it in `.ci/mcp-client`), and their registration by `hooks install`.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common;

use common::payloads::{bash_failed, edit, record};
use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

/// Sends `messages` (one a line, then end of input) to the server `cmd` starts; returns the
/// answers in order. The server must end cleanly at the end of its input.
fn serve_with(mut cmd: Command, messages: &[Value]) -> Vec<Value> {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut input = String::new();
    for message in messages {
        match message {
            Value::String(raw) => input.push_str(raw),
            _ => input.push_str(&message.to_string()),
        }
        input.push('\n');
    }
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = stdout_ok(child.wait_with_output().unwrap());
    out.lines().map(|line| serde_json::from_str(line).expect("one JSON answer a line")).collect()
}

fn serve(repo: &Repo, messages: &[Value]) -> Vec<Value> {
    let mut cmd = repo.handoff();
    cmd.arg("mcp");
    serve_with(cmd, messages)
}

fn call(id: u64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
}

/// The `_meta` a 2026-07-28 client puts in every request.
fn modern(version: &str) -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": version,
           "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
           "io.modelcontextprotocol/clientCapabilities": {}})
}

fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"].as_str().unwrap()
}

fn started(env: &Env, issue: u64) -> Repo {
    let repo = env.repo("r");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", &issue.to_string()]).output().unwrap());
    repo
}

#[test]
fn both_lifecycles_and_protocol_errors() {
    let env = Env::new();
    let repo = env.repo("r");
    let init = |id, version| {
        json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
               "params": {"protocolVersion": version, "capabilities": {},
                          "clientInfo": {"name": "t", "version": "1"}}})
    };
    let answers = serve(
        &repo,
        &[
            init(1, "2025-06-18"),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            init(2, "2026-07-28"),
            json!({"jsonrpc": "2.0", "id": "d", "method": "server/discover",
                   "params": {"_meta": modern("2026-07-28")}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list",
                   "params": {"_meta": modern("2026-07-28")}}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list",
                   "params": {"_meta": modern("2030-01-01")}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "server/discover", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 6, "method": "resources/list"}),
            json!("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\""),
            json!([1, 2]),
            call(8, "handoff_nope", json!({})),
            json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}),
        ],
    );
    let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(
        ids,
        [
            &json!(1),
            &json!(2),
            &json!("d"),
            &json!(3),
            &json!(4),
            &json!(5),
            &json!(6),
            &Value::Null,
            &Value::Null,
            &json!(8),
            &json!(9)
        ]
    );
    // The handshake echoes a revision it has, else answers with the newest that has one.
    assert_eq!(answers[0]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(answers[0]["result"]["serverInfo"]["name"], "git-handoff");
    assert_eq!(answers[0]["result"]["capabilities"]["tools"], json!({"listChanged": false}));
    assert_eq!(answers[1]["result"]["protocolVersion"], "2025-11-25");
    // Discovery and lists of the 2026-07-28 revision carry its result fields.
    let discover = &answers[2]["result"];
    assert_eq!(discover["resultType"], "complete");
    assert!(discover["supportedVersions"].as_array().unwrap().contains(&json!("2026-07-28")));
    assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "git-handoff");
    assert_eq!((&discover["ttlMs"], &discover["cacheScope"]), (&json!(0), &json!("private")));
    let tools = &answers[3]["result"];
    assert_eq!(tools["resultType"], "complete");
    let names: Vec<&str> =
        tools["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["handoff_note", "handoff_recall", "handoff_snapshot", "handoff_progress"]);
    for tool in tools["tools"].as_array().unwrap() {
        let schema = &tool["inputSchema"];
        assert_eq!(schema["type"], "object", "{tool}");
        for (name, property) in schema["properties"].as_object().unwrap() {
            assert!(property["description"].as_str().is_some_and(|d| d.len() > 10), "{name}");
        }
    }
    let note = &tools["tools"][0]["inputSchema"]["properties"];
    assert_eq!(
        note["done"],
        json!({"type": "array", "items": {"type": "string"},
        "description": note["done"]["description"]})
    );
    // Errors: an unknown revision, a missing envelope field, an unknown method, bad JSON, a batch,
    // an unknown tool.
    assert_eq!(answers[4]["error"]["code"], -32022);
    assert_eq!(answers[4]["error"]["data"]["requested"], "2030-01-01");
    assert!(
        answers[4]["error"]["data"]["supported"].as_array().unwrap().contains(&json!("2026-07-28"))
    );
    assert_eq!(answers[5]["error"]["code"], -32602);
    assert!(answers[5]["error"]["message"].as_str().unwrap().contains("clientCapabilities"));
    assert_eq!(answers[6]["error"]["code"], -32601);
    assert_eq!(answers[7]["error"]["code"], -32700);
    assert_eq!(answers[8]["error"]["code"], -32600);
    assert_eq!(answers[9]["error"]["code"], -32602);
    assert!(answers[9]["error"]["message"].as_str().unwrap().contains("handoff_note"));
    assert_eq!(answers[10]["result"], json!({}));
}

#[test]
fn one_call_hands_off_tags_commits_and_keeps_answering() {
    let env = Env::new();
    let repo = started(&env, 42);
    repo.write("src/lib.rs", "fn a() { b() }\n");
    record(&repo, &edit(&repo, "src/lib.rs"));
    record(&repo, &bash_failed(&repo, "cargo test", 101));
    let before = repo.head();
    let mut git_handoff = repo.git_handoff();
    git_handoff.arg("mcp");
    let answers = serve_with(
        git_handoff,
        &[
            call(
                1,
                "handoff_note",
                json!({
                    "goal": "Make the parser tests pass",
                    "done": ["Rewrote the parser", "All tests pass now"],
                    "files_touched": ["src/lib.rs", "src/other.rs"],
                    "next": ["Fix the failing test"],
                    "reason": "token_soft_threshold",
                }),
            ),
            call(2, "handoff_note", json!({"done": ["ok", 3]})),
            call(3, "handoff_progress", json!({"set": {"id": "0", "status": "later"}})),
            call(4, "handoff_recall", json!({"source": "compact", "max_lines": 10})),
            call(5, "handoff_progress", json!({"plan": ["Parse", "Check"]})),
            call(6, "handoff_progress", json!({"set": {"id": "0", "status": "done"}})),
            call(7, "handoff_progress", json!({})),
            call(8, "handoff_snapshot", json!({"max_lines": 5})),
        ],
    );
    let saved = &answers[0]["result"];
    assert_eq!(saved["isError"], false, "{saved}");
    assert_eq!(
        text(&answers[0]),
        format!(
            "Handoff saved for the next session. From the log: 1 file edited · last `cargo test` \
             failed · 2 tool calls, 1 error.\n\
             Tagged [unverified]: \"All tests pass now\" (last `cargo test` failed). Correct it \
             if the log is right.\n\
             Tagged [unverified]: \"src/other.rs\" (no edit to src/other.rs in the event log). \
             Correct it if the log is right.\nNote: .agent/handoff/42.md in commit {}.",
            repo.head()
        )
    );
    assert_eq!(saved["structuredContent"]["commit"].as_str(), Some(repo.head().as_str()));
    assert_eq!(repo.git_text(["rev-parse", "HEAD~1"]), before);
    assert_eq!(repo.git_text(["log", "-1", "--format=%s"]), "Handoff note: issue #42");
    let note = repo.git_text(["show", "HEAD:.agent/handoff/42.md"]);
    assert!(
        note.contains("- All tests pass now [unverified: last `cargo test` failed]\n"),
        "{note}"
    );
    assert!(note.contains("reason: token_soft_threshold\n"), "{note}");
    stdout_ok(repo.handoff().arg("validate").output().unwrap());

    // Bad arguments are tool errors naming the field; the server goes on answering.
    assert_eq!(answers[1]["result"]["isError"], true);
    assert_eq!(text(&answers[1]), "error: argument `done[1]` must be a string, not a number (3)");
    assert_eq!(answers[2]["result"]["isError"], true);
    assert!(text(&answers[2]).starts_with("error: argument `set.status` must be one of pending"));
    assert_eq!(answers[3]["result"]["isError"], false);
    assert!(
        text(&answers[3]).contains("All tests pass now [unverified: last `cargo test` failed]")
    );
    assert_eq!(answers[3]["result"]["structuredContent"]["source"], "compact");
    assert_eq!(
        text(&answers[4]),
        "In progress — task 0 of 2\n0: Parse — pending\n1: Check — pending"
    );
    assert_eq!(answers[5]["result"]["structuredContent"]["items"][0]["status"], "done");
    assert!(text(&answers[5]).starts_with("Set task 0 to done.\nIn progress — task 1 of 2\n"));
    assert!(text(&answers[6]).starts_with("# Change summary"), "{}", text(&answers[6]));
    let snapshot = &answers[7]["result"]["structuredContent"];
    assert_eq!(snapshot["head"].as_str(), Some(repo.head().as_str()));
    assert_eq!(snapshot["issue"], 42);
}

#[test]
fn failures_are_the_commands_messages_as_tool_errors() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.commit_all("init");
    let answers = serve(
        &repo,
        &[
            call(1, "handoff_note", json!({"done": ["x"]})),
            call(2, "handoff_snapshot", json!({"reason": "bored"})),
            call(3, "handoff_progress", json!({"set": {"id": "0", "status": "done"}})),
            call(4, "handoff_note", json!({"done": ["Wrote it"], "issue": 5})),
        ],
    );
    assert_eq!(answers[0]["result"]["isError"], true);
    assert!(text(&answers[0]).contains("give the issue number as the argument `issue`"));
    // The same message the command prints.
    for (answer, args) in [
        (&answers[1], vec!["snapshot", "--reason", "bored"]),
        (&answers[2], vec!["progress", "set", "0", "done"]),
    ] {
        let out = repo.handoff().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(answer["result"]["isError"], true);
        assert_eq!(text(answer), String::from_utf8(out.stderr).unwrap().trim_end());
    }
    // Told the issue, the tool writes the note without an attempt started.
    assert_eq!(answers[3]["result"]["isError"], false, "{}", answers[3]);
    assert_eq!(repo.git_text(["log", "-1", "--format=%s"]), "Handoff note: issue #5");
    let note = repo.git_text(["show", "HEAD:.agent/handoff/5.md"]);
    assert!(
        note.contains("- Wrote it [unverified: no tool calls recorded in this attempt]"),
        "{note}"
    );
}

#[test]
fn hooks_install_registers_the_server_and_uninstall_gives_the_files_back() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.commit_all("init");
    let mcp_json = "{\n  \"mcpServers\": {\n    \"docs\": {\"command\": \"docs-mcp\"}\n  }\n}\n";
    let config_toml = "model = \"o4\"\n\n[features]\ncodex_hooks = true\n";
    repo.write(".mcp.json", mcp_json);
    repo.write(".codex/config.toml", config_toml);
    for _ in 0..2 {
        stdout_ok(
            repo.handoff().args(["hooks", "install", "--claude", "--codex"]).output().unwrap(),
        );
    }
    let registered: Value = serde_json::from_slice(&repo.read(".mcp.json")).unwrap();
    assert_eq!(
        registered["mcpServers"],
        json!({"docs": {"command": "docs-mcp"},
               "git-handoff": {"command": "git-handoff", "args": ["mcp"]}})
    );
    let local: Value = serde_json::from_slice(&repo.read(".claude/settings.local.json")).unwrap();
    assert_eq!(local, json!({"enabledMcpjsonServers": ["git-handoff"]}), "approved for this user");
    let codex: toml::Table =
        toml::from_str(&String::from_utf8(repo.read(".codex/config.toml")).unwrap()).unwrap();
    assert_eq!(codex["mcp_servers"]["git-handoff"]["command"].as_str(), Some("git-handoff"));
    assert_eq!(codex["features"]["codex_hooks"].as_bool(), Some(true));
    let status: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["hooks", "status", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(
        (&status["claude_mcp"]["installed"], &status["codex_mcp"]["installed"]),
        (&json!(true), &json!(true))
    );

    // The server as registered (`git-handoff mcp`, found on PATH) answers.
    let entry = &registered["mcpServers"]["git-handoff"];
    let mut cmd = Command::new(entry["command"].as_str().unwrap());
    common::hermetic(&mut cmd, repo.home());
    cmd.current_dir(&repo.path).env("PATH", common::path_with_binary());
    cmd.args(entry["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()));
    let listed = serve_with(cmd, &[json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})]);
    assert_eq!(listed[0]["result"]["tools"].as_array().unwrap().len(), 4);

    stdout_ok(repo.handoff().args(["hooks", "uninstall"]).output().unwrap());
    assert_eq!(String::from_utf8(repo.read(".mcp.json")).unwrap(), mcp_json);
    assert_eq!(String::from_utf8(repo.read(".codex/config.toml")).unwrap(), config_toml);
    assert!(!repo.path.join(".claude/settings.local.json").exists());
}

#[test]
fn the_skills_one_call_path_commits_a_note_that_validates() {
    let skill =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/skills/handoff/SKILL.md"))
            .unwrap();
    let start = skill.find("```json\n").expect("the skill shows the handoff_note call") + 8;
    let mut call_args = skill[start..][..skill[start..].find("\n```").unwrap()].to_string();
    // Fill every placeholder as an agent would.
    while let Some(open) = call_args.find('<') {
        let close = open + call_args[open..].find('>').unwrap();
        let filled = if &call_args[open..=close] == "<path>" { "src/lib.rs" } else { "Wrote b" };
        call_args.replace_range(open..=close, filled);
    }
    let call_args: Value = serde_json::from_str(&call_args).expect("the skill's call is JSON");

    let env = Env::new();
    let repo = started(&env, 31);
    repo.write("src/lib.rs", "fn a() { b() }\n");
    record(&repo, &edit(&repo, "src/lib.rs"));
    let answers = serve(&repo, &[call(1, "handoff_note", call_args)]);
    assert_eq!(answers[0]["result"]["isError"], false, "{}", answers[0]);
    assert_eq!(repo.git_text(["log", "-1", "--format=%s"]), "Handoff note: issue #31");
    let note = repo.git_text(["show", "HEAD:.agent/handoff/31.md"]);
    assert!(note.contains("reason: token_soft_threshold\n"), "{note}");
    stdout_ok(repo.handoff().arg("validate").output().unwrap());
}
