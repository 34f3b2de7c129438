//! opencode (1.18): `hooks install --opencode` writes a plugin that pipes opencode's events to
//! `git-handoff record`. The plugin is driven here by Node.js with the arguments opencode passes
//! its hooks (observed in ../shared/research/opencode.md); without Node.js that part says
//! `SKIPPED:` (the end-to-end suite, `.ci/agents`, runs the real opencode).

use crate::common;

use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

fn started(env: &Env) -> Repo {
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "7"]).output().unwrap());
    repo
}

#[test]
fn install_status_and_uninstall_of_the_opencode_plugin() {
    let env = Env::new();
    let repo = started(&env);
    let out = stdout_ok(repo.handoff().args(["hooks", "install", "--opencode"]).output().unwrap());
    assert!(out.contains(".opencode/plugin/git-handoff.js"), "{out}");
    let plugin = String::from_utf8(repo.read(".opencode/plugin/git-handoff.js")).unwrap();
    assert!(plugin.starts_with("// git-handoff for opencode:"), "{plugin}");
    assert!(!plugin.contains("require(") && !plugin.contains("from \"@"), "no dependencies");
    assert!(repo.path.join(".agents/skills/handoff/SKILL.md").is_file());
    let config: Value = serde_json::from_slice(&repo.read("opencode.json")).unwrap();
    assert_eq!(
        config["mcp"]["git-handoff"],
        json!({"type": "local", "command": ["git-handoff", "mcp"]})
    );
    let again =
        stdout_ok(repo.handoff().args(["hooks", "install", "--opencode"]).output().unwrap());
    assert!(!again.contains("created"), "{again}");
    let status = stdout_ok(repo.handoff().args(["hooks", "status"]).output().unwrap());
    assert!(status.contains("the git-handoff plugin"), "{status}");
    // The files install writes are not the agent's work.
    let out = stdout_ok(repo.handoff().args(["recall", "--source", "startup"]).output().unwrap());
    assert!(!out.contains("Unsealed"), "{out}");

    // An edited plugin is the user's on uninstall; as installed, it goes with the skill.
    repo.write(".opencode/plugin/git-handoff.js", format!("{plugin}// mine\n"));
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--opencode"]).output().unwrap());
    assert!(repo.path.join(".opencode/plugin/git-handoff.js").is_file());
    stdout_ok(repo.handoff().args(["hooks", "install", "--opencode"]).output().unwrap());
    assert_eq!(repo.read(".opencode/plugin/git-handoff.js"), plugin.as_bytes(), "rewritten");
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--opencode"]).output().unwrap());
    for gone in [".opencode", ".agents", "opencode.json"] {
        assert!(!repo.path.join(gone).exists(), "{gone} is left");
    }
}

