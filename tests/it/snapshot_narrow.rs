//! The split snapshot's diff narrowed to the paths that can differ (`src/ops/snapshot/narrowed_diff.rs`):
//! given a private index of those entries and a tree of the base's entries at them, git must
//! print what it prints for the whole diff, whatever HEAD changed since the base and whatever the
//! work tree changed since HEAD; where the index is not HEAD's tree, the whole diff runs.

use crate::common::{Env, Repo, Rng, content, random_dirty_tree, stdout_ok};
use crate::snapshot::assert_matches_git;
use crate::snapshot_walk::{age, check, listing_calls, old_tree};

/// The tree-ish the split snapshot's `git diff --stat` was given, from git's trace.
fn diff_base(repo: &Repo) -> String {
    let calls = listing_calls(repo, "diff");
    assert_eq!(calls.len(), 1, "one diff: {calls:?}");
    let args = calls[0].split("built-in: git diff --stat ").nth(1).unwrap();
    args.trim_end_matches(" --").to_string()
}

/// Asserts the diff ran narrowed (on a tree that is not the base) and matched git, and that the
/// whole diff matches git too.
fn narrowed_matches_git(repo: &Repo, base: &str, what: &str) {
    check(repo, base, what);
    assert_ne!(diff_base(repo), base, "{what}: narrowed");
    let mut cmd = repo.handoff();
    cmd.env("GIT_HANDOFF_SNAPSHOT_WALKS", "split").env("GIT_HANDOFF_SNAPSHOT_DIFF", "whole");
    let out = cmd.args(["snapshot", "--json", "--max-lines", "500"]).output().unwrap();
    let whole: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_matches_git(repo, &whole, base, 500);
}

/// Commits since the base of every kind (an edit, a deletion, an addition, a rename, a file become
/// a directory and a directory become a file, a mode and a type change, attributes that make a
/// file binary), then work-tree changes on top, on paths HEAD changed and on paths it did not.
#[test]
fn the_narrowed_diff_prints_what_the_whole_diff_prints() {
    let env = Env::new();
    let (repo, base, names) = old_tree(&env, "r", "2");
    repo.write(".gitattributes", "*.dat binary\n");
    repo.write("d0/e0/f00.txt", "file 00, edited\n");
    std::fs::remove_file(repo.path.join("d1/e1/f01.txt")).unwrap();
    repo.write("d2/e0/added.txt", "added\n");
    // A file that sorts before the directory of its own stem (git orders `d1/` after `d1.txt`).
    repo.write("d1.txt", "beside d1/\n");
    std::fs::rename(repo.path.join("d0/e1/f03.txt"), repo.path.join("d1/renamed.txt")).unwrap();
    std::fs::remove_file(repo.path.join("top.txt")).unwrap();
    repo.write("top.txt/inside.txt", "was a file\n");
    std::fs::remove_dir_all(repo.path.join("d2/e1")).unwrap();
    repo.write("d2/e1", "was a directory\n");
    repo.chmod("tool.sh", 0o755);
    std::fs::remove_file(repo.path.join("link")).unwrap();
    repo.write("link", "a file now\n");
    repo.write("blob.dat", "binary by attribute\n");
    repo.commit_all("work since the base");
    for rel in repo.git_text(["ls-files"]).lines() {
        age(&repo, rel);
    }
    std::thread::sleep(std::time::Duration::from_millis(1100));
    repo.git(["update-index", "--really-refresh"]);
    // The work tree is HEAD: status is empty, the diff is what was committed.
    narrowed_matches_git(&repo, &base, "nothing changed");

    // Edited again, on a path HEAD changed and on one it did not; deleted; a file whose stat
    // data changed but whose content did not.
    repo.write("d0/e0/f00.txt", "file 00, edited twice\n");
    repo.write("d1/renamed.txt", "renamed, then edited\n");
    repo.write(&names[10], "an old file edited\n");
    std::fs::remove_file(repo.path.join(&names[13])).unwrap();
    repo.write("blob.dat", "still binary\n");
    let same = std::fs::read(repo.path.join(&names[12])).unwrap();
    repo.write(&names[12], same);
    narrowed_matches_git(&repo, &base, "and work-tree changes");
}

/// A staged change: the index is no longer HEAD's tree, so the whole diff runs (and matches).
#[test]
fn a_staged_change_runs_the_whole_diff() {
    let env = Env::new();
    let (repo, base, names) = old_tree(&env, "r", "2");
    repo.write(&names[0], "staged\n");
    repo.git(["add", &names[0]]);
    check(&repo, &base, "staged");
    assert_eq!(diff_base(&repo), base);
}

