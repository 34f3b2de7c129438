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
    remote_with(env, root, HOOK)
}

/// The bare remote `remote.git` under `root`, with `main` and the pre-receive hook `hook`.
fn remote_with(env: &Env, root: &Path, hook: &str) -> Repo {
    let seed = env.repo("seed");
    seed.write("README", "base\n");
    seed.commit_all("base");
    let bare = root.join("remote.git");
    seed.git(["init", "-q", "--bare", "-b", "main", bare.to_str().unwrap()]);
    seed.git(["push", "-q", bare.to_str().unwrap(), "main"]);
    let bare = seed.at(&bare);
    bare.git(["config", "http.receivepack", "true"]);
    let hook_text = hook;
    let hook = bare.path.join("hooks/pre-receive");
    std::fs::write(&hook, hook_text).unwrap();
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

/// A `git daemon` that keeps two connections at most (its default is 32): past that it kills one
/// of the same address, sleeps a second, and drops what still does not fit, as under a fleet's
/// burst. Six clones and one the remote refuses sync at once, each in its own slots (as on six
/// machines) or all sharing one slot: every record arrives, a dropped connection is made again
/// within the same round (`reconnects`, not `tries`), and the refusal is told as such, once
/// retried, not drowned in reconnects.
#[test]
fn a_daemon_that_drops_connections_loses_no_writer() {
    const MANY: usize = 6;
    let env = Env::new();
    let root = env.root.path().join("served");
    std::fs::create_dir_all(&root).unwrap();
    let hook = "#!/bin/sh\nwhile read old new ref; do\n  case \"$ref\" in *stubborn) \
                echo \"stubborn is not welcome\" >&2; exit 1 ;; esac\ndone\nexit 0\n";
    let _bare = remote_with(&env, &root, hook);
    let home = env.root.path().join("home");
    let options = ["--max-connections=2"];
    let Some(daemon) = servers::git_daemon_with(&root, &home, &options) else { return };
    let url = format!("{}/remote.git", daemon.base);
    let clone = |name: &str, slots: &Path| {
        let path = env.root.path().join(name);
        env.repo("seed").git(["clone", "-q", &url, path.to_str().unwrap()]);
        let repo = env.repo("seed").at(path);
        repo.git(["config", "handoff.writer", name]);
        (repo, slots.to_path_buf())
    };
    let shared = env.root.path().join("tmp-shared");
    let mut repos = Vec::new();
    for i in 0..MANY {
        // Half the clones share one machine's slots (one connection at a time between them);
        // the others each have their own (like clones on machines of their own).
        let own = env.root.path().join(format!("tmp-{i}"));
        let (repo, slots) = clone(&format!("d{i}"), if i % 2 == 0 { &shared } else { &own });
        if i % 2 == 0 {
            repo.git(["config", "handoff.syncConnections", "1"]);
        }
        repos.push((repo, slots));
    }
    let commits: Vec<String> = repos
        .iter()
        .enumerate()
        .map(|(i, (repo, _))| hand_off(repo, &format!("b{i}"), 600 + i as u64, "d"))
        .collect();
    let (stubborn, stubborn_tmp) = clone("stubborn", &env.root.path().join("tmp-stubborn"));
    hand_off(&stubborn, "s", 699, "refused");
    let before = ref_of(&stubborn, "refs/notes/handoff");

    let sync = |repo: &Repo, tmp: &Path| {
        std::fs::create_dir_all(tmp).unwrap();
        let mut cmd = repo.handoff();
        cmd.args(["sync", "--json"]).env("TMPDIR", tmp);
        cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        cmd.spawn().unwrap()
    };
    let children: Vec<Child> = repos.iter().map(|(repo, tmp)| sync(repo, tmp)).collect();
    let refused = sync(&stubborn, &stubborn_tmp).wait_with_output().unwrap();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "a sync failed: {}", stderr(&out));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        // No writer contends with another: a round is tried again only after a lost race.
        assert!(report["tries"].as_u64().is_some_and(|t| t <= 2), "{report}");
        assert!(report["reconnects"].as_u64().is_some(), "{report}");
    }
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let error: Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(error["error"]["kind"], "git", "{error}");
    let message = error["error"]["message"].as_str().unwrap_or_default();
    for want in ["refused the push of refs/handoff/writers/stubborn", "after 2 tries"] {
        assert!(message.contains(want), "{want:?} missing from {message}");
    }
    assert!(message.contains("stubborn is not welcome") && message.contains("nothing was lost"));
    assert!(error["error"]["hint"].as_str().is_some_and(|h| h.contains("hooks")), "{error}");
    assert_eq!(ref_of(&stubborn, "refs/notes/handoff"), before, "the local notes moved");

    // A fresh clone reads every record, in one sync (it may be dropped too, and reconnect).
    let (reader, reader_tmp) = clone("reader", &env.root.path().join("tmp-reader"));
    let out = sync(&reader, &reader_tmp).wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["writers"], MANY as u64, "{report}");
    for commit in &commits {
        assert!(records_on(&reader, commit).iter().any(|(_, c, _)| c == commit), "{commit}");
    }
}