/// The MCP server goes into the project's `opencode.json` beside what is there, byte for byte,
/// and comes out again; a project configured in `opencode.jsonc` keeps its file.
#[test]
fn the_opencode_mcp_server_is_spliced_into_opencode_json() {
    let env = Env::new();
    let repo = started(&env);
    let theirs = "{\n  \"model\": \"anthropic/claude-sonnet-4-5\",\n  \"mcp\": {\n    \"docs\": {\"type\": \"remote\", \"url\": \"https://x\"}\n  }\n}\n";
    repo.write("opencode.json", theirs);
    stdout_ok(repo.handoff().args(["hooks", "install", "--opencode"]).output().unwrap());
    let config: Value = serde_json::from_slice(&repo.read("opencode.json")).unwrap();
    assert_eq!(config["mcp"]["docs"]["url"], "https://x");
    assert_eq!(config["mcp"]["git-handoff"]["command"], json!(["git-handoff", "mcp"]));
    let status: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["--json", "hooks", "status"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(status["opencode"]["mcp"], true, "{status}");
    stdout_ok(repo.handoff().args(["hooks", "uninstall", "--opencode"]).output().unwrap());
    assert_eq!(repo.read("opencode.json"), theirs.as_bytes());

    std::fs::remove_file(repo.path.join("opencode.json")).unwrap();
    repo.write("opencode.jsonc", "// mine\n{}\n");
    stdout_ok(repo.handoff().args(["hooks", "install", "--opencode"]).output().unwrap());
    assert!(!repo.path.join("opencode.json").exists());
    assert_eq!(repo.read("opencode.jsonc"), b"// mine\n{}\n");
}

/// The arguments opencode 1.18 passes the plugin's hooks, for a session that writes a file, runs
/// a failing command and `cargo test` (exit 101), has an edit fail (it throws: no
/// `tool.execute.after`, only the part's error), writes the note and calls the handoff tool, goes
/// idle, then ends its next turn on an API error: each call counted once, the failures and the
/// last check as they were, the model's last text kept, the API error heard as the end, and the
/// session's digest stored.
const DRIVER: &str = r#"
import { GitHandoff } from "./.opencode/plugin/git-handoff.js";
const repo = process.cwd();
const hooks = await GitHandoff({ directory: repo, worktree: repo });
const s = "ses_e2e";
await hooks.event({ event: { type: "session.created", properties: { info: { id: s } } } });
const system = [];
await hooks["experimental.chat.system.transform"]({ sessionID: s }, { system });
await hooks["chat.message"]({ sessionID: s }, { parts: [{ type: "text", text: "Fix it" }] });
const call = async (n, tool, args, after) => {
  const id = `call_${n}`;
  await hooks["tool.execute.before"]({ tool, sessionID: s, callID: id }, { args });
  if (after) await hooks["tool.execute.after"]({ tool, sessionID: s, callID: id, args }, after);
  else await hooks.event({ event: { type: "message.part.updated", properties: { part: {
    type: "tool", tool, callID: id, sessionID: s,
    state: { status: "error", input: args, error: "oldString not found in content" } } } } });
};
await call(1, "write", { filePath: `${repo}/hello.txt`, content: "hi\n" },
  { title: "hello.txt", metadata: { filepath: `${repo}/hello.txt`, exists: false }, output: "" });
await call(2, "bash", { command: "false", description: "fails" },
  { title: "false", metadata: { output: "", exit: 1 }, output: "" });
await call(3, "bash", { command: "cargo test" },
  { title: "cargo test", metadata: { output: "FAILED", exit: 101 }, output: "FAILED" });
await call(4, "edit", { filePath: `${repo}/a.txt`, oldString: "zz", newString: "y" }, null);
await call(5, "write", { filePath: `${repo}/.agent/handoff/7.md`, content: "x" },
  { title: "7.md", metadata: {}, output: "" });
await call(6, "git-handoff_handoff_progress", {}, { title: "", metadata: {}, output: "{}" });
await hooks.event({ event: { type: "message.updated", properties: { info: { id: "m1", role: "assistant" } } } });
await hooks.event({ event: { type: "message.part.updated", properties: { part: {
  type: "text", messageID: "m1", sessionID: s, text: "The test still fails." } } } });
await hooks.event({ event: { type: "session.idle", properties: { sessionID: s } } });
await hooks.event({ event: { type: "session.error", properties: { sessionID: s,
  error: { name: "APIError", data: { message: "Overloaded", statusCode: 529 } } } } });
await hooks.event({ event: { type: "session.idle", properties: { sessionID: s } } });
console.log(JSON.stringify({ system }));
"#;

#[test]
fn the_opencode_plugin_records_each_call_once_under_its_call_id() {
    let env = Env::new();
    let repo = started(&env);
    if repo.shell("node --version").status.code() != Some(0) {
        eprintln!("SKIPPED: the opencode plugin was not driven: no node on PATH");
        return;
    }
    // A handoff to recall, so the system prompt gets one.
    stdout_ok(
        repo.handoff().args(["note", "--emergency", "--reason", "turn_limit"]).output().unwrap(),
    );
    stdout_ok(repo.handoff().args(["start", "--issue", "7"]).output().unwrap());
    stdout_ok(repo.handoff().args(["hooks", "install", "--opencode"]).output().unwrap());
    repo.write("driver.mjs", DRIVER);
    let out = stdout_ok(repo.shell("node driver.mjs"));
    let system: Value = serde_json::from_str(out.trim()).unwrap();
    let prompt = system["system"][0].as_str().unwrap_or_default();
    assert!(prompt.starts_with("Last handoff (git-handoff recall):"), "{system}");

    let digest: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["digest", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(digest["tool_calls"], 4, "{digest}");
    assert_eq!(digest["errors"], 3, "{digest}");
    assert_eq!(digest["files_edited"], json!(["hello.txt"]), "{digest}");
    assert_eq!(digest["last_check"]["exit_code"], 101, "{digest}");
    assert_eq!(digest["handoff_skill"], true, "{digest}");
    assert_eq!(digest["turns"], 1, "{digest}");
    assert_eq!(digest["last_assistant_text"], "The test still fails.", "{digest}");
    assert_eq!(digest["session_id"], "ses_e2e", "{digest}");
    assert_eq!(digest["ended_on_error"]["kind"], "overloaded", "{digest}");
    // The idle session left its digest on HEAD.
    let log: Value =
        serde_json::from_str(&stdout_ok(repo.handoff().args(["log", "--json"]).output().unwrap()))
            .unwrap();
    let kinds: Vec<&str> =
        log["handoffs"].as_array().unwrap().iter().filter_map(|h| h["kind"].as_str()).collect();
    assert!(kinds.contains(&"digest"), "{log}");
}
