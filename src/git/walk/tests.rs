//! The walk's readers of commits and trees, and its delta-base cache, on crafted objects (whole
//! walks are compared with git in tests/it/walk.rs).

use super::commit::CommitFields;
use super::delta_cache::DeltaBaseCache;
use super::tree_entry::find_entry;

const SHA1: gix::hash::Kind = gix::hash::Kind::Sha1;
const TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const PARENT: &str = "0123456789012345678901234567890123456789";

#[test]
fn a_commit_is_read_as_git_reads_it() {
    let raw = format!(
        "tree {TREE}\nparent {PARENT}\nparent {TREE}\nauthor A <a@x> 5 +0000\n\
         committer C <c@x>  1764471600 +0100\ngpgsig -----BEGIN-----\n \n -----END-----\n\n\
         Handoff note: issue #3\n\nbody\n"
    );
    let commit = CommitFields::parse(raw.as_bytes(), SHA1).expect("parses");
    assert_eq!(commit.tree.to_string(), TREE);
    let parents: Vec<String> =
        commit.parents.expect("parents parse").iter().map(ToString::to_string).collect();
    assert_eq!(parents, [PARENT, TREE]);
    assert_eq!(commit.date, 1764471600);
    assert_eq!(commit.message, b"Handoff note: issue #3\n\nbody\n");
}

#[test]
fn odd_commits_read_as_git_reads_them() {
    // No author or committer: date 0, and the message still starts after the empty line.
    let bare = format!("tree {TREE}\n\nmessage");
    let commit = CommitFields::parse(bare.as_bytes(), SHA1).expect("parses");
    assert_eq!((commit.date, commit.message), (0, &b"message"[..]));
    // A committer line without a date, or with no `>`.
    for line in ["committer C <c@x>\n", "committer C c@x 17 +0000\n"] {
        let raw = format!("tree {TREE}\nauthor A <a@x> 5 +0000\n{line}\nm");
        assert_eq!(CommitFields::parse(raw.as_bytes(), SHA1).expect("parses").date, 0);
    }
    // Headers after the committer line (an encoding, a signature whose lines go on with a
    // space, one of them holding only the space): the message starts after the empty line.
    let raw = format!(
        "tree {TREE}\nauthor A <a@x> 5 +0000\ncommitter C <c@x> 7 +0000\nencoding ISO-8859-1\n\
         gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nsigned\n"
    );
    let commit = CommitFields::parse(raw.as_bytes(), SHA1).expect("parses");
    assert_eq!((commit.date, commit.message), (7, &b"signed\n"[..]));
    // An empty message, right after the committer line.
    let raw = format!("tree {TREE}\nauthor A <a@x> 5 +0000\ncommitter C <c@x> 8 +0000\n\n");
    let commit = CommitFields::parse(raw.as_bytes(), SHA1).expect("parses");
    assert_eq!((commit.date, commit.message), (8, &b""[..]));
    // No empty line: no message.
    let raw = format!("tree {TREE}\nauthor A <a@x> 5 +0000\ncommitter C <c@x> 9 +0000\n");
    let commit = CommitFields::parse(raw.as_bytes(), SHA1).expect("parses");
    assert_eq!((commit.date, commit.message), (9, &b""[..]));
    // A malformed parent line, and a commit without a tree line.
    let raw = format!("tree {TREE}\nparent {}\n\nm", &PARENT[..39]);
    assert!(CommitFields::parse(raw.as_bytes(), SHA1).expect("parses").parents.is_none());
    assert!(CommitFields::parse(b"parent x\n\nm", SHA1).is_none());
    assert!(CommitFields::parse(format!("tree {TREE}").as_bytes(), SHA1).is_none());
}

#[test]
fn the_delta_base_cache_keeps_the_last_entries_it_was_given() {
    use gix::odb::pack::cache::DecodeEntry;
    let mut cache = DeltaBaseCache::default();
    let blob = gix::object::Kind::Blob;
    for offset in 0..20u64 {
        cache.put(1, offset, &[u8::try_from(offset).expect("small"); 3], blob, 7);
    }
    let mut out = Vec::new();
    assert_eq!(cache.get(1, 3, &mut out), None, "the oldest entries make room");
    assert_eq!(cache.get(2, 19, &mut out), None, "entries are per pack");
    assert_eq!(cache.get(1, 19, &mut out), Some((blob, 7)));
    assert_eq!(out, [19, 19, 19]);
    assert_eq!(cache.get(1, 4, &mut out), Some((blob, 7)));
    assert_eq!(out, [4, 4, 4]);
}

