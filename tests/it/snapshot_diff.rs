//! The snapshot's `git diff --stat` run in two parts on two cores and laid out as git lays out the
//! whole (`GIT_HANDOFF_SNAPSHOT_DIFF=halves`): byte for byte git's own, whatever the names, counts,
//! renames, binary files and terminal width.

use crate::common;

use common::{Env, Repo, random_dirty_tree, stdout_ok};
use serde_json::Value;

/// The snapshot's diff stat (lines and summary, uncapped) with the diff in halves, and the
/// `git diff` commands the snapshot ran.
fn halves(repo: &Repo, columns: Option<&str>) -> (String, Vec<String>) {
    let trace = repo.path.join("../trace.txt");
    let _ = std::fs::remove_file(&trace);
    let mut cmd = repo.handoff();
    cmd.env("GIT_HANDOFF_SNAPSHOT_DIFF", "halves").env("GIT_TRACE", &trace);
    if let Some(columns) = columns {
        cmd.env("COLUMNS", columns);
    }
    let out = cmd.args(["snapshot", "--json", "--max-lines", "100000"]).output().unwrap();
    let snap: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    let mut text = String::new();
    for line in snap["diff_stat"]["lines"].as_array().unwrap() {
        text.push_str(line.as_str().unwrap());
        text.push('\n');
    }
    let summary = snap["diff_stat"]["summary"].as_str().unwrap();
    if !summary.is_empty() {
        text.push_str(summary);
        text.push('\n');
    }
    let trace = std::fs::read_to_string(&trace).unwrap_or_default();
    let diffs = trace
        .lines()
        .filter(|l| l.contains("trace: built-in: git diff"))
        .map(|l| l.split("built-in: ").nth(1).unwrap().to_string())
        .collect();
    (text, diffs)
}

fn git_stat(repo: &Repo, base: &str, columns: Option<&str>) -> String {
    let mut cmd = repo.git_cmd(["diff", "--stat", base]);
    if let Some(columns) = columns {
        cmd.env("COLUMNS", columns);
    }
    String::from_utf8(cmd.output().unwrap().stdout).unwrap()
}

fn lines(count: usize, tag: &str) -> String {
    (0..count).map(|i| format!("{tag} {i}\n")).collect()
}

/// A tree with every kind of line the stat has: long names cut with `...`, counts large enough to
/// scale the graph, binary files, a rename, a mode change alone, a symlink, deletions.
fn awkward(env: &Env) -> (Repo, String) {
    let repo = env.repo("r");
    let deep = format!("{}/deep.txt", "a-rather-long-directory-name".repeat(3));
    repo.write(&deep, lines(10, "deep"));
    repo.write("big.txt", lines(3000, "big"));
    repo.write("small.txt", lines(3, "small"));
    repo.write("moved-from.txt", lines(200, "moved"));
    repo.write("gone.txt", lines(50, "gone"));
    repo.write("mode.sh", "echo\n");
    repo.write("blob.bin", [0u8, 1, 2, 3, 0, 5]);
    repo.write("same.bin", [0u8, 9, 9]);
    repo.write("with space.txt", lines(4, "space"));
    repo.symlink("small.txt", "link");
    let base = repo.commit_all("base");
    repo.write(&deep, lines(12, "deeper"));
    repo.write("big.txt", lines(2000, "bigger"));
    repo.write("small.txt", lines(4, "small"));
    repo.git(["mv", "moved-from.txt", "moved-to.txt"]);
    std::fs::remove_file(repo.path.join("gone.txt")).unwrap();
    repo.chmod("mode.sh", 0o755);
    repo.write("blob.bin", [0u8, 1, 2, 3, 0, 5, 6, 7]);
    repo.write("with space.txt", lines(6, "space"));
    std::fs::remove_file(repo.path.join("link")).unwrap();
    repo.symlink("big.txt", "link");
    repo.write("added.txt", lines(7, "added"));
    repo.git(["add", "added.txt"]);
    (repo, base)
}

#[test]
fn the_diff_in_halves_is_git_diff_stat_byte_for_byte() {
    let env = Env::new();
    let (repo, base) = awkward(&env);
    stdout_ok(repo.handoff().args(["start", "--issue", "1", "--base", &base]).output().unwrap());
    for columns in [None, Some("40"), Some("61"), Some("200"), Some(" 90x"), Some("-5"), Some("0")]
    {
        let (ours, diffs) = halves(&repo, columns);
        assert_eq!(ours, git_stat(&repo, &base, columns), "COLUMNS={columns:?}");
        // Two parts, each with its own paths, and no whole diff after them.
        assert_eq!(diffs.len(), 2, "{diffs:?}");
        assert!(diffs.iter().all(|d| d.contains("--numstat")), "{diffs:?}");
    }
}

