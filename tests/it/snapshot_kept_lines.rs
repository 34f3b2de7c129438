//! The narrowed diff's first part, path by path, kept between snapshots
//! (`src/ops/snapshot/worktree_cache.rs`): once the files the agent changed have settled, the next
//! snapshot diffs only those whose stat data changed since, and prints what git prints.

use std::fs::File;
use std::time::Duration;

use crate::common::{Env, Repo, stdout_ok};
use crate::snapshot_narrow::{part_gits, settle, started_at_head, status_ran, traced};
use crate::snapshot_walk::{age, old_tree};

/// How long a file must have been left alone for its line to be kept (`SETTLED`), and a little.
const SETTLE: Duration = Duration::from_millis(2200);

/// The snapshot in parts (the first part in pieces from two paths), checked against git; how many
/// gits diffed the first part, and whether status ran a git of its own.
fn first_part_gits(repo: &Repo, base: &str, what: &str) -> (usize, bool) {
    let trace = traced(repo, base, "halves", what);
    (part_gits(&trace), status_ran(&trace))
}

/// Each of `names` edited in the work tree, two lines in place of the base's.
fn edit(repo: &Repo, names: &[impl AsRef<str>]) {
    for rel in names {
        let rel = rel.as_ref();
        repo.write(rel, format!("{rel}, edited in the work tree\nwith a second line\n"));
    }
}

#[test]
fn lines_are_kept_for_the_files_that_did_not_change_since_the_last_snapshot() {
    let env = Env::new();
    // A base at HEAD: no addition, so each path's line is its own.
    let (repo, base, names) = started_at_head(&env, "7");
    edit(&repo, &names[..20]);
    std::fs::remove_file(repo.path.join(&names[20])).unwrap();
    repo.chmod(&names[21], 0o755);
    repo.write(&names[22], b"\0binary\xff\n");
    let same = std::fs::read(repo.path.join(&names[23])).unwrap();
    repo.write(&names[23], same);

    // Changed just now: diffed, and not kept.
    assert_eq!(first_part_gits(&repo, &base, "fresh"), (2, false), "two pieces");
    assert_eq!(first_part_gits(&repo, &base, "fresh again"), (2, false), "not kept yet");
    std::thread::sleep(SETTLE);
    assert_eq!(first_part_gits(&repo, &base, "settled"), (2, false), "diffed, then kept");
    assert!(repo.path.join(".git/handoff-snapshot-worktree").is_file());
    assert_eq!(first_part_gits(&repo, &base, "kept"), (0, false), "every line kept");

    // The same size and the same modification time: only the change time tells.
    let file = repo.path.join(&names[3]);
    let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
    let before = std::fs::read(&file).unwrap();
    let mut after = before.clone();
    after[0] ^= 0x20;
    std::fs::write(&file, &after).unwrap();
    File::options().write(true).open(&file).unwrap().set_modified(modified).unwrap();
    assert_eq!(first_part_gits(&repo, &base, "same stat but ctime"), (1, false), "one rediffed");
    // A file deleted, one restored as it was, one edited again.
    std::fs::remove_file(repo.path.join(&names[5])).unwrap();
    repo.git(["checkout", "--", &names[20]]);
    repo.write(&names[6], "edited again\n");
    assert_eq!(first_part_gits(&repo, &base, "more work"), (2, false), "rediffed");
    std::thread::sleep(SETTLE);
    assert_eq!(first_part_gits(&repo, &base, "more work, settled"), (2, false), "then kept");
    assert_eq!(first_part_gits(&repo, &base, "more work, kept"), (0, false), "kept");
}

