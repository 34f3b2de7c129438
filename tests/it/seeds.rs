//! Issue 47: each seed's criteria as its user runs them (`shared/seeds/`): the change summary on
//! disk never claims more than the log (004), the emergency note degrades per fact (000), the
//! prompt keeps the commit-first flow for other limits (001), Orstrum's words (002), seal's exit
//! status at the hard limit, and counts and articles that read as English.

use crate::common;

use common::payloads::{edit, record};
use common::{Env, Repo, stdout_ok};
use serde_json::Value;

fn started(env: &Env, name: &str, issue: u64) -> Repo {
    let repo = env.repo(name);
    repo.write("README.md", "hi\n");
    repo.write("a.rs", "a\n");
    repo.write("b.rs", "b\n");
    repo.commit_all("init");
    stdout_ok(
        repo.handoff()
            .args(["start", "--issue", &issue.to_string(), "--started-at", "2026-11-30T03:48:52Z"])
            .output()
            .unwrap(),
    );
    repo
}

fn json(repo: &Repo, args: &[&str]) -> Value {
    let out = repo.handoff().args(args).arg("--json").output().unwrap();
    serde_json::from_str(&stdout_ok(out)).unwrap()
}

#[test]
fn a_skipped_digest_names_the_record_with_the_right_article() {
    let env = Env::new();
    let repo = started(&env, "r", 11);
    record(&repo, &edit(&repo, "a.rs"));
    repo.write("s.toml", "done = [\"Edited a\"]\n");
    json(&repo, &["note", "--summary", "s.toml"]);
    let out = json(&repo, &["note", "--digest-only"]);
    assert_eq!(out["kind"], "none");
    let why = out["skipped"].as_str().unwrap();
    assert!(why.contains("HEAD already has an agent record"), "{why}");
}

#[test]
fn a_one_task_plan_completes_in_the_singular() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    stdout_ok(repo.handoff().args(["progress", "plan", "Only task"]).output().unwrap());
    let out = json(&repo, &["progress", "set", "0", "done"]);
    assert_eq!(out["status_line"], "Complete — 1 of 1 task done");
    stdout_ok(
        repo.handoff()
            .args(["progress", "plan", "--force", "--findings", "F1: x"])
            .output()
            .unwrap(),
    );
    let out = json(&repo, &["progress", "set", "F1", "fixed"]);
    assert_eq!(out["status_line"], "Complete — 1 of 1 finding addressed");
}
