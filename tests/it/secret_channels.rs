//! Issue 48's "secrets by other roads": the whole corpus of [`super::secrets`] (every secret form
//! and every look-alike) is sent through every channel git-handoff writes to, and what it wrote is
//! read back: a note (its file, commit and record), the event log of `record` (commands and
//! edited paths, `//` in them included), the progress plan and change summary (`--note` and
//! `--files`), the MCP server's answers, error messages that quote an argument, and seal's guard
//! (content, file names and UTF-16 text). No secret may appear in any of them, nor in any object
//! of the repository; every look-alike must come through verbatim where it is kept.

use std::io::Write;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::payloads::{bash_ok, hook, record};
use crate::common::{Env, Repo, stdout_ok};
use crate::secrets::{LOOK_ALIKES, secret_forms};

fn started(env: &Env, name: &str, issue: u64) -> Repo {
    let repo = env.repo(name);
    repo.write("README.md", "hi\n");
    repo.commit_all("init");
    let issue = issue.to_string();
    stdout_ok(repo.handoff().args(["start", "--issue", &issue]).output().unwrap());
    repo
}

/// Every object in the repository, as `git cat-file` prints it (loose objects are compressed).
fn all_objects(repo: &Repo) -> String {
    let out = repo.git(["cat-file", "--batch-all-objects", "--batch", "--unordered"]);
    String::from_utf8_lossy(&out).into_owned()
}

/// The forms whose secret appears in `written`, named for the failure message.
fn leaks(channel: &str, written: &str) -> Vec<String> {
    // memchr's search (built optimised, as every dependency) rather than `str::contains`, which
    // the unoptimised test harness ran for a quarter of this file's time over megabytes of output.
    secret_forms()
        .into_iter()
        .filter(|(_, _, secret)| {
            memchr::memmem::find(written.as_bytes(), secret.as_bytes()).is_some()
        })
        .map(|(form, _, _)| format!("{channel}: {form}"))
        .collect()
}

fn single_line_forms() -> Vec<(&'static str, String, String)> {
    secret_forms().into_iter().filter(|(_, text, _)| !text.contains('\n')).collect()
}

#[test]
fn a_note_its_commit_and_record_hold_no_secret_and_every_look_alike() {
    let env = Env::new();
    let repo = started(&env, "r", 48);
    let mut summary = String::new();
    for (_, text, _) in secret_forms() {
        summary.push_str(&format!("{text}\n\n"));
    }
    for text in LOOK_ALIKES {
        summary.push_str(&format!("{text}\n\n"));
    }
    let note = format!(
        "# Handoff note: issue #48\n\n## Summary\n\n{summary}## Remaining work\n\n- more\n\n\
         ## Evidence\n\n- none\n"
    );
    repo.write(".agent/handoff/48.md", &note);
    let out = repo.handoff().args(["note", "--json"]).output().unwrap();
    let printed =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.code() == Some(0), "{printed}");
    let committed = String::from_utf8(repo.git(["show", "HEAD:.agent/handoff/48.md"])).unwrap();
    let message = repo.git_text(["log", "-1", "--format=%B"]);
    let show = stdout_ok(repo.handoff().args(["show", "--json"]).output().unwrap());
    let recall = stdout_ok(repo.handoff().arg("recall").output().unwrap());
    let mut leaked = Vec::new();
    for (channel, text) in [
        ("note file", committed.as_str()),
        ("commit message", message.as_str()),
        ("note --json", printed.as_str()),
        ("show --json", show.as_str()),
        ("recall", recall.as_str()),
        ("objects", all_objects(&repo).as_str()),
        ("work tree", &String::from_utf8_lossy(&repo.read(".agent/handoff/48.md"))),
    ] {
        leaked.extend(leaks(channel, text));
    }
    assert!(leaked.is_empty(), "secrets written:\n{}", leaked.join("\n"));
    let mangled: Vec<&&str> = LOOK_ALIKES.iter().filter(|t| !committed.contains(**t)).collect();
    assert!(mangled.is_empty(), "look-alikes the note changed: {mangled:#?}");
}

