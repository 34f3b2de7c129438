//! `note`: the agent's checked note, the emergency note, digest-only records, and records that
//! `git notes` reads back.

use crate::common;

use common::payloads::{bash_failed, bash_ok, edit, record, stop};
use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

fn started(env: &Env, name: &str, issue: u64) -> Repo {
    let repo = env.repo(name);
    repo.write("README.md", "hi\n");
    repo.write("src/app.js", "x\n");
    repo.commit_all("init");
    stdout_ok(
        repo.handoff()
            .args(["start", "--issue", &issue.to_string(), "--started-at", "2026-11-30T03:48:52Z"])
            .output()
            .unwrap(),
    );
    repo
}

fn note_json(repo: &Repo, args: &[&str]) -> Value {
    let out = repo.handoff().arg("note").args(args).arg("--json").output().unwrap();
    serde_json::from_str(&stdout_ok(out)).unwrap()
}

fn validate_ok(repo: &Repo) {
    let out = repo.handoff().args(["validate"]).output().unwrap();
    assert!(
        out.status.success(),
        "validate failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
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
fn orstrums_example_tags_the_false_claim_and_the_untouched_file() {
    let env = Env::new();
    let repo = started(&env, "r", 179);
    repo.write("src/app.js", "y\n");
    record(&repo, &edit(&repo, "src/app.js"));
    record(&repo, &bash_failed(&repo, "npm test", 1));
    record(&repo, &stop(&repo, "Tests still fail on the parser."));
    repo.write(
        "summary.toml",
        "goal = \"Fix the parser\"\ndone = [\"Rewrote the parser in src/app.js\", \"All tests pass now\"]\n\
         next = [\"Fix the failing parser test\"]\nfiles_touched = [\"src/app.js\", \"src/untouched.js\"]\n",
    );
    let outcome =
        note_json(&repo, &["--summary", "summary.toml", "--reason", "token_soft_threshold"]);
    assert_eq!(outcome["kind"], "agent");
    assert_eq!(outcome["path"], ".agent/handoff/179.md");
    assert_eq!(
        tags(&outcome),
        [
            ("All tests pass now".to_string(), "last `npm test` failed".to_string()),
            (
                "src/untouched.js".to_string(),
                "no edit to src/untouched.js in the event log".to_string()
            ),
        ]
    );
    assert_eq!(
        outcome["digest_line"],
        "1 file edited · last `npm test` failed · 2 tool calls, 1 error"
    );

    // The commit holds the note alone, the work-tree copy is byte-identical, and it validates.
    let commit = outcome["commit"].as_str().unwrap();
    assert_eq!(repo.head(), commit);
    assert_eq!(repo.git_text(["log", "-1", "--format=%s"]), "Handoff note: issue #179");
    assert_eq!(
        repo.git_text(["diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD"]),
        ".agent/handoff/179.md"
    );
    let committed = repo.git(["show", "HEAD:.agent/handoff/179.md"]);
    assert_eq!(committed, repo.read(".agent/handoff/179.md"));
    let text = String::from_utf8(committed).unwrap();
    assert!(text.contains("- All tests pass now [unverified: last `npm test` failed]\n"), "{text}");
    assert!(
        text.contains("- Rewrote the parser in src/app.js\n"),
        "honest claim untouched: {text}"
    );
    assert!(text.contains("reason: token_soft_threshold\n"));
    assert!(
        text.contains(&format!("last_work_commit: {}\n", repo.git_text(["rev-parse", "HEAD~1"])))
    );
    // Other dirty work stays for the seal.
    assert!(repo.git_text(["status", "--porcelain"]).contains(" M src/app.js"));
    validate_ok(&repo);

    // The record is readable with git notes.
    let record = repo.git_text(["notes", "--ref=handoff", "show", commit]);
    let parsed: toml::Table = toml::from_str(&record).unwrap();
    let first = &parsed["record"].as_array().unwrap()[0];
    assert_eq!(first["kind"].as_str(), Some("agent"));
    assert_eq!(first["issue"].as_integer(), Some(179));
    assert_eq!(first["summary"]["goal"].as_str(), Some("Fix the parser"));
    assert_eq!(first["tags"].as_array().unwrap().len(), 2);
}

#[test]
fn markdown_route_tags_in_place_and_fills_a_missing_header() {
    let env = Env::new();
    let repo = started(&env, "r", 7);
    record(&repo, &edit(&repo, "src/app.js"));
    record(&repo, &bash_ok(&repo, "npm test | tail -5"));
    repo.write(
        ".agent/handoff/7.md",
        "## Summary\n\n- Parser rewritten\n- The test suite passes\n\n### In progress\n\n- docs pass review maybe\n\n\
         ## Remaining work\n\n- Ship it\n\n## Evidence\n\n- ran npm test\n",
    );
    let out = repo.git_handoff().args(["note"]).output().unwrap();
    let stdout = stdout_ok(out);
    assert!(
        stdout
            .starts_with("Handoff saved for the next session. From the log: 1 file edited · last `npm test` unreadable"),
        "{stdout}"
    );
    let text = String::from_utf8(repo.read(".agent/handoff/7.md")).unwrap();
    assert!(text.starts_with("# Handoff note: issue #7\n\nissue: 7\nstarted_at: 2026-11-30T03:48:52Z\nreason: agent_request\n"), "{text}");
    assert!(
        text.contains(
            "- The test suite passes [unverified: `npm test` ran without a readable exit status]\n"
        ),
        "{text}"
    );
    assert!(text.contains("- Parser rewritten\n"));
    assert!(
        text.contains("- docs pass review maybe\n"),
        "in-progress items are not claims: {text}"
    );
    assert_eq!(repo.git(["show", "HEAD:.agent/handoff/7.md"]), text.as_bytes());
    validate_ok(&repo);
}

#[test]
fn no_tool_calls_tags_every_done_item() {
    let env = Env::new();
    let repo = started(&env, "r", 8);
    repo.write("s.toml", "done = [\"Wrote the docs\", \"Refactored\"]\n");
    let outcome = note_json(&repo, &["--summary", "s.toml"]);
    let tagged = tags(&outcome);
    assert_eq!(tagged.len(), 2);
    assert!(tagged.iter().all(|(_, why)| why == "no tool calls recorded in this attempt"));
}

#[test]
fn a_broken_note_is_exit_1_and_nothing_is_committed() {
    let env = Env::new();
    let repo = started(&env, "r", 9);
    let head = repo.head();
    repo.write(
        ".agent/handoff/9.md",
        "# Handoff note: issue #9\n\nissue: 9\n\n## Summary\n\n- x\n",
    );
    let out = repo.handoff().arg("note").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(".agent/handoff/9.md:"), "{err}");
    assert_eq!(repo.head(), head);
    std::fs::write(repo.path.join(".agent/handoff/9.md"), b"\x00\x01binary").unwrap();
    let out = repo.handoff().arg("note").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("binary"));
    let out = repo.handoff().args(["note", "--reason", "bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(repo.head(), head);
}

fn sections_in_order(text: &str) -> bool {
    let expected = [
        "Provenance",
        "Changes",
        "Last model intent",
        "Activity trail",
        "Check state",
        "Budget facts",
        "Pointers",
        "Remaining work",
    ];
    let found: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    found == expected
}

#[test]
fn emergency_notes_for_each_limit_validate_and_carry_the_facts() {
    for (n, reason) in [(1u64, "token_hard_limit"), (2, "turn_limit"), (3, "cost_hard_limit")] {
        let env = Env::new();
        let repo = started(&env, "r", n);
        for i in 0..60 {
            repo.write(format!("src/f{i}.rs"), "x\n");
            record(&repo, &edit(&repo, &format!("src/f{i}.rs")));
        }
        record(&repo, &bash_failed(&repo, "cargo test", 101));
        let long = "word ".repeat(500);
        record(&repo, &stop(&repo, &long));
        let sealed: Value = serde_json::from_str(&stdout_ok(
            repo.handoff().args(["seal", "--json"]).output().unwrap(),
        ))
        .unwrap();
        assert!(sealed["commit"].is_string());
        repo.write(
            "facts.json",
            json!({"budget": {"budget_tokens": 190000, "max_budget_tokens": 200000,
                    "soft_threshold_crossed": true, "peak_main_context_tokens": 150000,
                    "cache_hit_rate": 0.82, "turns": 41, "elapsed_seconds": 3725},
                   "session_id": "sess-1", "archive_dir": "/runs/1",
                   "baseline_check": {"command": "cargo test", "ok": true}})
            .to_string(),
        );
        let outcome =
            note_json(&repo, &["--emergency", "--reason", reason, "--facts", "facts.json"]);
        assert_eq!(outcome["kind"], "emergency");
        let text =
            String::from_utf8(repo.git(["show", &format!("HEAD:.agent/handoff/{n}.md")])).unwrap();
        assert!(sections_in_order(&text), "{text}");
        assert!(text.contains(&format!("reason: {reason}\n")));
        assert!(
            text.contains(&format!("last_work_commit: {}\n", sealed["commit"].as_str().unwrap()))
        );
        assert!(text.contains("- +10 more\n"), "50 files then +10 more: {text}");
        assert_eq!(
            text.matches("- Edit `").count() + text.matches("- Bash `").count(),
            15,
            "{text}"
        );
        assert!(text.contains("Last check command: `cargo test` — error (exit 101)"), "{text}");
        assert!(text.contains(
            "- budget_tokens: 190000\n- max_budget_tokens: 200000\n- soft threshold: crossed\n"
        ));
        assert!(
            text.contains("- cache hit rate: 82.0%\n- turns: 41\n- elapsed: 1h 02m 05s\n"),
            "{text}"
        );
        assert!(text.contains("- Session id: sess-1\n") && text.contains("- Archive: /runs/1\n"));
        assert!(text.contains("Baseline check (before the model): `cargo test` — ok"));
        assert!(text.contains("Sealed in "));
        let intent: usize = text.lines().filter(|l| l.starts_with("> ")).map(|l| l.len() - 2).sum();
        assert!((1300..=1510).contains(&intent), "{intent}");
        validate_ok(&repo);
    }
}

#[test]
fn the_bare_emergency_note_says_not_available_and_validates() {
    let env = Env::new();
    let repo = started(&env, "r", 5);
    let outcome = note_json(&repo, &["--emergency", "--reason", "time_limit"]);
    let text = String::from_utf8(repo.read(".agent/handoff/5.md")).unwrap();
    assert!(sections_in_order(&text), "{text}");
    for fact in [
        "Last assistant text: not available",
        "Last check command: none recorded",
        "- Session id: not available",
        "- Archive: not available",
        "- budget_tokens: not available",
        "Sealed files: none",
    ] {
        assert!(text.contains(fact), "{fact}: {text}");
    }
    assert_eq!(outcome["commit"], repo.head());
    validate_ok(&repo);
}

#[test]
fn an_existing_agent_note_is_left_byte_for_byte_alone() {
    let env = Env::new();
    let repo = started(&env, "r", 6);
    record(&repo, &edit(&repo, "src/app.js"));
    repo.write("s.toml", "done = [\"Edited app\"]\n");
    note_json(&repo, &["--summary", "s.toml"]);
    let head = repo.head();
    let before = repo.read(".agent/handoff/6.md");
    let outcome = note_json(&repo, &["--emergency", "--reason", "token_hard_limit"]);
    assert_eq!(outcome["kind"], "none");
    assert_eq!(outcome["commit"], head.as_str());
    assert_eq!(repo.head(), head);
    assert_eq!(repo.read(".agent/handoff/6.md"), before);
    let text = stdout_ok(
        repo.handoff()
            .args(["note", "--emergency", "--reason", "token_hard_limit"])
            .output()
            .unwrap(),
    );
    assert!(text.contains("already exists"), "{text}");
}

#[test]
fn digest_only_records_head_once_and_never_replaces_an_agent_record() {
    let env = Env::new();
    let repo = started(&env, "r", 11);
    let out = note_json(&repo, &["--digest-only"]);
    assert_eq!(out["kind"], "none", "no tool calls: nothing to store");
    record(&repo, &edit(&repo, "src/app.js"));
    let out = note_json(&repo, &["--digest-only"]);
    assert_eq!(out["kind"], "digest");
    let head = repo.head();
    let stored = repo.git_text(["notes", "--ref=handoff", "show", &head]);
    assert!(stored.contains("kind = \"digest\""), "{stored}");

    repo.write("s.toml", "done = [\"Edited app\"]\n");
    let agent = note_json(&repo, &["--summary", "s.toml"]);
    let note_commit = agent["commit"].as_str().unwrap().to_string();
    let out = note_json(&repo, &["--digest-only"]);
    assert_eq!(out["kind"], "none");
    let stored = repo.git_text(["notes", "--ref=handoff", "show", &note_commit]);
    assert!(stored.contains("kind = \"agent\""), "{stored}");
}

#[test]
fn secrets_never_reach_the_note_or_the_record() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    let token = format!("ghp_{}", "a1B2c3D4".repeat(5));
    let aws = "AKIAIOSFODNN7EXAMPLE";
    record(
        &repo,
        &bash_failed(&repo, &format!("curl -H 'Authorization: Bearer {token}' https://x"), 1),
    );
    record(&repo, &stop(&repo, &format!("I used password=hunter22 and {aws}")));
    repo.write("s.toml", format!("goal = \"use {token}\"\ndone = [\"set api_key={aws}\"]\n"));
    let summary = note_json(&repo, &["--summary", "s.toml"]);
    let mut texts = vec![String::from_utf8(repo.read(".agent/handoff/12.md")).unwrap()];
    texts.push(repo.git_text([
        "notes",
        "--ref=handoff",
        "show",
        summary["commit"].as_str().unwrap(),
    ]));
    stdout_ok(repo.handoff().args(["start", "--issue", "13"]).output().unwrap());
    record(&repo, &stop(&repo, &format!("token {token} and password=hunter22")));
    note_json(&repo, &["--emergency", "--reason", "token_hard_limit"]);
    texts.push(String::from_utf8(repo.read(".agent/handoff/13.md")).unwrap());
    texts.push(repo.git_text(["notes", "--ref=handoff", "show", "HEAD"]));
    for text in texts {
        for secret in [token.as_str(), aws, "hunter22"] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        assert!(text.contains("[redacted:"), "{text}");
    }
}

#[test]
fn eight_worktrees_writing_notes_at_once_keep_eight_records() {
    let env = Env::new();
    let repo = env.repo("main");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    let mut worktrees = Vec::new();
    for i in 0..8 {
        let path = env.root.path().join(format!("wt{i}"));
        repo.git(["worktree", "add", "-q", "-b", &format!("agent-{i}"), path.to_str().unwrap()]);
        let wt = repo.at(&path);
        stdout_ok(
            wt.handoff().args(["start", "--issue", &(100 + i).to_string()]).output().unwrap(),
        );
        record(&wt, &edit(&wt, "a.txt"));
        wt.write("s.toml", "done = [\"Edited a.txt\"]\n");
        worktrees.push(wt);
    }
    let children: Vec<_> = worktrees
        .iter()
        .map(|wt| {
            wt.handoff()
                .args(["note", "--summary", "s.toml", "--json"])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut commits = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let outcome: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
        commits.push(outcome["commit"].as_str().unwrap().to_string());
    }
    let listed = repo.git_text(["notes", "--ref=handoff", "list"]);
    for (i, commit) in commits.iter().enumerate() {
        assert!(listed.contains(commit.as_str()), "record of worktree {i} lost: {listed}");
        let record = repo.git_text(["notes", "--ref=handoff", "show", commit]);
        assert!(record.contains(&format!("issue = {}", 100 + i)), "{record}");
    }
}

#[test]
fn an_uncommitted_draft_is_never_written_over() {
    let env = Env::new();
    // A draft that is not a note at all: kept verbatim inside the emergency note, which validates.
    let repo = started(&env, "r", 6);
    let draft = "## Summary\n- half written, precious\n```\n## Not a heading\n```\n";
    repo.write(".agent/handoff/6.md", draft);
    let out =
        repo.handoff().args(["note", "--emergency", "--reason", "time_limit"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(repo.read(".agent/handoff/6.md")).unwrap();
    assert!(text.contains("The agent's unfinished note, kept as it was:"), "{text}");
    assert!(text.contains(draft), "the draft, byte for byte: {text}");
    validate_ok(&repo);

    // A titled note without header fields: filled in and committed as the agent's note.
    let repo = started(&env, "r2", 7);
    record(&repo, &edit(&repo, "src/app.js"));
    repo.write(".agent/handoff/7.md", "# Handoff note: issue #7\n\n## Summary\n\n- wip\n\n## Remaining work\n\n- all\n\n## Evidence\n\n- none\n");
    let outcome = note_json(&repo, &["--emergency", "--reason", "turn_limit"]);
    assert_eq!(outcome["kind"], "agent");
    let text = String::from_utf8(repo.read(".agent/handoff/7.md")).unwrap();
    assert!(text.starts_with("# Handoff note: issue #7\n\nissue: 7\nstarted_at: 2026-11-30T03:48:52Z\nreason: turn_limit\n"), "{text}");
    validate_ok(&repo);

    // Binary content at the note path: refused, untouched.
    let repo = started(&env, "r3", 8);
    std::fs::create_dir_all(repo.path.join(".agent/handoff")).unwrap();
    std::fs::write(repo.path.join(".agent/handoff/8.md"), b"\x00\x01\x02").unwrap();
    let head = repo.head();
    let out =
        repo.handoff().args(["note", "--emergency", "--reason", "time_limit"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("git handoff seal"));
    assert_eq!(repo.read(".agent/handoff/8.md"), b"\x00\x01\x02");
    assert_eq!(repo.head(), head);
}

/// A SIGTERM while the note commit runs git moves nothing and leaves no private index: on the
/// in-process tree's path during `commit-tree` (its last step before HEAD moves), and on git's
/// plumbing path (a case-insensitive repository) during `write-tree`, while the private index
/// exists.
#[test]
fn a_signal_during_the_note_commit_leaves_no_private_index_and_moves_nothing() {
    signal_during_the_note_commit("commit-tree", false);
    signal_during_the_note_commit("write-tree", true);
}

fn signal_during_the_note_commit(step: &str, plumbing: bool) {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let repo = started(&env, "r", 12);
    if plumbing {
        repo.git(["config", "core.ignoreCase", "true"]);
    }
    let head = repo.head();
    // A git that takes its time over `step` and says when it starts, so that git-handoff can be
    // signalled (alone) meanwhile.
    let real = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join("git"))
        .find(|git| git.is_file())
        .expect("git on PATH");
    let slow = env.root.path().join("slow-git");
    let started_file = env.root.path().join("step-started");
    std::fs::create_dir_all(&slow).unwrap();
    let script = format!(
        "#!/bin/sh\ncase \" $* \" in *\" {step} \"*) : >'{}'; sleep 2;; esac\n\
         exec '{}' \"$@\"\n",
        started_file.display(),
        real.display()
    );
    std::fs::write(slow.join("git"), script).unwrap();
    std::fs::set_permissions(slow.join("git"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut path = vec![slow];
    path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap()));
    let child = repo
        .handoff()
        .args(["note", "--emergency", "--reason", "turn_limit"])
        .env("PATH", std::env::join_paths(path).unwrap())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let private_indexes = || -> Vec<String> {
        std::fs::read_dir(repo.path.join(".git"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("handoff-note-index"))
            .collect()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !started_file.exists() {
        assert!(std::time::Instant::now() < deadline, "{step}: the note commit never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(private_indexes().len(), usize::from(plumbing), "{step}: the private index");
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{step}: {err}");
    assert!(err.contains("the note commit was interrupted"), "{step}: {err}");
    assert!(private_indexes().is_empty(), "{step}: left behind: {:?}", private_indexes());
    assert_eq!(repo.head(), head, "{step}");
    assert!(!repo.path.join(".agent/handoff/12.md").exists(), "{step}: nothing written");
}

/// The note commit's tree, built without git's index plumbing, is the tree git's own plumbing
/// makes from the same parent and blob (`read-tree`, `update-index --add --cacheinfo`,
/// `write-tree` on an index of its own): in a tree of one file, beside names that sort around the
/// note's directories, over an earlier note, through a directory that is a file at either depth
/// or onto a directory (left to git, which refuses them, HEAD unmoved), in a shared repository
/// (left to git, which sets the modes) and in a case-insensitive work tree beside a directory of
/// another case (left to git).
#[test]
fn the_note_commit_tree_is_the_one_git_plumbing_makes() {
    let env = Env::new();
    type Files = &'static [(&'static str, &'static str)];
    let cases: [(&str, Files, &str); 8] = [
        ("flat", &[("a.txt", "a\n")], ""),
        (
            "neighbours",
            &[
                (".agent-x", "x\n"),
                (".agent.md", "m\n"),
                (".agent/handoff-old/1.md", "old\n"),
                (".agent/handoff.txt", "t\n"),
                (".agent/z/deep.txt", "z\n"),
                ("src/a.txt", "a\n"),
            ],
            "",
        ),
        ("again", &[(".agent/handoff/31.md", "an older note\n"), ("b.txt", "b\n")], ""),
        ("through-a-file", &[(".agent", "a file\n")], ""),
        ("through-a-deeper-file", &[(".agent/handoff", "a file\n")], ""),
        ("onto-a-directory", &[(".agent/handoff/31.md/keep", "k\n")], ""),
        ("shared", &[("src/a.txt", "a\n")], "group"),
        ("ignorecase", &[(".Agent/x.txt", "x\n")], ""),
    ];
    let head = |repo: &Repo| {
        let out = repo.git_cmd(["rev-parse", "-q", "--verify", "HEAD"]).output().unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    for (name, files, shared) in cases {
        let repo = env.repo(name);
        if !shared.is_empty() {
            repo.git(["config", "core.sharedRepository", shared]);
        }
        if name == "ignorecase" {
            repo.git(["config", "core.ignoreCase", "true"]);
        }
        for (rel, content) in files {
            repo.write(rel, content);
        }
        repo.commit_all("work");
        let refused = name.starts_with("through-") || name == "onto-a-directory";
        if refused {
            // Gone from the work tree, still in HEAD's tree: the note commit gets as far as
            // building its tree.
            std::fs::remove_dir_all(repo.path.join(".agent")).ok();
            std::fs::remove_file(repo.path.join(".agent")).ok();
        }
        let parent = head(&repo);
        let out = start_and_emergency_note(&repo, name);
        if refused {
            let err = common::stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{name}: {err}");
            assert!(err.contains("update-index"), "{name}: refused by git's plumbing: {err}");
            assert_eq!(head(&repo), parent, "{name}");
            continue;
        }
        assert!(out.status.success(), "{name}: {}", common::stderr(&out));
        let tree = repo.git_text(["rev-parse", "HEAD^{tree}"]);
        assert_eq!(tree, plumbing_tree(&env, &repo, name, &parent), "{name}");
        repo.git(["fsck", "--strict", "--no-dangling"]);
        if !shared.is_empty() {
            let dir = &tree[..2];
            let mode = std::fs::metadata(repo.path.join(".git/objects").join(dir)).unwrap();
            let mode = std::os::unix::fs::PermissionsExt::mode(&mode.permissions());
            assert_eq!(mode & 0o2070, 0o2070, "{name}: a shared repository's object directory");
        }
    }
}

/// A parent tree that git's plumbing would not write back as it is: with a legacy `100664` mode
/// or a mode padded with a zero, the note commit changes the note and nothing else (git's
/// plumbing made `100664` into `100644` in its index, and the note check refused the commit: "the
/// note commit also changes a.txt"); with entries out of git's order, which gix's editor cannot
/// rewrite, the tree is the one git's plumbing makes, and nothing panics.
#[test]
fn a_note_on_a_tree_git_would_write_otherwise_changes_only_the_note() {
    let env = Env::new();
    for name in ["legacy-mode", "padded-mode", "unordered"] {
        let repo = env.repo(name);
        repo.write("a.txt", "a\n");
        repo.commit_all("work");
        let blob = repo.git_text(["rev-parse", "HEAD:a.txt"]);
        let tree = repo.git_text(["rev-parse", "HEAD^{tree}"]);
        let odd = match name {
            "legacy-mode" => repo.raw_tree(&[("100664", "a.txt", &blob)]),
            "padded-mode" => repo.raw_tree(&[("100644", "a.txt", &blob), ("040000", "sub", &tree)]),
            _ => repo.raw_tree(&[("100644", "b.txt", &blob), ("100644", "a.txt", &blob)]),
        };
        let parent = repo.git_text(["commit-tree", &odd, "-m", "odd"]);
        repo.git(["update-ref", "refs/heads/main", &parent]);
        let out = start_and_emergency_note(&repo, name);
        assert!(out.status.success(), "{name}: {}", common::stderr(&out));
        assert_eq!(repo.git_text(["rev-parse", "HEAD^"]), parent, "{name}");
        if name == "unordered" {
            // A tree git's own diff misreads: built by git's plumbing, as before.
            let tree = repo.git_text(["rev-parse", "HEAD^{tree}"]);
            assert_eq!(tree, plumbing_tree(&env, &repo, name, &parent), "{name}");
            continue;
        }
        let changed = repo.git_text(["diff-tree", "-r", "--name-only", &parent, "HEAD"]);
        assert_eq!(changed, ".agent/handoff/31.md", "{name}");
        if name == "legacy-mode" {
            // As the parent has it (git's own readers show it as 100644).
            let raw = repo.git(["cat-file", "tree", "HEAD"]);
            assert!(raw.windows(13).any(|w| w == b"100664 a.txt\0"), "{name}");
        }
    }
}

/// `start --issue 31`, then `note --emergency`: what the note command did.
fn start_and_emergency_note(repo: &Repo, name: &str) -> std::process::Output {
    let start = repo
        .handoff()
        .args(["start", "--issue", "31", "--started-at", common::STARTED])
        .output()
        .unwrap();
    assert!(start.status.success(), "{name}: {}", common::stderr(&start));
    repo.handoff().args(["note", "--emergency", "--reason", "time_limit"]).output().unwrap()
}

/// The tree git's plumbing makes of `parent`'s tree and HEAD's note (`read-tree`,
/// `update-index --add --cacheinfo`, `write-tree` on an index of its own).
fn plumbing_tree(env: &Env, repo: &Repo, name: &str, parent: &str) -> String {
    let note = repo.git_text(["rev-parse", "HEAD:.agent/handoff/31.md"]);
    let index = env.root.path().join(format!("{name}.index"));
    let plumbing = |args: &[&str]| {
        let mut cmd = repo.git_cmd(args);
        cmd.env("GIT_INDEX_FILE", &index);
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{name}: {args:?}: {}", common::stderr(&out));
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    plumbing(&["read-tree", parent]);
    let cacheinfo = format!("100644,{note},.agent/handoff/31.md");
    plumbing(&["update-index", "--add", "--cacheinfo", &cacheinfo]);
    plumbing(&["write-tree"])
}

/// Issue 48: a re-note of the same attempt replaces its note commit, and the record of the
/// replaced commit goes with it (from its own note and from the issue and branch keys): after many
/// re-notes there are as many records as after one.
#[test]
fn re_notes_replace_their_record_instead_of_piling_up() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    let mut counts = Vec::new();
    for step in 0..6 {
        repo.write(
            ".agent/handoff/12.md",
            format!(
                "# Handoff note: issue #12\n\n## Summary\n\n- step {step}\n\n## Remaining work\n\n\
                 - rest\n\n## Evidence\n\n- none\n"
            ),
        );
        stdout_ok(repo.handoff().arg("note").output().unwrap());
        let notes = repo.git_text(["notes", "--ref=handoff", "list"]);
        let blobs = repo.git_text(["ls-tree", "-r", "-l", "refs/notes/handoff"]);
        let biggest =
            blobs.lines().filter_map(|l| l.split_whitespace().nth(3)?.parse::<u64>().ok()).max();
        counts.push((notes.lines().count(), biggest.unwrap_or(0)));
    }
    assert!(counts.windows(2).all(|w| w[0].0 == w[1].0), "notes grew: {counts:?}");
    let sizes: Vec<u64> = counts.iter().map(|c| c.1).collect();
    assert!(
        sizes.iter().max().unwrap() - sizes.iter().min().unwrap() < 64,
        "records grew: {sizes:?}"
    );
    let recall = stdout_ok(repo.handoff().arg("recall").output().unwrap());
    assert!(recall.contains("step 5"), "{recall}");
}
