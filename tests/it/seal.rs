//! `seal` against the real git: the seal commit's tree is what `git add -A` stages on a copy, the
//! work tree never changes, every failure leaves the repository exactly as it was, and secrets
//! stay out.

use crate::common;

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{Env, Repo, random_dirty_tree, stdout_ok};
use common::{STARTED, stderr};
use serde_json::Value;

/// `git handoff seal --json` for issue 1 with a fixed start time, plus `extra`.
fn seal(repo: &Repo, extra: &[&str]) -> Output {
    repo.handoff()
        .args(["seal", "--json", "--issue", "1", "--started-at", STARTED])
        .args(extra)
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|err| {
        panic!(
            "{err}: stdout {:?}, stderr {:?}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

pub(crate) fn seal_ok(repo: &Repo, extra: &[&str]) -> Value {
    let out = seal(repo, extra);
    let text = stdout_ok(out);
    serde_json::from_str(&text).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// Every entry under `root` but `.git`: type, permission bits, mtime, and content or link target.
fn tree_state(root: &Path) -> BTreeMap<Vec<u8>, String> {
    let mut state = BTreeMap::new();
    walk(root, root, &mut state);
    state
}

fn walk(root: &Path, dir: &Path, state: &mut BTreeMap<Vec<u8>, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let rel = path.strip_prefix(root).unwrap().as_os_str().as_bytes().to_vec();
        if rel == b".git" {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let times = format!("{}.{}", meta.mtime(), meta.mtime_nsec());
        let what = if meta.file_type().is_symlink() {
            format!("link {:?}", std::fs::read_link(&path).unwrap())
        } else if meta.is_dir() {
            walk(root, &path, state);
            format!("dir {:o}", meta.mode())
        } else {
            let mut h = DefaultHasher::new();
            std::fs::read(&path).unwrap().hash(&mut h);
            format!("file {:o} {} {:x} {times}", meta.mode(), meta.len(), h.finish())
        };
        state.insert(rel, what);
    }
}

/// Everything a seal may change: HEAD (symbolic and resolved), refs, the index bytes, the git
/// dir's top-level names (no leftovers) and the work tree.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct State {
    head: String,
    refs: String,
    index: Option<u64>,
    git_dir: Vec<String>,
    tree: BTreeMap<Vec<u8>, String>,
}

pub(crate) fn state(repo: &Repo) -> State {
    let git_dir = PathBuf::from(repo.git_text(["rev-parse", "--absolute-git-dir"]));
    let symbolic = repo.git_cmd(["symbolic-ref", "-q", "HEAD"]).output().unwrap();
    let resolved = repo.git_cmd(["rev-parse", "-q", "--verify", "HEAD"]).output().unwrap();
    let index = std::fs::read(git_dir.join("index")).ok().map(|bytes| {
        let mut h = DefaultHasher::new();
        bytes.hash(&mut h);
        h.finish()
    });
    let mut names: Vec<String> = std::fs::read_dir(&git_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    State {
        head: format!(
            "{} {}",
            String::from_utf8_lossy(&symbolic.stdout).trim(),
            String::from_utf8_lossy(&resolved.stdout).trim()
        ),
        refs: repo.git_text(["for-each-ref"]),
        index,
        git_dir: names,
        tree: tree_state(&repo.path),
    }
}

/// `git diff-tree -r --name-only` of a commit against its parent, or of a root commit against the
/// empty tree (`--root`), NUL-separated.
fn diff_tree_names(repo: &Repo, commit: &str) -> Vec<String> {
    let args = ["diff-tree", "-r", "-z", "--name-only", "--no-commit-id", "--root", commit];
    let out = repo.git(args);
    out.split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect()
}

/// What `git add -A && git write-tree` makes of the work tree, with a copy of the index (the
/// repository's own index and work tree are left alone; the blobs land in its object store, as
/// the seal's did). A linked worktree, whose `.git` is a file, is copied whole with `cp -a`.
fn expected_tree(repo: &Repo) -> String {
    static COPIES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COPIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = repo.path.file_name().unwrap().to_string_lossy();
    let copy = repo.path.with_file_name(format!("{name}-copy{n}"));
    let index = repo.path.join(".git/index");
    if index.is_file() {
        std::fs::copy(&index, &copy).unwrap();
        let add = repo.git_cmd(["add", "-A"]).env("GIT_INDEX_FILE", &copy).output().unwrap();
        assert!(add.status.success(), "git add -A: {}", stderr(&add));
        let tree = repo.git_cmd(["write-tree"]).env("GIT_INDEX_FILE", &copy).output().unwrap();
        assert!(tree.status.success(), "git write-tree: {}", stderr(&tree));
        return String::from_utf8(tree.stdout).unwrap().trim().to_string();
    }
    let status =
        std::process::Command::new("cp").arg("-a").arg(&repo.path).arg(&copy).status().unwrap();
    assert!(status.success());
    let copy = repo.at(copy);
    copy.git(["add", "-A"]);
    copy.git_text(["write-tree"])
}

/// The checks every successful seal must pass.
pub(crate) fn assert_sealed_like_git(
    repo: &Repo,
    before: &State,
    old_head: Option<&str>,
    sealed: &Value,
) {
    // Before git's `add -A` below, which refreshes the index of a nested repository.
    assert_eq!(tree_state(&repo.path), before.tree, "the work tree changed");
    let expected = expected_tree(repo);
    let old_tree = old_head.map(|h| repo.git_text(["rev-parse", &format!("{h}^{{tree}}")]));
    if old_tree.as_deref() == Some(expected.as_str()) {
        assert_eq!(sealed["commit"], Value::Null);
        assert_eq!(strings(&sealed["files"]), Vec::<String>::new());
        // Nothing to commit, and the index is left as `git add -A` leaves it (`git rm --cached`).
        assert_eq!(repo.git_text(["status", "--porcelain"]), "", "status after nothing to seal");
        return;
    }
    let commit = sealed["commit"].as_str().expect("a seal commit").to_string();
    // HEAD, the commit's tree and its parents, in one rev-parse.
    let tree = format!("{commit}^{{tree}}");
    let parents = format!("{commit}^@");
    let parsed = repo.git_text(["rev-parse", "HEAD", tree.as_str(), parents.as_str()]);
    let parsed: Vec<&str> = parsed.lines().collect();
    assert_eq!(parsed[0], commit, "HEAD");
    assert_eq!(parsed[1], expected, "the sealed tree");
    assert_eq!(&parsed[2..], old_head.as_slice(), "the seal's parents");
    assert_eq!(repo.git_text(["status", "--porcelain"]), "", "status after seal");
    let fsck = repo.git_cmd(["fsck", "--strict", "--no-progress"]).output().unwrap();
    assert!(fsck.status.success(), "fsck: {}", stderr(&fsck));
    assert_eq!(strings(&sealed["files"]), diff_tree_names(repo, &commit));
    let format = "--format=%B%x00%(trailers:key=Handoff-Seal,valueonly)";
    let shown = repo.git_text(["log", "-1", format, commit.as_str()]);
    let (message, trailer) = shown.split_once('\0').unwrap();
    let message = message.trim_end_matches('\n');
    assert!(message.ends_with(&format!("\n\nHandoff-Seal: {STARTED}")), "{message:?}");
    assert_eq!(trailer.trim_end_matches('\n'), STARTED);
}

fn differential(seeds: std::ops::Range<u64>) {
    let env = Env::new();
    for seed in seeds {
        let repo = env.repo(&format!("r{seed}"));
        random_dirty_tree(&repo, seed);
        let old = repo.head();
        let before = state(&repo);
        let sealed = seal_ok(&repo, &[]);
        assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
        assert_eq!(sealed["skipped"], serde_json::json!([]), "seed {seed}");
    }
}

/// Random trees per test function (two run on the test harness's threads); set `SEAL_TREES` for
/// a longer hunt.
const TREES: u64 = 40;

fn trees(part: u64) -> std::ops::Range<u64> {
    let per = std::env::var("SEAL_TREES").ok().and_then(|s| s.parse().ok()).unwrap_or(TREES);
    part * per..(part + 1) * per
}

#[test]
fn random_dirty_trees_seal_like_git_add_all_0() {
    differential(trees(0));
}

#[test]
fn random_dirty_trees_seal_like_git_add_all_1() {
    differential(trees(1));
}

#[test]
fn runs_as_git_handoff_from_a_subdirectory_with_attempt_state() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("src/a.rs", "a\n");
    let old = repo.commit_all("init");
    stdout_ok(
        repo.handoff().args(["start", "--issue", "42", "--started-at", STARTED]).output().unwrap(),
    );
    repo.write("src/a.rs", "changed\n");
    repo.write("src/new.rs", "new\n");
    let before = state(&repo);
    let out = repo.git_handoff().args(["-C", "src", "seal", "--json"]).output().unwrap();
    let sealed: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    assert_eq!(strings(&sealed["files"]), ["src/a.rs", "src/new.rs"]);
    let subject = repo.git_text(["log", "-1", "--format=%s"]);
    assert_eq!(subject, "Seal leftover work: issue #42");
    let reflog = repo.git_text(["reflog", "-1", "--format=%gs", "main"]);
    assert_eq!(reflog, "handoff seal: Seal leftover work: issue #42");
    let author = repo.git_text(["log", "-1", "--format=%an <%ae>|%cn <%ce>"]);
    assert_eq!(author, "A U Thor <author@example.com>|C O Mitter <committer@example.com>");
}

/// Sets a file's mtime to `secs` seconds and `nanos` after the epoch.
fn set_mtime(path: &Path, secs: u64, nanos: u32) {
    let time = std::time::UNIX_EPOCH + std::time::Duration::new(secs, nanos);
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_times(std::fs::FileTimes::new().set_modified(time)).unwrap();
}

#[test]
fn racily_clean_entries_are_checked_like_git_checks_them() {
    // The index was written in the same second as a same-size edit that followed the last stat:
    // git sees the entry as "racily clean" by the index file's mtime and compares content. The
    // seal's private copy of the index must keep that mtime to see the edit too.
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("f", "c\n");
    let old = repo.commit_all("init");
    let second = 1_790_000_000;
    set_mtime(&repo.path.join("f"), second, 100_000_000);
    repo.git(["update-index", "--refresh"]);
    repo.write("f", "d\n");
    set_mtime(&repo.path.join("f"), second, 600_000_000);
    set_mtime(&repo.path.join(".git/index"), second, 900_000_000);
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    assert_eq!(repo.git(["show", "HEAD:f"]), b"d\n");
}

#[test]
fn message_replaces_the_subject_and_keeps_the_trailer() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    repo.commit_all("init");
    repo.write("a", "b\n");
    seal_ok(&repo, &["--message", "WIP: half a parser\n\nnext: the lexer"]);
    let message = repo.git_text(["log", "-1", "--format=%B"]);
    assert_eq!(
        message,
        format!("WIP: half a parser\n\nnext: the lexer\n\nHandoff-Seal: {STARTED}")
    );
}

#[test]
fn without_an_attempt_it_says_to_start_one_and_changes_nothing() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    repo.commit_all("init");
    repo.write("a", "b\n");
    let before = state(&repo);
    let out = repo.handoff().args(["seal"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("git handoff start --issue N"), "{}", stderr(&out));
    assert_eq!(state(&repo), before);
}

#[test]
fn nothing_to_seal_is_a_null_commit() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    repo.write("debug.log", "ignored\n");
    repo.write(".gitignore", "*.log\n");
    repo.commit_all("init");
    repo.write("more.log", "ignored too\n");
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_eq!(sealed, serde_json::json!({"commit": null, "files": [], "skipped": []}));
    assert_eq!(state(&repo), before);

    let text = stdout_ok(seal_text(&repo, &[]));
    assert!(text.contains("Nothing to seal"), "{text}");
}

fn seal_text(repo: &Repo, extra: &[&str]) -> Output {
    repo.handoff()
        .args(["seal", "--color", "never", "--issue", "1", "--started-at", STARTED])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn text_output_caps_the_file_list() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".handoff.toml", "[caps]\nseal_files = 3\n");
    repo.commit_all("init");
    for i in 0..7 {
        repo.write(format!("f{i}.txt"), "x\n");
    }
    let text = stdout_ok(seal_text(&repo, &[]));
    let head = repo.head();
    assert!(text.starts_with(&format!("Sealed: {head}\n")), "{text}");
    assert!(text.contains("Files (7):\n  f0.txt\n  f1.txt\n  f2.txt\n  +4 more\n"), "{text}");
}

