//! The branch is the truth: a plain-git note is a handoff like any other, `note` again replaces
//! the note commit, `seal` keeps the note out of the seal commit, `show` and `recall` tell the seal,
//! tags survive every shortening, and `log` lists every attempt's handoff.

use crate::common;

use common::STARTED;
use common::payloads::{bash_failed, edit, record};
use common::{Env, Repo, stdout_ok};
use serde_json::Value;

fn started(env: &Env, issue: u64) -> Repo {
    let repo = env.repo("r");
    repo.write("src/app.js", "x\n");
    repo.commit_all("init");
    start(&repo, issue, STARTED);
    repo
}

fn start(repo: &Repo, issue: u64, at: &str) {
    stdout_ok(
        repo.handoff()
            .args(["start", "--issue", &issue.to_string(), "--started-at", at])
            .output()
            .unwrap(),
    );
}

fn note_text(issue: u64, started_at: &str, last_work_commit: &str, done: &[&str]) -> String {
    let done: String = done.iter().map(|d| format!("- {d}\n")).collect();
    format!(
        "# Handoff note: issue #{issue}\n\nissue: {issue}\nstarted_at: {started_at}\n\
         reason: agent_request\nlast_work_commit: {last_work_commit}\n\n## Summary\n\n{done}\n\
         ## Remaining work\n\n- Finish it\n\n## Evidence\n\n- npm test failed\n"
    )
}

/// The skill's fallback: `git add <note> && git commit -m "Handoff note: issue #N"`.
fn plain_git_note(repo: &Repo, issue: u64, started_at: &str, done: &[&str]) -> String {
    let path = format!(".agent/handoff/{issue}.md");
    repo.write(&path, note_text(issue, started_at, &repo.head(), done));
    repo.git(["add", "--", path.as_str()]);
    repo.git(["commit", "-q", "-m", &format!("Handoff note: issue #{issue}")]);
    repo.head()
}

fn json(repo: &Repo, args: &[&str]) -> Value {
    let out = repo.handoff().args(args).arg("--json").output().unwrap();
    serde_json::from_str(&stdout_ok(out)).unwrap()
}

fn validate_ok(repo: &Repo, base: &str) {
    let out = repo.handoff().args(["validate", "--base", base]).output().unwrap();
    assert!(
        out.status.success(),
        "validate failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write_note(repo: &Repo, issue: u64, done: &[&str]) {
    let path = format!(".agent/handoff/{issue}.md");
    repo.write(&path, note_text(issue, STARTED, &repo.head(), done));
}

#[test]
fn a_plain_git_note_is_shown_and_recalled_from_its_file() {
    let env = Env::new();
    let repo = started(&env, 51);
    let base = repo.head();
    repo.write("src/app.js", "y\n");
    repo.commit_all("Work");
    let note = plain_git_note(
        &repo,
        51,
        STARTED,
        &["Rewrote the parser", "All tests pass now [unverified: last `npm test` failed]"],
    );
    validate_ok(&repo, &base);

    let show = json(&repo, &["show"]);
    assert_eq!(show["record"]["issue"], 51, "{show}");
    assert_eq!(show["record"]["commit"], note.as_str());
    assert_eq!(show["source"], "note_file");
    assert!(show["note"].as_str().unwrap().contains("## Remaining work"));
    assert_eq!(show["record"]["tags"][0]["why"], "last `npm test` failed");
    let text = stdout_ok(repo.handoff().args(["show", "--color", "never"]).output().unwrap());
    assert!(text.contains("All tests pass now — last `npm test` failed"), "{text}");

    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(
        recall.starts_with("Handoff recall: Last handoff (") && recall.contains("): issue #51"),
        "{recall}"
    );
    assert!(recall.contains("All tests pass now [unverified: last `npm test` failed]"), "{recall}");
    assert!(recall.contains("Next: Finish it"), "{recall}");
}

#[test]
fn a_second_attempt_with_a_plain_git_note_is_the_one_shown() {
    let env = Env::new();
    let repo = started(&env, 51);
    write_note(&repo, 51, &["Rewrote the parser"]);
    stdout_ok(repo.handoff().arg("note").output().unwrap());
    start(&repo, 52, "2026-11-30T05:00:00Z");
    repo.write("src/app.js", "z\n");
    repo.commit_all("More work");
    plain_git_note(&repo, 52, "2026-11-30T05:00:00Z", &["Second attempt"]);
    assert_eq!(json(&repo, &["show"])["record"]["issue"], 52);
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(recall.contains("issue #52") && recall.contains("Second attempt"), "{recall}");
    // --issue picks another attempt.
    assert_eq!(json(&repo, &["show", "--issue", "51"])["record"]["issue"], 51);
    // Neither the emergency note nor the digest-only handoff writes over a plain-git note.
    record(&repo, &edit(&repo, "src/app.js"));
    let head = repo.head();
    let out = json(&repo, &["note", "--emergency", "--reason", "time_limit"]);
    assert_eq!(out["kind"], "none", "{out}");
    let out = json(&repo, &["note", "--digest-only"]);
    assert_eq!(out["kind"], "none", "{out}");
    assert_eq!(repo.head(), head);
}

#[test]
fn note_again_replaces_the_note_commit_and_refuses_once_sealed() {
    let env = Env::new();
    let repo = started(&env, 7);
    let base = repo.head();
    write_note(&repo, 7, &["Rewrote the parser"]);
    let first = json(&repo, &["note"]);
    let first_commit = first["commit"].as_str().unwrap().to_string();
    let path = repo.path.join(".agent/handoff/7.md");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("\n## Remaining work", "- Wrote docs\n\n## Remaining work"))
        .unwrap();
    let second = json(&repo, &["note"]);
    let second_commit = second["commit"].as_str().unwrap();
    assert_ne!(second_commit, first_commit);
    assert_eq!(repo.head(), second_commit);
    assert_eq!(repo.git_text(["rev-parse", "HEAD~1"]), base, "same parent as the first note");
    assert!(repo.git_text(["show", "HEAD:.agent/handoff/7.md"]).contains("- Wrote docs"));
    validate_ok(&repo, &base);
    let show = json(&repo, &["show"]);
    assert_eq!(show["record"]["commit"], second_commit);
    assert_eq!(show["source"], "record");

    repo.write("src/app.js", "dirty\n");
    stdout_ok(repo.handoff().arg("seal").output().unwrap());
    let sealed = repo.head();
    let index = repo.read(".git/index");
    let edited = std::fs::read_to_string(&path).unwrap() + "\nmore\n";
    std::fs::write(&path, &edited).unwrap();
    let out = repo.handoff().arg("note").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sealed") && err.contains("git handoff start --issue 7"), "{err}");
    assert_eq!(repo.head(), sealed);
    assert_eq!(repo.read(".git/index"), index);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
}

