//! The quick look against gix's discovery, and the plain refs against gix's, on repositories git
//! makes: wherever the quick look answers, its answer is gix's.

use std::path::{Path, PathBuf};

use super::{Quick, config_is_plain, gitdir_of};
use crate::git::plain_refs::{PlainHead, PlainRefs};
use crate::git::test_repo::git;

#[test]
fn the_config_git_init_writes_is_plain_and_what_changes_discovery_is_not() {
    let init = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\
                \tlogallrefupdates = true\n[remote \"origin\"]\n\turl = x\n";
    assert!(config_is_plain(init.as_bytes()));
    assert!(config_is_plain(b"; comment\n# another\n\n[user]\nname = A B\n"));
    for unusual in [
        "[core]\n\tbare = true\n",
        "[core]\n\tbare\n",
        "[CORE]\n\tBare = yes\n",
        "[core]\n\tworktree = ../x\n",
        "[core]\n\trepositoryformatversion = 2\n",
        "[extensions]\n\tobjectFormat = sha256\n",
        "[include]\n\tpath = other\n",
        "[includeIf \"gitdir:~/x/\"]\n\tpath = other\n",
        "[core] bare = true\n",
        "[core.sub]\nx = 1\n",
        "[core]\n\tbare = false \\\n",
        "key = 1\n",
        "[core]\n\tbare = \"true\"\n",
        "[core]\n\tbare = false # really\n",
        "[alias]\n\tx = \"unterminated\n",
        "[alias]\n\tx = a\\qb\n",
        "[remote \"a\\\"b\"]\n\turl = x\n",
        "[user]\n\t1name = x\n",
    ] {
        assert!(!config_is_plain(unusual.as_bytes()), "{unusual:?}");
    }
    assert!(!config_is_plain(b"[core]\n\xff = 1\n"));
}

#[test]
fn a_gitdir_file_names_its_path_on_the_first_line() {
    assert_eq!(gitdir_of(b"gitdir: ../.git/worktrees/w\n"), Some("../.git/worktrees/w"));
    assert_eq!(gitdir_of(b"gitdir: /a b/c\r\n"), Some("/a b/c"));
    assert_eq!(gitdir_of(b"gitdir:x\n"), None);
    assert_eq!(gitdir_of(b"gitdir: x\nmore\n"), None);
    assert_eq!(gitdir_of(b"\n"), None);
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).expect("canonical")
}

/// What the quick look finds from `dir`, checked against gix's discovery from there.
fn look(dir: &Path) -> Option<Quick> {
    let dir = canonical(dir);
    let quick = Quick::find(&dir)?;
    let repo = gix::ThreadSafeRepository::discover_with_environment_overrides(&dir)
        .expect("gix finds it too")
        .to_thread_local();
    assert_eq!(quick.git_dir, canonical(repo.git_dir()), "git dir from {}", dir.display());
    assert_eq!(quick.common_dir, canonical(repo.common_dir()), "common dir");
    assert_eq!(Some(&quick.work_tree), repo.workdir().map(canonical).as_ref(), "work tree");
    assert_eq!(repo.object_hash(), gix::hash::Kind::Sha1);
    Some(quick)
}

/// The plain refs of `quick` against gix's: HEAD, each of `names`, and the names under
/// `refs/notes/`.
fn same_refs(quick: &Quick, names: &[&str]) {
    let repo = gix::open(&quick.git_dir).expect("gix opens it");
    let plain = PlainRefs::new(quick.git_dir.clone(), quick.common_dir.clone());
    let head = repo.head().expect("HEAD");
    let want = match head.referent_name() {
        Some(name) => {
            PlainHead::Branch(name.as_bstr().to_string(), head.id().map(|id| id.detach()))
        }
        None => PlainHead::Detached(head.id().expect("detached at a commit").detach()),
    };
    assert_eq!(plain.head(), Some(want.clone()));
    // HEAD as the quick look read it, taken for the first read.
    let seeded = PlainRefs::new(quick.git_dir.clone(), quick.common_dir.clone());
    assert_eq!(seeded.with_head(quick.head.clone()).head(), Some(want));
    for name in names {
        let found = repo.try_find_reference(*name).expect("gix reads it");
        let want = found.map(|mut r| r.follow_to_object().expect("peels").detach());
        assert_eq!(plain.id(name), Some(want), "{name}");
    }
    let listed: Vec<String> = repo
        .references()
        .expect("refs")
        .prefixed("refs/notes/")
        .expect("listing")
        .flatten()
        .map(|r| r.name().as_bstr().to_string())
        .collect();
    assert_eq!(plain.names_under("refs/notes/"), Some(listed));
}

