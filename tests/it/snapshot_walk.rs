//! The snapshot's one walk of the tracked files (`GIT_HANDOFF_SNAPSHOT_WALKS=split`): the entries
//! it tells git are unchanged must be the ones git would find unchanged. Files here are older than
//! the index, so the walk does call them unchanged, and every kind of change must still show.

use std::fs::File;
use std::time::{Duration, SystemTime};

use crate::common::{Env, Repo, stdout_ok};
use crate::snapshot::{GitView, assert_matches_git, snapshot_walks};

/// Sets the file's modification time back by an hour (it stays as it was in other respects).
pub(crate) fn age(repo: &Repo, rel: &str) {
    let file = File::options().write(true).open(repo.path.join(rel)).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(3600)).unwrap();
}

/// A tree of `files` old files in nested directories, committed, with a fresh index.
pub(crate) fn old_tree(env: &Env, name: &str, index_version: &str) -> (Repo, String, Vec<String>) {
    let repo = env.repo(name);
    let mut names = Vec::new();
    for i in 0..60 {
        let rel = format!("d{}/e{}/f{i:02}.txt", i % 3, i % 2);
        repo.write(&rel, format!("file {i:02}\n"));
        names.push(rel);
    }
    repo.write("top.txt", "top\n");
    repo.write("tool.sh", "echo\n");
    repo.symlink("top.txt", "link");
    names.extend(["top.txt".to_string(), "tool.sh".to_string()]);
    let base = repo.commit_all("base");
    repo.write("work.txt", "work\n");
    names.push("work.txt".to_string());
    repo.commit_all("work");
    for rel in &names {
        age(&repo, rel);
    }
    repo.git(["update-index", "--index-version", index_version]);
    // A second later the index is rewritten with the old files' stat data: none is racily clean.
    std::thread::sleep(Duration::from_millis(1100));
    repo.git(["update-index", "--really-refresh"]);
    stdout_ok(repo.handoff().args(["start", "--issue", "5", "--base", &base]).output().unwrap());
    (repo, base, names)
}

pub(crate) fn check(repo: &Repo, base: &str, what: &str) {
    // git's view is read once, after the first snapshot (its `status` refreshes the index).
    let mut git = None;
    for walks in ["split", "halves", "two"] {
        let snap = snapshot_walks(repo, walks, &["--max-lines", "500"]);
        git.get_or_insert_with(|| GitView::of(repo, base)).assert_matches(&snap, 500);
        let status = snap["status"]["lines"].as_array().unwrap();
        assert!(!status.is_empty() || what == "nothing changed", "{what} ({walks})");
    }
}

#[test]
fn every_change_to_an_old_file_shows_through_the_one_walk() {
    let env = Env::new();
    for version in ["2", "3", "4"] {
        let (repo, base, _) = old_tree(&env, &format!("v{version}"), version);
        check(&repo, &base, "nothing changed");

        // The same size and the same modification time: only the inode change time tells.
        let path = repo.path.join("d0/e0/f00.txt");
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        repo.write("d0/e0/f00.txt", "FILE 00\n");
        File::options().write(true).open(&path).unwrap().set_modified(mtime).unwrap();
        check(&repo, &base, "same size, old mtime");

        // The executable bit alone; a file become a symlink; a symlink become a file.
        repo.chmod("tool.sh", 0o755);
        std::fs::remove_file(repo.path.join("d1/e1/f01.txt")).unwrap();
        repo.symlink("../../top.txt", "d1/e1/f01.txt");
        std::fs::remove_file(repo.path.join("link")).unwrap();
        repo.write("link", "top.txt");
        check(&repo, &base, "modes and types");

        // A deleted file, and a directory replaced by a symlink to a copy of itself: git sees the
        // files under it as deleted, though lstat through the link finds them unchanged.
        std::fs::remove_file(repo.path.join("d2/e0/f02.txt")).unwrap();
        std::fs::rename(repo.path.join("d0/e1"), repo.path.join("moved")).unwrap();
        repo.symlink("../moved", "d0/e1");
        check(&repo, &base, "deleted and under a symlink");

        // A directory where a file was, and an intent-to-add entry.
        std::fs::remove_file(repo.path.join("top.txt")).unwrap();
        repo.write("top.txt/inside.txt", "x\n");
        repo.write("new.txt", "new\n");
        repo.git(["add", "-N", "new.txt"]);
        check(&repo, &base, "file to directory, intent to add");
    }
}