/// What git's diff reads besides the file changes what it prints: attributes, the `filter` and
/// `diff` config, a `.gitattributes` among the untracked files. The kept lines are not used then.
#[test]
fn kept_lines_are_not_used_where_what_git_reads_besides_the_file_changed() {
    let env = Env::new();
    let (repo, base, names) = started_at_head(&env, "8");
    edit(&repo, &names[..6]);
    repo.write(".git/info/attributes", "*.txt filter=up\n");
    std::thread::sleep(SETTLE);
    assert_eq!(first_part_gits(&repo, &base, "settled"), (2, false));
    assert_eq!(first_part_gits(&repo, &base, "kept"), (0, false));
    // The clean filter git runs each file through before it diffs it: nothing is kept while
    // one is configured (its program is not in the key).
    repo.git(["config", "filter.up.clean", "tr a-z A-Z"]);
    assert_eq!(first_part_gits(&repo, &base, "a clean filter"), (2, false));
    assert_eq!(first_part_gits(&repo, &base, "a clean filter, again"), (2, false));
    repo.git(["config", "--unset", "filter.up.clean"]);
    assert_eq!(first_part_gits(&repo, &base, "no clean filter"), (0, false));
    // A `filter` section the key holds, that runs nothing.
    repo.git(["config", "filter.up.required", "false"]);
    assert_eq!(first_part_gits(&repo, &base, "filter config"), (2, false));
    repo.write(".git/info/attributes", "*.txt binary\n");
    assert_eq!(first_part_gits(&repo, &base, "binary by attribute"), (2, false));
    assert_eq!(first_part_gits(&repo, &base, "binary, kept"), (0, false));
    repo.git(["config", "diff.suppressBlankEmpty", "true"]);
    assert_eq!(first_part_gits(&repo, &base, "diff config"), (2, false));
    repo.write("d0/.gitattributes", "*.txt -binary\n");
    assert_eq!(first_part_gits(&repo, &base, "untracked attributes"), (2, false));
    assert_eq!(first_part_gits(&repo, &base, "untracked, again"), (2, false));
    std::fs::remove_file(repo.path.join("d0/.gitattributes")).unwrap();
    // A kept file cut short is ignored.
    let kept = repo.path.join(".git/handoff-snapshot-worktree");
    let bytes = std::fs::read(&kept).unwrap();
    std::fs::write(&kept, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(first_part_gits(&repo, &base, "cut short"), (2, false));
    assert_eq!(first_part_gits(&repo, &base, "written again"), (0, false));
}

/// Where HEAD added files since the base, rename detection may pair any addition with any
/// deletion: only the lines of files modified alike in the base, the index and the work tree are
/// kept, the additions and deletions go to git every time, and the renames it finds among them
/// are git's.
#[test]
fn among_renames_only_the_modified_files_lines_are_kept() {
    let env = Env::new();
    // HEAD added `work.txt` since the base.
    let (repo, base, names) = old_tree(&env, "r", "2");
    let started = repo.handoff().args(["start", "--issue", "9", "--base", &base]).output();
    stdout_ok(started.unwrap());
    // A rename since the base, and a copy of a file the work tree then deletes: from the base,
    // another rename.
    let moved = std::fs::read(repo.path.join(&names[40])).unwrap();
    repo.write("d2/moved.txt", moved);
    std::fs::remove_file(repo.path.join(&names[40])).unwrap();
    let copied = std::fs::read(repo.path.join(&names[12])).unwrap();
    repo.write("d1/copy.txt", copied);
    repo.commit_all("a rename and a copy");
    settle(&repo);
    edit(&repo, &names[..10]);
    std::fs::remove_file(repo.path.join(&names[12])).unwrap();
    std::thread::sleep(SETTLE);
    assert_eq!(first_part_gits(&repo, &base, "settled"), (1, false), "one git: renames");
    let kept = std::fs::read(repo.path.join(".git/handoff-snapshot-worktree")).unwrap();
    let holds =
        |rel: &str| kept.windows(rel.len() + 2).any(|w| w == format!("\0{rel}\0").as_bytes());
    assert!(names[..10].iter().all(|rel| holds(rel)), "the modified files' lines kept");
    for rel in [&names[12], &names[40], "d1/copy.txt", "d2/moved.txt", "work.txt"] {
        assert!(!holds(rel), "{rel}: an end of a rename, or an addition, is not kept");
    }
    assert_eq!(first_part_gits(&repo, &base, "kept"), (1, false), "the renames still run");
    repo.git(["checkout", "--", &names[12]]);
    repo.write(&names[3], "edited again\n");
    assert_eq!(first_part_gits(&repo, &base, "restored"), (1, false));
}

/// A deletion kept while nothing could be renamed is diffed again once HEAD adds a file it may
/// pair with.
#[test]
fn a_kept_deletion_is_diffed_again_once_an_addition_may_pair_with_it() {
    let env = Env::new();
    let (repo, base, names) = started_at_head(&env, "10");
    edit(&repo, &names[..4]);
    let content = std::fs::read(repo.path.join(&names[20])).unwrap();
    std::fs::remove_file(repo.path.join(&names[20])).unwrap();
    std::thread::sleep(SETTLE);
    assert_eq!(first_part_gits(&repo, &base, "settled"), (2, false));
    assert_eq!(first_part_gits(&repo, &base, "kept"), (0, false));
    // The deleted file's content committed under another name (the deletion left unstaged).
    repo.write("d0/copy.txt", content);
    repo.git(["add", "d0/copy.txt"]);
    repo.git(["commit", "-q", "-m", "a copy"]);
    // Not racily clean (the walk doubting a path HEAD changed makes status ask git).
    age(&repo, "d0/copy.txt");
    std::thread::sleep(Duration::from_millis(1100));
    repo.git(["status", "--porcelain"]);
    assert_eq!(first_part_gits(&repo, &base, "an addition"), (1, false), "a rename, from git");
}

/// Lines of edited files, each kept at the last snapshot (so `gits` diff the first part: none
/// where nothing else is in it).
fn edited_and_kept(repo: &Repo, base: &str, names: &[&str], gits: usize) {
    edit(repo, names);
    std::thread::sleep(SETTLE);
    first_part_gits(repo, base, "settled");
    assert_eq!(first_part_gits(repo, base, "kept"), (gits, false));
}

/// What the stat data of a kept path cannot tell: its directory moved behind a link of the same
/// name (git takes a path under a link as gone), an assume-unchanged entry (git then trusts the
/// index), a repository made in a directory in place of a file (git looks inside it), a clean
/// filter's program changed. Each snapshot prints what git prints.
#[test]
fn what_the_stat_data_cannot_tell_is_diffed_by_git() {
    let env = Env::new();
    let (repo, base, _) = started_at_head(&env, "21");
    let nested = "d2/e0/f02.txt";
    std::fs::remove_file(repo.path.join(nested)).unwrap();
    std::fs::create_dir(repo.path.join(nested)).unwrap();
    repo.git(["-C", nested, "init", "-q"]);
    repo.write(format!("{nested}/x"), "x\n");
    // The directory is always diffed.
    edited_and_kept(&repo, &base, &["d0/e0/f00.txt", "d0/e0/f06.txt", "d1/e1/f01.txt"], 1);
    repo.git(["-C", nested, "add", "x"]);
    repo.git(["-C", nested, "commit", "-q", "-m", "inside"]);
    first_part_gits(&repo, &base, "a repository with a commit in place of a file");
    repo.git(["update-index", "--assume-unchanged", "d1/e1/f01.txt"]);
    repo.git(["write-tree"]);
    first_part_gits(&repo, &base, "assume-unchanged");
    first_part_gits(&repo, &base, "assume-unchanged, again");
    std::fs::rename(repo.path.join("d0"), repo.path.join("d0.real")).unwrap();
    std::os::unix::fs::symlink("d0.real", repo.path.join("d0")).unwrap();
    first_part_gits(&repo, &base, "a directory moved behind a link");
    first_part_gits(&repo, &base, "behind a link, again");
    std::fs::remove_file(repo.path.join("d0")).unwrap();
    std::fs::rename(repo.path.join("d0.real"), repo.path.join("d0")).unwrap();
    first_part_gits(&repo, &base, "the directory back");
}

#[test]
fn a_clean_filters_program_is_not_trusted_to_stay_the_same() {
    let env = Env::new();
    let (repo, base, _) = started_at_head(&env, "24");
    let script = repo.path.join("../clean.sh");
    std::fs::write(&script, "#!/bin/sh\ncat\n").unwrap();
    repo.chmod("../clean.sh", 0o755);
    repo.git(["config", "filter.up.clean", script.to_str().unwrap()]);
    repo.write(".git/info/attributes", "*.txt filter=up\n");
    // The base's line kept: under `cat` one insertion, under `tr` a rewrite.
    repo.write("d0/e0/f00.txt", "file 00\nmore\n");
    repo.write("d1/e1/f01.txt", "file 01\nmore\n");
    std::thread::sleep(SETTLE);
    assert_eq!(first_part_gits(&repo, &base, "settled"), (2, false));
    assert_eq!(first_part_gits(&repo, &base, "not kept"), (2, false));
    std::fs::write(&script, "#!/bin/sh\ntr a-z A-Z\n").unwrap();
    first_part_gits(&repo, &base, "the filter's program changed");
}

/// With a path HEAD deleted that sorts before a kept one, the kept lines are written back with
/// their own keys: kept again at the next snapshot.
#[test]
fn kept_lines_are_written_back_under_their_own_keys() {
    let env = Env::new();
    let (repo, base, _) = started_at_head(&env, "25");
    repo.git(["rm", "-q", "d0/e0/f00.txt"]);
    repo.git(["commit", "-q", "-m", "HEAD deletes a path"]);
    edited_and_kept(&repo, &base, &["d1/e1/f01.txt"], 0);
    repo.write("d2/e0/f02.txt", "edited too\n");
    std::thread::sleep(SETTLE);
    first_part_gits(&repo, &base, "written with the kept lines");
    assert_eq!(first_part_gits(&repo, &base, "kept again"), (0, false));
}
