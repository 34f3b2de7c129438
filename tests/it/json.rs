//! `--json` everywhere: every command's stdout is one JSON document, errors included
//! (`{"error": {"kind", "message", "hint"}, "exit": N}` on stdout, the error lines on stderr).

use crate::common;

use common::Env;
use common::payloads::bash_ok;
use serde_json::Value;

/// Runs git-handoff with `args`, and parses stdout as exactly one JSON document.
fn json(repo: &common::Repo, args: &[&str], stdin: Option<&str>) -> (Option<i32>, Value) {
    let mut cmd = repo.handoff();
    cmd.args(args);
    let out = match stdin {
        Some(text) => {
            use std::io::Write;
            cmd.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped());
            cmd.stderr(std::process::Stdio::piped());
            let mut child = cmd.spawn().unwrap();
            child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
            child.wait_with_output().unwrap()
        }
        None => cmd.output().unwrap(),
    };
    let text = String::from_utf8(out.stdout).unwrap();
    let value = serde_json::from_str(&text).unwrap_or_else(|err| {
        panic!("{args:?}: stdout is not one JSON document ({err}): {text:?}")
    });
    (out.status.code(), value)
}

#[test]
fn every_command_prints_one_document_errors_included() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");

    let (code, version) = json(&repo, &["--version", "--json"], None);
    assert_eq!((code, version["version"].as_str()), (Some(0), Some(env!("CARGO_PKG_VERSION"))));
    let (code, start) = json(&repo, &["start", "--issue", "3", "--json"], None);
    assert_eq!(code, Some(0), "{start}");

    let payload = bash_ok(&repo, "cargo test").to_string();
    let (code, recorded) = json(&repo, &["record", "--json"], Some(&payload));
    assert_eq!(code, Some(0), "{recorded}");
    assert_eq!(recorded["recorded"]["kind"], "tool_result", "{recorded}");

    let (code, dry) = json(&repo, &["hooks", "install", "--dry-run", "--json"], None);
    assert_eq!((code, &dry["dry_run"]), (Some(0), &Value::Bool(true)), "{dry}");
    assert!(dry["hooks"][0]["diff"].as_str().unwrap().contains("git-handoff validate"), "{dry}");

    for args in [
        &["digest", "--json"][..],
        &["snapshot", "--json"],
        &["validate", "--json"],
        &["hooks", "status", "--json"],
    ] {
        let (code, _) = json(&repo, args, None);
        assert_eq!(code, Some(0), "{args:?}");
    }

    // Errors: of the command, of the payload, of the command line.
    let message = |err: &Value| err["error"]["message"].as_str().unwrap().to_string();
    let (code, err) = json(&repo, &["show", "no-such-rev", "--json"], None);
    assert_eq!((code, &err["exit"]), (Some(2), &Value::from(2)), "{err}");
    assert!(message(&err).contains("no-such-rev"), "{err}");
    let (code, err) = json(&repo, &["record", "--json"], Some("not json"));
    assert_eq!(code, Some(2));
    assert!(message(&err).starts_with("record:"), "{err}");
    let (code, err) = json(&repo, &["validate", "--json", "--no-such-flag"], None);
    assert_eq!((code, &err["exit"]), (Some(2), &Value::from(2)), "{err}");
    assert!(message(&err).contains("--no-such-flag"), "{err}");
    let outside = env.root.path().join("not-a-repo");
    std::fs::create_dir_all(&outside).unwrap();
    let (code, err) = json(&repo.at(&outside), &["digest", "--json"], None);
    assert_eq!(code, Some(2), "{err}");

    // A check that fails before the command writes its document (a note without its sections)
    // still gives one document, with exit 1.
    repo.write(".agent/handoff/3.md", "# Handoff note: issue #3\n\nnot a note\n");
    let (code, err) = json(&repo, &["note", "--json"], None);
    assert_eq!((code, &err["exit"]), (Some(1), &Value::from(1)), "{err}");
    assert!(message(&err).contains(".agent/handoff/3.md"), "{err}");
}