/// Files staged and edited again in the second the index was written. (On a file system with
/// coarse timestamps their stat data could match the index; here nanoseconds tell them apart, so
/// this guards the path, not the racy rule itself.)
#[test]
fn racily_clean_edits_show_through_the_one_walk() {
    let env = Env::new();
    let (repo, base, names) = old_tree(&env, "r", "2");
    let edited: Vec<&String> = names.iter().take(10).collect();
    for rel in &edited {
        repo.write(rel, "staged....\n");
    }
    repo.git(["add", "--"].into_iter().chain(edited.iter().map(|s| s.as_str())));
    for rel in &edited {
        repo.write(rel, "edited....\n");
    }
    check(&repo, &base, "racy");
}

/// The racy rule itself, made certain: files edited after `git add` within one tick of the
/// clock, so their stat data is what the index holds (the inode change time aside, which
/// `core.trustCtime=false` tells git to ignore, as on file systems that do not keep it), and the
/// index written in that same tick, long before the snapshot. Only reading the files tells they
/// changed, and git reads them because the index is no older than they are: the private index,
/// written later, must leave git that doubt.
#[test]
fn racily_clean_edits_show_when_their_stat_data_matches_the_index() {
    let env = Env::new();
    let (repo, base, names) = old_tree(&env, "r", "2");
    repo.git(["config", "core.trustCtime", "false"]);
    let edited: Vec<&String> = names.iter().take(10).collect();
    // A minute ago, so that no clock, whole seconds or nanoseconds, puts the snapshot in the tick.
    let tick = SystemTime::now() - Duration::from_secs(60);
    let set_mtime = |path: &std::path::Path| {
        File::options().write(true).open(path).unwrap().set_modified(tick).unwrap();
    };
    for rel in &edited {
        repo.write(rel, "staged....\n");
        set_mtime(&repo.path.join(rel));
    }
    repo.git(["add", "--"].into_iter().chain(edited.iter().map(|s| s.as_str())));
    for rel in &edited {
        // Written in place (the same inode), the same size, and its time put back.
        let path = repo.path.join(rel);
        std::fs::write(&path, "edited....\n").unwrap();
        set_mtime(&path);
    }
    // The index as `git add` left it, dated in the tick; put back before each run, as git's own
    // status below may write it anew.
    let index = repo.path.join(".git/index");
    let staged = std::fs::read(&index).unwrap();
    let put_back = || {
        std::fs::write(&index, &staged).unwrap();
        set_mtime(&index);
    };
    put_back();
    let status = String::from_utf8(repo.git(["--no-optional-locks", "status", "--short"])).unwrap();
    assert_eq!(status.lines().filter(|l| l.starts_with("MM")).count(), 10, "git:\n{status}");
    for walks in ["split", "halves", "two"] {
        put_back();
        let snap = snapshot_walks(&repo, walks, &["--max-lines", "500"]);
        let lines = snap["status"]["lines"].as_array().unwrap();
        let both = lines.iter().filter(|l| l.as_str().unwrap().starts_with("MM")).count();
        assert_eq!(both, 10, "{walks}: {lines:?}");
        put_back();
        assert_matches_git(&repo, &snap, &base, 500);
    }
}

/// The `git ls-files` calls a split snapshot made, as git's trace records them (after git has
/// read its own options, so without `--literal-pathspecs`).
fn ls_files_calls(repo: &Repo) -> Vec<String> {
    listing_calls(repo, "ls-files")
}

/// The traced calls of one git command (`ls-files`, `check-ignore`) that a snapshot made.
pub(crate) fn listing_calls(repo: &Repo, command: &str) -> Vec<String> {
    let trace = repo.path.join("../trace.txt");
    let _ = std::fs::remove_file(&trace);
    let mut cmd = repo.handoff();
    cmd.env("GIT_HANDOFF_SNAPSHOT_WALKS", "split").env("GIT_TRACE", &trace);
    stdout_ok(cmd.args(["snapshot", "--json"]).output().unwrap());
    let trace = std::fs::read_to_string(&trace).unwrap_or_default();
    let built_in = format!("built-in: git {command}");
    trace.lines().filter(|l| l.contains(&built_in)).map(str::to_string).collect()
}