/// A tree of `count` files, of which the first `changed` are changed in a commit since the base
/// and one more in the work tree; the base.
fn changed_since_the_base(repo: &Repo, count: usize, changed: usize) -> String {
    let files: Vec<String> = (0..count).map(|i| format!("d{}/f{i:04}.txt", i % 7)).collect();
    for rel in &files {
        repo.write(rel, format!("{rel}\n"));
    }
    let base = repo.commit_all("base");
    for rel in &files[..changed] {
        repo.write(rel, format!("{rel} changed\n"));
    }
    repo.commit_all("files changed");
    // Old files and an index written a second later: the walk trusts them (none racily clean).
    for rel in &files {
        age(repo, rel);
    }
    std::thread::sleep(std::time::Duration::from_millis(1100));
    repo.git(["update-index", "--really-refresh"]);
    repo.write(&files[0], "and once more\n");
    let started = repo.handoff().args(["start", "--issue", "5", "--base", &base]).output();
    stdout_ok(started.unwrap());
    base
}

/// More paths changed since the base than a quarter of the index: the whole diff runs (and
/// matches).
#[test]
fn most_of_the_tree_changed_since_the_base_runs_the_whole_diff() {
    let env = Env::new();
    let repo = env.repo("r");
    let base = changed_since_the_base(&repo, 1100, 1100);
    check(&repo, &base, "many changes");
    assert_eq!(diff_base(&repo), base);
}

/// No cliff at a fixed number of paths: 1,100 paths changed since the base in a tree of 4,800
/// files are still narrowed (and match).
#[test]
fn many_changes_in_a_larger_tree_are_still_narrowed() {
    let env = Env::new();
    let repo = env.repo("r");
    let base = changed_since_the_base(&repo, 4800, 1100);
    check(&repo, &base, "many changes");
    assert_ne!(diff_base(&repo), base);
}

/// Random histories since the base (the awkward trees of `random_dirty_tree`: edits, deletions,
/// renames, mode and type changes, names with spaces and unicode, binary files), committed, then
/// random work-tree changes on top: the narrowed diff prints what git prints for the whole.
#[test]
fn random_histories_narrowed_match_git() {
    let env = Env::new();
    let mut narrowed = 0;
    for seed in 200..230 {
        let repo = env.repo(&format!("r{seed}"));
        random_dirty_tree(&repo, seed);
        let base = repo.git_text(["rev-list", "--max-parents=0", "HEAD"]);
        // Names that sort between a directory's name and its entries in git's tree order.
        let mut rng = Rng::new(seed);
        for dir in ["src", "d0", "d1", "newdir"] {
            if rng.chance(50) {
                repo.write(format!("{dir}{}", rng.pick(&[".txt", "-x", " y"])), "beside\n");
            }
        }
        repo.commit_all("work since the base");
        let tracked = String::from_utf8(repo.git(["ls-files", "-z"])).unwrap();
        for name in tracked.split('\0').filter(|name| !name.is_empty()) {
            let path = repo.path.join(name);
            match rng.below(8) {
                0 => std::fs::remove_file(&path).unwrap(),
                1 => repo.write(name, content(&mut rng, name)),
                2 if !path.is_symlink() => repo.chmod(name, 0o755),
                3 => {
                    std::fs::remove_file(&path).unwrap();
                    repo.write(format!("{name}/inside"), "a directory now\n");
                }
                _ => {}
            }
        }
        repo.write("untracked.txt", "new\n");
        let started = repo.handoff().args(["start", "--issue", "5", "--base", &base]).output();
        stdout_ok(started.unwrap());
        check(&repo, &base, &format!("seed {seed}"));
        narrowed += usize::from(diff_base(&repo) != base);
    }
    assert!(narrowed >= 25, "narrowed in {narrowed} of 30");
}

/// With `core.splitIndex` set, the private indexes `git diff` writes back after refreshing them
/// (files whose stat data changed but not their content) must not leave shared index files in the
/// git dir, narrowed or whole.
#[test]
fn a_split_index_config_leaves_nothing_in_the_git_dir() {
    let env = Env::new();
    let (repo, base, names) = old_tree(&env, "r", "2");
    repo.git(["config", "core.splitIndex", "true"]);
    let shared = || {
        let dir = std::fs::read_dir(repo.path.join(".git")).unwrap();
        let names = dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
        names.filter(|n| n.starts_with("sharedindex.")).collect::<Vec<_>>()
    };
    let before = shared();
    repo.write(&names[0], "changed\n");
    for diff in ["narrowed", "whole"] {
        for rel in &names[1..4] {
            let path = repo.path.join(rel);
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(std::time::SystemTime::now()).unwrap();
        }
        let mut cmd = repo.handoff();
        cmd.env("GIT_HANDOFF_SNAPSHOT_WALKS", "split");
        if diff == "whole" {
            cmd.env("GIT_HANDOFF_SNAPSHOT_DIFF", "whole");
        }
        stdout_ok(cmd.args(["snapshot", "--json"]).output().unwrap());
        assert_eq!(shared(), before, "{diff}");
    }
    check(&repo, &base, "one change");
}