#[test]
fn unborn_branch_becomes_the_root_commit() {
    let env = Env::new();
    let repo = env.repo("r");
    let empty = seal_ok(&repo, &[]);
    assert_eq!(empty["commit"], Value::Null);
    repo.write("a.txt", "a\n");
    repo.write("dir/b.txt", "b\n");
    repo.git(["add", "a.txt"]);
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, None, &sealed);
    assert_eq!(repo.git_text(["symbolic-ref", "HEAD"]), "refs/heads/main");
    assert_eq!(strings(&sealed["files"]), ["a.txt", "dir/b.txt"]);
}

#[test]
fn detached_head_moves_and_the_branch_stays() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    let main = repo.commit_all("init");
    repo.git(["checkout", "-q", "--detach"]);
    repo.write("a", "b\n");
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&main), &sealed);
    assert_eq!(repo.git_text(["rev-parse", "main"]), main);
    let symbolic = repo.git_cmd(["symbolic-ref", "-q", "HEAD"]).output().unwrap();
    assert!(!symbolic.status.success(), "HEAD must stay detached");
}

#[test]
fn file_mode_false_keeps_recorded_modes() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("script.sh", "echo a\n");
    repo.write("tool", "#!/bin/sh\n");
    repo.chmod("tool", 0o755);
    let old = repo.commit_all("init");
    repo.git(["config", "core.fileMode", "false"]);
    repo.chmod("script.sh", 0o755);
    repo.chmod("tool", 0o644);
    repo.write("script.sh", "echo b\n");
    repo.write("new.sh", "echo new\n");
    repo.chmod("new.sh", 0o755);
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    let mode = |path: &str| repo.git_text(["ls-tree", "HEAD", path])[..6].to_string();
    assert_eq!(mode("new.sh"), "100644");
    assert_eq!(mode("tool"), "100755");
    assert_eq!(mode("script.sh"), "100644");
}

