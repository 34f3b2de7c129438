//! The split snapshot's diff narrowed to the paths that can differ (`src/ops/snapshot/narrowed_diff.rs`):
//! given a private index of those entries and a tree of the base's entries at them, git must
//! print what it prints for the whole diff, whatever HEAD changed since the base and whatever the
//! work tree changed since HEAD; where the index is not HEAD's tree, the whole diff runs.

use crate::common::{Env, Repo, Rng, content, random_dirty_tree, stdout_ok};
use crate::snapshot::assert_matches_git;
use crate::snapshot_walk::{age, check, listing_calls, old_tree};

/// The tree-ishes the split snapshot's diff was given, from git's trace: one `git diff --stat`'s
/// (with `--raw -z` where status's letters come from it), or, in parts, each
/// `git diff --numstat`'s: the first part's, or its two pieces', and the second's unless its lines
/// were kept.
fn diff_bases(repo: &Repo) -> Vec<String> {
    let calls = base_diffs(repo);
    assert!(matches!(calls.len(), 1..=3), "one diff or up to three parts: {calls:?}");
    let base = |call: &String| {
        let args = [
            "built-in: git diff --stat ",
            "built-in: git diff --raw -z --stat ",
            "built-in: git diff --numstat -z --stat=1000000,1000000 ",
            "built-in: git diff --raw --numstat -z --stat=1000000,1000000 ",
        ]
        .iter()
        .find_map(|wanted| call.split(wanted).nth(1))
        .unwrap_or_else(|| panic!("a diff of another shape: {call}"));
        args.trim_end_matches(" --").to_string()
    };
    calls.iter().map(base).collect()
}

/// The diffs git ran against a base, from git's trace: not the tracked half of status, which the
/// narrowed index gives as `git diff --raw -z --no-renames` (`src/ops/snapshot/narrowed_status.rs`).
fn base_diffs(repo: &Repo) -> Vec<String> {
    let calls = listing_calls(repo, "diff");
    calls.into_iter().filter(|c| !c.contains(STATUS_DIFF)).collect()
}

/// The one tree-ish the split snapshot's `git diff --stat` was given.
fn diff_base(repo: &Repo) -> String {
    let bases = diff_bases(repo);
    assert_eq!(bases.len(), 1, "one diff: {bases:?}");
    bases[0].clone()
}