fn tree(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, (mode, name)) in entries.iter().enumerate() {
        out.extend_from_slice(format!("{mode} {name}\0").as_bytes());
        out.extend_from_slice(&[u8::try_from(n).expect("small"); 20]);
    }
    out
}

#[test]
fn an_entry_is_found_in_tree_order_and_the_search_stops_past_it() {
    // git's order: `a.b` (a file) sorts before the directory `a`, read as `a/`; `a0` after.
    let data = tree(&[("100644", "a.b"), ("40000", "a"), ("100644", "a0"), ("100644", "b")]);
    let found = |name: &str| find_entry(&data, name.as_bytes(), SHA1, true).expect("well formed");
    let (mode, id) = found("a").expect("a is there");
    assert!(mode.is_tree());
    assert_eq!(id.as_bytes()[0], 1);
    assert_eq!(found("b").expect("b is there").1.as_bytes()[0], 3);
    assert_eq!(found(".agent"), None);
    assert_eq!(found("a1"), None);
    // The search stops at the first entry past the name: what follows is not read.
    let mut cut = tree(&[("100644", "f0.txt")]);
    cut.extend_from_slice(b"garbage");
    assert_eq!(find_entry(&cut, b".agent", SHA1, true), Some(None));
    assert_eq!(find_entry(&cut, b"g", SHA1, true), None, "a cut entry before the name");
    // The start of a tree that ends before the search passes the name decides nothing, even
    // when it ends between two entries.
    let start = tree(&[("100644", "a"), ("100644", "b")]);
    assert_eq!(find_entry(&start, b"c", SHA1, false), None);
    assert_eq!(find_entry(&start, b"c", SHA1, true), Some(None));
    assert_eq!(find_entry(&start, b"a0", SHA1, false), Some(None), "`b` is past `a0`");
    assert_eq!(find_entry(&start, b"b", SHA1, false).map(|e| e.is_some()), Some(true));
}