#[test]
fn autocrlf_and_eol_attributes_convert_like_git() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".gitattributes", "*.txt text eol=crlf\n*.dat binary\n*.lf text eol=lf\n");
    repo.write("a.txt", "one\r\ntwo\r\n");
    let old = repo.commit_all("init");
    repo.git(["config", "core.autocrlf", "true"]);
    repo.write("a.txt", "one\r\ntwo\r\nthree\r\n");
    repo.write("b.txt", "mixed\nlines\r\n");
    repo.write("c.dat", "bin\r\n\0data\r\n");
    repo.write("d.lf", "crlf\r\nin lf file\r\n");
    repo.write("plain", "auto\r\ncrlf\r\n");
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    assert_eq!(repo.git(["show", "HEAD:a.txt"]), b"one\ntwo\nthree\n");
    assert_eq!(repo.git(["show", "HEAD:c.dat"]), b"bin\r\n\0data\r\n");
}

#[test]
fn large_binary_file_is_sealed() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("small", "x\n");
    let old = repo.commit_all("init");
    let mut block = vec![0u8; 1 << 20];
    let mut rng = common::Rng::new(7);
    for byte in block.iter_mut() {
        *byte = rng.next() as u8;
    }
    let mut big = Vec::with_capacity(50 << 20);
    for i in 0..50u8 {
        big.extend(block.iter().map(|b| b ^ i));
    }
    repo.write("assets/big.bin", &big);
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    assert_eq!(repo.git_text(["cat-file", "-s", "HEAD:assets/big.bin"]), (50 << 20).to_string());
}

#[test]
fn non_utf8_names_are_sealed() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    let old = repo.commit_all("init");
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9 \xff.txt");
    std::fs::write(repo.path.join(name), "latin-1 name\n").unwrap();
    std::fs::create_dir(repo.path.join(std::ffi::OsStr::from_bytes(b"dir\xfe"))).unwrap();
    std::fs::write(repo.path.join(std::ffi::OsStr::from_bytes(b"dir\xfe/x")), "x\n").unwrap();
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    assert_eq!(sealed["files"].as_array().unwrap().len(), 2);
    let text = stdout_ok(repo.handoff().args(["seal", "--issue", "1"]).output().unwrap());
    assert!(text.contains("Nothing to seal"), "{text}");
}

#[test]
fn sparse_checkout_seals_only_what_git_add_stages() {
    let env = Env::new();
    let repo = env.repo("r");
    for dir in ["in", "out", "in/deep"] {
        repo.write(format!("{dir}/file.txt"), format!("{dir}\n"));
    }
    repo.write("top.txt", "top\n");
    let old = repo.commit_all("init");
    repo.git(["sparse-checkout", "set", "--cone", "--sparse-index", "in"]);
    assert!(!repo.path.join("out/file.txt").exists());
    repo.write("in/file.txt", "changed\n");
    repo.write("in/deep/new.txt", "new\n");
    repo.write("top.txt", "top changed\n");
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    assert_eq!(strings(&sealed["files"]), ["in/deep/new.txt", "in/file.txt", "top.txt"]);
    assert_eq!(repo.git(["show", "HEAD:out/file.txt"]), b"out\n");
}

#[test]
fn linked_worktree_seals_its_own_branch_and_index() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    let main = repo.commit_all("init");
    let wt_path = env.root.path().join("wt");
    repo.git(["worktree", "add", "-q", "-b", "feature", wt_path.to_str().unwrap()]);
    let wt = repo.at(&wt_path);
    wt.write("a.txt", "changed in the worktree\n");
    wt.write("b.txt", "new\n");
    repo.write("main-dirty.txt", "stays in the main work tree\n");
    let main_before = state(&repo);
    let before = state(&wt);
    let out = wt.handoff().args(["seal", "--json", "--issue", "3"]).output().unwrap();
    let sealed: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_eq!(tree_state(&wt.path), before.tree);
    let commit = sealed["commit"].as_str().unwrap();
    assert_eq!(wt.git_text(["rev-parse", "feature"]), commit);
    assert_eq!(wt.git_text(["rev-parse", "feature~1"]), main);
    assert_eq!(wt.git_text(["status", "--porcelain"]), "");
    assert_eq!(strings(&sealed["files"]), ["a.txt", "b.txt"]);
    assert_eq!(wt.git(["show", "HEAD:a.txt"]), b"changed in the worktree\n");
    // The main worktree is untouched: its branch, its index, its dirty file.
    assert_eq!(state(&repo).index, main_before.index);
    assert_eq!(state(&repo).tree, main_before.tree);
    assert_eq!(repo.git_text(["rev-parse", "main"]), main);
}

