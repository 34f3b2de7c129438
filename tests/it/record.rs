//! `record` through the binary: real-shaped hook payloads in, one redacted line per event out;
//! bad input leaves the log untouched; concurrent hooks never interleave; secrets never land.

use crate::common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

fn run_with_stdin(mut cmd: Command, stdin: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // The child may refuse to read it all (an oversized payload): a broken pipe is expected then.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn record(repo: &Repo, payload: &Value) -> Output {
    let mut cmd = repo.handoff();
    cmd.arg("record");
    run_with_stdin(cmd, payload.to_string().as_bytes())
}

fn record_ok(repo: &Repo, payload: &Value) {
    let out = record(repo, payload);
    assert!(
        out.status.success(),
        "record failed: {}\npayload: {payload}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "record printed on stdout");
}

fn log_path(repo: &Repo) -> PathBuf {
    repo.path.join(".git/handoff/events.jsonl")
}

fn log_lines(repo: &Repo) -> Vec<Value> {
    let text = std::fs::read_to_string(log_path(repo)).unwrap_or_default();
    text.lines().map(|l| serde_json::from_str(l).expect("well-formed line")).collect()
}

fn digest(repo: &Repo) -> Value {
    serde_json::from_str(&stdout_ok(repo.handoff().args(["digest", "--json"]).output().unwrap()))
        .unwrap()
}

fn base(repo: &Repo, event: &str) -> Value {
    json!({
        "session_id": "9f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b",
        "transcript_path": "/home/u/.claude/projects/p/9f1c.jsonl",
        "cwd": repo.path.to_str().unwrap(),
        "permission_mode": "default",
        "hook_event_name": event,
    })
}

fn with(mut value: Value, extra: Value) -> Value {
    let map = value.as_object_mut().unwrap();
    for (k, v) in extra.as_object().unwrap() {
        map.insert(k.clone(), v.clone());
    }
    value
}

fn started(env: &Env) -> Repo {
    let repo = env.repo("r");
    repo.write("README.md", "hi\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "5"]).output().unwrap());
    repo
}

/// One payload of each Claude Code hook event, shaped as the research sheet says.
fn claude_session(repo: &Repo) -> Vec<Value> {
    let abs = |rel: &str| repo.path.join(rel).to_str().unwrap().to_string();
    vec![
        with(base(repo, "SessionStart"), json!({"source": "startup", "model": "claude-opus-4"})),
        with(base(repo, "UserPromptSubmit"), json!({"prompt": "Fix the parser"})),
        with(
            base(repo, "PreToolUse"),
            json!({"tool_name": "Edit", "tool_use_id": "toolu_01",
                   "tool_input": {"file_path": abs("src/parser.rs"), "old_string": "a", "new_string": "b"}}),
        ),
        with(
            base(repo, "PostToolUse"),
            json!({"tool_name": "Edit", "tool_use_id": "toolu_01",
                   "tool_input": {"file_path": abs("src/parser.rs"), "old_string": "a", "new_string": "b"},
                   "tool_response": {"filePath": abs("src/parser.rs"), "oldString": "a", "newString": "b"},
                   "duration_ms": 12}),
        ),
        with(
            base(repo, "PostToolUseFailure"),
            json!({"tool_name": "Bash", "tool_use_id": "toolu_02",
                   "tool_input": {"command": "cargo test", "description": "Run tests"},
                   "error": "Exit code 101\nthread 'main' panicked at TOOL-OUTPUT-MARKER"}),
        ),
        with(base(repo, "PreCompact"), json!({"trigger": "auto", "custom_instructions": ""})),
        with(
            base(repo, "SubagentStop"),
            json!({"stop_hook_active": false, "agent_id": "a1", "agent_type": "Explore",
                   "last_assistant_message": "subagent report"}),
        ),
        with(
            base(repo, "Stop"),
            json!({"stop_hook_active": false, "last_assistant_message": "The parser is fixed."}),
        ),
        with(base(repo, "SessionEnd"), json!({"reason": "prompt_input_exit"})),
    ]
}

#[test]
fn every_claude_event_becomes_one_line() {
    let env = Env::new();
    let repo = started(&env);
    for payload in claude_session(&repo) {
        record_ok(&repo, &payload);
    }
    let lines = log_lines(&repo);
    let kinds: Vec<&str> = lines.iter().map(|l| l["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "session_start",
            "prompt",
            "tool_start",
            "tool_result",
            "tool_result",
            "pre_compact",
            "subagent_stop",
            "stop",
            "session_end"
        ]
    );
    assert_eq!(lines[3]["paths"], json!(["src/parser.rs"]));
    assert_eq!(lines[3]["target"], "src/parser.rs");
    assert_eq!(lines[4]["ok"], false);
    assert_eq!(lines[4]["exit_code"], 101);
    assert_eq!(lines[4]["target"], "cargo test");
    assert_eq!(lines[6]["sub"], true);
    assert_eq!(lines[7]["text"], "The parser is fixed.");
    for line in &lines {
        assert!(line["at"].as_str().unwrap().ends_with('Z'));
        assert_eq!(line["agent"], "claude");
    }
    let log = std::fs::read_to_string(log_path(&repo)).unwrap();
    assert!(!log.contains("TOOL-OUTPUT-MARKER"), "tool output leaked into the log");
    assert!(!log.contains("oldString"), "tool response kept");
}

#[test]
fn runs_as_git_handoff_from_a_subdirectory_and_resolves_relative_paths() {
    let env = Env::new();
    let repo = started(&env);
    std::fs::create_dir_all(repo.path.join("crates/x")).unwrap();
    let sub = repo.path.join("crates/x");
    let payload = json!({
        "session_id": "s", "cwd": sub.to_str().unwrap(), "hook_event_name": "PostToolUse",
        "tool_name": "Write", "tool_use_id": "t",
        "tool_input": {"file_path": "src/lib.rs", "content": "fn main() {}"},
        "tool_response": {"filePath": "src/lib.rs"}
    });
    let mut cmd = repo.git_handoff();
    cmd.arg("record").current_dir(&sub);
    let out = run_with_stdin(cmd, payload.to_string().as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(log_lines(&repo)[0]["paths"], json!(["crates/x/src/lib.rs"]));
}

#[test]
fn paths_outside_the_repository_are_not_edits() {
    let env = Env::new();
    let repo = started(&env);
    let outside = env.root.path().join("elsewhere/notes.md");
    for path in [outside.to_str().unwrap(), "/etc/hosts", "../../escape.txt"] {
        record_ok(
            &repo,
            &with(
                base(&repo, "PostToolUse"),
                json!({"tool_name": "Write", "tool_input": {"file_path": path, "content": "x"},
                       "tool_response": {}}),
            ),
        );
    }
    let inside = repo.path.join("src/../src/ok.rs");
    record_ok(
        &repo,
        &with(
            base(&repo, "PostToolUse"),
            json!({"tool_name": "MultiEdit",
                   "tool_input": {"file_path": inside.to_str().unwrap(), "edits": []}}),
        ),
    );
    assert_eq!(digest(&repo)["files_edited"], json!(["src/ok.rs"]));
}

#[test]
fn the_payload_cwd_chooses_the_repository_unless_c_is_given() {
    let env = Env::new();
    let a = started(&env);
    let b = env.repo("b");
    b.commit_all("init b");
    let payload = with(base(&a, "Stop"), json!({"last_assistant_message": "in a"}));
    // Run from b, but the payload says a.
    let mut cmd = b.handoff();
    cmd.arg("record");
    let out = run_with_stdin(cmd, payload.to_string().as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(log_lines(&a).len(), 1);
    assert!(!log_path(&b).exists());
    // -C wins over the payload.
    let mut cmd = a.handoff();
    cmd.arg("-C").arg(&b.path).arg("record");
    let out = run_with_stdin(cmd, payload.to_string().as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(log_lines(&b).len(), 1);
    assert_eq!(log_lines(&a).len(), 1);
}

#[test]
fn linked_worktrees_keep_their_own_logs() {
    let env = Env::new();
    let repo = started(&env);
    let wt = env.root.path().join("wt");
    repo.git(["worktree", "add", "-q", "-b", "other", wt.to_str().unwrap()]);
    let payload = json!({"session_id": "s", "cwd": wt.to_str().unwrap(),
        "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": wt.join("w.rs").to_str().unwrap()}});
    record_ok(&repo, &payload);
    assert!(log_lines(&repo).is_empty());
    let wt_log = repo.path.join(".git/worktrees/wt/handoff/events.jsonl");
    let text = std::fs::read_to_string(wt_log).unwrap();
    assert!(text.contains("\"paths\":[\"w.rs\"]"), "{text}");
    let attempt = std::fs::read_to_string(repo.path.join(".git/worktrees/wt/handoff/attempt.toml"));
    assert!(attempt.unwrap().contains("implicit = true"));
}

#[test]
fn without_an_attempt_record_begins_an_implicit_one() {
    let env = Env::new();
    let repo = env.repo("r");
    let head = repo.commit_all("init");
    record_ok(&repo, &with(base(&repo, "Stop"), json!({"last_assistant_message": "hi"})));
    let state = std::fs::read_to_string(repo.path.join(".git/handoff/attempt.toml")).unwrap();
    assert!(state.contains("implicit = true"), "{state}");
    assert!(state.contains(&head), "{state}");
    assert_eq!(digest(&repo)["implicit_attempt"], true);
    let text = stdout_ok(repo.handoff().arg("digest").output().unwrap());
    assert!(text.contains("implicit attempt"), "{text}");
    // An implicit attempt has no issue: commands that need one still ask for it.
    let snap: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["snapshot", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(snap["issue"], Value::Null);
}

#[test]
fn codex_payloads() {
    let env = Env::new();
    let repo = started(&env);
    let codex = |event: &str, extra: Value| {
        with(
            json!({"session_id": "c", "transcript_path": null, "cwd": repo.path.to_str().unwrap(),
                   "hook_event_name": event, "model": "gpt-5-codex", "turn_id": "turn-1"}),
            extra,
        )
    };
    record_ok(
        &repo,
        &codex(
            "PostToolUse",
            json!({"tool_name": "Bash", "tool_use_id": "c1",
                   "tool_input": {"command": ["bash", "-lc", "npm test"]},
                   "tool_response": {"output": "1 failing", "metadata": {"exit_code": 1}}}),
        ),
    );
    record_ok(
        &repo,
        &codex(
            "PostToolUse",
            json!({"tool_name": "apply_patch", "tool_use_id": "c2",
                   "tool_input": {"command": "*** Begin Patch\n*** Add File: web/a.js\n+x\n*** Update File: web/b.js\n@@\n-a\n+b\n*** End Patch"},
                   "tool_response": "Success. Updated the following files:\nA web/a.js\nM web/b.js"}),
        ),
    );
    record_ok(&repo, &codex("Stop", json!({"last_assistant_message": "npm test still fails"})));
    let lines = log_lines(&repo);
    assert!(lines.iter().all(|l| l["agent"] == "codex"));
    let d = digest(&repo);
    assert_eq!(d["files_edited"], json!(["web/a.js", "web/b.js"]));
    assert_eq!(
        d["last_check"],
        json!({"command": "npm test", "ok": false, "exit_code": 1, "readable": true})
    );
    assert_eq!(d["errors"], 1);
    assert_eq!(d["last_assistant_text"], "npm test still fails");
}

#[test]
fn generic_shape_and_forced_agent() {
    let env = Env::new();
    let repo = started(&env);
    let payload = json!({"event": "tool", "tool": "Bash", "command": "pytest -q", "exit_code": 0});
    record_ok(&repo, &payload);
    let edit = json!({"event": "tool", "tool": "edit", "paths": ["a.py", "/nowhere/b.py"]});
    let mut cmd = repo.handoff();
    cmd.args(["record", "--agent", "generic"]);
    assert!(run_with_stdin(cmd, edit.to_string().as_bytes()).status.success());
    record_ok(&repo, &json!({"event": "stop", "text": "pytest passes"}));
    let d = digest(&repo);
    assert_eq!(d["files_edited"], json!(["a.py"]));
    assert_eq!(d["last_check"]["command"], "pytest -q");
    assert_eq!(d["last_check"]["ok"], true);
    assert_eq!(d["last_assistant_text"], "pytest passes");
    // A Claude payload forced as generic is not understood; a generic one forced as Claude neither.
    let mut cmd = repo.handoff();
    cmd.args(["record", "--agent", "claude"]);
    let out = run_with_stdin(cmd, payload.to_string().as_bytes());
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_input_is_exit_2_one_line_and_the_log_is_unchanged() {
    let env = Env::new();
    let repo = started(&env);
    for payload in claude_session(&repo) {
        record_ok(&repo, &payload);
    }
    let before = std::fs::read(log_path(&repo)).unwrap();
    let digest_before = digest(&repo);
    let big = format!(
        "{{\"hook_event_name\":\"Stop\",\"last_assistant_message\":\"{}\"}}",
        "x".repeat(3_000_000)
    );
    let cwd = repo.path.to_str().unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("blank", b"  \n".to_vec()),
        ("truncated", br#"{"hook_event_name":"PostToolUse","tool_name":"Ba"#.to_vec()),
        ("non-utf8", b"{\"hook_event_name\":\"Stop\",\"last_assistant_message\":\"\xff\xfe\"}".to_vec()),
        ("3 MB", big.into_bytes()),
        ("array", br#"[{"hook_event_name":"Stop"}]"#.to_vec()),
        ("string", br#""Stop""#.to_vec()),
        ("no event name", br#"{"session_id":"s"}"#.to_vec()),
        (
            "tool_name a number",
            json!({"hook_event_name": "PostToolUse", "cwd": cwd, "tool_name": 42}).to_string().into_bytes(),
        ),
        (
            "tool_input a string",
            json!({"hook_event_name": "PreToolUse", "cwd": cwd, "tool_name": "Bash", "tool_input": "ls"})
                .to_string()
                .into_bytes(),
        ),
        (
            "command an object",
            json!({"hook_event_name": "PostToolUse", "cwd": cwd, "tool_name": "Bash",
                   "tool_input": {"command": {"x": 1}}})
            .to_string()
            .into_bytes(),
        ),
        (
            "message a list",
            json!({"hook_event_name": "Stop", "cwd": cwd, "last_assistant_message": ["a"]})
                .to_string()
                .into_bytes(),
        ),
        ("cwd a number", json!({"hook_event_name": "Stop", "cwd": 7}).to_string().into_bytes()),
        (
            "session_id a number",
            json!({"hook_event_name": "Stop", "cwd": cwd, "session_id": 12}).to_string().into_bytes(),
        ),
        (
            "stop_hook_active a string",
            json!({"hook_event_name": "Stop", "cwd": cwd, "stop_hook_active": "no"})
                .to_string()
                .into_bytes(),
        ),
        (
            "hook_event_name a number",
            json!({"hook_event_name": 3, "cwd": cwd}).to_string().into_bytes(),
        ),
        (
            "generic paths a string",
            json!({"event": "tool", "cwd": cwd, "paths": "a.rs"}).to_string().into_bytes(),
        ),
    ];
    for (what, input) in cases {
        let mut cmd = repo.handoff();
        cmd.arg("record");
        let out = run_with_stdin(cmd, &input);
        assert_eq!(out.status.code(), Some(2), "{what}: {}", String::from_utf8_lossy(&out.stderr));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{what}: one line on stderr: {stderr}");
        assert!(stderr.starts_with("error: record: "), "{what}: {stderr}");
        assert!(out.stdout.is_empty(), "{what}");
        assert_eq!(std::fs::read(log_path(&repo)).unwrap(), before, "{what}: log changed");
    }
    assert_eq!(digest(&repo), digest_before);
}

#[test]
fn a_torn_last_line_is_ended_and_skipped() {
    let env = Env::new();
    let repo = started(&env);
    let payload = with(base(&repo, "Stop"), json!({"last_assistant_message": "first"}));
    record_ok(&repo, &payload);
    // A crash mid-write leaves half a line.
    let mut file = std::fs::OpenOptions::new().append(true).open(log_path(&repo)).unwrap();
    file.write_all(br#"{"v":1,"at":"2026-11-30T04:00:00Z","kind":"tool_res"#).unwrap();
    drop(file);
    let d = digest(&repo);
    assert_eq!(d["skipped_lines"], 1);
    assert_eq!(d["last_assistant_text"], "first");
    record_ok(&repo, &with(base(&repo, "Stop"), json!({"last_assistant_message": "second"})));
    let text = std::fs::read_to_string(log_path(&repo)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[1].ends_with("tool_res"), "the wreck stays on its own line");
    assert!(serde_json::from_str::<Value>(lines[2]).is_ok(), "the next event is whole");
    let d = digest(&repo);
    assert_eq!(d["last_assistant_text"], "second");
    assert_eq!(d["skipped_lines"], 1);
}

#[test]
fn eight_concurrent_writers_never_interleave() {
    let env = Env::new();
    let repo = started(&env);
    // Eight at once, 2,000 lines of over 600 bytes each: the writers overlap on nearly every
    // append.
    let writers = 8;
    let each = 250;
    record_concurrently(&repo, writers, each, 600);
    let text = std::fs::read_to_string(log_path(&repo)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), writers * each);
    let mut ids = std::collections::HashSet::new();
    for line in lines {
        let value: Value = serde_json::from_str(line).expect("well-formed line");
        assert!(ids.insert(value["id"].as_str().unwrap().to_string()));
    }
    assert_eq!(digest(&repo)["tool_calls"], writers * each);
}

/// At least twenty kinds of secret, each in a command, a file path, an error, a prompt and the
/// assistant's text: none may reach the log or the digest.
#[test]
fn secrets_never_reach_the_log() {
    let env = Env::new();
    let repo = started(&env);
    repo.write(".handoff.toml", "[redact]\npatterns = [\"ACME-INTERNAL-[0-9]{8}\"]\n");
    let secrets: Vec<(&str, String)> = vec![
        ("aws access key", "AKIAIOSFODNN7EXAMPLE".into()),
        ("aws secret key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into()),
        ("github classic", format!("ghp_{}", "Z9y8X7w6".repeat(5))),
        ("github oauth", format!("gho_{}", "Q1w2E3r4".repeat(5))),
        ("github fine-grained", format!("github_pat_11ABCDEFG0{}", "aB3_".repeat(15))),
        ("gitlab", format!("glpat-{}", "Xy12Zq34Wv".repeat(2))),
        ("slack bot", "xoxb-2741851212-5555555555-AbCdEfGhIjKlMnOp".into()),
        ("slack webhook", "https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX".into()),
        ("stripe live", format!("sk_live_{}", "51Hq7Xx".repeat(4))),
        ("stripe restricted", format!("rk_live_{}", "9Pq8Wr7".repeat(4))),
        ("openai", format!("sk-proj-{}", "Ab3Cd5Ef7Gh9".repeat(3))),
        ("anthropic", format!("sk-ant-api03-{}", "Zx9Yw8Vu7Ts6".repeat(3))),
        ("google", format!("AIza{}", "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q")),
        ("npm", format!("npm_{}", "a1B2c3D4e5F6".repeat(3))),
        ("huggingface", format!("hf_{}", "AbCdEfGhIj".repeat(4))),
        ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U".into()),
        ("password", "hunter2-correct-horse".into()),
        ("db url", "s3cretDbPass".into()),
        ("bearer", "abcDEF123456ghiJKL789".into()),
        ("api key assignment", "k3y-v4lu3-0000".into()),
        ("custom pattern", "ACME-INTERNAL-12345678".into()),
        ("pem body", "MIIEowIBAAKCAQEA7bq98PrivateBodyLine".into()),
    ];
    let contexts = |secret: &str, kind: &str| -> Vec<String> {
        match kind {
            "password" => vec![
                format!("mysql -u root --password {secret}"),
                format!("PASSWORD={secret} make"),
            ],
            "db url" => vec![format!("psql postgres://admin:{secret}@db.internal:5432/app")],
            "bearer" => vec![format!("curl -H 'Authorization: Bearer {secret}' https://api.x")],
            "api key assignment" => {
                vec![format!("{{\"api_key\": \"{secret}\"}}"), format!("api_key={secret}")]
            }
            "aws secret key" => vec![format!("aws_secret_access_key = {secret}")],
            "pem body" => vec![format!(
                "-----BEGIN RSA PRIVATE KEY-----\n{secret}\n-----END RSA PRIVATE KEY-----"
            )],
            _ => vec![format!("export TOKEN_X={secret}"), format!("curl -d {secret} https://x")],
        }
    };
    for (kind, secret) in &secrets {
        for text in contexts(secret, kind) {
            let payloads = [
                with(
                    base(&repo, "PostToolUseFailure"),
                    json!({"tool_name": "Bash", "tool_input": {"command": text},
                           "error": format!("Exit code 1 {text}")}),
                ),
                with(base(&repo, "UserPromptSubmit"), json!({"prompt": text})),
                with(
                    base(&repo, "Stop"),
                    json!({"last_assistant_message": format!("Used {text}.")}),
                ),
                with(
                    base(&repo, "PreToolUse"),
                    json!({"tool_name": "WebFetch", "tool_input": {"url": text, "prompt": "x"}}),
                ),
            ];
            for payload in payloads {
                record_ok(&repo, &payload);
            }
        }
    }
    let log = std::fs::read_to_string(log_path(&repo)).unwrap();
    let shown = stdout_ok(repo.handoff().args(["digest", "--json"]).output().unwrap());
    for (kind, secret) in &secrets {
        assert!(!log.contains(secret.as_str()), "{kind} leaked into the log");
        assert!(!shown.contains(secret.as_str()), "{kind} leaked into the digest");
    }
    assert!(log.contains("[redacted:"));
    assert!(secrets.len() >= 20);
}

#[test]
fn strings_are_capped() {
    let env = Env::new();
    let repo = started(&env);
    let long = "word ".repeat(20_000);
    record_ok(&repo, &with(base(&repo, "Stop"), json!({"last_assistant_message": long})));
    record_ok(
        &repo,
        &with(
            base(&repo, "PostToolUse"),
            json!({"tool_name": "Bash", "tool_input": {"command": long}, "tool_response": {"stdout": long}}),
        ),
    );
    let size = std::fs::metadata(log_path(&repo)).unwrap().len();
    assert!(size < 12_000, "log holds {size} bytes for two events");
}

#[test]
fn git_dir_in_the_environment_wins_over_the_payload() {
    let env = Env::new();
    let a = started(&env);
    let b = env.repo("b");
    b.commit_all("init b");
    let payload = with(base(&b, "Stop"), json!({"last_assistant_message": "to a"}));
    let mut cmd = b.handoff();
    cmd.arg("record").env("GIT_DIR", a.path.join(".git")).env("GIT_WORK_TREE", &a.path);
    let out = run_with_stdin(cmd, payload.to_string().as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(log_lines(&a).len(), 1);
    assert!(!log_path(&b).exists());
}

#[test]
fn a_session_that_names_the_repository_through_a_symlink() {
    let env = Env::new();
    let repo = started(&env);
    let link = env.root.path().join("link");
    std::os::unix::fs::symlink(&repo.path, &link).unwrap();
    let payload = json!({"session_id": "s", "cwd": link.to_str().unwrap(),
        "hook_event_name": "PostToolUse", "tool_name": "Write",
        "tool_input": {"file_path": link.join("src/new.rs").to_str().unwrap(), "content": ""}});
    record_ok(&repo, &payload);
    assert_eq!(digest(&repo)["files_edited"], json!(["src/new.rs"]));
}

/// `start` archiving the log while hooks write: every event lands whole in exactly one log.
#[test]
fn start_while_hooks_write_loses_no_event() {
    let env = Env::new();
    let repo = started(&env);
    let writers = 4;
    let each = 60;
    std::thread::scope(|scope| {
        scope.spawn(|| record_concurrently(&repo, writers, each, 0));
        for n in 0..6 {
            std::thread::sleep(std::time::Duration::from_millis(40));
            stdout_ok(
                repo.handoff().args(["start", "--issue", &(10 + n).to_string()]).output().unwrap(),
            );
        }
    });
    let mut ids = std::collections::HashSet::new();
    let mut logs = vec![log_path(&repo)];
    for entry in std::fs::read_dir(repo.path.join(".git/handoff/archive")).unwrap() {
        logs.push(entry.unwrap().path().join("events.jsonl"));
    }
    for log in logs {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        for line in text.lines() {
            let value: Value = serde_json::from_str(line).expect("well-formed line");
            assert!(ids.insert(value["id"].as_str().unwrap().to_string()), "twice: {line}");
        }
    }
    assert_eq!(ids.len(), writers * each);
}

/// `writers` threads, each recording `each` Bash calls through the binary (`pad` bytes of command
/// text each, so a torn write would show).
fn record_concurrently(repo: &Repo, writers: usize, each: usize, pad: usize) {
    let bin = assert_cmd::cargo::cargo_bin("git-handoff");
    std::thread::scope(|scope| {
        for w in 0..writers {
            let bin = &bin;
            scope.spawn(move || {
                for i in 0..each {
                    let payload = json!({
                        "hook_event_name": "PostToolUse", "cwd": repo.path.to_str().unwrap(),
                        "tool_name": "Bash", "tool_use_id": format!("w{w}-{i}"),
                        "tool_input": {"command": format!("echo {w} {i} {}", "y".repeat(pad))},
                        "tool_response": {"stdout": "", "stderr": "", "interrupted": false}
                    });
                    let mut cmd = Command::new(bin);
                    common::hermetic(&mut cmd, repo.home());
                    cmd.current_dir(&repo.path).arg("record");
                    let out = run_with_stdin(cmd, payload.to_string().as_bytes());
                    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                }
            });
        }
    });
}