#[test]
fn seal_after_editing_the_note_replaces_the_note_commit_first() {
    let env = Env::new();
    let repo = started(&env, 8);
    let base = repo.head();
    write_note(&repo, 8, &["Rewrote the parser"]);
    stdout_ok(repo.handoff().arg("note").output().unwrap());
    let path = repo.path.join(".agent/handoff/8.md");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("- Finish it\n", "- Finish it\n- And the docs\n")).unwrap();
    repo.write("src/app.js", "left over\n");
    repo.write("new.txt", "new\n");
    let sealed = json(&repo, &["seal"]);
    assert_eq!(sealed["files"], serde_json::json!(["new.txt", "src/app.js"]), "{sealed}");
    assert_eq!(repo.git_text(["status", "--porcelain"]), "");
    assert_eq!(repo.git_text(["rev-parse", "HEAD~2"]), base);
    assert_eq!(repo.git_text(["log", "-1", "--format=%s", "HEAD~1"]), "Handoff note: issue #8");
    assert!(repo.git_text(["show", "HEAD~1:.agent/handoff/8.md"]).contains("- And the docs"));
    validate_ok(&repo, &base);

    let show = json(&repo, &["show"]);
    assert_eq!(show["seal"]["commit"], repo.head().as_str());
    assert_eq!(show["seal"]["files"], serde_json::json!(["new.txt", "src/app.js"]));
    assert_eq!(show["record"]["seal_commit"], repo.head().as_str());
    let text = stdout_ok(repo.handoff().args(["show", "--color", "never"]).output().unwrap());
    assert!(text.contains("Sealed leftover work"), "{text}");
    assert!(text.contains("  new.txt\n"), "{text}");
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(recall.contains("Sealed: "), "{recall}");
    // A second seal in the sealed attempt refuses while there is work, and changes nothing.
    repo.write("src/app.js", "again\n");
    let head = repo.head();
    let out = repo.handoff().arg("seal").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(repo.head(), head);
    assert_eq!(repo.read("src/app.js"), b"again\n");
}