#[test]
fn the_event_log_holds_no_secret_from_commands_or_paths() {
    let env = Env::new();
    let repo = started(&env, "r", 48);
    let top = repo.path.to_str().unwrap().to_string();
    for (_, text, _) in secret_forms() {
        record(&repo, &bash_ok(&repo, &text));
    }
    for (_, text, _) in single_line_forms() {
        // As a path in the work tree and as a path of its own (`postgres://` is `postgres:/`
        // once normalized).
        for path in [format!("{top}/{text}"), text.clone()] {
            let payload = hook(
                &repo,
                "PostToolUse",
                json!({"tool_name": "Write", "tool_use_id": "w",
                       "tool_input": {"file_path": path, "content": "x"},
                       "tool_response": {"success": true}}),
            );
            record(&repo, &payload);
        }
    }
    for text in LOOK_ALIKES {
        record(&repo, &bash_ok(&repo, text));
    }
    let log = String::from_utf8(repo.read(".git/handoff/events.jsonl")).unwrap();
    let leaked = leaks("event log", &log);
    assert!(leaked.is_empty(), "secrets written:\n{}", leaked.join("\n"));
    let targets: Vec<String> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v["target"].as_str().map(str::to_string))
        .collect();
    let mangled: Vec<&&str> =
        LOOK_ALIKES.iter().filter(|t| !targets.iter().any(|x| x == **t)).collect();
    assert!(mangled.is_empty(), "look-alikes the log changed: {mangled:#?}");
    let digest = stdout_ok(repo.handoff().args(["digest", "--json"]).output().unwrap());
    assert!(leaks("digest", &digest).is_empty());
}

#[test]
fn the_plan_summary_and_mcp_answers_hold_no_secret() {
    let env = Env::new();
    let repo = started(&env, "r", 48);
    repo.write(".handoff.toml", "[progress]\nwrite = \"CHANGES.md\"\n");
    let forms = single_line_forms();
    let mut plan = repo.handoff();
    plan.args(["progress", "plan"]);
    for (_, text, _) in &forms {
        plan.arg(text);
    }
    for text in LOOK_ALIKES {
        plan.arg(text);
    }
    let mut printed = stdout_ok(plan.output().unwrap());
    for (i, (_, text, _)) in secret_forms().iter().enumerate() {
        let id = (i % forms.len()).to_string();
        let out = repo
            .handoff()
            .args(["progress", "set", &id, "done", "--note", text, "--files", text])
            .output()
            .unwrap();
        printed.push_str(&String::from_utf8_lossy(&out.stdout));
        printed.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    printed.push_str(&stdout_ok(
        repo.handoff().args(["progress", "show", "--json"]).output().unwrap(),
    ));
    // The MCP tool: the same changes, and errors that quote what they refuse.
    let mut messages = vec![json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}})];
    for (i, (_, text, _)) in secret_forms().iter().enumerate() {
        let set = json!({"id": "0", "status": "done", "note": text, "files": [text]});
        messages.push(call(2 * i + 1, "handoff_progress", json!({"set": set})));
        let bad = json!({"id": text, "status": "done"});
        messages.push(call(2 * i + 2, "handoff_progress", json!({"set": bad})));
    }
    messages.push(call(9999, "handoff_progress", json!({})));
    let answers = serve(&repo, &messages);
    let mut leaked = leaks("progress output", &printed);
    leaked.extend(leaks(
        "progress.toml",
        &String::from_utf8_lossy(&repo.read(".git/handoff/progress.toml")),
    ));
    leaked.extend(leaks("CHANGES.md", &String::from_utf8_lossy(&repo.read("CHANGES.md"))));
    leaked.extend(leaks("mcp answers", &serde_json::to_string(&answers).unwrap()));
    assert!(leaked.is_empty(), "secrets written:\n{}", leaked.join("\n"));
    let toml = String::from_utf8_lossy(&repo.read(".git/handoff/progress.toml")).into_owned();
    let plan: toml::Table = toml.parse().unwrap();
    let titles: Vec<&str> =
        plan["item"].as_array().unwrap().iter().filter_map(|i| i["title"].as_str()).collect();
    let mangled: Vec<&&str> = LOOK_ALIKES.iter().filter(|t| !titles.contains(&t.trim())).collect();
    assert!(mangled.is_empty(), "look-alikes the plan changed: {mangled:#?}");
}