#[test]
fn wherever_the_quick_look_answers_it_finds_what_gix_finds() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let top = tmp.path().join("the repo ü");
    std::fs::create_dir_all(top.join("sub dir/deeper")).expect("dirs");
    git(&top, &["init", "-q", "-b", "main"]);
    assert!(look(&top).is_some(), "an unborn branch");
    same_refs(&look(&top).expect("found"), &["refs/heads/main"]);
    std::fs::write(top.join("f"), "x").expect("file");
    git(&top, &["add", "f"]);
    git(&top, &["commit", "-q", "-m", "one"]);
    git(&top, &["tag", "v1"]);
    git(&top, &["notes", "--ref=handoff", "add", "-m", "n", "HEAD"]);
    git(&top, &["notes", "--ref=remotes/origin/handoff", "add", "-m", "n", "HEAD"]);
    git(&top, &["symbolic-ref", "refs/heads/alias", "refs/heads/main"]);
    let names = [
        "refs/heads/main",
        "refs/heads/alias",
        "refs/tags/v1",
        "refs/notes/handoff",
        "refs/heads/none",
    ];
    for dir in [top.clone(), top.join("sub dir/deeper")] {
        same_refs(&look(&dir).expect("found"), &names);
    }
    // Packed, then a loose ref over its packed copy.
    git(&top, &["pack-refs", "--all"]);
    same_refs(&look(&top).expect("found"), &names);
    git(&top, &["commit", "-q", "--allow-empty", "-m", "two"]);
    same_refs(&look(&top).expect("found"), &names);
    // Detached.
    git(&top, &["checkout", "-q", "--detach", "v1"]);
    same_refs(&look(&top).expect("found"), &names);
    git(&top, &["checkout", "-q", "main"]);

    // A linked worktree, at its top and below.
    let linked = tmp.path().join("linked wt");
    git(&top, &["worktree", "add", "-q", "-b", "side", linked.to_str().expect("utf-8")]);
    std::fs::create_dir_all(linked.join("in")).expect("dir");
    for dir in [linked.clone(), linked.join("in")] {
        let quick = look(&dir).expect("found");
        assert_ne!(quick.git_dir, quick.common_dir);
        same_refs(&quick, &names);
    }

    // A git dir kept elsewhere, named by a relative `gitdir:`.
    let separate = tmp.path().join("separate");
    let store = tmp.path().join("store.git");
    std::fs::create_dir_all(&separate).expect("dir");
    git(&separate, &["init", "-q", "--separate-git-dir", store.to_str().expect("utf-8")]);
    std::fs::write(separate.join(".git"), "gitdir: ../store.git\n").expect(".git file");
    assert_eq!(look(&separate).expect("found").git_dir, canonical(&store));

    // Left to gix: the inside of a git dir, a bare repository, what config changes.
    assert!(Quick::find(&canonical(&top.join(".git"))).is_none());
    assert!(Quick::find(&canonical(&top.join(".git/refs"))).is_none());
    let bare = tmp.path().join("bare.git");
    std::fs::create_dir_all(&bare).expect("dir");
    git(&bare, &["init", "-q", "--bare"]);
    assert!(Quick::find(&canonical(&bare)).is_none());
    for (key, value) in
        [("core.bare", "true"), ("core.worktree", "/elsewhere"), ("include.path", "x")]
    {
        let other = tmp.path().join(format!("with {key}"));
        std::fs::create_dir_all(&other).expect("dir");
        git(&other, &["init", "-q"]);
        git(&other, &["config", key, value]);
        assert!(Quick::find(&canonical(&other)).is_none(), "{key}");
    }
    let sha256 = tmp.path().join("sha256");
    std::fs::create_dir_all(&sha256).expect("dir");
    git(&sha256, &["init", "-q", "--object-format=sha256"]);
    assert!(Quick::find(&canonical(&sha256)).is_none());
    // A `.git` that is a symbolic link.
    let linked_dot_git = tmp.path().join("link");
    std::fs::create_dir_all(&linked_dot_git).expect("dir");
    std::os::unix::fs::symlink(top.join(".git"), linked_dot_git.join(".git")).expect("link");
    assert!(Quick::find(&canonical(&linked_dot_git)).is_none());
}