#[test]
fn seal_leaves_the_edit_of_a_pushed_note_in_the_work_tree() {
    let env = Env::new();
    let repo = started(&env, 9);
    let base = repo.head();
    let remote = env.root.path().join("remote.git");
    repo.git(["init", "-q", "--bare", remote.to_str().unwrap()]);
    repo.git(["remote", "add", "origin", remote.to_str().unwrap()]);
    write_note(&repo, 9, &["Rewrote the parser"]);
    stdout_ok(repo.handoff().arg("note").output().unwrap());
    repo.git(["push", "-q", "origin", "main"]);
    let note = repo.head();
    let path = repo.path.join(".agent/handoff/9.md");
    let edited = std::fs::read_to_string(&path).unwrap() + "\nedited after the push\n";
    std::fs::write(&path, &edited).unwrap();
    repo.write("src/app.js", "left over\n");
    let out = repo.handoff().args(["seal", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let sealed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(sealed["files"], serde_json::json!(["src/app.js"]));
    assert_eq!(sealed["skipped"][0]["path"], ".agent/handoff/9.md");
    assert_eq!(repo.git_text(["rev-parse", "HEAD~1"]), note);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    validate_ok(&repo, &base);
}

#[test]
fn recall_keeps_every_tag_of_a_long_note_within_its_budget() {
    let env = Env::new();
    let repo = started(&env, 10);
    record(&repo, &edit(&repo, "src/app.js"));
    record(&repo, &bash_failed(&repo, "cargo test", 101));
    let long = "a long untagged account of the changes made here ".repeat(12);
    let mut done: Vec<String> = (0..6).map(|i| format!("Step {i}: {long}")).collect();
    done.push(format!("All tests pass now after {}", "the long refactor ".repeat(20)));
    done.push("The build is green".into());
    let items: String = done.iter().map(|d| format!("\"{d}\", ")).collect();
    repo.write(
        "s.toml",
        format!(
            "goal = \"{long}\"\ndone = [{items}]\nnext = [\"{long}\", \"{long}\"]\n\
             decisions = [\"{long}\"]\nin_progress = [\"{long}\"]\n\
             files_touched = [\"src/app.js\", \"src/never.rs\"]\n"
        ),
    );
    let outcome = json(&repo, &["note", "--summary", "s.toml"]);
    let tags = outcome["tags"].as_array().unwrap().clone();
    assert_eq!(tags.len(), 3, "{outcome}");
    for budget in [1200, 600] {
        repo.write(".handoff.toml", format!("[caps]\nrecall_chars = {budget}\n"));
        let text = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
        assert!(text.lines().count() <= 10, "{text}");
        assert!(text.chars().count() <= budget, "{} > {budget}: {text}", text.chars().count());
        for tag in &tags {
            let why = tag["why"].as_str().unwrap();
            assert!(text.contains(&format!("[unverified: {why}]")), "tag {why:?} lost: {text}");
        }
        assert!(text.contains("src/never.rs [unverified: no edit to src/never.rs"), "{text}");
    }
}

#[test]
fn log_tells_every_attempt_newest_first() {
    let env = Env::new();
    let repo = started(&env, 60);
    write_note(&repo, 60, &["First try"]);
    stdout_ok(repo.handoff().arg("note").output().unwrap());
    repo.write("src/app.js", "dirty\n");
    stdout_ok(repo.handoff().arg("seal").output().unwrap());
    let first_seal = repo.head();
    start(&repo, 60, "2026-11-30T05:00:00Z");
    plain_git_note(&repo, 60, "2026-11-30T05:00:00Z", &["Done [unverified: no check ran]"]);
    start(&repo, 61, "2026-11-30T06:00:00Z");
    record(&repo, &edit(&repo, "src/app.js"));
    repo.write("src/app.js", "third\n");
    stdout_ok(repo.handoff().arg("seal").output().unwrap());
    stdout_ok(
        repo.handoff().args(["note", "--emergency", "--reason", "time_limit"]).output().unwrap(),
    );

    let log = json(&repo, &["log"]);
    let handoffs = log["handoffs"].as_array().unwrap();
    let issues: Vec<&Value> = handoffs.iter().map(|h| &h["issue"]).collect();
    assert_eq!(issues, [61, 60, 60], "{log}");
    assert_eq!(handoffs[0]["kind"], "emergency");
    assert_eq!(handoffs[0]["seal"]["position"], "below");
    assert_eq!(handoffs[1]["source"], "note_file");
    assert_eq!(handoffs[1]["tags"][0]["why"], "no check ran");
    assert_eq!(handoffs[2]["seal"]["commit"], first_seal.as_str());
    assert_eq!(handoffs[2]["seal"]["position"], "above");
    assert_eq!(json(&repo, &["log", "--issue", "60"])["handoffs"].as_array().unwrap().len(), 2);

    let oneline = stdout_ok(repo.git_handoff().args(["log", "--oneline"]).output().unwrap());
    assert_eq!(oneline.lines().count(), 3, "{oneline}");
    assert!(oneline.lines().next().unwrap().contains("#61 emergency time_limit"), "{oneline}");
    let text = stdout_ok(repo.handoff().args(["log", "--color", "never"]).output().unwrap());
    assert_eq!(text.matches("\nhandoff ").count() + 1, 3, "{text}");
    assert!(text.contains("Tagged:  1 claim\n    Done [unverified: no check ran]"), "{text}");
    assert!(text.contains(&format!("Sealed:  {}", &first_seal[..12])), "{text}");
}

#[test]
fn a_branch_of_several_attempts_validates_as_a_whole_here_and_in_a_clone() {
    let env = Env::new();
    let repo = started(&env, 70);
    let first_base = repo.head();
    write_note(&repo, 70, &["First try"]);
    stdout_ok(repo.handoff().arg("note").output().unwrap());
    repo.write("src/app.js", "sealed\n");
    stdout_ok(repo.handoff().arg("seal").output().unwrap());
    start(&repo, 70, "2026-11-30T05:00:00Z");
    repo.write("src/app.js", "second\n");
    repo.commit_all("Second attempt's work");
    plain_git_note(&repo, 70, "2026-11-30T05:00:00Z", &["Second try"]);
    start(&repo, 71, "2026-11-30T06:00:00Z");
    repo.write("src/app.js", "third\n");
    repo.commit_all("Third attempt's work, no note yet");
    validate_ok(&repo, &first_base);

    // Without this worktree's attempt state, the later notes and seals tell the attempts apart.
    let clone = env.root.path().join("clone");
    repo.git(["clone", "-q", repo.path.to_str().unwrap(), clone.to_str().unwrap()]);
    let clone = repo.at(clone);
    let out = clone.handoff().args(["validate", "--base", &first_base, "HEAD~1"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    // Work committed after a note, with no later attempt's note or seal above it, is still a fault.
    let out = clone.handoff().args(["validate", "--base", &first_base]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("work committed after the note"), "{text}");
}

#[test]
fn recall_keeps_every_tag_of_a_long_markdown_note() {
    let env = Env::new();
    let repo = started(&env, 12);
    let done: Vec<String> = (0..14)
        .map(|i| format!("Fixed part {i} of the parser, {}", "with a long story ".repeat(8)))
        .collect();
    let done: Vec<&str> = done.iter().map(String::as_str).collect();
    write_note(&repo, 12, &done);
    let outcome = json(&repo, &["note"]);
    assert_eq!(outcome["tags"].as_array().unwrap().len(), 14, "{outcome}");
    let text = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(text.lines().count() <= 10, "{text}");
    assert!(text.chars().count() <= 1200, "{}: {text}", text.chars().count());
    assert_eq!(
        text.matches("[unverified: no tool calls recorded in this attempt]").count(),
        14,
        "{text}"
    );
}

#[test]
fn a_seal_that_refuses_writes_no_note_commit_first() {
    let env = Env::new();
    let repo = started(&env, 61);
    repo.write("src/app.js", "y\n");
    repo.commit_all("Work");
    write_note(&repo, 61, &["Rewrote the parser"]);
    stdout_ok(repo.handoff().arg("note").output().unwrap());
    // The note edited, more work left: a seal whose message is empty must refuse before the
    // edited note replaces the note commit.
    write_note(&repo, 61, &["Rewrote the parser", "And the lexer"]);
    repo.write("new.txt", "new\n");
    let head = repo.head();
    let index = std::fs::read(repo.path.join(".git/index")).unwrap();
    let out = repo.handoff().args(["seal", "-m", "   "]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(repo.head(), head, "a refusing seal moved HEAD");
    assert_eq!(std::fs::read(repo.path.join(".git/index")).unwrap(), index);
}

#[test]
fn a_later_attempt_below_an_earlier_note_never_replaces_it() {
    let env = Env::new();
    let repo = started(&env, 62);
    let root = repo.head();
    repo.write("src/app.js", "y\n");
    repo.commit_all("Work");
    write_note(&repo, 62, &["First attempt's work"]);
    stdout_ok(repo.handoff().arg("note").output().unwrap());
    let first_note = repo.head();
    // A second attempt on the same issue whose base lies below the first note.
    let later = "2026-11-30T05:00:00Z";
    stdout_ok(
        repo.handoff()
            .args(["start", "--issue", "62", "--base", &root, "--started-at", later])
            .output()
            .unwrap(),
    );
    let path = ".agent/handoff/62.md";
    repo.write(path, note_text(62, later, &repo.head(), &["Second attempt's work"]));
    let _ = repo.handoff().arg("note").output().unwrap();
    let log = repo.git_text(["rev-list", "HEAD"]);
    assert!(log.contains(&first_note), "the first attempt's note commit left the branch:\n{log}");
}
