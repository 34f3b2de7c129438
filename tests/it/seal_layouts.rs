//! Seal in every index layout git supports: split (with the shared index expired at once, so
//! that git deletes every shared index it does not write), version 4, the untracked cache. Each
//! seal is what `git add -A && git commit` makes, round after round, and the index stays readable.

use crate::common;
use crate::seal::{assert_sealed_like_git, seal_ok, state};

use common::{Env, Repo, random_dirty_tree, stderr};

const LAYOUTS: [(&str, &[(&str, &str)]); 4] = [
    (
        "split, shared index expired at once",
        &[
            ("core.splitIndex", "true"),
            ("splitIndex.maxPercentChange", "0"),
            ("splitIndex.sharedIndexExpire", "now"),
        ],
    ),
    ("split", &[("core.splitIndex", "true")]),
    ("index v4", &[("index.version", "4")]),
    ("untracked cache", &[("core.untrackedCache", "true")]),
];

/// Every git command that reads the index works, and the shared index it names exists.
fn assert_index_readable(repo: &Repo, what: &str) {
    for args in [&["status", "--porcelain"][..], &["ls-files", "-s"], &["diff", "--cached"]] {
        let out = repo.git_cmd(args).output().unwrap();
        assert!(out.status.success(), "{what}: git {args:?}: {}", stderr(&out));
    }
}

/// Shared indexes an hour old: git expires them by their mtime, at whole seconds.
fn age_shared_indexes(repo: &Repo) {
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for entry in std::fs::read_dir(repo.path.join(".git")).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap().to_string_lossy().starts_with("sharedindex.") {
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(hour_ago).unwrap();
        }
    }
}

#[test]
fn seal_in_every_index_layout_is_git_add_all_and_leaves_the_index_readable() {
    let env = Env::new();
    for (n, (name, config)) in LAYOUTS.iter().enumerate() {
        let repo = env.repo(&format!("r{n}"));
        for (key, value) in config.iter() {
            repo.git(["config", key, value]);
        }
        random_dirty_tree(&repo, 7 + n as u64);
        if name.starts_with("split") {
            repo.git(["update-index", "--split-index"]);
        }
        for round in 0..5 {
            let what = format!("{name}, round {round}");
            // A staged change, an unstaged one and a new file each round.
            repo.write(format!("staged-{round}.txt"), format!("s{round}\n"));
            repo.git(["add", &format!("staged-{round}.txt")]);
            repo.write(format!("new-{round}.txt"), format!("n{round}\n"));
            repo.write("src/round.txt", format!("{round}\n"));
            age_shared_indexes(&repo);
            let old = repo.head();
            let before = state(&repo);
            let sealed = seal_ok(&repo, &[]);
            assert_index_readable(&repo, &what);
            assert_sealed_like_git(&repo, &before, Some(&old), &sealed);
        }
    }
}
