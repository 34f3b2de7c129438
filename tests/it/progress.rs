//! The progress plan: statuses, the change summary, and a plan that survives interruption.

use crate::common;

use std::time::Duration;

use common::{Env, stdout_ok};
use serde_json::Value;

fn json(out: std::process::Output) -> Value {
    serde_json::from_str(&stdout_ok(out)).unwrap()
}

#[test]
fn tasks_interrupted_after_task_two_show_done_in_progress_and_untouched() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "3"]).output().unwrap());
    let items = ["Parse input", "Validate fields", "Write output", "Tests", "Docs"];
    stdout_ok(repo.handoff().args(["progress", "plan"]).args(items).output().unwrap());
    stdout_ok(
        repo.handoff()
            .args(["progress", "set", "0", "done", "--files", "src/parse.rs"])
            .output()
            .unwrap(),
    );
    stdout_ok(
        repo.handoff()
            .args(["progress", "set", "1", "done", "--note", "checks all fields"])
            .output()
            .unwrap(),
    );
    stdout_ok(repo.handoff().args(["progress", "set", "2", "in_progress"]).output().unwrap());
    repo.write("src/parse.rs", "fn parse() {}\n");

    let show = json(repo.handoff().args(["progress", "show", "--json"]).output().unwrap());
    assert_eq!(show["status_line"], "In progress — task 2 of 5");
    assert_eq!(show["complete"], false);
    let statuses: Vec<&str> =
        show["items"].as_array().unwrap().iter().map(|i| i["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["done", "done", "in_progress", "pending", "pending"]);
    assert_eq!(show["items"][0]["id"], "0");
    assert_eq!(show["items"][0]["title"], "Parse input");
    assert_eq!(show["items"][1]["note"], "checks all fields");
    assert!(show["files_changed"].as_array().unwrap().contains(&Value::from("src/parse.rs")));

    let text = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    assert!(
        text.starts_with(
            "# Change summary — ticket #3\n\n## Status\n\nIn progress — task 2 of 5\n"
        ),
        "{text}"
    );
    for heading in [
        "## Per-task summary",
        "### Task 0: Parse input — done",
        "### Task 2: Write output — in progress",
        "## Files changed",
        "## Quality gates",
        "## Deferred items",
    ] {
        assert!(text.contains(heading), "{heading} missing: {text}");
    }
}

#[test]
fn findings_mode_and_status_validation() {
    let env = Env::new();
    let repo = env.repo("r");
    stdout_ok(
        repo.handoff()
            .args([
                "progress",
                "plan",
                "--findings",
                "F1: off by one in parser",
                "W1: noisy log",
                "F2: missing test",
            ])
            .output()
            .unwrap(),
    );
    stdout_ok(repo.handoff().args(["progress", "set", "F1", "fixed"]).output().unwrap());
    stdout_ok(repo.handoff().args(["progress", "set", "w1", "already_resolved"]).output().unwrap());
    let out = repo.handoff().args(["progress", "set", "F2", "done"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"done\" is not a finding status; use one of: pending, fixed, not_fixed, already_resolved"), "{err}");
    let out = repo.handoff().args(["progress", "set", "F9", "fixed"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no item \"F9\""));
    stdout_ok(
        repo.handoff()
            .args(["progress", "set", "F2", "not_fixed", "--note", "needs a fixture"])
            .output()
            .unwrap(),
    );
    let show = json(repo.handoff().args(["progress", "show", "--json"]).output().unwrap());
    assert_eq!(show["status_line"], "Complete — 3 of 3 findings addressed (F2 not fixed)");
    let ids: Vec<&str> =
        show["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["F1", "W1", "F2"]);
    let text = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    assert!(text.contains("- F2: missing test — NOT_FIXED: needs a fixture"), "{text}");

    let out =
        repo.handoff().args(["progress", "plan", "--findings", "no id here"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A plan with progress is not replaced by accident.
    let out = repo.handoff().args(["progress", "plan", "new"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    stdout_ok(repo.handoff().args(["progress", "plan", "--force", "new"]).output().unwrap());
}

#[test]
fn write_path_and_config_keep_a_whole_summary_file() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".handoff.toml", "[progress]\nwrite = \"summary.md\"\n");
    stdout_ok(repo.handoff().args(["progress", "plan", "one", "two"]).output().unwrap());
    let first = String::from_utf8(repo.read("summary.md")).unwrap();
    assert!(first.contains("In progress — task 0 of 2"), "{first}");
    stdout_ok(repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap());
    let second = String::from_utf8(repo.read("summary.md")).unwrap();
    assert!(second.contains("In progress — task 1 of 2"), "{second}");
    stdout_ok(
        repo.handoff().args(["progress", "show", "--write", "out/elsewhere.md"]).output().unwrap(),
    );
    assert_eq!(repo.read("out/elsewhere.md"), second.as_bytes());
}

#[test]
fn killing_updates_midway_never_leaves_a_broken_plan() {
    let env = Env::new();
    let repo = env.repo("r");
    let items: Vec<String> =
        (0..200).map(|i| format!("task number {i} with a longer title")).collect();
    stdout_ok(repo.handoff().args(["progress", "plan"]).args(&items).output().unwrap());
    for round in 0..30u64 {
        let mut children: Vec<std::process::Child> = (0..4)
            .map(|k| {
                let status =
                    ["in_progress", "done", "abandoned", "pending"][((round + k) % 4) as usize];
                repo.handoff()
                    .args([
                        "progress",
                        "set",
                        &((round * 4 + k) % 200).to_string(),
                        status,
                        "--note",
                        "n",
                    ])
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        std::thread::sleep(Duration::from_micros(200 + round * 150));
        for child in &mut children {
            let _ = child.kill();
            let _ = child.wait();
        }
        let show = json(repo.handoff().args(["progress", "show", "--json"]).output().unwrap());
        assert_eq!(show["items"].as_array().unwrap().len(), 200, "round {round}");
    }
}

#[test]
fn no_plan_is_a_clear_error_to_set_and_a_scaffold_to_show() {
    let env = Env::new();
    let repo = env.repo("r");
    let out = repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("git handoff progress plan"));
    let shown = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    assert!(shown.contains("Not started — no plan yet") && shown.contains("(pending)"), "{shown}");
}

#[test]
fn an_attempt_interrupted_after_task_two_of_five_leaves_a_complete_record() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "21"]).output().unwrap());
    stdout_ok(
        repo.handoff()
            .args(["progress", "plan", "Parse", "Validate", "Render", "Test", "Docs"])
            .output()
            .unwrap(),
    );
    stdout_ok(repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap());
    stdout_ok(repo.handoff().args(["progress", "set", "1", "done"]).output().unwrap());
    stdout_ok(repo.handoff().args(["progress", "set", "2", "in_progress"]).output().unwrap());
    // The session dies here; the runtime writes the emergency note.
    stdout_ok(
        repo.handoff().args(["note", "--emergency", "--reason", "time_limit"]).output().unwrap(),
    );
    let note = String::from_utf8(repo.read(".agent/handoff/21.md")).unwrap();
    let remaining = note.split("## Remaining work").nth(1).unwrap();
    assert!(remaining.contains("Progress plan: In progress — task 2 of 5 (2 tasks done, 1 task in progress, 2 tasks pending)."), "{note}");
    for line in [
        "- 0 Parse: done",
        "- 1 Validate: done",
        "- 2 Render: in_progress",
        "- 3 Test: pending",
        "- 4 Docs: pending",
    ] {
        assert!(remaining.contains(line), "{line}: {note}");
    }
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(recall.contains("Progress: tasks 0–1 done, 2 in progress, 3–4 pending"), "{recall}");
}