/// Each kind of error, made to happen: its stable name, its exit code, its message and a hint,
/// under `--json`; and the same exit code and message on stderr without it.
#[test]
fn every_error_kind_has_its_exit_code_and_a_hint() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    let outside = env.root.path().join("not-a-repo");
    std::fs::create_dir_all(&outside).unwrap();
    common::stdout_ok(repo.handoff().args(["start", "--issue", "5"]).output().unwrap());
    repo.write(".agent/handoff/5.md", "# Handoff note: issue #5\n\nnot a note\n");
    let bare = env.root.path().join("bare.git");
    repo.git(["init", "-q", "--bare", bare.to_str().unwrap()]);
    // (kind, where, arguments, stdin, what the message says)
    type Case<'a> = (&'a str, common::Repo, Vec<&'a str>, Option<&'a str>, &'a str);
    let cases: Vec<Case> = vec![
        ("usage", repo.at(&repo.path), vec!["snapshot", "--no-such-flag"], None, "--no-such-flag"),
        ("repository", repo.at(&outside), vec!["digest"], None, "not a git repository"),
        ("repository", repo.at(&bare), vec!["snapshot"], None, "bare repository"),
        ("input", repo.at(&repo.path), vec!["record"], Some("[1]"), "not a JSON object"),
        ("input", repo.at(&repo.path), vec!["show", "no-such-rev"], None, "no-such-rev"),
        ("not_passed", repo.at(&repo.path), vec!["note"], None, ".agent/handoff/5.md"),
        ("failed", repo.at(&repo.path), vec!["progress", "set", "9", "done"], None, ""),
    ];
    for (kind, at, args, stdin, says) in cases {
        let mut with_json = args.clone();
        with_json.push("--json");
        let (code, err) = json(&at, &with_json, stdin);
        let want = if kind == "not_passed" { 1 } else { 2 };
        assert_eq!(err["error"]["kind"], kind, "{args:?}: {err}");
        assert_eq!((code, err["exit"].as_i64()), (Some(want), Some(want as i64)), "{err}");
        assert!(err["error"]["message"].as_str().unwrap().contains(says), "{args:?}: {err}");
        assert!(!err["error"]["hint"].as_str().unwrap().is_empty(), "{err}");
        let mut plain = at.handoff();
        plain.args(&args).stdin(std::process::Stdio::piped());
        plain.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        let mut child = plain.spawn().unwrap();
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(stdin.unwrap_or("").as_bytes());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(want), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{args:?}: {out:?}");
    }
    // git that cannot be started: git's kind, and a hint of its own on stderr too.
    let out = repo.handoff().args(["snapshot", "--json"]).env("PATH", "/nonexistent").output();
    let out = out.unwrap();
    let err: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((out.status.code(), &err["error"]["kind"]), (Some(2), &Value::from("git")), "{err}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("hint: git-handoff runs git"), "{stderr}");
    // A broken configuration is its own kind.
    repo.write(".handoff.toml", "[caps]\nrecall_lines = \"ten\"\n");
    let (code, err) = json(&repo, &["validate", "--json"], None);
    assert_eq!((code, &err["error"]["kind"]), (Some(2), &Value::from("config")), "{err}");
    assert!(err["error"]["message"].as_str().unwrap().contains(".handoff.toml:2"), "{err}");
}

#[test]
fn demo_json_lists_each_step_with_its_commands() {
    let env = Env::new();
    let repo = env.repo("r");
    let (code, demo) = json(&repo, &["demo", "--json"], None);
    assert_eq!(code, Some(0));
    let steps = demo["steps"].as_array().unwrap();
    assert!(steps.len() >= 8, "{demo}");
    let commands: Vec<&str> = steps
        .iter()
        .flat_map(|s| s["commands"].as_array().unwrap())
        .map(|c| c["command"].as_str().unwrap())
        .collect();
    assert!(commands.contains(&"git show --stat '--format=%h %s' HEAD"), "{commands:?}");
    assert!(commands.iter().all(|c| !c.contains("--color")), "{commands:?}");
}