/// Asserts the diff ran narrowed (on a tree that is not the base) and matched git, and that the
/// whole diff matches git too.
fn narrowed_matches_git(repo: &Repo, base: &str, what: &str) {
    check(repo, base, what);
    assert!(!diff_bases(repo).contains(&base.to_string()), "{what}: narrowed");
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

/// How many gits in `trace` diffed a part (or a piece of the first part) of the narrowed diff.
pub(crate) fn part_gits(trace: &str) -> usize {
    let diffs = trace.lines().filter(|l| l.contains("built-in: git diff "));
    diffs.filter(|l| l.contains(" --numstat -z --stat=1000000,1000000 ")).count()
}

/// The snapshot's diff narrowed and in two parts (`GIT_HANDOFF_SNAPSHOT_DIFF=halves`), checked
/// against git; returns how many gits the diff ran in.
fn in_parts_matches_git(repo: &Repo, base: &str, what: &str) -> usize {
    part_gits(&traced(repo, base, "halves", what))
}

/// Many paths HEAD changed since the base, of every kind but attributes (edits, a name with a
/// space, deletions, additions, a rename, a mode change, a link become a file, a file become a
/// directory), then work-tree changes on top: the diff in two parts, laid out by us, prints what
/// git prints for the whole.
#[test]
fn the_diff_in_two_parts_prints_what_the_whole_diff_prints() {
    let env = Env::new();
    let (repo, base, names) = old_tree(&env, "r", "2");
    for rel in &names[..20] {
        repo.write(rel, format!("{rel}, edited since the base\nwith a second line\n"));
    }
    repo.write("d0/e0/with space.txt", "a name with a space\n");
    std::fs::remove_file(repo.path.join(&names[20])).unwrap();
    std::fs::remove_file(repo.path.join(&names[21])).unwrap();
    repo.write("d2/e0/added.txt", "added\n");
    std::fs::rename(repo.path.join(&names[22]), repo.path.join("d1/renamed.txt")).unwrap();
    repo.chmod("tool.sh", 0o755);
    std::fs::remove_file(repo.path.join("link")).unwrap();
    repo.write("link", "a file now\n");
    std::fs::remove_file(repo.path.join("top.txt")).unwrap();
    repo.write("top.txt/inside.txt", "was a file\n");
    repo.commit_all("work since the base");
    for rel in repo.git_text(["ls-files"]).lines() {
        age(&repo, rel);
    }
    std::thread::sleep(std::time::Duration::from_millis(1100));
    repo.git(["update-index", "--really-refresh"]);
    assert_eq!(in_parts_matches_git(&repo, &base, "nothing changed"), 2, "two parts");
    // The second part's lines are kept: the next snapshot runs only the first.
    assert_eq!(in_parts_matches_git(&repo, &base, "kept"), 1, "the second part kept");

    // Edited again (a path HEAD changed goes to the first part), deleted, a new file's name.
    repo.write(&names[0], "edited twice\n");
    repo.write(&names[1], "edited twice, and longer\nthan before\n");
    std::fs::remove_file(repo.path.join(&names[2])).unwrap();
    repo.write(&names[30], "an old file edited\n");
    assert_eq!(in_parts_matches_git(&repo, &base, "and work-tree changes"), 2, "two parts");
    assert_eq!(in_parts_matches_git(&repo, &base, "kept again"), 1, "kept again");

    // What git's diff reads besides the ids changes what it prints: the kept lines are not used.
    let kept = repo.path.join(".git/handoff-snapshot-stat");
    assert!(kept.is_file());
    repo.write(".git/info/attributes", "*.txt binary\n");
    assert_eq!(in_parts_matches_git(&repo, &base, "binary by attribute"), 2, "info/attributes");
    std::fs::remove_file(repo.path.join(".git/info/attributes")).unwrap();
    assert_eq!(in_parts_matches_git(&repo, &base, "attributes gone"), 2, "attributes gone");
    assert_eq!(in_parts_matches_git(&repo, &base, "kept once more"), 1, "kept once more");
    // A `.gitattributes` the index does not hold is read by git too: nothing is kept then.
    repo.write("d0/.gitattributes", "*.txt binary\n");
    assert_eq!(in_parts_matches_git(&repo, &base, "untracked attributes"), 2, "untracked");
    assert_eq!(in_parts_matches_git(&repo, &base, "untracked, again"), 2, "not kept");
    std::fs::remove_file(repo.path.join("d0/.gitattributes")).unwrap();
    // The lines kept before it was made are right again.
    assert_eq!(in_parts_matches_git(&repo, &base, "untracked gone"), 1, "untracked gone");
    // The user's attributes file (git's default, under XDG_CONFIG_HOME).
    let user = env.home().join(".config/git/attributes");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(&user, "*.txt binary\n").unwrap();
    assert_eq!(in_parts_matches_git(&repo, &base, "user attributes"), 2, "user attributes");
    std::fs::remove_file(&user).unwrap();
    repo.git(["config", "diff.suppressBlankEmpty", "true"]);
    assert_eq!(in_parts_matches_git(&repo, &base, "diff config"), 2, "diff config");
    // A kept file cut short, or of another key, is ignored.
    let bytes = std::fs::read(&kept).unwrap();
    std::fs::write(&kept, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(in_parts_matches_git(&repo, &base, "cut short"), 2, "cut short");
    // A commit moves HEAD: the paths it changed since the base are new pairs.
    repo.write(&names[3], "committed later\n");
    repo.commit_all("later");
    age(&repo, &names[3]);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    repo.git(["update-index", "--really-refresh"]);
    assert_eq!(in_parts_matches_git(&repo, &base, "a later commit"), 2, "a later commit");
    assert_eq!(in_parts_matches_git(&repo, &base, "a later commit, kept"), 1, "kept");
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

/// The `git diff` calls of a split snapshot whose diff runs as `GIT_HANDOFF_SNAPSHOT_DIFF=diff`
/// asks, checked against git.
fn diff_calls(repo: &Repo, base: &str, diff: &str) -> Vec<String> {
    let trace = snapshot_trace(repo, base, diff);
    let diffs = trace.lines().filter(|l| l.contains("built-in: git diff"));
    diffs.filter(|l| !l.contains(STATUS_DIFF)).map(str::to_string).collect()
}

/// More paths changed since the base than a quarter of the index (at least 1,024). In one part,
/// the whole diff runs. In two, only the first part (what the walk doubts) is bounded: the second
/// takes every file HEAD changed, however many, and its lines are kept; once the work tree holds
/// more doubted files than the bound, the whole diff runs. Each matches git.
#[test]
fn most_of_the_tree_changed_since_the_base() {
    let env = Env::new();
    let repo = env.repo("r");
    let base = changed_since_the_base(&repo, 1100, 1100);
    check(&repo, &base, "many changes");
    let whole = format!("built-in: git diff --stat {base}");
    let one = diff_calls(&repo, &base, "narrowed");
    assert!(one.len() == 1 && one[0].contains(&whole), "one part: the whole diff: {one:?}");
    // What the checks above kept goes, so the second part runs again.
    std::fs::remove_file(repo.path.join(".git/handoff-snapshot-stat")).unwrap();
    assert_eq!(in_parts_matches_git(&repo, &base, "in two parts"), 2, "two parts");
    assert_eq!(in_parts_matches_git(&repo, &base, "kept"), 1, "the second part kept");
    // 1,030 files edited in the work tree: too many for the first part.
    for i in 0..1030 {
        repo.write(format!("d{}/f{i:04}.txt", i % 7), format!("{i} edited in the work tree\n"));
    }
    let calls = diff_calls(&repo, &base, "halves");
    assert!(calls.len() == 1 && calls[0].contains(&whole), "too many doubted: {calls:?}");
}

/// No cliff at a fixed number of paths: 1,100 paths changed since the base in a tree of 4,800
/// files are still narrowed (and match).
#[test]
fn many_changes_in_a_larger_tree_are_still_narrowed() {
    let env = Env::new();
    let repo = env.repo("r");
    let base = changed_since_the_base(&repo, 4800, 1100);
    check(&repo, &base, "many changes");
    // So many paths that the narrowed diff runs in two parts (the second's lines kept by the
    // snapshots before).
    let calls = base_diffs(&repo);
    assert!(calls.iter().all(|c| c.contains("git diff --numstat")), "in parts: {calls:?}");
    assert!(!diff_bases(&repo).contains(&base), "narrowed: {calls:?}");
}

/// Random histories since the base (the awkward trees of `random_dirty_tree`: edits, deletions,
/// renames, mode and type changes, names with spaces and unicode, binary files), committed, then
/// random work-tree changes on top: the narrowed diff prints what git prints for the whole.
#[test]
fn random_histories_narrowed_match_git() {
    let env = Env::new();
    let (mut narrowed, mut in_parts, mut pieces) = (0, 0, 0);
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
        narrowed += usize::from(!diff_bases(&repo).contains(&base));
        // In two parts whenever the second can have a path (`GIT_HANDOFF_SNAPSHOT_DIFF=halves`).
        let trace = snapshot_trace(&repo, &base, "halves");
        let parts = part_gits(&trace);
        // None when the diff since the base was kept from the snapshots before; three where the
        // first part ran in two pieces beside the second.
        assert!(parts <= 3, "seed {seed}: the diff in {parts} parts");
        in_parts += usize::from(parts >= 2);

        // From a base at HEAD nothing is added since, so the first part (every work-tree change)
        // runs in two pieces.
        let head = repo.head();
        let started = repo.handoff().args(["start", "--issue", "6", "--base", &head]).output();
        stdout_ok(started.unwrap());
        let trace = traced(&repo, &head, "halves", &format!("seed {seed}, from HEAD"));
        pieces += usize::from(trace.matches("built-in: git diff --raw --numstat -z").count() == 2);
    }
    assert!(narrowed >= 25, "narrowed in {narrowed} of 30");
    assert!(pieces >= 20, "in two pieces in {pieces} of 30");
    // Whether a seed's diff runs in two parts depends on which of its files are racily clean, a
    // matter of the clock's second here (1 to 3 of 30); the_diff_in_two_parts_prints_what_the_
    // whole_diff_prints makes both cases on purpose. (The seeds once shared one trace file, which
    // GIT_TRACE appends to, so this count was of the first seeds only, and could be 0.)
    eprintln!("in two parts in {in_parts} of 30");
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

/// A split snapshot with the diff as `GIT_HANDOFF_SNAPSHOT_DIFF=diff` asks, checked against git;
/// git's trace of it.
fn snapshot_trace(repo: &Repo, base: &str, diff: &str) -> String {
    let trace = repo.path.join("../trace-snapshot.txt");
    let _ = std::fs::remove_file(&trace);
    let mut cmd = repo.handoff();
    cmd.env("GIT_HANDOFF_SNAPSHOT_WALKS", "split").env("GIT_HANDOFF_SNAPSHOT_DIFF", diff);
    let out = cmd.env("GIT_TRACE", &trace).args(["snapshot", "--json", "--max-lines", "500"]);
    let snap: serde_json::Value = serde_json::from_str(&stdout_ok(out.output().unwrap())).unwrap();
    eprintln!("OURS {}", snap["diff_stat"]);
    eprintln!("GIT {}", repo.git_text(["diff", "--stat", base]));
    eprintln!(
        "KEPT {:?}",
        String::from_utf8_lossy(
            &std::fs::read(repo.path.join(".git/handoff-snapshot-worktree")).unwrap_or_default()
        )
    );
    assert_matches_git(repo, &snap, base, 500);
    // No file where no git ran at all (every line kept, nothing untracked, HEAD at the base).
    std::fs::read_to_string(&trace).unwrap_or_default()
}

/// [`snapshot_trace`], where the diff must have run narrowed (never git's whole diff).
pub(crate) fn traced(repo: &Repo, base: &str, diff: &str, what: &str) -> String {
    let trace = snapshot_trace(repo, base, diff);
    assert!(!trace.contains(&format!("built-in: git diff --stat {base}")), "{what}: narrowed");
    trace
}

/// The git that gives status's tracked half from the narrowed index, in git's trace.
const STATUS_DIFF: &str = "built-in: git diff --raw -z --no-renames ";

/// Whether status's tracked half ran a git of its own (see [`STATUS_DIFF`]).
pub(crate) fn status_ran(trace: &str) -> bool {
    trace.contains(STATUS_DIFF)
}

/// Every file made old and the index refreshed a second later, so the walk trusts them all.
pub(crate) fn settle(repo: &Repo) {
    let tracked = String::from_utf8(repo.git(["ls-files", "-z"])).unwrap();
    for rel in tracked.split('\0').filter(|rel| !rel.is_empty()) {
        age(repo, rel);
    }
    std::thread::sleep(std::time::Duration::from_millis(1100));
    repo.git(["update-index", "--really-refresh"]);
}

/// An old tree (see [`old_tree`]) whose attempt `issue` started with a base at HEAD, so what HEAD
/// changes since holds no addition; the base and the tree's names.
pub(crate) fn started_at_head(env: &Env, issue: &str) -> (Repo, String, Vec<String>) {
    let (repo, _, names) = old_tree(env, "r", "2");
    let base = repo.head();
    let started = repo.handoff().args(["start", "--issue", issue, "--base", &base]).output();
    stdout_ok(started.unwrap());
    (repo, base, names)
}

/// Status's tracked letters come from the narrowed diff's raw records, with no git of their own,
/// whether the first part runs whole or in two pieces: edits, deletions, a mode change, a file
/// become a link, a file rewritten with the same content. Where the walk doubts a path HEAD
/// changed since the base, the diff's letter is not status's, and `git diff --raw` runs.
#[test]
fn status_letters_come_from_the_diff_in_one_piece_or_two() {
    let env = Env::new();
    let (repo, base, names) = started_at_head(&env, "6");
    for rel in &names[..4] {
        repo.write(rel, format!("{rel}, edited since the base\n"));
    }
    repo.commit_all("edits since the base");
    settle(&repo);
    for rel in &names[10..30] {
        repo.write(rel, format!("{rel}, edited in the work tree\nwith a second line\n"));
    }
    std::fs::remove_file(repo.path.join(&names[30])).unwrap();
    std::fs::remove_file(repo.path.join(&names[31])).unwrap();
    repo.chmod(&names[32], 0o755);
    std::fs::remove_file(repo.path.join(&names[33])).unwrap();
    repo.symlink("top.txt", &names[33]);
    let same = std::fs::read(repo.path.join(&names[34])).unwrap();
    repo.write(&names[34], same);

    // Chosen by size (24 paths doubted): one git, asked for `--raw` beside the stat.
    let trace = traced(&repo, &base, "narrowed", "one piece");
    assert!(!status_ran(&trace), "one piece: no status of its own");
    assert!(trace.contains("built-in: git diff --raw -z --stat "), "one piece: {trace}");
    // In parts whatever the size: the first part in two pieces, each with raw records.
    let trace = traced(&repo, &base, "halves", "two pieces");
    assert!(!status_ran(&trace), "two pieces: no status of its own");
    let pieces = trace.matches("built-in: git diff --raw --numstat -z").count();
    assert_eq!(pieces, 2, "two pieces: {trace}");
    assert_eq!(part_gits(&trace), 3, "the pieces and the second part");
    let trace = traced(&repo, &base, "halves", "two pieces, again");
    assert!(!status_ran(&trace), "two pieces again: no status of its own");
    assert_eq!(part_gits(&trace), 2, "the second part's lines kept from the snapshot before");

    // A path HEAD changed, edited again: status asks git.
    repo.write(&names[0], "edited twice\n");
    for diff in ["narrowed", "halves"] {
        let trace = traced(&repo, &base, diff, "a doubted path HEAD changed");
        assert!(status_ran(&trace), "{diff}: status runs for a path HEAD changed");
    }
}

/// HEAD added a copy of a file the work tree then deleted: from the base, a rename, whose old end
/// is status's deletion. An addition keeps the first part in one piece.
#[test]
fn a_rename_from_the_base_is_a_deletion_to_status() {
    let env = Env::new();
    let (repo, base, names) = old_tree(&env, "r", "2");
    let content = std::fs::read(repo.path.join(&names[5])).unwrap();
    repo.write("d2/moved.txt", content);
    repo.commit_all("a copy");
    settle(&repo);
    std::fs::remove_file(repo.path.join(&names[5])).unwrap();
    for diff in ["narrowed", "halves"] {
        let trace = traced(&repo, &base, diff, "a rename");
        assert!(!status_ran(&trace), "{diff}: no status of its own");
        // One git (with `halves`, on the first part less the lines kept: see snapshot_kept_lines).
        assert_eq!(trace.matches("built-in: git diff --raw").count(), 1, "{diff}: one piece");
    }
    let status = repo.git_text(["status", "--short"]);
    assert_eq!(status, format!(" D {}", names[5]));
}

/// `diff.autoRefreshIndex=false` makes `git diff` list a file whose stat data changed but not its
/// content; status, which refreshes the index first, does not. The snapshot's status is status's.
#[test]
fn no_auto_refresh_leaves_status_as_git_prints_it() {
    let env = Env::new();
    let (repo, base, names) = old_tree(&env, "r", "2");
    repo.git(["config", "diff.autoRefreshIndex", "false"]);
    let same = std::fs::read(repo.path.join(&names[7])).unwrap();
    repo.write(&names[7], same);
    repo.write(&names[8], "edited\n");
    for diff in ["narrowed", "halves"] {
        let trace = traced(&repo, &base, diff, "no auto refresh");
        assert!(status_ran(&trace), "{diff}: status runs, refreshing");
        // Back to a stale index for the next round: git's status refreshed it.
        let path = repo.path.join(&names[7]);
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(std::time::SystemTime::now()).unwrap();
    }
}

/// A name the stat's layout cannot repeat (not ASCII, with `core.quotePath` off) keeps the first
/// part in one piece, whose stat is git's own; the whole diff never runs.
#[test]
fn a_name_the_layout_cannot_repeat_keeps_one_piece() {
    let env = Env::new();
    let (repo, _, names) = old_tree(&env, "r", "2");
    repo.write("d0/\u{fc}ber.txt", "a name outside ASCII\n");
    repo.commit_all("a name outside ASCII");
    settle(&repo);
    let base = repo.head();
    let started = repo.handoff().args(["start", "--issue", "6", "--base", &base]).output();
    stdout_ok(started.unwrap());
    for rel in names[..6].iter().map(String::as_str).chain(["d0/\u{fc}ber.txt"]) {
        repo.write(rel, format!("{rel}, edited in the work tree\n"));
    }
    let trace = traced(&repo, &base, "halves", "quoted");
    assert_eq!(trace.matches("built-in: git diff --raw --numstat -z").count(), 2, "quoted");
    repo.git(["config", "core.quotePath", "false"]);
    let trace = traced(&repo, &base, "halves", "not quoted");
    assert!(!trace.contains("built-in: git diff --raw --numstat -z"), "not in pieces");
    assert!(trace.contains("built-in: git diff --raw -z --stat "), "one piece: {trace}");
    assert!(!status_ran(&trace), "no status of its own");
}

/// A tracked file replaced by a repository with a commit: a type change to the diff, modified to
/// status, whether status's letters come from the narrowed diff's raw records or, where the walk
/// doubted a path HEAD changed, from a git of their own.
#[test]
fn a_repository_in_a_files_place_is_modified_to_status() {
    let env = Env::new();
    let (repo, base, names) = started_at_head(&env, "11");
    repo.write(&names[0], "edited since the base\n");
    repo.commit_all("an edit since the base");
    settle(&repo);
    for (rel, runs) in [(&names[3], false), (&names[0], true)] {
        std::fs::remove_file(repo.path.join(rel)).unwrap();
        std::fs::create_dir(repo.path.join(rel)).unwrap();
        repo.write(format!("{rel}/x"), "x\n");
        repo.git(["-C", rel, "init", "-q"]);
        repo.git(["-C", rel, "add", "x"]);
        repo.git(["-C", rel, "commit", "-q", "-m", "inside"]);
        for diff in ["narrowed", "halves"] {
            let trace = traced(&repo, &base, diff, "a repository in a file's place");
            assert_eq!(status_ran(&trace), runs, "{diff}: {rel}");
        }
    }
    let status = repo.git_text(["status", "--short"]);
    assert!(status.contains(&format!(" M {}", names[0])), "{status}");
}
