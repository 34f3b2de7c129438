//! Nothing lost, nothing leaked: records that survive many writers on one issue, secrets that
//! never reach tags, progress notes or seal messages, control characters that never reach a
//! note, paths that never leave the work tree, and notes whose parsing stays linear.

use crate::common;

use std::time::Instant;

use common::payloads::{bash_failed, bash_ok, edit, record, stop};
use common::{Env, Repo, stdout_ok};
use common::{STARTED, started, stderr};
use serde_json::Value;

const TOKEN: &str = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";

/// The id of the key blob that names an issue in the notes ref.
fn issue_key(repo: &Repo, issue: u64) -> String {
    let file = repo.path.join(".git/issue-key");
    std::fs::write(&file, format!("git-handoff issue {issue}\n")).unwrap();
    repo.git_text(["hash-object", file.to_str().unwrap()])
}

#[test]
fn sixteen_writers_on_one_issue_keep_every_record() {
    const WRITERS: usize = 16;
    const ROUNDS: usize = 8;
    let env = Env::new();
    let repo = started(&env, "r", 7);
    let trees: Vec<Repo> = (0..WRITERS)
        .map(|i| {
            let path = env.root.path().join(format!("w{i}"));
            let branch = format!("b{i}");
            repo.git(["worktree", "add", "-q", "-b", branch.as_str(), path.to_str().unwrap()]);
            let tree = repo.at(path);
            let args = ["start", "--issue", "7", "--started-at", STARTED];
            stdout_ok(tree.handoff().args(args).output().unwrap());
            record(&tree, &bash_ok(&tree, "cargo test"));
            tree
        })
        .collect();
    std::thread::scope(|s| {
        for (i, tree) in trees.iter().enumerate() {
            s.spawn(move || {
                for round in 0..ROUNDS {
                    let message = format!("work {i}.{round}");
                    tree.git(["commit", "-q", "--allow-empty", "-m", message.as_str()]);
                    let out =
                        tree.handoff().args(["note", "--digest-only", "--json"]).output().unwrap();
                    let outcome: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
                    assert_eq!(outcome["kind"], "digest", "{outcome}");
                }
            });
        }
    });
    let key = issue_key(&repo, 7);
    let blob = repo.git_text(["notes", "--ref=handoff", "show", key.as_str()]);
    let records: toml::Table = toml::from_str(&blob).unwrap();
    let records = records["record"].as_array().unwrap();
    let mut commits: Vec<&str> = records.iter().map(|r| r["commit"].as_str().unwrap()).collect();
    commits.sort();
    commits.dedup();
    assert_eq!((records.len(), commits.len()), (WRITERS * ROUNDS, WRITERS * ROUNDS));
    // Each writer's own commits carry their record too (git's list of the notes ref: one git
    // start, not one per commit).
    let listed = repo.git_text(["notes", "--ref=handoff", "list"]);
    let noted: std::collections::HashSet<&str> =
        listed.lines().filter_map(|l| l.split_once(' ').map(|(_, object)| object)).collect();
    for tree in &trees {
        let log = tree.git_text(["log", "--format=%H", "-n", "8"]);
        for commit in log.lines() {
            assert!(noted.contains(commit), "{commit} has no record in refs/notes/handoff");
        }
    }
}