#[test]
fn nested_repository_is_recorded_as_git_records_it() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    let old = repo.commit_all("init");
    let nested = env.repo("r/nested");
    nested.write("inner.txt", "inner\n");
    nested.commit_all("inner");
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    let entry = repo.git_text(["ls-tree", "HEAD", "nested"]);
    assert!(entry.starts_with("160000 commit"), "{entry}");
}

#[test]
fn without_an_identity_the_fallback_authors_the_seal() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    repo.commit_all("init");
    // Git may not guess an identity from the system either.
    repo.git(["config", "user.useConfigOnly", "true"]);
    repo.write("a", "b\n");
    let strip = |cmd: &mut std::process::Command| {
        for var in ["NAME", "EMAIL"] {
            cmd.env_remove(format!("GIT_AUTHOR_{var}")).env_remove(format!("GIT_COMMITTER_{var}"));
        }
        cmd.env_remove("EMAIL");
    };
    let mut cmd = repo.handoff();
    cmd.args(["seal", "--json", "--issue", "1"]);
    strip(&mut cmd);
    let sealed: Value = serde_json::from_str(&stdout_ok(cmd.output().unwrap())).unwrap();
    assert!(sealed["commit"].is_string());
    let who = repo.git_text(["log", "-1", "--format=%an <%ae>|%cn <%ce>"]);
    assert_eq!(who, "git-handoff <git-handoff@localhost>|git-handoff <git-handoff@localhost>");

    // The repository's user.* wins over the fallback.
    repo.git(["config", "user.name", "Repo User"]);
    repo.git(["config", "user.email", "repo@example.com"]);
    repo.write("a", "c\n");
    let mut cmd = repo.handoff();
    cmd.args(["seal", "--json", "--issue", "1"]);
    strip(&mut cmd);
    stdout_ok(cmd.output().unwrap());
    let who = repo.git_text(["log", "-1", "--format=%an <%ae>|%cn <%ce>"]);
    assert_eq!(who, "Repo User <repo@example.com>|Repo User <repo@example.com>");

    // Only the missing half falls back.
    repo.git(["config", "--unset", "user.email"]);
    repo.write("a", "d\n");
    let mut cmd = repo.handoff();
    cmd.args(["seal", "--json", "--issue", "1"]);
    strip(&mut cmd);
    let sealed: Value = serde_json::from_str(&stdout_ok(cmd.output().unwrap())).unwrap();
    assert!(sealed["commit"].is_string(), "{sealed}");
    let who = repo.git_text(["log", "-1", "--format=%an <%ae>"]);
    assert_eq!(who, "Repo User <git-handoff@localhost>");
}

/// A repository with a commit and a dirty tree, for the failure paths.
fn dirty_repo(env: &Env, name: &str) -> Repo {
    let repo = env.repo(name);
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.commit_all("init");
    repo.write("a.txt", "dirty\n");
    repo.write("new.txt", "new\n");
    repo.git(["add", "new.txt"]);
    repo.write("untracked.txt", "u\n");
    repo
}

fn assert_refused(repo: &Repo, expect: &[&str]) {
    let before = state(repo);
    let out = seal(repo, &[]);
    assert_eq!(out.status.code(), Some(2), "stderr: {}", stderr(&out));
    let err = stderr(&out);
    for word in expect {
        assert!(err.contains(word), "{word:?} not in {err}");
    }
    // Under --json the error is the one document on stdout.
    assert_eq!(json(&out)["exit"], 2);
    assert_eq!(state(repo), before, "the repository changed");
}

#[test]
fn a_held_index_lock_refuses_and_stays() {
    let env = Env::new();
    let repo = dirty_repo(&env, "r");
    let lock = repo.path.join(".git/index.lock");
    std::fs::write(&lock, "someone else's\n").unwrap();
    assert_refused(&repo, &["index.lock exists", "another git process", "run seal again"]);
    assert_eq!(std::fs::read(&lock).unwrap(), b"someone else's\n");
}

#[test]
fn operations_in_progress_refuse() {
    let env = Env::new();

    // A merge with conflicts.
    let repo = env.repo("merge");
    repo.write("f", "base\n");
    repo.commit_all("base");
    repo.git(["checkout", "-q", "-b", "other"]);
    repo.write("f", "other\n");
    repo.commit_all("other");
    repo.git(["checkout", "-q", "main"]);
    repo.write("f", "main\n");
    repo.commit_all("main");
    let out = repo.git_cmd(["merge", "-q", "other"]).output().unwrap();
    assert!(!out.status.success());
    repo.write("extra.txt", "dirty\n");
    assert_refused(&repo, &["a merge is in progress", "git merge --abort"]);

    // A clean merge stopped before its commit.
    let repo = env.repo("merge-clean");
    repo.write("f", "base\n");
    repo.commit_all("base");
    repo.git(["checkout", "-q", "-b", "other"]);
    repo.write("g", "other\n");
    repo.commit_all("other");
    repo.git(["checkout", "-q", "main"]);
    repo.write("h", "main\n");
    repo.commit_all("main");
    repo.git(["merge", "-q", "--no-commit", "--no-ff", "other"]);
    assert_refused(&repo, &["a merge is in progress"]);

    // Conflicts without a merge: a stash that did not apply cleanly.
    let repo = env.repo("stash");
    repo.write("f", "base\n");
    repo.commit_all("base");
    repo.write("f", "stashed\n");
    repo.git(["stash", "-q"]);
    repo.write("f", "committed\n");
    repo.commit_all("next");
    let out = repo.git_cmd(["stash", "pop", "-q"]).output().unwrap();
    assert!(!out.status.success());
    assert_refused(&repo, &["unresolved conflicts", "(first: f)"]);

    // A rebase, a cherry-pick and a revert that stopped on a conflict; a bisect.
    let repo = env.repo("seq");
    repo.write("f", "base\n");
    repo.commit_all("base");
    repo.git(["checkout", "-q", "-b", "topic"]);
    repo.write("f", "topic\n");
    let topic = repo.commit_all("topic");
    repo.git(["checkout", "-q", "main"]);
    repo.write("f", "main\n");
    repo.commit_all("main");
    assert!(!repo.git_cmd(["cherry-pick", &topic]).output().unwrap().status.success());
    assert_refused(&repo, &["a cherry-pick is in progress"]);
    repo.git(["cherry-pick", "--abort"]);
    repo.git(["checkout", "-q", "topic"]);
    assert!(!repo.git_cmd(["rebase", "-q", "main"]).output().unwrap().status.success());
    assert_refused(&repo, &["a rebase is in progress", "git rebase --abort"]);
    repo.git(["rebase", "--abort"]);
    repo.git(["bisect", "start"]);
    repo.write("dirty.txt", "x\n");
    assert_refused(&repo, &["a bisect is in progress", "git bisect reset"]);
}