fn call(id: usize, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
}

fn serve(repo: &Repo, messages: &[Value]) -> Vec<Value> {
    let mut child = repo
        .handoff()
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = messages.iter().map(|m| format!("{m}\n")).collect();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = stdout_ok(child.wait_with_output().unwrap());
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn error_messages_never_echo_a_secret_argument() {
    let env = Env::new();
    let repo = started(&env, "r", 48);
    let mut printed = String::new();
    for (_, text, _) in secret_forms() {
        for args in [
            vec!["seal", text.as_str()],
            vec!["note", "--reason", text.as_str()],
            vec!["note", "--reason", text.as_str(), "--json"],
            vec!["recall", "--issue", text.as_str()],
            vec!["progress", "set", text.as_str(), "done"],
        ] {
            let out = repo.handoff().args(&args).output().unwrap();
            assert_ne!(out.status.code(), Some(0), "{args:?}");
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            if !leaks("", &said).is_empty() {
                printed.push_str(&format!("{args:?}: {said}\n"));
            }
        }
    }
    assert!(printed.is_empty(), "secrets echoed:\n{printed}");
}

/// UTF-16 little-endian with a BOM, as Windows editors save it.
fn utf16(text: &str) -> Vec<u8> {
    let mut out = vec![0xff, 0xfe];
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

#[test]
fn seal_leaves_out_every_secret_by_content_name_and_encoding_and_keeps_every_look_alike() {
    let env = Env::new();
    let repo = started(&env, "r", 48);
    let forms = secret_forms();
    for (i, (_, text, _)) in forms.iter().enumerate() {
        repo.write(format!("secret/{i:03}.txt"), text);
        repo.write(format!("wide/{i:03}.txt"), utf16(text));
    }
    for (i, (_, text, _)) in single_line_forms().iter().enumerate() {
        // Only forms that make a file name: no slash, not too long.
        if !text.contains('/') && text.len() < 200 {
            repo.write(format!("named/{i:03}/{text}"), "plain content\n");
        }
    }
    for (i, text) in LOOK_ALIKES.iter().enumerate() {
        repo.write(format!("code/{i:03}.txt"), text);
        repo.write(format!("code/{i:03}.wide.txt"), utf16(text));
    }
    repo.write("config.yml", "db:\n  password: aBcD3fGh1J\n");
    let out = repo.handoff().args(["seal", "--json"]).output().unwrap();
    // Exit 1: files were left out, as the report says.
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    let tree = repo.git_text(["ls-tree", "-r", "--name-only", "-z", "HEAD"]);
    let committed: Vec<&str> = tree.split('\0').filter(|p| !p.is_empty()).collect();
    let held: Vec<&&str> = committed
        .iter()
        .filter(|p| p.starts_with("secret/") || p.starts_with("wide/") || p.starts_with("named/"))
        .collect();
    assert!(held.is_empty(), "secrets sealed: {held:#?}");
    assert!(!committed.contains(&"config.yml"));
    for (i, text) in LOOK_ALIKES.iter().enumerate() {
        for name in [format!("code/{i:03}.txt"), format!("code/{i:03}.wide.txt")] {
            assert!(committed.contains(&name.as_str()), "{name} ({text:?}) held back");
        }
    }
    let mut leaked = leaks("objects", &all_objects(&repo));
    leaked.extend(leaks("seal --json", &printed));
    let quarantines: Vec<_> = std::fs::read_dir(repo.path.join(".git/objects"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("tmp_objdir"))
        .collect();
    assert!(quarantines.is_empty());
    assert!(leaked.is_empty(), "secrets written:\n{}", leaked.join("\n"));
}
