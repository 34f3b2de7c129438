//! Claims held to seed 002: prose lines of Summary and Evidence are claims too, a claim is judged by
//! the last run of its own kind, a check that did not finish is never called failed, "working" is
//! no success, the handoff's own files are not work, counts read as English, and a digest-only
//! handoff names its files.

use crate::common;

use common::payloads::{bash_failed, bash_ok, edit, hook, record};
use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

fn started(env: &Env, issue: u64) -> Repo {
    let repo = env.repo("r");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    let args = ["start", "--issue", &issue.to_string(), "--started-at", "2026-11-30T03:48:52Z"];
    stdout_ok(repo.handoff().args(args).output().unwrap());
    repo
}

fn header(repo: &Repo, issue: u64) -> String {
    format!(
        "# Handoff note: issue #{issue}\n\nissue: {issue}\nstarted_at: 2026-11-30T03:48:52Z\n\
         reason: agent_request\nlast_work_commit: {}\n",
        repo.head()
    )
}

fn note_json(repo: &Repo) -> Value {
    serde_json::from_str(&stdout_ok(repo.handoff().args(["note", "--json"]).output().unwrap()))
        .unwrap()
}

fn tags(outcome: &Value) -> Vec<(String, String)> {
    outcome["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["item"].as_str().unwrap().to_string(), t["why"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn prose_and_evidence_lines_are_claims_and_working_is_no_success() {
    let env = Env::new();
    let repo = started(&env, 5);
    repo.write("src/lib.rs", "fn a() { b() }\n");
    record(&repo, &edit(&repo, "src/lib.rs"));
    record(&repo, &bash_failed(&repo, "cargo test", 101));
    let body = "\n## Summary\n\nGoal: make the parser pass its tests\n\n\
                I fixed the parser and all tests pass now.\n\n- Wrote the parser\n\
                - working on the fix\n\n### In progress\n\n- Tests pass for the lexer\n\n\
                ## Remaining work\n\n- Make the tests pass\n\n## Evidence\n\n\
                cargo test: all green\n- ran `cargo test` and it failed\n";
    repo.write(".agent/handoff/5.md", format!("{}{body}", header(&repo, 5)));
    let outcome = note_json(&repo);
    let why = "last `cargo test` failed".to_string();
    assert_eq!(
        tags(&outcome),
        [
            ("I fixed the parser and all tests pass now.".to_string(), why.clone()),
            ("cargo test: all green".to_string(), why.clone()),
        ]
    );
    let text = String::from_utf8(repo.read(".agent/handoff/5.md")).unwrap();
    assert!(text.contains(
        "\nI fixed the parser and all tests pass now. [unverified: last `cargo test` failed]\n"
    ));
    assert!(text.contains("\ncargo test: all green [unverified: last `cargo test` failed]\n"));
    assert!(text.contains("\n- working on the fix\n"), "{text}");
    assert!(text.contains("\nGoal: make the parser pass its tests\n"), "{text}");
    assert!(text.contains("\n- Tests pass for the lexer\n"), "in progress is no claim: {text}");
    assert!(text.contains("\n- Make the tests pass\n"), "remaining work is no claim: {text}");

    // The human form tells the agent what to do with a tag.
    repo.write(".agent/handoff/5.md", format!("{}{body}", header(&repo, 5)));
    let out = repo.handoff().args(["note"]).output().unwrap();
    assert!(out.status.success());
    let human = String::from_utf8(out.stdout).unwrap();
    assert!(
        human
            .contains("Tagged [unverified]: \"cargo test: all green\" (last `cargo test` failed). Correct it if the log is right.\n"),
        "{human}"
    );
}

#[test]
fn a_claim_is_judged_by_the_last_run_of_its_own_kind() {
    let env = Env::new();
    let repo = started(&env, 6);
    record(&repo, &edit(&repo, "src/lib.rs"));
    record(&repo, &bash_failed(&repo, "cargo test", 101));
    record(&repo, &bash_ok(&repo, "cargo build"));
    let body = "\n## Summary\n\n- All tests pass\n- The build passes\n- Clippy is clean and lints pass\n\n\
                ## Remaining work\n\n- none\n\n## Evidence\n\n- cargo build: ok\n";
    repo.write(".agent/handoff/6.md", format!("{}{body}", header(&repo, 6)));
    let outcome = note_json(&repo);
    assert_eq!(
        tags(&outcome),
        [
            ("All tests pass".to_string(), "last `cargo test` failed".to_string()),
            ("Clippy is clean and lints pass".to_string(), "no lint ran".to_string()),
        ]
    );
}

#[test]
fn a_check_that_never_finished_did_not_finish_everywhere() {
    let env = Env::new();
    let repo = started(&env, 7);
    record(&repo, &edit(&repo, "src/lib.rs"));
    let running = hook(
        &repo,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_use_id": "t-7", "tool_input": {"command": "cargo test"}}),
    );
    record(&repo, &running);
    let line = stdout_ok(repo.handoff().args(["digest"]).output().unwrap());
    assert_eq!(
        line.trim(),
        "1 file edited · last `cargo test` did not finish · 2 tool calls, 0 errors"
    );
    let body = "\n## Summary\n\n- All tests pass\n\n## Remaining work\n\n- none\n\n## Evidence\n\n- none\n";
    repo.write(".agent/handoff/7.md", format!("{}{body}", header(&repo, 7)));
    let outcome = note_json(&repo);
    assert_eq!(
        tags(&outcome),
        [("All tests pass".to_string(), "last `cargo test` did not finish".to_string())]
    );
    assert!(!outcome.to_string().contains("failed"), "{outcome}");
}

#[test]
fn counts_read_as_english_and_the_handoff_files_are_not_edits() {
    let env = Env::new();
    let repo = started(&env, 8);
    repo.write(".handoff.toml", "[progress]\nwrite = \"changes.md\"\n");
    record(&repo, &edit(&repo, "src/lib.rs"));
    record(&repo, &edit(&repo, ".agent/handoff/8.md"));
    record(&repo, &edit(&repo, "changes.md"));
    let line = stdout_ok(repo.handoff().args(["digest"]).output().unwrap());
    // The note's and the progress file's writes are the handoff's own calls, not work.
    assert_eq!(line.trim(), "1 file edited · no check run · 1 tool call, 0 errors");
    record(&repo, &bash_failed(&repo, "npm test", 1));
    let digest: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["digest", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(digest["files_edited"], json!(["src/lib.rs"]));
    let line = stdout_ok(repo.handoff().args(["digest"]).output().unwrap());
    assert_eq!(line.trim(), "1 file edited · last `npm test` failed · 2 tool calls, 1 error");

    let env = Env::new();
    let repo = started(&env, 9);
    record(&repo, &bash_ok(&repo, "ls"));
    let line = stdout_ok(repo.handoff().args(["digest"]).output().unwrap());
    assert_eq!(line.trim(), "0 files edited · no check run · 1 tool call, 0 errors");
}

#[test]
fn a_digest_only_handoff_names_its_files_in_recall_and_show() {
    let env = Env::new();
    let repo = started(&env, 10);
    for i in 0..30 {
        record(&repo, &edit(&repo, &format!("src/m{i:02}.rs")));
    }
    let end = common::payloads::hook(&repo, "SessionEnd", json!({"reason": "other"}));
    let out = repo.shell(&format!("echo '{end}' | git handoff note --digest-only"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let recall = stdout_ok(repo.handoff().args(["recall", "--source", "resume"]).output().unwrap());
    assert!(recall.lines().count() <= 10, "{recall}");
    assert!(recall.contains("Files edited: src/m00.rs, src/m01.rs"), "{recall}");
    assert!(recall.contains("(+20 more)"), "{recall}");
    let show = stdout_ok(repo.handoff().args(["show"]).output().unwrap());
    assert!(show.contains("src/m00.rs") && show.contains("src/m29.rs"), "{show}");
}

#[test]
fn the_issue_46_cases_through_record_and_note() {
    let env = Env::new();
    let repo = started(&env, 11);
    repo.write("src/main.rs", "fn main() {}\n");
    repo.write("docs/User Guide.md", "guide\n");
    record(&repo, &edit(&repo, "src/main.rs"));
    record(&repo, &edit(&repo, "docs/User Guide.md"));
    record(&repo, &bash_ok(&repo, "npm test"));
    record(&repo, &bash_ok(&repo, "npm test 2>&1 | tail -5"));
    record(&repo, &bash_failed(&repo, "npx eslint src", 1));
    let abs = repo.path.join("src/main.rs");
    let body = format!(
        "\n## Summary\n\n- All tests pass\n- Lint is clean\n- Could not get eslint to pass\n\n\
         ### Files touched\n\n- {}\n- ./src/main.rs\n- src/../src/main.rs\n- docs/User Guide.md\n\
         - docs/User Manual.md\n- /etc/hosts\n\n## Remaining work\n\n- none\n\n## Evidence\n\n- none\n",
        abs.display()
    );
    repo.write(".agent/handoff/11.md", format!("{}{body}", header(&repo, 11)));
    assert_eq!(
        tags(&note_json(&repo)),
        [
            ("Lint is clean".to_string(), "last `eslint src` failed".to_string()),
            (
                "docs/User Manual.md".to_string(),
                "no edit to docs/User Manual.md in the event log".to_string()
            ),
            ("/etc/hosts".to_string(), "/etc/hosts is outside the work tree".to_string()),
        ],
        "a piped run after a readable pass leaves `All tests pass` alone; paths as the log holds \
         them match"
    );
}

#[test]
fn the_handoffs_own_calls_are_not_the_sessions_work() {
    let env = Env::new();
    let repo = started(&env, 12);
    let note_call = hook(
        &repo,
        "PostToolUse",
        json!({"tool_name": "mcp__git-handoff__handoff_note", "tool_use_id": "h-1",
               "tool_input": {"done": ["All tests pass"]}, "tool_response": {}}),
    );
    record(&repo, &note_call);
    record(&repo, &edit(&repo, ".agent/handoff/12.md"));
    record(&repo, &bash_ok(&repo, "git handoff note"));
    let line = stdout_ok(repo.handoff().args(["digest"]).output().unwrap());
    assert_eq!(line.trim(), "0 files edited · no check run · 0 tool calls, 0 errors");
    let body = "\n## Summary\n\n- Wrote the parser\n\n## Remaining work\n\n- none\n\n\
                ## Evidence\n\n- none\n";
    repo.write(".agent/handoff/12.md", format!("{}{body}", header(&repo, 12)));
    assert_eq!(
        tags(&note_json(&repo)),
        [("Wrote the parser".to_string(), "no tool calls recorded in this attempt".to_string())]
    );
}

#[test]
fn success_in_any_words_after_a_failing_check() {
    let env = Env::new();
    let repo = started(&env, 13);
    record(&repo, &edit(&repo, "src/lib.rs"));
    record(&repo, &bash_failed(&repo, "npm test", 1));
    let claims = [
        "Tests succeed",
        "Build successful",
        "No failures",
        "All good",
        "Tests run clean",
        "Tests still fail on Windows",
        "Not yet tested",
    ];
    let items: String = claims.iter().map(|c| format!("- {c}\n")).collect();
    let body =
        format!("\n## Summary\n\n{items}\n## Remaining work\n\n- none\n\n## Evidence\n\n- none\n");
    repo.write(".agent/handoff/13.md", format!("{}{body}", header(&repo, 13)));
    let tagged: Vec<String> = tags(&note_json(&repo)).into_iter().map(|(item, _)| item).collect();
    assert_eq!(tagged, claims[..5]);
}