#[test]
fn revert_in_progress_refuses() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("f", "one\n");
    repo.commit_all("one");
    repo.write("f", "two\n");
    let two = repo.commit_all("two");
    repo.write("f", "three\n");
    repo.commit_all("three");
    assert!(!repo.git_cmd(["revert", "--no-edit", &two]).output().unwrap().status.success());
    assert_refused(&repo, &["a revert is in progress"]);
}

#[test]
fn commit_hooks_do_not_run() {
    let env = Env::new();
    let repo = dirty_repo(&env, "r");
    let old = repo.head();
    for hook in ["pre-commit", "commit-msg", "prepare-commit-msg", "post-commit"] {
        repo.write(
            format!(".git/hooks/{hook}"),
            format!("#!/bin/sh\necho ran >> \"$(git rev-parse --git-dir)/{hook}-ran\"\nexit 1\n"),
        );
        repo.chmod(format!(".git/hooks/{hook}"), 0o755);
    }
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
    for hook in ["pre-commit", "commit-msg", "prepare-commit-msg", "post-commit"] {
        assert!(!repo.path.join(format!(".git/{hook}-ran")).exists(), "{hook} ran");
    }
}

#[test]
fn a_skipped_file_keeps_its_assume_unchanged_and_skip_worktree_bits() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    for name in ["assumed.key", "sparse.key"] {
        repo.write(name, "secret\n");
        repo.git(["add", name]);
    }
    repo.git(["update-index", "--assume-unchanged", "assumed.key"]);
    repo.git(["update-index", "--skip-worktree", "sparse.key"]);
    repo.write("a.txt", "b\n");
    // `ls-files -v` shows the bits: lower case for assume-unchanged, S for skip-worktree.
    let bits = |repo: &Repo| repo.git_text(["ls-files", "-v", "--", "assumed.key", "sparse.key"]);
    let before = bits(&repo);
    assert_eq!(before, "h assumed.key\nS sparse.key");
    let index = repo.git_text(["ls-files", "-s", "--", "assumed.key", "sparse.key"]);
    let out = seal(&repo, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(bits(&repo), before);
    assert_eq!(repo.git_text(["ls-files", "-s", "--", "assumed.key", "sparse.key"]), index);
    assert_eq!(repo.git_text(["show", "--format=", "--name-only", "HEAD"]), "a.txt");
}