#[test]
fn secrets_never_reach_tags_show_progress_or_seal_messages() {
    let env = Env::new();
    let repo = started(&env, "r", 9);
    record(&repo, &bash_failed(&repo, "cargo test", 101));
    repo.write(
        ".agent/handoff/9.md",
        format!(
            "# Handoff note: issue #9\n\nissue: 9\nstarted_at: {STARTED}\nreason: agent_request\n\
             last_work_commit: {}\n\n## Summary\n\n- Fixed login with password=Hunter2pw and {TOKEN}, tests pass\n\n\
             ## Remaining work\n\n- none\n\n## Evidence\n\n- cargo build\n",
            repo.head()
        ),
    );
    let out = stdout_ok(repo.handoff().args(["note", "--json"]).output().unwrap());
    let show = stdout_ok(repo.handoff().args(["show"]).output().unwrap());
    let show_json = stdout_ok(repo.handoff().args(["show", "--json"]).output().unwrap());
    let notes = repo.git_text(["notes", "--ref=handoff", "show", "HEAD"]);
    let committed = repo.git_text(["show", "HEAD:.agent/handoff/9.md"]);
    for (what, text) in [
        ("note --json", &out),
        ("show", &show),
        ("show --json", &show_json),
        ("record", &notes),
        ("note", &committed),
    ] {
        assert!(!text.contains("Hunter2pw") && !text.contains(TOKEN), "{what} leaks: {text}");
    }
    let outcome: Value = serde_json::from_str(&out).unwrap();
    assert!(outcome["tags"][0]["item"].as_str().unwrap().contains("[redacted:"), "{outcome}");

    stdout_ok(repo.handoff().args(["progress", "plan", "Log in", "Ship"]).output().unwrap());
    repo.write(".handoff.toml", "[progress]\nwrite = \".agent/progress.md\"\n");
    let note = format!("used token {TOKEN} and password=Hunter2pw");
    stdout_ok(
        repo.handoff()
            .args(["progress", "set", "0", "done", "--note", note.as_str()])
            .output()
            .unwrap(),
    );
    let shown = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    let file = String::from_utf8(repo.read(".git/handoff/progress.toml")).unwrap();
    let summary = String::from_utf8(repo.read(".agent/progress.md")).unwrap();
    for (what, text) in
        [("progress show", &shown), ("progress.toml", &file), ("progress file", &summary)]
    {
        assert!(!text.contains("Hunter2pw") && !text.contains(TOKEN), "{what} leaks: {text}");
        assert!(text.contains("[redacted:"), "{what}: {text}");
    }

    repo.write("more.txt", "more\n");
    let message = format!("WIP with {TOKEN}");
    let out = repo.handoff().args(["seal", "-m", message.as_str()]).output().unwrap();
    stdout_ok(out);
    let body = repo.git_text(["log", "-1", "--format=%B"]);
    assert!(!body.contains(TOKEN) && body.contains("[redacted:github-token]"), "{body}");
}

#[test]
fn a_nul_in_a_payload_never_reaches_the_note() {
    let env = Env::new();
    let repo = started(&env, "r", 11);
    record(&repo, &bash_ok(&repo, "printf 'a\u{0}b' | xxd\u{1b}[31m"));
    record(&repo, &stop(&repo, "done\u{0}"));
    repo.write("x.txt", "x\n");
    record(&repo, &edit(&repo, "x.txt"));
    repo.commit_all("work");
    let out =
        repo.handoff().args(["note", "--emergency", "--reason", "time_limit"]).output().unwrap();
    stdout_ok(out);
    let note = repo.read(".agent/handoff/11.md");
    assert!(!note.iter().any(|&b| b == 0 || b == 0x1b), "{}", String::from_utf8_lossy(&note));
    let log = repo.read(".git/handoff/events.jsonl");
    assert!(!String::from_utf8_lossy(&log).contains("\\u0000"));
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());
}