/// Names git would measure with its own width table are left to git: the diff then runs whole,
/// and prints what git prints.
#[test]
fn names_that_are_not_ascii_fall_back_to_the_whole_diff() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("ünïcödé-名前.txt", lines(5, "u"));
    repo.write("plain.txt", lines(5, "p"));
    let base = repo.commit_all("base");
    repo.write("ünïcödé-名前.txt", lines(9, "u"));
    repo.write("plain.txt", lines(9, "p"));
    repo.git(["config", "core.quotePath", "false"]);
    stdout_ok(repo.handoff().args(["start", "--issue", "1", "--base", &base]).output().unwrap());
    let (ours, diffs) = halves(&repo, Some("30"));
    assert_eq!(ours, git_stat(&repo, &base, Some("30")));
    assert_eq!(diffs.len(), 3, "two parts, then the whole: {diffs:?}");

    // Quoted (the default), the same names are ASCII and the halves stand.
    repo.git(["config", "core.quotePath", "true"]);
    let (ours, diffs) = halves(&repo, Some("30"));
    assert_eq!(ours, git_stat(&repo, &base, Some("30")));
    assert_eq!(diffs.len(), 2, "{diffs:?}");
}

/// Config that makes the parts differ from the whole keeps the diff whole.
#[test]
fn config_that_joins_paths_keeps_the_diff_whole() {
    let env = Env::new();
    let (repo, base) = awkward(&env);
    stdout_ok(repo.handoff().args(["start", "--issue", "1", "--base", &base]).output().unwrap());
    for (key, value) in [("diff.renames", "copies"), ("diff.statGraphWidth", "10")] {
        repo.git(["config", key, value]);
        let (ours, diffs) = halves(&repo, None);
        assert_eq!(ours, git_stat(&repo, &base, None), "{key}");
        assert_eq!(diffs.len(), 1, "{key}: {diffs:?}");
        repo.git(["config", "--unset", key]);
    }
}

#[test]
fn random_dirty_trees_in_halves_match_git() {
    let env = Env::new();
    for seed in 100..130 {
        let repo = env.repo(&format!("r{seed}"));
        random_dirty_tree(&repo, seed);
        let base = repo.head();
        repo.write("work.txt", lines(seed as usize, "work"));
        repo.commit_all("work");
        stdout_ok(
            repo.handoff().args(["start", "--issue", "5", "--base", &base]).output().unwrap(),
        );
        let columns = ["30", "80", "150"][seed as usize % 3];
        let (ours, _) = halves(&repo, Some(columns));
        assert_eq!(ours, git_stat(&repo, &base, Some(columns)), "seed {seed}");
    }
}

/// A tracked directory replaced by a symlink to its new place: git counts the paths under the
/// symlink as gone, and pairs them with their new paths as renames; the parts must keep both ends
/// together.
#[test]
fn paths_under_a_symlinked_directory_stay_with_their_renames() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("d/f", lines(3000, "f"));
    repo.write("other", lines(100, "o"));
    let base = repo.commit_all("base");
    std::fs::rename(repo.path.join("d"), repo.path.join("e")).unwrap();
    repo.write("e/f", format!("{}extra\n", lines(3000, "f")));
    repo.symlink("e", "d");
    repo.git(["add", "e/f"]);
    repo.write("other", lines(101, "o"));
    repo.write("newbig", lines(5000, "n"));
    repo.git(["add", "newbig"]);
    stdout_ok(repo.handoff().args(["start", "--issue", "1", "--base", &base]).output().unwrap());
    let (ours, _) = halves(&repo, None);
    assert_eq!(ours, git_stat(&repo, &base, None));
    assert!(ours.contains("{d => e}/f"), "{ours}");
}

/// Under a pager git started, `color.ui=auto` (the default) colours a pipe too: the diff then
/// runs whole, as it does for `diff.color`, the older name of `color.diff`.
#[test]
fn colour_git_could_add_keeps_the_diff_whole() {
    let env = Env::new();
    let (repo, base) = awkward(&env);
    stdout_ok(repo.handoff().args(["start", "--issue", "1", "--base", &base]).output().unwrap());
    let trace = repo.path.join("../trace.txt");
    let diffs = |cmd: &mut std::process::Command| {
        let _ = std::fs::remove_file(&trace);
        cmd.env("GIT_HANDOFF_SNAPSHOT_DIFF", "halves").env("GIT_TRACE", &trace);
        stdout_ok(cmd.args(["snapshot", "--json"]).output().unwrap());
        let trace = std::fs::read_to_string(&trace).unwrap();
        trace.lines().filter(|l| l.contains("trace: built-in: git diff")).count()
    };
    assert_eq!(diffs(repo.handoff().env("GIT_PAGER_IN_USE", "true").env("TERM", "xterm")), 1);
    repo.git(["config", "diff.color", "always"]);
    assert_eq!(diffs(&mut repo.handoff()), 1);
    repo.git(["config", "--unset", "diff.color"]);
    assert_eq!(diffs(&mut repo.handoff()), 2);
}
