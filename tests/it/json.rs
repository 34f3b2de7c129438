//! `--json` everywhere: every command's stdout is one JSON document, errors included
//! (`{"error": ..., "exit": 2}` on stdout, the error line on stderr).

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
    let (code, err) = json(&repo, &["show", "no-such-rev", "--json"], None);
    assert_eq!((code, &err["exit"]), (Some(2), &Value::from(2)), "{err}");
    assert!(err["error"].as_str().unwrap().contains("no-such-rev"), "{err}");
    let (code, err) = json(&repo, &["record", "--json"], Some("not json"));
    assert_eq!(code, Some(2));
    assert!(err["error"].as_str().unwrap().starts_with("record:"), "{err}");
    let (code, err) = json(&repo, &["validate", "--json", "--no-such-flag"], None);
    assert_eq!((code, &err["exit"]), (Some(2), &Value::from(2)), "{err}");
    assert!(err["error"].as_str().unwrap().contains("--no-such-flag"), "{err}");
    let outside = env.root.path().join("not-a-repo");
    std::fs::create_dir_all(&outside).unwrap();
    let (code, err) = json(&repo.at(&outside), &["digest", "--json"], None);
    assert_eq!(code, Some(2), "{err}");

    // A check that fails before the command writes its document (a note without its sections)
    // still gives one document, with exit 1.
    repo.write(".agent/handoff/3.md", "# Handoff note: issue #3\n\nnot a note\n");
    let (code, err) = json(&repo, &["note", "--json"], None);
    assert_eq!((code, &err["exit"]), (Some(1), &Value::from(1)), "{err}");
    assert!(err["error"].as_str().unwrap().contains(".agent/handoff/3.md"), "{err}");
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