/// The walk reads the tracked directories and hands git only the names the index cannot account
/// for: what git lists of them must be what it lists of the whole tree, whatever hides or shows a
/// name (ignore rules at every level, negations, an ignored directory with tracked files, a nested
/// repository, a directory of ignored files only, names that look like globs or pathspec magic),
/// and wherever the tree disagrees with the index (a directory where a file was, a file or a
/// symlink where a directory was).
#[test]
fn untracked_names_found_on_the_walk_list_as_git_lists_them() {
    let env = Env::new();
    let (repo, base, _) = old_tree(&env, "r", "2");
    check(&repo, &base, "nothing changed");
    assert_eq!(ls_files_calls(&repo), Vec::<String>::new(), "no untracked name, no git");

    repo.write(".gitignore", "*.o\n/build/\n!keep.o\n");
    repo.write("d0/.gitignore", "local.txt\n");
    repo.write("build/tracked.txt", "t\n");
    repo.git(["add", "-f", ".gitignore", "d0/.gitignore", "build/tracked.txt"]);
    repo.git(["commit", "-q", "-m", "ignores"]);
    for name in ["x.o", "keep.o", "d1/e0/y.o", "d0/local.txt", "d0/e1/local.txt", "build/new.txt"] {
        repo.write(name, "ignored or not\n");
    }
    for name in ["*", "a?b", "[ab]", ":(top)magic", "back\\slash", "sp ace", "d2/e1/ü.txt"] {
        repo.write(name, "untracked\n");
    }
    repo.write("fresh/deep/one.txt", "1\n");
    repo.write("only-ignored/z.o", "z\n");
    std::fs::create_dir_all(repo.path.join("empty/dir")).unwrap();
    let nested = repo.at(repo.path.join("d1/nested"));
    std::fs::create_dir_all(&nested.path).unwrap();
    nested.git(["init", "-q"]);
    check(&repo, &base, "ignored and untracked");
    let calls = ls_files_calls(&repo);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert!(calls[0].contains(" -- ") && calls[0].contains("fresh"), "{calls:?}");
    // The files among the names are asked of check-ignore, only the rest of ls-files: a name that
    // reads as pathspec magic stays with ls-files.
    assert_eq!(listing_calls(&repo, "check-ignore").len(), 1);
    assert!(!calls[0].contains("x.o") && calls[0].contains(":(top)magic"), "{calls:?}");

    // The tree against the index: a directory of tracked files become a file, another become a
    // symlink, a tracked file become a directory.
    std::fs::remove_dir_all(repo.path.join("d2/e0")).unwrap();
    repo.write("d2/e0", "now a file\n");
    std::fs::rename(repo.path.join("d1/e1"), repo.path.join("elsewhere")).unwrap();
    repo.symlink("../elsewhere", "d1/e1");
    std::fs::remove_file(repo.path.join("tool.sh")).unwrap();
    repo.write("tool.sh/inside.txt", "x\n");
    check(&repo, &base, "types changed");
    assert!(ls_files_calls(&repo)[0].contains(" -- "));

    // Past the limit on names, git walks the whole tree again.
    for i in 0..200 {
        repo.write(format!("d0/e{}/many-{i}.txt", i % 2), "u\n");
    }
    check(&repo, &base, "many untracked files");
    assert!(!ls_files_calls(&repo)[0].contains(" -- "));

    // Names compared without case: git lists the whole tree, beside the walk.
    for i in 0..200 {
        std::fs::remove_file(repo.path.join(format!("d0/e{}/many-{i}.txt", i % 2))).unwrap();
    }
    repo.git(["config", "core.ignoreCase", "true"]);
    check(&repo, &base, "core.ignoreCase");
    assert!(!ls_files_calls(&repo)[0].contains(" -- "));
}