#[test]
fn config_paths_stay_inside_the_work_tree() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    stdout_ok(repo.handoff().args(["progress", "plan", "One"]).output().unwrap());
    let outside = env.root.path().join("outside.md");
    for config in [
        format!("[progress]\nwrite = \"{}\"\n", outside.display()),
        "[progress]\nwrite = \"../outside.md\"\n".to_string(),
        "[recall]\nrules_file = \"/etc/passwd\"\n".to_string(),
        "[recall]\nrules_file = \"../../etc/passwd\"\n".to_string(),
        "[recall]\nspec_file = \"/etc/passwd\"\n".to_string(),
    ] {
        repo.write(".handoff.toml", &config);
        let out = repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{config}: {}", stderr(&out));
        assert!(stderr(&out).contains(".handoff.toml"), "{}", stderr(&out));
        assert!(!outside.exists());
        let out = repo.handoff().args(["recall"]).output().unwrap();
        assert!(!String::from_utf8_lossy(&out.stdout).contains("root:"), "{config}");
    }
    // A rules file that is a symlink out of the tree is not read.
    std::fs::write(env.root.path().join("creds"), "aws_secret=Zx81kQp0vB3nR7\nroot:x:0:0\n")
        .unwrap();
    repo.write(".handoff.toml", "");
    repo.symlink(env.root.path().join("creds").to_str().unwrap(), ".agent/rules.md");
    let out = repo.handoff().args(["recall"]).output().unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("root:x"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn symlinks_on_the_note_path_are_refused() {
    let env = Env::new();
    // The note directory is a symlink out of the repository.
    let repo = started(&env, "r", 13);
    let elsewhere = env.root.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    repo.symlink(elsewhere.to_str().unwrap(), ".agent/handoff");
    record(&repo, &bash_ok(&repo, "cargo build"));
    let head = repo.head();
    let out =
        repo.handoff().args(["note", "--emergency", "--reason", "time_limit"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(repo.head(), head);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);

    // The note file is a symlink to a credentials file: never copied into a note.
    let repo = started(&env, "s", 14);
    let creds = env.root.path().join("credentials");
    std::fs::write(&creds, "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz12KEYab\n")
        .unwrap();
    repo.symlink(creds.to_str().unwrap(), ".agent/handoff/14.md");
    record(&repo, &bash_ok(&repo, "cargo build"));
    let head = repo.head();
    for args in [&["note", "--emergency", "--reason", "time_limit"][..], &["note"][..]] {
        let out = repo.handoff().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
        assert_eq!(repo.head(), head);
    }
}

/// A note of `items` Summary items, each claiming something.
fn long_note(repo: &Repo, issue: u64, items: usize) -> String {
    let mut text = format!(
        "# Handoff note: issue #{issue}\n\nissue: {issue}\nstarted_at: {STARTED}\nreason: agent_request\n\
         last_work_commit: {}\n\n## Summary\n\n",
        repo.head()
    );
    for i in 0..items {
        text.push_str(&format!("- Item {i} works and all tests pass\n"));
    }
    text.push_str("\n## Remaining work\n\n- none\n\n## Evidence\n\n- none\n");
    text
}

/// Seconds `note --json` and then `recall` take on a note of `items` claims, and the tags found.
fn time_note(env: &Env, name: &str, issue: u64, items: usize) -> (f64, f64, usize) {
    let repo = started(env, name, issue);
    record(&repo, &bash_failed(&repo, "cargo test", 101));
    repo.write(format!(".agent/handoff/{issue}.md"), long_note(&repo, issue, items));
    let start = Instant::now();
    let out = repo.handoff().args(["note", "--json"]).output().unwrap();
    let note = start.elapsed().as_secs_f64();
    let outcome: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    let start = Instant::now();
    stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    (note, start.elapsed().as_secs_f64(), outcome["tags"].as_array().unwrap().len())
}

#[test]
fn note_handling_is_linear_and_bounded() {
    let env = Env::new();
    // Sixteen times the claims may take about sixteen times as long (plus start-up and a loaded
    // machine's noise), never the 256 times that quadratic tagging and recall took; a ratio, so
    // a slow machine passes.
    let (note_small, recall_small, tags) = time_note(&env, "small", 15, 1_250);
    assert_eq!(tags, 1_250);
    let (note_big, recall_big, tags) = time_note(&env, "big", 16, 20_000);
    assert_eq!(tags, 20_000);
    // The slack is wide because the suite runs beside other tests on two cores: the bound
    // catches handling that grows with the square at sizes users reach (a 12 MB note took 22 s
    // before), not a small slowdown.
    assert!(note_big < note_small * 64.0 + 15.0, "note: {note_small:.2}s, then {note_big:.2}s");
    assert!(
        recall_big < recall_small * 64.0 + 15.0,
        "recall: {recall_small:.2}s, {recall_big:.2}s"
    );

    // Past the size bound: a clear error, nothing committed.
    let repo = started(&env, "s", 17);
    let mut big = long_note(&repo, 17, 10);
    big.push_str(&"x".repeat(9 << 20));
    repo.write(".agent/handoff/17.md", big);
    let head = repo.head();
    let out = repo.handoff().args(["note"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("MiB"), "{}", stderr(&out));
    assert_eq!(repo.head(), head);
}
