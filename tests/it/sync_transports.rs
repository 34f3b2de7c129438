//! `sync` over the transports forges speak: a bare remote reached over `file://`, `git://` (`git
//! daemon` on 127.0.0.1) and smart HTTP (`git http-backend` behind a local server), with a
//! pre-receive hook that refuses pushes as a forge under load does. A handful of clones sync at
//! once: none contends with another (each pushes its own writer's ref), a refused push is tried
//! again once, a writer the remote keeps refusing is told so (exit 2) and loses nothing, and a
//! fresh clone reads every record; `--compact` folds them all into the remote's notes ref.
//! (Dozens of writers are `bench/fleet.sh`'s.)

use std::path::Path;
use std::process::Child;

use crate::common::servers;
use crate::common::{Env, Repo, stderr};
use crate::sync::{hand_off, notes_list, records_on, ref_of, spawn_sync, sync_json};
use serde_json::Value;

/// Refuses the first push to each writer's ref (a busy forge), and every push of the writer
/// `stubborn`.
const HOOK: &str = r#"#!/bin/sh
while read old new ref; do
  case "$ref" in
    refs/handoff/writers/stubborn) echo "stubborn is not welcome" >&2; exit 1 ;;
    refs/handoff/writers/*)
      mark="$GIT_DIR/refused-$(basename "$ref")"
      if [ ! -e "$mark" ]; then : > "$mark"; echo "busy, try again" >&2; exit 1; fi ;;
  esac
done
exit 0
"#;

const WRITERS: usize = 4;

/// The bare remote `remote.git` under `root`, with `main` and the hook.
fn remote(env: &Env, root: &Path) -> Repo {
    let seed = env.repo("seed");
    seed.write("README", "base\n");
    seed.commit_all("base");
    let bare = root.join("remote.git");
    seed.git(["init", "-q", "--bare", "-b", "main", bare.to_str().unwrap()]);
    seed.git(["push", "-q", bare.to_str().unwrap(), "main"]);
    let bare = seed.at(&bare);
    bare.git(["config", "http.receivepack", "true"]);
    let hook = bare.path.join("hooks/pre-receive");
    std::fs::write(&hook, HOOK).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    bare
}

fn fleet_over(env: &Env, url: &str, bare: &Repo) {
    let clone = |name: &str| {
        let path = env.root.path().join(name);
        env.repo("seed").git(["clone", "-q", url, path.to_str().unwrap()]);
        let repo = env.repo("seed").at(path);
        repo.git(["config", "handoff.writer", name]);
        repo
    };
    let repos: Vec<Repo> = (0..WRITERS).map(|i| clone(&format!("c{i}"))).collect();
    let commits: Vec<String> = repos
        .iter()
        .enumerate()
        .map(|(i, repo)| hand_off(repo, &format!("b{i}"), 700 + i as u64, "g"))
        .collect();
    let stubborn = clone("stubborn");
    let lonely = hand_off(&stubborn, "s", 799, "refused");
    let before = ref_of(&stubborn, "refs/notes/handoff");

    let children: Vec<Child> = repos.iter().map(spawn_sync).collect();
    let refused = stubborn.handoff().args(["sync"]).output().unwrap();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{url}: a sync failed: {}", stderr(&out));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        // The forge refused the first push; nobody else's push ever made one lose a race.
        assert_eq!((report["tries"].as_u64(), report["rejected"].as_u64()), (Some(2), Some(1)));
        assert_eq!(report["outcome"].as_str().map(|o| o == "pushed" || o == "merged"), Some(true));
    }
    assert_eq!(refused.status.code(), Some(2), "{url}: {}", stderr(&refused));
    let err = stderr(&refused);
    for want in ["refused the push of refs/handoff/writers/stubborn", "stubborn is not welcome"] {
        assert!(err.contains(want), "{url}: {want:?} missing from {err}");
    }
    assert!(err.contains("nothing was lost"), "{err}");
    assert_eq!(ref_of(&stubborn, "refs/notes/handoff"), before, "{url}: the local notes moved");
    assert!(records_on(&stubborn, &lonely).iter().any(|(_, c, _)| *c == lonely));

    // A fresh clone reads every record, in one sync.
    let reader = clone("reader");
    let report = sync_json(&reader, &[]);
    assert_eq!(report["writers"], WRITERS as u64, "{report}");
    for commit in &commits {
        assert!(records_on(&reader, commit).iter().any(|(_, c, _)| c == commit), "{url}");
    }
    // Compaction folds every writer's ref into the remote's notes ref.
    let compacted = sync_json(&reader, &["--compact"]);
    assert_eq!(compacted["compacted"], WRITERS as u64, "{compacted}");
    let left = bare.git_text(["for-each-ref", "--format=%(refname)", "refs/handoff/"]);
    assert_eq!(left, "", "{url}: writers' refs left after compaction");
    assert_eq!(notes_list(bare), notes_list(&reader), "{url}");
    for commit in &commits {
        assert!(records_on(bare, commit).iter().any(|(_, c, _)| c == commit), "{url}");
    }
    // The writers take the compacted notes as they are: nothing to push, nothing lost.
    let again = sync_json(&repos[0], &[]);
    assert_eq!((again["pushed"].as_u64(), again["writers"].as_u64()), (Some(0), Some(0)));
    assert_eq!(notes_list(&repos[0]), notes_list(bare));
}

#[test]
fn a_fleet_syncs_over_file_urls() {
    let env = Env::new();
    let root = env.root.path().join("served");
    std::fs::create_dir_all(&root).unwrap();
    let bare = remote(&env, &root);
    fleet_over(&env, &format!("file://{}", bare.path.display()), &bare);
}

#[test]
fn a_fleet_syncs_over_git_daemon() {
    let env = Env::new();
    let root = env.root.path().join("served");
    std::fs::create_dir_all(&root).unwrap();
    let bare = remote(&env, &root);
    let Some(daemon) = servers::git_daemon(&root, &env.root.path().join("home")) else { return };
    fleet_over(&env, &format!("{}/remote.git", daemon.base), &bare);
}

#[test]
fn a_fleet_syncs_over_smart_http() {
    let env = Env::new();
    let root = env.root.path().join("served");
    std::fs::create_dir_all(&root).unwrap();
    let bare = remote(&env, &root);
    let Some(base) = servers::http_backend(&root, &env.root.path().join("home")) else { return };
    fleet_over(&env, &format!("{base}/remote.git"), &bare);
}
