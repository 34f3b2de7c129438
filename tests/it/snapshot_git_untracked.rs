//! The first snapshot of an attempt (none of its own directory names kept) takes the untracked
//! names of a directory git's untracked cache holds from there (`src/ops/snapshot/git_untracked.rs`)
//! and must still print git's bytes when the ignore rules changed since git made the cache: a
//! `.gitignore` edited in place (its directory's times unchanged), `info/exclude` edited, and a
//! `.gitignore` added above a directory whose times did not change, which un-ignores a file in it.

use std::time::Duration;

use crate::common::{Env, Repo, stdout_ok};
use crate::snapshot::{assert_matches_git, snapshot_walks};

/// git's cache made anew, in an index written more than a second after the tree last changed
/// (git trusts no directory changed in the tick its index was written).
fn fresh_git_cache(repo: &Repo) {
    std::thread::sleep(Duration::from_millis(1100));
    repo.git(["update-index", "--untracked-cache"]);
    repo.git(["status", "--porcelain"]);
    repo.git(["status", "--porcelain"]);
}

/// A snapshot with none of the snapshot's own caches, compared with git.
fn cold_matches_git(repo: &Repo, base: &str, what: &str) {
    for kept in ["handoff-snapshot-dirs", "handoff-snapshot-stat"] {
        let _ = std::fs::remove_file(repo.path.join(".git").join(kept));
    }
    let snap = snapshot_walks(repo, "split", &["--max-lines", "500"]);
    let lines = snap["status"]["lines"].as_array().map_or(0, Vec::len);
    assert!(lines > 0, "{what}: some status lines");
    assert_matches_git(repo, &snap, base, 500);
}

#[test]
fn names_from_gits_untracked_cache_follow_changed_ignore_rules() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a/keep.txt", "k\n");
    repo.write("a/b/keep.txt", "k\n");
    repo.write("c/keep.txt", "k\n");
    repo.write(".gitignore", "*.log\n");
    repo.write("a/b/.gitignore", "*.tmp\n");
    let base = repo.commit_all("base");
    repo.write("work.txt", "work\n");
    repo.commit_all("work");
    for (rel, body) in
        [("a/b/x.log", "x"), ("a/b/y.tmp", "y"), ("a/z.log", "z"), ("a/new.txt", "n")]
    {
        repo.write(rel, body);
    }
    repo.write("c/w.o", "o");
    repo.write("a/keep.txt", "edited\n");
    stdout_ok(repo.handoff().args(["start", "--issue", "5", "--base", &base]).output().unwrap());
    repo.git(["config", "core.untrackedCache", "true"]);
    fresh_git_cache(&repo);
    cold_matches_git(&repo, &base, "as git's cache says");

    // Edited in place: `*.log` no longer ignored, in directories whose times did not change.
    repo.write(".gitignore", "# nothing ignored here\n");
    cold_matches_git(&repo, &base, "a .gitignore edited");
    repo.write("a/b/.gitignore", "\n");
    cold_matches_git(&repo, &base, "a deeper .gitignore edited");

    // info/exclude ignores `*.o`, git's cache is made again, then it no longer does.
    repo.write(".git/info/exclude", "*.o\n");
    fresh_git_cache(&repo);
    cold_matches_git(&repo, &base, "with info/exclude");
    repo.write(".git/info/exclude", "# none\n");
    cold_matches_git(&repo, &base, "info/exclude edited");

    // A new .gitignore above a directory git's cache holds as it is, un-ignoring a file in it.
    repo.write(".gitignore", "*.log\n*.tmp\n");
    repo.write("a/b/.gitignore", "*.tmp\n");
    fresh_git_cache(&repo);
    cold_matches_git(&repo, &base, "ignored again");
    repo.write("a/.gitignore", "!*.log\n");
    cold_matches_git(&repo, &base, "a .gitignore added above");
}

/// A `.gitignore` that becomes a symlink to /dev/zero above a directory git's cache holds (a clone
/// can hold one; git does not follow it): the cold snapshot ends and prints git's bytes.
#[test]
fn a_gitignore_linked_to_dev_zero_above_a_cached_directory() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a/b/keep.txt", "k\n");
    repo.write("a/.gitignore", "*.tmp\n");
    let base = repo.commit_all("base");
    repo.write("a/b/new.txt", "n");
    repo.write("a/b/x.tmp", "x");
    repo.write("a/b/keep.txt", "edited\n");
    stdout_ok(repo.handoff().args(["start", "--issue", "5", "--base", &base]).output().unwrap());
    repo.git(["config", "core.untrackedCache", "true"]);
    fresh_git_cache(&repo);
    std::fs::remove_file(repo.path.join("a/.gitignore")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", repo.path.join("a/.gitignore")).unwrap();
    cold_matches_git(&repo, &base, "a .gitignore linked to /dev/zero");
}