#[test]
fn ctrl_c_while_sealing_leaves_no_lock_and_changes_nothing() {
    use std::os::unix::process::CommandExt;
    let env = Env::new();
    let repo = dirty_repo(&env, "r");
    // A slow clean filter holds `git add -A` long enough to interrupt it.
    repo.write(".gitattributes", "*.slow filter=slow\n");
    repo.git(["config", "filter.slow.clean", "sleep 2; cat"]);
    repo.write("a.slow", "slow\n");
    let before = state(&repo);
    let head = repo.head();
    // As a terminal's Ctrl-C does: SIGINT to seal and its git children, one process group.
    let child = repo
        .handoff()
        .args(["seal", "--issue", "1", "--started-at", STARTED])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let group = format!("-{}", child.id());
    let kill = std::process::Command::new("kill").args(["-INT", "--", &group]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // Stopped in `git add -A`, or (on a slow machine) at the check before HEAD moves.
    let why = stderr(&out);
    assert!(why.contains("git add") || why.contains("interrupted"), "{why}");
    assert!(!repo.path.join(".git/index.lock").exists(), "index.lock left behind");
    let leftovers: Vec<_> = std::fs::read_dir(repo.path.join(".git"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("handoff-seal-"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind: {leftovers:?}");
    assert_eq!(repo.head(), head);
    let after = state(&repo);
    assert_eq!(after.index, before.index);
    assert_eq!(after.tree, before.tree);
    assert_eq!(after.git_dir, before.git_dir);
}

#[test]
fn a_failing_ref_update_leaves_everything_as_it_was() {
    let env = Env::new();
    let repo = dirty_repo(&env, "r");
    // Hooks are off in seal, so the ref update is made to fail another way: a clean filter (run
    // while `git add -A` stages) takes the branch's lock, as another git process would hold it.
    repo.write(".git/info/attributes", "a.txt filter=lock\n");
    repo.git(["config", "filter.lock.clean", "touch \"$GIT_DIR/refs/heads/main.lock\"; cat"]);
    assert_refused(&repo, &["moving HEAD", "as they were"]);
    std::fs::remove_file(repo.path.join(".git/refs/heads/main.lock")).unwrap();
}

#[test]
fn a_branch_moved_while_sealing_fails_the_compare_and_swap() {
    let env = Env::new();
    let repo = dirty_repo(&env, "r");
    let old = repo.head();
    repo.git(["branch", "elsewhere", "HEAD"]);
    repo.write("c.txt", "c\n");
    repo.git(["add", "c.txt"]);
    let tree = repo.git_text(["write-tree"]);
    let moved = repo.git_text(["commit-tree", &tree, "-p", &old, "-m", "moved"]);
    repo.git(["reset", "-q", "HEAD", "c.txt"]);
    std::fs::remove_file(repo.path.join("c.txt")).unwrap();
    // Another writer moves the branch while seal stages (a clean filter runs while `git add -A`
    // stages a.txt; hooks are off in seal).
    repo.write(".git/info/attributes", "a.txt filter=mover\n");
    let mover = format!("git update-ref refs/heads/main {moved}; cat");
    repo.git(["config", "filter.mover.clean", mover.as_str()]);
    let before = state(&repo);
    let out = seal(&repo, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("moving HEAD"), "{}", stderr(&out));
    let after = state(&repo);
    assert_eq!(repo.head(), moved, "the other writer's update stands");
    assert_eq!(after.index, before.index);
    assert_eq!(after.tree, before.tree);
    assert_eq!(after.git_dir, before.git_dir);
}

#[test]
fn secrets_are_left_out_untouched_and_reported() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("config.toml", "name = 1\n");
    repo.write(
        ".handoff.toml",
        "[secrets]\nfiles = [\"*.vault\"]\npatterns = [\"INTERNAL-[0-9]{6}\"]\n",
    );
    let old = repo.commit_all("init");
    let token = format!("ghp_{}", "a1B2".repeat(9));
    repo.write(".env", "API_KEY=1\n");
    repo.write("deploy/.env.production", "X=1\n");
    repo.write(".env.example", "API_KEY=\n");
    repo.write("certs/server.pem", "cert\n");
    repo.write("id_rsa", "key\n");
    repo.write("notes.md", format!("token: {token}\n"));
    repo.write("config.toml", "name = 1\naws = \"AKIAIOSFODNN7EXAMPLE\"\n");
    repo.write("store.vault", "x\n");
    repo.write("ids.txt", "INTERNAL-123456\n");
    repo.write(".npmrc", "//registry.npmjs.org/:_authToken=abc123\n");
    repo.write("sub/.npmrc", "registry=https://example.com/\n");
    repo.write("staged.key", "staged secret\n");
    repo.git(["add", "staged.key"]);
    repo.write("staged.key", "staged secret, edited\n");
    repo.write(".env.local", "intent\n");
    repo.git(["add", "-N", ".env.local"]);
    let mut big = vec![b'.'; 33 << 20];
    // A key block (cut short: a file that ends inside one is held too) after 33 MiB of text: more
    // than the scan reads into memory at once, so it streams from git.
    big.extend_from_slice(b"\n-----BEGIN OPENSSH PRIVATE KEY-----\n");
    big.extend_from_slice(
        b"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n",
    );
    repo.write("dump.txt", &big);
    repo.write("ok.txt", "fine\n");

    let secret_paths = [
        ".env",
        ".env.local",
        ".npmrc",
        "certs/server.pem",
        "config.toml",
        "deploy/.env.production",
        "dump.txt",
        "id_rsa",
        "ids.txt",
        "notes.md",
        "staged.key",
        "store.vault",
    ];
    let status_of = |repo: &Repo| -> Vec<String> {
        let mut args = vec!["status", "--porcelain", "--"];
        args.extend(secret_paths);
        repo.git_text(args).lines().map(str::to_string).collect()
    };
    let secret_status = status_of(&repo);
    let index_entries = {
        let mut args = vec!["ls-files", "-s", "--"];
        args.extend(secret_paths);
        repo.git_text(args)
    };
    let before = state(&repo);
    let out = seal(&repo, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let sealed = json(&out);
    let skipped: Vec<String> = sealed["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap().into())
        .collect();
    assert_eq!(skipped, secret_paths);
    for s in sealed["skipped"].as_array().unwrap() {
        assert!(s["why"].as_str().unwrap().starts_with("looks like a secret"), "{s}");
    }
    let why = |path: &str| {
        sealed["skipped"].as_array().unwrap().iter().find(|s| s["path"] == path).unwrap()["why"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(why("notes.md").contains("github-token"));
    assert!(why("config.toml").contains("aws-access-key"));
    assert!(why("dump.txt").contains("private-key"));
    assert!(why("ids.txt").contains("secrets.patterns"));
    assert!(why("store.vault").contains("secrets.files"));
    let err = stderr(&out);
    for path in secret_paths {
        assert!(err.contains(&format!("left {path} out of the seal")), "{path}: {err}");
    }
    assert!(err.contains("--allow-secrets"));

    assert_eq!(strings(&sealed["files"]), [".env.example", "ok.txt", "sub/.npmrc"]);
    let commit = sealed["commit"].as_str().unwrap();
    assert_eq!(repo.git_text(["rev-parse", &format!("{commit}~1")]), old);
    assert_eq!(diff_tree_names(&repo, commit), strings(&sealed["files"]));
    assert_eq!(repo.git(["show", "HEAD:config.toml"]), b"name = 1\n");
    assert_eq!(tree_state(&repo.path), before.tree, "the work tree changed");
    // The skipped files are exactly as they were, in the work tree and in the index.
    assert_eq!(status_of(&repo), secret_status);
    let mut args = vec!["ls-files", "-s", "--"];
    args.extend(secret_paths);
    assert_eq!(repo.git_text(args), index_entries);
    let status: Vec<String> =
        repo.git_text(["status", "--porcelain", "-uall"]).lines().map(str::to_string).collect();
    assert_eq!(status, secret_status, "only skipped files are left");
    let fsck = repo.git_cmd(["fsck", "--strict", "--no-progress"]).output().unwrap();
    assert!(fsck.status.success());

    // --allow-secrets seals them all.
    let before = state(&repo);
    let sealed = seal_ok(&repo, &["--allow-secrets"]);
    assert_sealed_like_git(&repo, &before, Some(commit), &sealed);
    assert_eq!(sealed["skipped"], serde_json::json!([]));
}

/// The scan judges the blob git stages and, behind a clean filter, the file the filter would read:
/// a clean filter that writes a token into the blob holds the file back, and so does one that
/// takes it out (the filter would have seen it: git-lfs keeps what it is given); a file staged as
/// it is read is judged on its bytes (scanned while `git add` runs).
#[test]
fn the_scan_judges_the_staged_blob_through_filters() {
    let env = Env::new();
    let repo = env.repo("r");
    let token = format!("ghp_{}", "a1B2".repeat(9));
    repo.write(".gitattributes", "*.in filter=fill\n*.out filter=strip\n");
    repo.git(["config", "filter.fill.clean", &format!("sed s/PLACEHOLDER/{token}/")]);
    repo.git(["config", "filter.fill.smudge", "cat"]);
    repo.git(["config", "filter.strip.clean", "sed s/ghp_[A-Za-z0-9]*/REDACTED/"]);
    repo.git(["config", "filter.strip.smudge", "cat"]);
    repo.write("keep.txt", "kept\n");
    repo.commit_all("init");
    repo.write("filled.in", "value = PLACEHOLDER\n");
    repo.write("stripped.out", format!("value = {token}\n"));
    repo.write("plain.txt", format!("value = {token}\n"));
    repo.write("fine.txt", "nothing here\n");
    let out = seal(&repo, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let sealed = json(&out);
    let skipped: Vec<&str> =
        sealed["skipped"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(skipped, ["filled.in", "plain.txt", "stripped.out"]);
    assert_eq!(strings(&sealed["files"]), ["fine.txt"]);
}

#[test]
fn only_secrets_left_means_no_commit_and_exit_1() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a", "a\n");
    repo.commit_all("init");
    repo.write(".env", "X=1\n");
    let before = state(&repo);
    let out = seal_text(&repo, &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        text.contains("Nothing sealed") && text.contains(".env: looks like a secret"),
        "{text}"
    );
    assert_eq!(state(&repo), before);
}

#[test]
fn a_file_changing_while_sealing_never_corrupts_the_commit() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("busy.txt", "v0\n");
    repo.commit_all("init");
    // Every version has the same size: git itself reads as many bytes as it saw in `lstat`.
    let version = |n: usize| format!("version {n:08}\n").repeat(2000);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (stop, path) = (stop.clone(), repo.path.clone());
        std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                n += 1;
                let tmp = path.with_file_name("busy.tmp");
                std::fs::write(&tmp, version(n)).unwrap();
                std::fs::rename(&tmp, path.join("busy.txt")).unwrap();
            }
        })
    };
    let mut commits = Vec::new();
    for _ in 0..15 {
        let out = seal(&repo, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        if let Some(c) = json(&out)["commit"].as_str() {
            commits.push(c.to_string());
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    assert!(!commits.is_empty());
    for commit in &commits {
        let blob = repo.git(["show", &format!("{commit}:busy.txt")]);
        let text = String::from_utf8(blob).unwrap();
        let n: usize = text.lines().next().unwrap().trim_start_matches("version ").parse().unwrap();
        assert_eq!(text, version(n), "commit {commit} holds a torn file");
    }
    let fsck = repo.git_cmd(["fsck", "--strict", "--no-progress"]).output().unwrap();
    assert!(fsck.status.success(), "{}", stderr(&fsck));
}

#[test]
fn no_hook_runs_and_a_failing_one_cannot_fail_the_seal() {
    let env = Env::new();
    let repo = dirty_repo(&env, "r");
    let old = repo.head();
    let hooks = ["post-index-change", "reference-transaction", "pre-commit", "post-commit"];
    for hook in hooks {
        repo.write(
            format!(".git/hooks/{hook}"),
            format!("#!/bin/sh\necho ran >> \"$(git rev-parse --git-dir)/{hook}-ran\"\nexit 1\n"),
        );
        repo.chmod(format!(".git/hooks/{hook}"), 0o755);
    }
    let before = state(&repo);
    let sealed = seal_ok(&repo, &[]);
    // Checked before the comparison with git, whose own `git status` runs the index hook.
    for hook in hooks {
        assert!(!repo.path.join(format!(".git/{hook}-ran")).exists(), "{hook} ran");
    }
    assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
}

#[test]
fn nothing_to_seal_after_rm_cached_leaves_the_index_as_git_add_all() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("README", "read me\n");
    repo.write("b.txt", "b\n");
    repo.commit_all("init");
    repo.git(["rm", "-q", "--cached", "README"]);
    assert_eq!(repo.git_text(["status", "--porcelain"]), "D  README\n?? README");
    let sealed = seal_ok(&repo, &[]);
    assert_eq!(sealed, serde_json::json!({"commit": null, "files": [], "skipped": []}));
    assert_eq!(repo.git_text(["status", "--porcelain"]), "");
    assert_eq!(repo.git_text(["write-tree"]), repo.git_text(["rev-parse", "HEAD^{tree}"]));
}

#[test]
fn a_seal_killed_inside_update_ref_is_mended_by_the_next_seal() {
    let env = Env::new();
    let repo = dirty_repo(&env, "r");
    // A `git` first on PATH that kills seal (SIGKILL, nothing caught) right after update-ref.
    let real = String::from_utf8(
        std::process::Command::new("sh").args(["-c", "command -v git"]).output().unwrap().stdout,
    )
    .unwrap();
    let bin = env.root.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(
        bin.join("git"),
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = update-ref ] && {{ {} \"$@\"; kill -9 $PPID; exit 0; }}; done\nexec {} \"$@\"\n",
            real.trim(),
            real.trim()
        ),
    )
    .unwrap();
    std::fs::set_permissions(bin.join("git"), std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let old = repo.head();
    let out = repo
        .handoff()
        .env("PATH", &path)
        .args(["seal", "--json", "--issue", "1", "--started-at", STARTED])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), None, "seal was not killed: {}", stderr(&out));
    assert_ne!(repo.head(), old, "update-ref ran");
    // What a person does after a crash: remove the stale lock, run seal again.
    std::fs::remove_file(repo.path.join(".git/index.lock")).unwrap();
    let sealed = seal_ok(&repo, &[]);
    assert_eq!(sealed["commit"], Value::Null);
    assert_eq!(repo.git_text(["status", "--porcelain"]), "");
    assert_eq!(repo.git_text(["rev-parse", "HEAD~1"]), old);
}

#[test]
fn skipped_files_leave_no_blob_behind() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    repo.write(".env", "STRIPE=sk_live_4eC39HqLyjWDarjtT1zdp7dc\n");
    repo.write("deploy.sh", "curl -u admin:Hunter2pw https://x.example.com\n");
    repo.write("config.yml", "database:\n  password: Hunter2Pass\n");
    repo.write("same-as-kept.txt", "kept\n");
    repo.write("kept.txt", "kept\n");
    let blobs: Vec<String> = [".env", "deploy.sh", "config.yml"]
        .iter()
        .map(|f| repo.git_text(["hash-object", f]))
        .collect();
    let out = seal(&repo, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let sealed = json(&out);
    let skipped: Vec<&str> =
        sealed["skipped"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(skipped, [".env", "config.yml", "deploy.sh"]);
    for blob in &blobs {
        let found = repo.git_cmd(["cat-file", "-e", blob.as_str()]).output().unwrap();
        assert!(!found.status.success(), "the blob {blob} of a skipped file is in .git/objects");
    }
    assert_eq!(repo.git_text(["show", "HEAD:kept.txt"]), "kept");
    let fsck = repo.git_cmd(["fsck", "--strict", "--no-progress"]).output().unwrap();
    assert!(fsck.status.success(), "fsck: {}", stderr(&fsck));
}

fn differential_with(seeds: std::ops::Range<u64>, setup: impl Fn(&Repo)) {
    let env = Env::new();
    for seed in seeds {
        let repo = env.repo(&format!("r{seed}"));
        setup(&repo);
        random_dirty_tree(&repo, seed);
        let old = repo.head();
        let before = state(&repo);
        let sealed = seal_ok(&repo, &[]);
        assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
        assert_eq!(sealed["skipped"], serde_json::json!([]), "seed {seed}");
    }
}

#[test]
fn random_dirty_trees_with_autocrlf_and_clean_filters_seal_like_git_add_all() {
    differential_with(200..230, |repo| {
        repo.git(["config", "core.autocrlf", "true"]);
        repo.git(["config", "filter.upper.clean", "tr a-z A-Z"]);
        repo.git(["config", "filter.upper.smudge", "cat"]);
        repo.write(".gitattributes", "*.rs filter=upper\n*.md text\n");
    });
}

/// The seal's packs are flushed to disk as git flushes them: not one by one when `core.fsync` is
/// git's default (they stand for loose objects, which git does not flush), and as configured when
/// the user set it, in a file or with `git -c`.
#[test]
fn packs_are_flushed_as_the_users_fsync_setting_says() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    let trace = repo.path.join("../trace.txt");
    let seal_traced = |content: &str, extra: &[(&str, &str)]| -> String {
        repo.write("a.txt", content);
        let _ = std::fs::remove_file(&trace);
        let mut cmd = repo.handoff();
        cmd.env("GIT_TRACE2", &trace).envs(extra.iter().copied());
        let out = cmd.args(["seal", "--issue", "1", "--started-at", STARTED]).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let trace = std::fs::read_to_string(&trace).unwrap();
        let add = trace.lines().filter(|l| l.contains(" add --all")).collect::<Vec<_>>().join("\n");
        assert!(!add.is_empty(), "no git add in the trace: {trace}");
        add
    };
    let unflushed = "core.fsync=-pack,-pack-metadata";
    assert!(seal_traced("b\n", &[]).contains(unflushed));
    let from_command_line = [("GIT_CONFIG_PARAMETERS", "'core.fsync'='all'")];
    assert!(!seal_traced("c\n", &from_command_line).contains(unflushed));
    repo.git(["config", "core.fsync", "all"]);
    assert!(!seal_traced("d\n", &[]).contains(unflushed));
}

/// A name `git add --verbose` prints on two lines can make the scan beside it look at another
/// path, here a FIFO: opened without waiting, it never holds the seal (or the index lock).
#[test]
fn a_fifo_named_by_a_crafted_file_name_does_not_hold_the_seal() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("kept.txt", "k\n");
    repo.commit_all("init");
    let fifo = repo.path.join("p");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    repo.write("a'\nadd 'p", "hi\n");
    let mut child = repo
        .handoff()
        .args(["seal", "--json", "--issue", "1", "--started-at", STARTED])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the seal hung on the FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success());
    assert!(!repo.path.join(".git/index.lock").exists());
    assert_eq!(repo.git(["show", "HEAD:a'\nadd 'p"]), b"hi\n");
}

/// The seal stages what `git add -A` stages in the caller's locale: a clean filter sees it too.
#[test]
fn clean_filters_run_in_the_callers_locale() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".gitattributes", "*.txt filter=dots\n");
    repo.git(["config", "filter.dots.clean", "sed 's/./X/g'"]);
    repo.git(["config", "filter.dots.smudge", "cat"]);
    repo.commit_all("init");
    repo.write("a.txt", "é\n");
    let want = {
        let out = repo
            .git_cmd(["hash-object", "--path", "a.txt", "a.txt"])
            .env("LC_ALL", "C.UTF-8")
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let out = repo
        .handoff()
        .env("LC_ALL", "C.UTF-8")
        .args(["seal", "--json", "--issue", "1", "--started-at", STARTED])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(repo.git_text(["rev-parse", "HEAD:a.txt"]), want);
}

/// Issue 48: in a cone-mode sparse checkout a new file outside the cone does not fail the seal:
/// it commits what `git add -A` stages (git exits 1 there, having staged the rest) and names
/// what it left out; the tree is git's own.
#[test]
fn a_sparse_checkout_seals_what_git_add_stages_and_names_the_rest() {
    let env = Env::new();
    let mut trees = Vec::new();
    for name in ["ours", "git"] {
        let repo = env.repo(name);
        repo.write("in/a.txt", "a\n");
        repo.write("out/b.txt", "b\n");
        repo.write("top.txt", "t\n");
        repo.commit_all("base");
        repo.git(["sparse-checkout", "set", "--cone", "in"]);
        repo.write("in/new.txt", "new inside\n");
        repo.write("out/new.txt", "new outside\n");
        repo.write("top.txt", "t2\n");
        if name == "ours" {
            stdout_ok(repo.handoff().args(["start", "--issue", "5"]).output().unwrap());
            let out = repo.handoff().args(["seal", "--json"]).output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(report["skipped"][0]["path"], "out/new.txt", "{report}");
            assert!(report["skipped"][0]["why"].as_str().unwrap().contains("sparse-checkout"));
        } else {
            let add = repo.git_cmd(["add", "-A"]).output().unwrap();
            assert_eq!(add.status.code(), Some(1), "git's own behaviour changed");
            repo.git(["commit", "-q", "-m", "x"]);
        }
        assert_eq!(repo.read("out/new.txt"), b"new outside\n");
        let status = repo.git_text(["status", "--porcelain"]);
        assert_eq!(status.trim_end(), "?? out/new.txt", "{name}");
        trees.push(repo.git_text(["rev-parse", "HEAD^{tree}"]));
    }
    assert_eq!(trees[0], trees[1], "the seal's tree is not git add -A's");
}

/// A HEAD tree out of git's order (a corrupt one: fsck's `treeNotSorted`) is sealed as
/// `git add -A` stages it, sorted, by git's own `write-tree`: gix's tree editor would keep the
/// order (and asserts against it in a debug build).
#[test]
fn a_head_tree_out_of_git_order_is_sealed_as_git_add_all_stages_it() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.commit_all("init");
    let id = |rel: &str| repo.git_text(["rev-parse", &format!("HEAD:{rel}")]);
    let (a, b) = (id("a.txt"), id("b.txt"));
    let tree = repo.raw_tree(&[("100644", "b.txt", &b), ("100644", "a.txt", &a)]);
    let head = repo.head();
    let odd = repo.git_text(["commit-tree", &tree, "-p", &head, "-m", "odd"]);
    repo.git(["update-ref", "refs/heads/main", &odd]);
    repo.git(["read-tree", "HEAD"]);
    repo.write("a.txt", "a, changed\n");
    repo.write("c.txt", "c\n");
    let expected = expected_tree(&repo);
    seal_ok(&repo, &[]);
    assert_eq!(repo.git_text(["rev-parse", "HEAD^{tree}"]), expected);
    assert_eq!(repo.git_text(["rev-parse", "HEAD^"]), odd);
}