/// `Objects::commit` and `Objects::blob_at` against gix, on a repository git makes: a merge,
/// loose and packed objects, files below directories, a symbolic link, paths that lead nowhere.
#[test]
fn commits_and_files_read_plainly_are_what_gix_reads() {
    use crate::git::test_repo::git;
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(dir.join("a b/ü")).expect("dirs");
    std::fs::write(dir.join("a b/ü/note.md"), "# Note\n").expect("file");
    std::fs::write(dir.join("top.txt"), "top\n").expect("file");
    std::os::unix::fs::symlink("top.txt", dir.join("link")).expect("link");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "one\n\nbody"]);
    git(dir, &["checkout", "-q", "-b", "side"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", "side"]);
    git(dir, &["checkout", "-q", "main"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", "two"]);
    git(dir, &["merge", "-q", "--no-ff", "-m", "merge", "side"]);
    let repo = gix::open(dir).expect("gix opens it");
    let sources = super::Sources::of(&repo, crate::git::pack_read::Packs::open(&repo));
    let check = |objects: &mut super::Objects| {
        for rev in ["HEAD", "HEAD^1", "HEAD^2", "HEAD~2"] {
            let id = repo.rev_parse_single(rev).expect("rev").detach();
            let want = repo.find_commit(id).expect("commit");
            let got = objects.commit(id).expect("reads");
            let parents: Vec<_> = want.parent_ids().map(|p| p.detach()).collect();
            assert_eq!(got.parents.to_vec(), parents, "{rev}");
            assert_eq!(got.tree, want.tree_id().expect("tree").detach());
            assert_eq!(got.time, want.time().expect("time").seconds);
            assert_eq!(got.message, want.message_raw_sloppy().to_vec(), "{rev}");
        }
        let tree = repo.head_commit().expect("head").tree_id().expect("tree").detach();
        for path in [
            "a b/ü/note.md",
            "a b//ü/./note.md",
            "top.txt",
            "link",
            "a b",
            "a b/ü",
            "top.txt/x",
            "none",
            "a b/none",
        ] {
            let want =
                repo.find_tree(tree).expect("tree").lookup_entry_by_path(path).expect("looks");
            let want = want
                .filter(|e| !e.mode().is_tree())
                .map(|e| e.object().expect("object").data.clone());
            assert_eq!(objects.blob_at(tree, path).expect("reads"), want, "{path}");
        }
        let blob = repo.rev_parse_single("HEAD:top.txt").expect("blob").detach();
        assert!(objects.commit(blob).is_err(), "a blob is no commit");
    };
    check(&mut super::Objects::lazy(&repo, &sources));
    git(dir, &["repack", "-a", "-d", "-q"]);
    let sources = super::Sources::of(&repo, crate::git::pack_read::Packs::open(&repo));
    check(&mut super::Objects::lazy(&repo, &sources));
}

/// `Objects::changed_paths` against `git diff-tree -r --no-renames --name-only -z` on commits
/// git makes: additions, deletions, edits, an executable bit, a symbolic link, a file that
/// becomes a directory and back, names with spaces, unicode and characters that sort around
/// `/`, a submodule entry, and a root commit.
#[test]
fn changed_paths_are_what_git_diff_tree_lists() {
    use crate::git::test_repo::git;
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(path, text).expect("write");
    };
    git(dir, &["init", "-q", "-b", "main"]);
    for rel in ["a", "a-b", "a.b", "a0", "d/x", "d/y/z", "gone/1", "mode.sh", "ü name.txt"] {
        write(rel, rel);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "root"]);
    write("a", "changed");
    std::fs::remove_file(dir.join("a-b")).expect("rm");
    std::fs::create_dir(dir.join("a-b")).expect("dir");
    write("a-b/inside", "now a directory");
    std::fs::remove_dir_all(dir.join("d/y")).expect("rm");
    write("d/y", "now a file");
    std::fs::remove_dir_all(dir.join("gone")).expect("rm");
    write("new dir/deep/f", "new");
    std::os::unix::fs::symlink("a", dir.join("link")).expect("link");
    git(dir, &["add", "-A"]);
    git(dir, &["update-index", "--chmod=+x", "mode.sh"]);
    let sub = "160000,1111111111111111111111111111111111111111,sub";
    git(dir, &["update-index", "--add", "--cacheinfo", sub]);
    git(dir, &["commit", "-q", "-m", "second"]);
    let repo = gix::open(dir).expect("gix opens it");
    let sources = super::Sources::of(&repo, crate::git::pack_read::Packs::open(&repo));
    let mut objects = super::Objects::lazy(&repo, &sources);
    let tree = |rev: &str| Some(repo.rev_parse_single(rev).expect("rev").detach());
    let listed = |args: &[&str]| -> Vec<Vec<u8>> {
        let mut all =
            vec!["diff-tree", "-r", "-z", "--no-renames", "--name-only", "--no-commit-id"];
        all.extend_from_slice(args);
        let out = std::process::Command::new("git")
            .args(&all)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("git runs");
        out.stdout.split(|&b| b == 0).filter(|p| !p.is_empty()).map(<[u8]>::to_vec).collect()
    };
    let pairs = [
        (tree("HEAD~1^{tree}"), tree("HEAD^{tree}"), vec!["HEAD~1", "HEAD"]),
        (tree("HEAD^{tree}"), tree("HEAD~1^{tree}"), vec!["HEAD", "HEAD~1"]),
        (None, tree("HEAD~1^{tree}"), vec!["--root", "HEAD~1"]),
        (tree("HEAD^{tree}"), tree("HEAD^{tree}"), vec!["HEAD", "HEAD"]),
    ];
    for (old, new, args) in pairs {
        let want = listed(&args);
        assert_eq!(objects.changed_paths(old, new).expect("diffs"), want, "{args:?}");
    }
    assert!(listed(&["HEAD~1", "HEAD"]).len() > 8, "the cases are there");
}