/// The names of the tracked directories are kept between snapshots (`<git dir>/handoff-snapshot-
/// dirs`, which `start` leaves where it is) once a directory has not changed for two seconds, and a directory whose
/// change time moved is read again: a name added or removed shows at once, even when the
/// directory's modification time is set back to what it was.
#[test]
fn kept_directory_names_never_hide_a_change() {
    let env = Env::new();
    let (repo, base, _) = old_tree(&env, "r", "2");
    repo.write("d0/e0/first.txt", "u\n");
    repo.write("fresh/one.txt", "1\n");
    std::thread::sleep(Duration::from_millis(2100));
    check(&repo, &base, "kept");
    let kept = repo.path.join(".git/handoff-snapshot-dirs");
    let bytes = std::fs::read(&kept).expect("the names are kept");
    assert!(bytes.windows(5).any(|w| w == b"d0/e0"));
    let again = repo.handoff().args(["start", "--issue", "6", "--base", &base]).output().unwrap();
    stdout_ok(again);
    assert_eq!(std::fs::read(&kept).unwrap(), bytes, "start leaves the kept names alone");
    check(&repo, &base, "read from what was kept");

    let dir = repo.path.join("d1/e0");
    let mtime = std::fs::metadata(&dir).unwrap().modified().unwrap();
    repo.write("d1/e0/second.txt", "u\n");
    File::open(&dir).unwrap().set_modified(mtime).unwrap();
    assert_eq!(std::fs::metadata(&dir).unwrap().modified().unwrap(), mtime);
    check(&repo, &base, "a name added, the time set back");
    let status = snapshot_walks(&repo, "split", &[])["status"]["lines"].to_string();
    assert!(status.contains("d1/e0/second.txt"), "{status}");

    std::fs::remove_file(repo.path.join("d0/e0/first.txt")).unwrap();
    std::fs::remove_dir_all(repo.path.join("fresh")).unwrap();
    check(&repo, &base, "names removed");

    // A kept file that is torn is read as none.
    let mut torn = std::fs::read(&kept).unwrap();
    let middle = torn.len() / 2;
    torn[middle] ^= 0x20;
    std::fs::write(&kept, torn).unwrap();
    repo.write("d2/e1/third.txt", "u\n");
    check(&repo, &base, "a broken file of kept names");
}

/// In a sparse checkout git reads the `.gitignore` of a directory outside the cone from the
/// index: the untracked names are then listed against the real index, not an empty one.
#[test]
fn a_sparse_checkouts_ignore_rules_from_the_index_still_apply() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("src/a.rs", "a\n");
    repo.write("lib/b.rs", "b\n");
    repo.write("lib/.gitignore", "*.log\n");
    let base = repo.commit_all("base");
    repo.git(["sparse-checkout", "set", "src"]);
    repo.write("lib/z.log", "ignored\n");
    repo.write("src/new.rs", "untracked\n");
    stdout_ok(repo.handoff().args(["start", "--issue", "1", "--base", &base]).output().unwrap());
    check(&repo, &base, "sparse");
}

/// git's version decides how the walk's untracked names are listed; it is asked once of each git
/// binary and kept in `<git dir>/handoff-git-version`, and a kept file that is damaged is asked
/// again and mended.
#[test]
fn gits_version_is_asked_once_and_kept() {
    let env = Env::new();
    let (repo, base, _) = old_tree(&env, "r", "2");
    repo.write("fresh/one.txt", "1\n");
    let kept = repo.path.join(".git/handoff-git-version");
    let _ = std::fs::remove_file(&kept);
    assert_eq!(listing_calls(&repo, "version").len(), 1, "asked the first time");
    let bytes = std::fs::read(&kept).expect("the version is kept");
    let text = String::from_utf8_lossy(&bytes);
    let version = repo.git_text(["version"]);
    let version = version.strip_prefix("git version ").unwrap();
    let (major, rest) = version.split_once('.').unwrap();
    let minor = rest.split(['.', ' ']).next().unwrap();
    assert_eq!(text.lines().nth(1), Some(&format!("{major}.{minor}")[..]), "{text}");
    assert_eq!(listing_calls(&repo, "version"), Vec::<String>::new(), "then read where kept");
    check(&repo, &base, "the version kept");

    std::fs::write(&kept, &bytes[..bytes.len() - 1]).unwrap();
    assert_eq!(listing_calls(&repo, "version").len(), 1, "a damaged file is asked again");
    assert_eq!(std::fs::read(&kept).unwrap(), bytes, "and mended");
}
