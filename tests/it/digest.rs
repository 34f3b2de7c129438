//! `digest` over logs written by `record` from real-shaped payloads: the facts a note is checked
//! against must be exact.

use crate::common;

use common::payloads::{bash_failed, bash_ok, edit, hook, record};
use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

fn digest(repo: &Repo) -> Value {
    serde_json::from_str(&stdout_ok(repo.handoff().args(["digest", "--json"]).output().unwrap()))
        .unwrap()
}

fn line(repo: &Repo) -> String {
    stdout_ok(repo.handoff().arg("digest").output().unwrap()).lines().next().unwrap().to_string()
}

fn started(env: &Env) -> Repo {
    let repo = env.repo("r");
    repo.write("README.md", "hi\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "179"]).output().unwrap());
    repo
}

#[test]
fn an_empty_log_is_an_empty_digest() {
    let env = Env::new();
    let repo = started(&env);
    let d = digest(&repo);
    assert_eq!(d["files_edited"], json!([]));
    assert_eq!(d["tool_calls"], 0);
    assert_eq!(d["errors"], 0);
    assert_eq!(d["last_check"], Value::Null);
    assert_eq!(d["last_assistant_text"], Value::Null);
    assert_eq!(d["handoff_skill"], false);
    assert_eq!(d["turns"], 0);
    assert_eq!(d["first_event_at"], Value::Null);
    assert_eq!(d["implicit_attempt"], false);
    assert_eq!(line(&repo), "0 files edited · no check run · 0 tool calls, 0 errors");
    // Without any attempt state or log, digest still works.
    let bare = env.repo("bare");
    assert_eq!(line(&bare), "0 files edited · no check run · 0 tool calls, 0 errors");
}

#[test]
fn a_session_digested_exactly() {
    let env = Env::new();
    let repo = started(&env);
    record(&repo, &hook(&repo, "UserPromptSubmit", json!({"prompt": "fix it"})));
    record(&repo, &edit(&repo, "src/a.rs"));
    record(&repo, &edit(&repo, "src/a.rs"));
    record(&repo, &edit(&repo, "src/b.rs"));
    // A failed edit edits nothing.
    record(
        &repo,
        &hook(
            &repo,
            "PostToolUseFailure",
            json!({"tool_name": "Edit", "tool_input": {"file_path": repo.path.join("src/c.rs").to_str().unwrap()},
                   "error": "String to replace not found in file."}),
        ),
    );
    record(&repo, &bash_ok(&repo, "cargo test"));
    record(&repo, &bash_failed(&repo, "cd crates/x && RUST_BACKTRACE=1 cargo test -p x", 101));
    record(&repo, &bash_ok(&repo, "git status"));
    record(
        &repo,
        &hook(
            &repo,
            "Stop",
            json!({"stop_hook_active": false, "last_assistant_message": "Tests still fail in x."}),
        ),
    );
    let d = digest(&repo);
    assert_eq!(d["files_edited"], json!(["src/a.rs", "src/b.rs"]));
    assert_eq!(d["tool_calls"], 7);
    assert_eq!(d["errors"], 2);
    assert_eq!(
        d["last_check"],
        json!({"command": "cargo test -p x", "ok": false, "exit_code": 101, "readable": true})
    );
    assert_eq!(d["last_check_call"]["target"], "cd crates/x && RUST_BACKTRACE=1 cargo test -p x");
    assert_eq!(d["last_assistant_text"], "Tests still fail in x.");
    assert_eq!(d["turns"], 1);
    assert!(d["first_event_at"].as_str().unwrap() <= d["last_event_at"].as_str().unwrap());
    assert_eq!(
        line(&repo),
        "2 files edited · last `cargo test -p x` failed · 7 tool calls, 2 errors"
    );
    let recent = d["recent_calls"].as_array().unwrap();
    assert_eq!(recent.len(), 7);
    assert_eq!(recent[3]["name"], "Edit");
    assert_eq!(recent[3]["ok"], false);
    assert_eq!(recent[6]["target"], "git status");

    // A later passing run is the last check.
    record(&repo, &bash_ok(&repo, "cargo test"));
    let d = digest(&repo);
    assert_eq!(
        d["last_check"],
        json!({"command": "cargo test", "ok": true, "exit_code": 0, "readable": true})
    );
    assert_eq!(d["turns"], 2);
    assert!(line(&repo).contains("last `cargo test` passed"));
}

#[test]
fn piped_and_masked_checks_are_not_readable() {
    let env = Env::new();
    let repo = started(&env);
    for command in [
        "cargo test 2>&1 | tail -20",
        "npm test | grep -v warn",
        "pytest -q | tee out.txt",
        "cargo test || true",
        "go test ./... ; true",
        "make test &",
    ] {
        record(&repo, &bash_ok(&repo, command));
        let d = digest(&repo);
        assert_eq!(d["last_check"]["readable"], false, "{command}");
        assert!(line(&repo).contains("unreadable"), "{command}: {}", line(&repo));
    }
    record(&repo, &bash_ok(&repo, "set -o pipefail; cargo test 2>&1 | tail -20"));
    assert_eq!(digest(&repo)["last_check"]["readable"], true);
}

#[test]
fn check_commands_match_as_words() {
    let env = Env::new();
    let repo = started(&env);
    for command in
        ["cargo testing", "echo cargo test", "grep -r 'npm test' .", "makeup", "cargo-test"]
    {
        record(&repo, &bash_failed(&repo, command, 1));
    }
    assert_eq!(digest(&repo)["last_check"], Value::Null);
    assert_eq!(line(&repo), "0 files edited · no check run · 5 tool calls, 5 errors");
    record(&repo, &bash_ok(&repo, "cargo test --workspace"));
    assert_eq!(digest(&repo)["last_check"]["command"], "cargo test --workspace");
}

#[test]
fn configured_check_commands() {
    let env = Env::new();
    let repo = started(&env);
    repo.write(".handoff.toml", "[checks]\nextra = [\"just verify\"]\n");
    record(&repo, &bash_failed(&repo, "just verify", 3));
    assert_eq!(
        digest(&repo)["last_check"],
        json!({"command": "just verify", "ok": false, "exit_code": 3, "readable": true})
    );
    repo.write(".handoff.toml", "[checks]\ncommands = [\"bazel test\"]\n");
    record(&repo, &bash_ok(&repo, "cargo test"));
    // The digest is recomputed with the configuration in force: neither run is a check now.
    assert_eq!(digest(&repo)["last_check"], Value::Null);
}

#[test]
fn handoff_skill_counts_only_on_the_main_thread() {
    let env = Env::new();
    let repo = started(&env);
    let skill = |agent: Option<&str>| {
        let mut payload = hook(
            &repo,
            "PostToolUse",
            json!({"tool_name": "Skill", "tool_input": {"skill": "handoff"}, "tool_response": {}}),
        );
        if let Some(agent) = agent {
            payload["agent_id"] = json!(agent);
            payload["agent_type"] = json!("general-purpose");
        }
        payload
    };
    record(&repo, &skill(Some("sub-1")));
    assert_eq!(digest(&repo)["handoff_skill"], false);
    record(
        &repo,
        &hook(
            &repo,
            "PostToolUse",
            json!({"tool_name": "Skill", "tool_input": {"skill": "other"}}),
        ),
    );
    assert_eq!(digest(&repo)["handoff_skill"], false);
    record(&repo, &skill(None));
    assert_eq!(digest(&repo)["handoff_skill"], true);
}

#[test]
fn subagent_stop_text_is_not_the_last_assistant_text() {
    let env = Env::new();
    let repo = started(&env);
    record(&repo, &hook(&repo, "Stop", json!({"last_assistant_message": "main says done"})));
    record(
        &repo,
        &hook(
            &repo,
            "SubagentStop",
            json!({"agent_id": "x", "last_assistant_message": "sub says"}),
        ),
    );
    assert_eq!(digest(&repo)["last_assistant_text"], "main says done");
}

#[test]
fn a_check_that_never_finished() {
    let env = Env::new();
    let repo = started(&env);
    record(&repo, &bash_ok(&repo, "cargo test"));
    record(
        &repo,
        &hook(
            &repo,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_use_id": "t9", "tool_input": {"command": "cargo test"}}),
        ),
    );
    let d = digest(&repo);
    assert_eq!(d["tool_calls"], 2);
    assert_eq!(d["last_check"]["readable"], false);
    assert_eq!(d["last_check"]["ok"], false);
    assert!(line(&repo).contains("last `cargo test` did not finish"), "{}", line(&repo));
    assert_eq!(d["recent_calls"][1]["ok"], Value::Null);
    // Its result pairs with the start: still two calls.
    record(&repo, &{
        let mut p = bash_failed(&repo, "cargo test", 101);
        p["tool_use_id"] = json!("t9");
        p
    });
    let d = digest(&repo);
    assert_eq!(d["tool_calls"], 2);
    assert_eq!(d["recent_calls"].as_array().unwrap().len(), 2);
    assert_eq!(d["last_check"]["exit_code"], 101);
}

#[test]
fn the_last_fifteen_calls() {
    let env = Env::new();
    let repo = started(&env);
    for i in 0..20 {
        record(
            &repo,
            &hook(
                &repo,
                "PostToolUse",
                json!({"tool_name": "Read", "tool_input": {"file_path": format!("f{i}.rs")}}),
            ),
        );
    }
    let d = digest(&repo);
    let recent = d["recent_calls"].as_array().unwrap();
    assert_eq!(recent.len(), 15);
    assert_eq!(recent[0]["target"], "f5.rs");
    assert_eq!(recent[14]["target"], "f19.rs");
    assert_eq!(d["files_edited"], json!([]), "reads are not edits");
}

#[test]
fn an_interrupted_check_did_not_pass() {
    let env = Env::new();
    let repo = started(&env);
    let mut payload = bash_ok(&repo, "cargo test");
    payload["tool_response"]["interrupted"] = json!(true);
    record(&repo, &payload);
    let d = digest(&repo);
    assert_eq!(d["errors"], 1);
    assert_eq!(d["last_check"]["ok"], false);
    assert_eq!(d["last_check"]["exit_code"], Value::Null);
    assert!(line(&repo).contains("last `cargo test` failed"), "{}", line(&repo));
}
