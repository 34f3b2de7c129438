//! `sync`: records across machines. Three clones of one bare remote write handoffs, sync in every
//! order and at once, race each other's pushes, and meet bad remotes and refusing ones; recall and
//! show read what came from elsewhere; the pre-push hook carries the records along.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};

use common::payloads::{edit, record};
use common::stderr;
use common::{Env, Repo, path_with_binary, stdout_ok};
use serde_json::Value;

/// A bare remote with `main` on it, and `names` cloned from it.
fn clones(env: &Env, names: &[&str]) -> (PathBuf, Vec<Repo>) {
    let seed = env.repo("seed");
    seed.write("README", "base\n");
    seed.commit_all("base");
    let remote = env.root.path().join("remote.git");
    seed.git(["init", "-q", "--bare", "-b", "main", remote.to_str().unwrap()]);
    let url = format!("file://{}", remote.display());
    seed.git(["push", "-q", &url, "main"]);
    let repos = names
        .iter()
        .map(|name| {
            let path = env.root.path().join(name);
            seed.git(["clone", "-q", &url, path.to_str().unwrap()]);
            seed.at(path)
        })
        .collect();
    (remote, repos)
}

/// A handoff for `issue` on a new branch `branch` from main: a work commit, an edit in the event
/// log, and a checked note from a TOML summary. Returns the note commit.
pub(crate) fn hand_off(repo: &Repo, branch: &str, issue: u64, goal: &str) -> String {
    repo.git(["checkout", "-q", "-B", branch, "main"]);
    stdout_ok(repo.handoff().args(["start", "--issue", &issue.to_string()]).output().unwrap());
    let file = format!("{branch}.txt");
    repo.write(&file, format!("{goal}\n"));
    repo.commit_all(&format!("work on {branch}"));
    record(repo, &edit(repo, &file));
    let summary = repo.path.with_extension(format!("{branch}.toml"));
    std::fs::write(&summary, format!("goal = \"{goal}\"\ndone = [\"Edited {file}\"]\n")).unwrap();
    let out = repo
        .handoff()
        .args(["note", "--summary", summary.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let outcome: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    outcome["commit"].as_str().unwrap().to_string()
}

/// An emergency handoff for `issue` on a new branch, without a note from the agent.
fn emergency(repo: &Repo, branch: &str, issue: u64) -> String {
    repo.git(["checkout", "-q", "-B", branch, "main"]);
    stdout_ok(repo.handoff().args(["start", "--issue", &issue.to_string()]).output().unwrap());
    let file = format!("{branch}.txt");
    repo.write(&file, "half done\n");
    record(repo, &edit(repo, &file));
    stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    let out = repo
        .handoff()
        .args(["note", "--emergency", "--reason", "time_limit", "--json"])
        .output()
        .unwrap();
    let outcome: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    outcome["commit"].as_str().unwrap().to_string()
}

pub(crate) fn sync_json(repo: &Repo, args: &[&str]) -> Value {
    let out = repo.handoff().arg("sync").args(args).arg("--json").output().unwrap();
    serde_json::from_str(&stdout_ok(out)).unwrap()
}

pub(crate) fn spawn_sync(repo: &Repo) -> Child {
    repo.handoff()
        .args(["sync", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `git notes --ref=handoff list`, sorted lines.
pub(crate) fn notes_list(repo: &Repo) -> Vec<String> {
    let mut lines: Vec<String> =
        repo.git_text(["notes", "--ref=handoff", "list"]).lines().map(str::to_string).collect();
    lines.sort();
    lines
}

/// Every record the remote holds, in its notes ref and every writer's ref: what a fresh clone
/// holds after one sync.
fn reader_of(env: &Env, remote: &Path) -> Repo {
    static READERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = READERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = env.root.path().join(format!("reader-{n}"));
    let url = format!("file://{}", remote.display());
    env.repo("scratch").git(["clone", "-q", &url, path.to_str().unwrap()]);
    let reader = env.repo("scratch").at(path);
    sync_json(&reader, &[]);
    reader
}

fn notes_list_of_remote(env: &Env, remote: &Path) -> Vec<String> {
    notes_list(&reader_of(env, remote))
}

/// The records on `object` (`git notes show`), as (kind, commit, goal) triples.
pub(crate) fn records_on(repo: &Repo, object: &str) -> Vec<(String, String, String)> {
    let text = repo.git_text(["notes", "--ref=handoff", "show", object]);
    let parsed: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    parsed["record"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let goal = r.get("summary").and_then(|s| s.get("goal")).and_then(|g| g.as_str());
            (
                r["kind"].as_str().unwrap().to_string(),
                r["commit"].as_str().unwrap().to_string(),
                goal.unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The id of a blob of `content` (a record key, say), computed by git.
fn key_id(repo: &Repo, content: &str) -> String {
    hash_object(repo, content, false)
}

/// `git hash-object [-w] --stdin`.
fn hash_object(repo: &Repo, content: &str, write: bool) -> String {
    let mut cmd = repo.git_cmd(["hash-object", "--stdin"]);
    if write {
        cmd.arg("-w");
    }
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(content.as_bytes()).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap().trim().to_string()
}

/// Every clone holds a record on every note commit in `commits`, and all of them (and the remote)
/// list the same notes.
fn all_agree(env: &Env, remote: &Path, repos: &[Repo], commits: &[String]) {
    let expected = notes_list_of_remote(env, remote);
    for repo in repos {
        for commit in commits {
            let found = records_on(repo, commit);
            assert!(
                found.iter().any(|(_, c, _)| c == commit),
                "{}: no record for {commit}: {found:?}",
                repo.path.display()
            );
        }
        assert_eq!(notes_list(repo), expected, "{} differs from the remote", repo.path.display());
    }
}

pub(crate) fn ref_of(repo: &Repo, name: &str) -> Option<String> {
    let out = repo.git_cmd(["rev-parse", "--verify", "--quiet", name]).output().unwrap();
    out.status.success().then(|| String::from_utf8(out.stdout).unwrap().trim().to_string())
}

#[test]
fn three_clones_syncing_in_every_order_end_with_every_record() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b", "c"]);
    let orders: [[usize; 3]; 6] =
        [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut commits = Vec::new();
    for (round, order) in orders.iter().enumerate() {
        for (i, repo) in repos.iter().enumerate() {
            let issue = (round * 10 + i) as u64 + 1;
            let branch = format!("r{round}-c{i}");
            commits.push(match (round + i) % 3 {
                0 => emergency(repo, &branch, issue),
                _ => hand_off(repo, &branch, issue, &format!("goal {issue}")),
            });
        }
        for &i in order {
            let report = sync_json(&repos[i], &[]);
            assert_eq!(report["remote"], "origin");
            assert!(report["fetched"].as_u64().is_some() && report["pushed"].as_u64().is_some());
        }
        // The last in the order holds everything; one more pass brings the others level.
        for &i in &order[..2] {
            let report = sync_json(&repos[i], &[]);
            assert_eq!(report["outcome"], "fast_forward", "round {round}: {report}");
            assert_eq!(report["pushed"], 0);
        }
        all_agree(&env, &remote, &repos, &commits);
        // The same notes everywhere (each clone's own merge commits, as writers' refs carry only
        // their own records).
        let tips: BTreeSet<Option<String>> =
            repos.iter().map(|r| ref_of(r, "refs/notes/handoff^{tree}")).collect();
        assert_eq!(tips.len(), 1, "round {round}: {tips:?}");
        let again = sync_json(&repos[order[0]], &[]);
        assert_eq!(again["outcome"], "up_to_date");
        assert_eq!((again["fetched"].as_u64(), again["pushed"].as_u64()), (Some(0), Some(0)));
    }
    // Six rounds of three handoffs, every one of them checked in every clone.
    assert_eq!(commits.len(), 18);
}

#[test]
fn concurrent_syncs_lose_nothing() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b", "c"]);
    let mut commits = Vec::new();
    for wave in 0..2 {
        for (i, repo) in repos.iter().enumerate() {
            for n in 0..2 {
                let issue = (wave * 100 + i * 10 + n + 1) as u64;
                commits.push(hand_off(repo, &format!("w{wave}-c{i}-{n}"), issue, "g"));
            }
        }
        // Every clone syncs twice at once: six syncs race for one remote ref.
        let children: Vec<Child> = repos.iter().chain(repos.iter()).map(spawn_sync).collect();
        let mut tries = Vec::new();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "a concurrent sync failed: {}", stderr(&out));
            let report: Value = serde_json::from_slice(&out.stdout).unwrap();
            tries.push(report["tries"].as_u64().unwrap());
        }
        eprintln!("wave {wave}: tries per sync {tries:?}");
        for repo in &repos {
            sync_json(repo, &[]);
        }
        for repo in &repos {
            sync_json(repo, &[]);
        }
        all_agree(&env, &remote, &repos, &commits);
    }
}

/// A `git` that, the first time it is asked to push, first lets another clone push its notes to
/// the writer's ref of clone `a` (as a second worktree of `a` would): the sync that runs it loses
/// the race it had no way to see coming.
fn racing_git(env: &Env, other: &Repo) -> std::ffi::OsString {
    let real = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join("git"))
        .find(|p| p.is_file())
        .expect("git on PATH");
    let dir = env.root.path().join("racing-bin");
    std::fs::create_dir_all(&dir).unwrap();
    let marker = env.root.path().join("raced");
    let script = format!(
        "#!/bin/sh\ncase \" $* \" in *\" push \"*)\n  if [ ! -e '{marker}' ]; then\n    : > '{marker}'\n    \
         env -u GIT_DIR -u GIT_WORK_TREE '{real}' -C '{other}' push -q origin refs/notes/handoff:refs/handoff/writers/a || exit 99\n  \
         fi ;;\nesac\nexec '{real}' \"$@\"\n",
        marker = marker.display(),
        real = real.display(),
        other = other.path.display()
    );
    let path = dir.join("git");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut paths = vec![dir];
    paths.extend(std::env::split_paths(&path_with_binary()));
    std::env::join_paths(paths).unwrap()
}

#[test]
fn a_push_race_between_two_syncs_loses_nothing() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    a.git(["config", "handoff.writer", "a"]);
    let b_first = hand_off(b, "b1", 1, "first of b");
    sync_json(b, &[]);
    let b_second = hand_off(b, "b2", 2, "second of b");
    let a_only = hand_off(a, "a1", 3, "a's");

    // a fetches b's first notes, merges, and is about to push when b pushes its second.
    let out =
        a.handoff().args(["sync", "--json"]).env("PATH", racing_git(&env, b)).output().unwrap();
    let report: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert!(env.root.path().join("raced").exists(), "the race was run");
    assert_eq!((report["tries"].as_u64(), report["rejected"].as_u64()), (Some(2), Some(1)));
    assert_eq!(report["writer_ref"], "refs/handoff/writers/a");
    assert_eq!(report["outcome"], "merged", "{report}");
    assert_eq!(report["fetched"], 2, "both of b's records: {report}");
    sync_json(b, &[]);
    all_agree(&env, &remote, &repos, &[b_first, b_second, a_only]);
}

#[test]
fn a_clone_that_never_synced_recalls_a_handoff_from_another_after_one_sync() {
    let env = Env::new();
    let (_remote, repos) = clones(&env, &["a", "b", "c"]);
    let (a, b, c) = (&repos[0], &repos[1], &repos[2]);
    hand_off(a, "feature", 42, "Teach the parser tabs");
    a.git(["push", "-q", "origin", "feature"]);
    let report = sync_json(a, &[]);
    assert_eq!(report["outcome"], "pushed");
    assert_eq!(report["pushed"], 1);

    b.git(["fetch", "-q", "origin"]);
    b.git(["checkout", "-q", "feature"]);
    // The branch is the truth: the note commit came with the branch, so recall tells it from the
    // file; the record (the digest) comes with the sync.
    let before = stdout_ok(b.handoff().args(["recall"]).output().unwrap());
    assert!(before.contains("Goal: Teach the parser tabs"), "{before}");
    assert!(!before.contains("file edited"), "{before}");
    let report = sync_json(b, &[]);
    assert_eq!(report["outcome"], "fast_forward");
    assert_eq!(report["fetched"], 1);
    let text = stdout_ok(b.handoff().args(["recall", "--source", "resume"]).output().unwrap());
    assert!(text.contains("issue #42") && text.contains("Goal: Teach the parser tabs"), "{text}");
    assert!(text.contains("1 file edited"), "the record's digest: {text}");
    let shown = stdout_ok(b.handoff().args(["show", "--color", "never"]).output().unwrap());
    assert!(
        shown.contains("# Handoff note: issue #42"),
        "the note, fetched with the branch: {shown}"
    );

    // Once compacted into the notes ref, a plain fetch with the documented refspec is enough:
    // recall reads the remote-tracking ref.
    let compacted = sync_json(a, &["--compact"]);
    assert_eq!(
        (compacted["compacted"].as_u64(), compacted["writers"].as_u64()),
        (Some(1), Some(1))
    );
    c.git([
        "config",
        "--add",
        "remote.origin.fetch",
        "+refs/notes/handoff:refs/notes/remotes/origin/handoff",
    ]);
    c.git(["fetch", "-q", "origin"]);
    c.git(["checkout", "-q", "feature"]);
    assert_eq!(ref_of(c, "refs/notes/handoff"), None, "nothing merged locally");
    let text = stdout_ok(c.handoff().args(["recall", "--issue", "42"]).output().unwrap());
    assert!(text.contains("Goal: Teach the parser tabs"), "{text}");
    let json: Value = serde_json::from_str(&stdout_ok(
        c.handoff().args(["show", "feature", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(json["record"]["issue"], 42);
}

#[test]
fn a_squash_merged_branchs_handoff_is_found_by_issue_in_another_clone() {
    let env = Env::new();
    let (_remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    hand_off(a, "feature", 77, "Squash me");
    a.git(["checkout", "-q", "main"]);
    a.git(["merge", "-q", "--squash", "feature"]);
    a.git(["commit", "-q", "-m", "Feature, squashed"]);
    a.git(["branch", "-q", "-D", "feature"]);
    a.git(["push", "-q", "origin", "main"]);
    sync_json(a, &[]);

    b.git(["pull", "-q", "origin", "main"]);
    sync_json(b, &[]);
    let text = stdout_ok(b.handoff().args(["recall", "--issue", "77"]).output().unwrap());
    assert!(text.contains("issue #77") && text.contains("Goal: Squash me"), "{text}");
    // The note commit never left a's machine; the record still names it.
    assert!(text.contains("Note: .agent/handoff/77.md at "), "{text}");
}

#[test]
fn a_rebased_branchs_handoff_is_found_by_branch_in_another_clone() {
    let env = Env::new();
    let (_remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    let note_commit = hand_off(a, "feature", 31, "Rebase me");
    // main moves on; the branch is rebased without notes.rewriteRef, stranding the commit's note.
    a.git(["checkout", "-q", "main"]);
    a.write("other.txt", "other\n");
    a.commit_all("other work");
    a.git(["push", "-q", "origin", "main"]);
    a.git(["checkout", "-q", "feature"]);
    a.git(["rebase", "-q", "main"]);
    assert_ne!(a.head(), note_commit);
    a.git(["push", "-q", "origin", "feature"]);
    sync_json(a, &[]);

    b.git(["fetch", "-q", "origin"]);
    b.git(["checkout", "-q", "feature"]);
    sync_json(b, &[]);
    let text = stdout_ok(b.handoff().args(["recall"]).output().unwrap());
    assert!(text.contains("issue #31") && text.contains("Goal: Rebase me"), "{text}");
}

#[test]
fn git_notes_prune_in_another_clone_keeps_the_issue_and_branch_keys() {
    let env = Env::new();
    let (_remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    hand_off(a, "feature", 64, "Survive a prune");
    a.git(["push", "-q", "origin", "feature"]);
    sync_json(a, &[]);

    b.git(["fetch", "-q", "origin"]);
    b.git(["checkout", "-q", "feature"]);
    sync_json(b, &[]);
    // `git notes prune` drops the notes on objects the clone does not have: the key blobs the
    // records hang on must have come along with the notes ref.
    b.git(["notes", "--ref=handoff", "prune"]);
    let issue_key = key_id(b, "git-handoff issue 64\n");
    let branch_key = key_id(b, "git-handoff branch refs/heads/feature\n");
    let listed = notes_list(b);
    let annotated: Vec<&str> = listed.iter().filter_map(|l| l.split(' ').nth(1)).collect();
    assert!(annotated.contains(&&*issue_key) && annotated.contains(&&*branch_key), "{listed:?}");
    let text = stdout_ok(b.handoff().args(["recall", "--issue", "64"]).output().unwrap());
    assert!(text.contains("Goal: Survive a prune"), "{text}");
    // git itself sees the keys as entries that are not notes, and keeps them through its own
    // note edits.
    b.git(["notes", "--ref=handoff", "add", "-m", "by hand", "HEAD~1"]);
    let tree = b.git_text(["ls-tree", "-r", "--name-only", "refs/notes/handoff"]);
    let entry = format!("handoff-keys/{}/{}", &issue_key[..2], &issue_key[2..]);
    assert!(tree.lines().any(|l| l == entry), "{tree}");
}

#[test]
fn an_object_annotated_on_both_sides_keeps_both_records() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    let base = a.head();
    // Both machines annotate the same commit by hand, and both write a handoff for issue 5.
    for (repo, who) in [(a, "a"), (b, "b")] {
        let text = format!(
            "[[record]]\nversion = 1\nkind = \"digest\"\nissue = 5\nwritten_at = \
             \"2026-11-30T04:0{}:00Z\"\ncommit = \"{base}\"\ndigest_line = \"by {who}\"\n",
            if who == "a" { 1 } else { 2 }
        );
        repo.git(["notes", "--ref=handoff", "add", "-m", &text, &base]);
    }
    let from_a = hand_off(a, "fa", 5, "issue five on a");
    let from_b = hand_off(b, "fb", 5, "issue five on b");
    // And a note that is no record at all, different on each side.
    let junk = key_id(a, "some object\n");
    a.git(["notes", "--ref=handoff", "add", "-m", "not a record from a", &junk]);
    b.git(["notes", "--ref=handoff", "add", "-m", "not a record from b", &junk]);

    let a_ref = sync_json(a, &[])["writer_ref"].as_str().unwrap().to_owned();
    let merged = sync_json(b, &[]);
    assert_eq!(merged["outcome"], "merged", "{merged}");
    assert_eq!(merged["merge_commit"], merged["local"]);
    let parents = b.git_text(["log", "-1", "--format=%P", "refs/notes/handoff"]);
    assert_eq!(parents.split(' ').count(), 2, "a merge commit with two parents: {parents}");
    let a_pushed = a.at(remote.clone()).git_text(["rev-parse", &a_ref]);
    assert!(parents.contains(&a_pushed), "what a pushed is one: {parents}");
    sync_json(a, &[]);
    all_agree(&env, &remote, &repos, &[from_a.clone(), from_b.clone()]);

    for repo in [a, b] {
        let on_base = records_on(repo, &base);
        assert_eq!(on_base.len(), 2, "{on_base:?}");
        let issue_key = key_id(repo, "git-handoff issue 5\n");
        let goals: BTreeSet<String> =
            records_on(repo, &issue_key).into_iter().map(|(_, _, g)| g).collect();
        assert!(
            goals.contains("issue five on a") && goals.contains("issue five on b"),
            "{goals:?}"
        );
        let junk_note = repo.git_text(["notes", "--ref=handoff", "show", &junk]);
        assert!(
            junk_note.contains("not a record from a") && junk_note.contains("not a record from b"),
            "{junk_note}"
        );
    }
    // Recall takes the newest for the issue; the merged key is readable.
    let text = stdout_ok(b.handoff().args(["recall", "--issue", "5"]).output().unwrap());
    assert!(text.contains("issue five on b"), "{text}");
}

#[test]
fn bad_remotes_and_refusals_are_exit_2_and_leave_the_local_notes_alone() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    hand_off(b, "fb", 2, "b's");
    sync_json(b, &[]);
    hand_off(a, "fa", 1, "a's");
    let before = ref_of(a, "refs/notes/handoff");
    assert!(before.is_some());
    let check = |out: Output, wants: &[&str]| {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        for want in wants {
            assert!(err.contains(want), "{want:?} missing from: {err}");
        }
        assert_eq!(ref_of(a, "refs/notes/handoff"), before, "the local notes moved");
    };

    check(
        a.handoff().args(["sync", "nosuch"]).output().unwrap(),
        &["no remote named \"nosuch\"", "git remote -v"],
    );
    a.git(["remote", "add", "gone", "file:///nonexistent/remote.git"]);
    check(
        a.handoff().args(["sync", "gone"]).output().unwrap(),
        &[
            "could not fetch the handoff records from gone",
            "file:///nonexistent/remote.git",
            "unchanged",
        ],
    );
    a.git(["remote", "add", "down", "http://127.0.0.1:9/remote.git"]);
    check(
        a.handoff().args(["sync", "down"]).output().unwrap(),
        &["could not fetch", "127.0.0.1:9"],
    );

    // The remote refuses notes pushes: the merge is never recorded locally.
    let hook = remote.join("hooks/pre-receive");
    std::fs::write(
        &hook,
        "#!/bin/sh\nwhile read old new ref; do case \"$ref\" in refs/notes/*|refs/handoff/*) echo \"notes are not welcome here\" >&2; exit 1;; esac; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let remote_before = notes_list_of_remote(&env, &remote);
    check(
        a.handoff().args(["sync"]).output().unwrap(),
        &[
            "refused the push of refs/handoff/writers/",
            "after 2 tries",
            "pre-receive hook declined): notes are not welcome here",
            "nothing was lost",
        ],
    );
    assert_eq!(notes_list_of_remote(&env, &remote), remote_before);
    // Once the remote takes the push, what was fetched is merged and readable.
    std::fs::remove_file(&hook).unwrap();
    assert_eq!(sync_json(a, &[])["outcome"], "merged");
    let text = stdout_ok(a.handoff().args(["recall", "--issue", "2"]).output().unwrap());
    assert!(text.contains("Goal: b's"), "{text}");

    // No remote at all, and no upstream.
    let lone = env.repo("lone");
    lone.write("x", "x\n");
    lone.commit_all("x");
    let out = lone.handoff().args(["sync"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no remote `origin`"), "{}", stderr(&out));
}

#[test]
fn the_default_remote_is_the_branchs_and_an_empty_remote_is_no_error() {
    let env = Env::new();
    let (_remote, repos) = clones(&env, &["a"]);
    let a = &repos[0];
    let other = env.root.path().join("other.git");
    a.git(["init", "-q", "--bare", other.to_str().unwrap()]);
    a.git(["remote", "add", "other", other.to_str().unwrap()]);
    a.git(["push", "-q", "-u", "other", "main"]);
    // Nobody wrote records anywhere yet.
    let report = sync_json(a, &[]);
    assert_eq!(report["remote"], "other");
    assert_eq!(report["outcome"], "up_to_date");
    assert_eq!(report["local"], Value::Null);
    let text = stdout_ok(a.handoff().args(["sync", "origin"]).output().unwrap());
    assert!(text.contains("no handoff records on either side"), "{text}");

    let commit = hand_off(a, "f", 3, "to other");
    a.git(["checkout", "-q", "main"]);
    let report = sync_json(a, &[]);
    assert_eq!(
        (report["remote"].as_str(), report["outcome"].as_str()),
        (Some("other"), Some("pushed"))
    );
    let bare = a.at(&other);
    assert_eq!(
        bare.git_text(["for-each-ref", "--format=%(refname)", "refs/handoff/"]).lines().count(),
        1
    );
    sync_json(a, &["--compact"]);
    assert!(records_on(&bare, &commit).iter().any(|(_, c, _)| *c == commit));
    let text = stdout_ok(a.handoff().args(["sync", "origin"]).output().unwrap());
    assert!(text.starts_with("origin: pushed 1 record"), "{text}");
}

fn push(repo: &Repo, args: &[&str]) -> Output {
    repo.git_cmd(["push"]).args(args).env("PATH", path_with_binary()).output().unwrap()
}

#[test]
fn the_pre_push_hook_carries_the_records_and_never_fails_a_push_for_them() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    a.git(["config", "notes.rewriteRef", "refs/notes/commits"]);
    let out = a
        .git_handoff()
        .args(["hooks", "install", "--pre-push", "--push-notes", "--json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_eq!(report["rewrite_ref"]["action"], "added");
    stdout_ok(a.git_handoff().args(["hooks", "install", "--push-notes"]).output().unwrap());
    assert_eq!(
        a.git_text(["config", "--get-all", "notes.rewriteRef"]),
        "refs/notes/commits\nrefs/notes/handoff",
        "added once, keeping the value there"
    );

    // b wrote records too: the hook's sync merges rather than overwriting them.
    let from_b = hand_off(b, "fb", 8, "b's");
    sync_json(b, &[]);
    let from_a = hand_off(a, "fa", 9, "a's");
    let out = push(a, &["-q", "origin", "fa"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bare = reader_of(&env, &remote);
    for commit in [&from_a, &from_b] {
        assert!(records_on(&bare, commit).iter().any(|(_, c, _)| c == commit), "{commit}");
    }
    assert!(records_on(a, &from_b).iter().any(|(_, c, _)| *c == from_b), "merged locally too");

    // Notes refused by the remote: the branch still goes, with a warning.
    let hook = remote.join("hooks/pre-receive");
    std::fs::write(
        &hook,
        "#!/bin/sh\nwhile read old new ref; do case \"$ref\" in refs/notes/*|refs/handoff/*) exit 1;; esac; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let remote_notes = notes_list(&bare);
    let late = hand_off(a, "fa2", 10, "refused");
    let out = push(a, &["-q", "origin", "fa2"]);
    assert!(out.status.success(), "the notes failure failed the push: {}", stderr(&out));
    assert!(stderr(&out).contains("handoff records were not pushed to origin"), "{}", stderr(&out));
    let bare_repo = a.at(&remote);
    assert_eq!(
        bare_repo.git_text(["rev-parse", "refs/heads/fa2"]),
        a.git_text(["rev-parse", "fa2"])
    );
    assert_eq!(notes_list_of_remote(&env, &remote), remote_notes);
    assert!(records_on(a, &late).iter().any(|(_, c, _)| *c == late), "kept locally");

    // Installing without --push-notes takes the notes push out again.
    stdout_ok(a.git_handoff().args(["hooks", "install"]).output().unwrap());
    let text = std::fs::read_to_string(a.path.join(".git/hooks/pre-push")).unwrap();
    assert!(!text.contains("git handoff sync"), "{text}");
}

#[test]
fn with_rewrite_ref_set_records_follow_an_amend() {
    let env = Env::new();
    let (_remote, repos) = clones(&env, &["a"]);
    let a = &repos[0];
    stdout_ok(a.git_handoff().args(["hooks", "install"]).output().unwrap());
    let commit = hand_off(a, "f", 4, "amend me");
    a.git(["commit", "-q", "--amend", "-m", "Handoff note: issue #4\n\nReworded."]);
    let amended = a.head();
    assert_ne!(amended, commit);
    assert!(records_on(a, &amended).iter().any(|(_, c, _)| *c == commit));
}

/// A digest record on `commit`, as a note blob's text.
fn record_text(commit: &str, written_at: &str, line: &str) -> String {
    format!(
        "[[record]]\nversion = 1\nkind = \"digest\"\nwritten_at = \"{written_at}\"\n\
         commit = \"{commit}\"\ndigest_line = \"{line}\"\n"
    )
}

#[test]
fn notes_trees_with_any_fanout_and_entries_that_are_no_notes_merge_whole() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    let base = a.head();
    // a's notes tree is built by hand: two levels of fanout (`ab/cd/ef...`), which git reads
    // though it would not write it for so few notes, and a file that is no note.
    let index = env.root.path().join("notes-index");
    let mut objects = vec![base.clone()];
    for i in 0..3 {
        objects.push(key_id(a, &format!("object {i}\n")));
    }
    for (i, object) in objects.iter().enumerate() {
        let text = record_text(object, &format!("2026-11-30T04:0{i}:00Z"), &format!("a{i}"));
        let blob = hash_object(a, &text, true);
        let path = format!("{}/{}/{}", &object[..2], &object[2..4], &object[4..]);
        a.git_cmd(["update-index", "--add", "--cacheinfo", &format!("100644,{blob},{path}")])
            .env("GIT_INDEX_FILE", &index)
            .output()
            .unwrap();
    }
    let readme = hash_object(a, "kept by hand\n", true);
    a.git_cmd(["update-index", "--add", "--cacheinfo", &format!("100644,{readme},README.notes")])
        .env("GIT_INDEX_FILE", &index)
        .output()
        .unwrap();
    let out = a.git_cmd(["write-tree"]).env("GIT_INDEX_FILE", &index).output().unwrap();
    let tree = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let commit = a.git_text(["commit-tree", &tree, "-m", "notes by hand"]);
    a.git(["update-ref", "refs/notes/handoff", &commit]);
    assert_eq!(notes_list(a).len(), 4, "git reads the fanout");
    // b annotates the same commit, flat, as git notes does.
    b.git([
        "notes",
        "--ref=handoff",
        "add",
        "-m",
        &record_text(&base, "2026-11-30T05:00:00Z", "b"),
        &base,
    ]);

    sync_json(a, &[]);
    sync_json(b, &[]);
    sync_json(a, &[]);
    let expected = notes_list_of_remote(&env, &remote);
    assert_eq!(expected.len(), 4);
    for repo in [a, b] {
        assert_eq!(notes_list(repo), expected);
        assert_eq!(records_on(repo, &base).len(), 2, "both records on the commit");
        let text = repo.git_text(["notes", "--ref=handoff", "show", &base]);
        assert!(
            text.contains("digest_line = \"a0\"") && text.contains("digest_line = \"b\""),
            "{text}"
        );
        assert_eq!(
            repo.git_text(["cat-file", "-p", "refs/notes/handoff:README.notes"]),
            "kept by hand"
        );
    }
}

/// Issue 48: 32 clones syncing at the same moment all get through (5 of 32 gave up after 10
/// rounds before). Bounded by default; `HANDOFF_SYNC_CLONES=32` races as many as the issue.
#[test]
fn many_racing_clones_all_converge() {
    let count: usize =
        std::env::var("HANDOFF_SYNC_CLONES").ok().and_then(|n| n.parse().ok()).unwrap_or(12);
    let env = Env::new();
    let names: Vec<String> = (0..count).map(|i| format!("c{i:02}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (remote, repos) = clones(&env, &names);
    let commits: Vec<String> = repos
        .iter()
        .enumerate()
        .map(|(i, repo)| hand_off(repo, &format!("b{i}"), 500 + i as u64, "g"))
        .collect();
    let began = std::time::Instant::now();
    let children: Vec<Child> = repos.iter().map(spawn_sync).collect();
    let mut tries = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "a racing sync gave up: {}", stderr(&out));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        tries.push(report["tries"].as_u64().unwrap());
    }
    eprintln!(
        "{count} racing syncs in {:.1}s; most rounds {}, tries {tries:?}",
        began.elapsed().as_secs_f64(),
        tries.iter().max().unwrap()
    );
    for repo in &repos {
        sync_json(repo, &[]);
    }
    all_agree(&env, &remote, &repos, &commits);
}

/// Issue 61: a fresh clone's sync asks for the notes ref and every writer's ref in one fetch (one
/// `ls-refs` with protocol v2's ref prefixes), and a local notes ref in the layout of earlier
/// versions (a top-level `handoff-key-<id>` entry per key) merges with several writers' refs
/// without losing a key: the keys end up in `handoff-keys/`.
#[test]
fn a_fresh_clone_fetches_every_writer_in_one_round_trip_and_old_keys_move() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b", "c"]);
    let mut commits = Vec::new();
    for (i, repo) in repos.iter().enumerate() {
        commits.push(hand_off(repo, &format!("b{i}"), 40 + i as u64, "g"));
        sync_json(repo, &[]);
    }
    // An old clone: its own key kept flat at the top of its notes tree.
    let old = env.repo("scratch").at(env.root.path().join("old"));
    let url = format!("file://{}", remote.display());
    env.repo("scratch").git(["clone", "-q", &url, old.path.to_str().unwrap()]);
    let key = key_id(&old, "git-handoff issue 77\n");
    hash_object(&old, "git-handoff issue 77\n", true);
    old.git([
        "notes",
        "--ref=handoff",
        "add",
        "-m",
        &record_text(&key, "2026-11-30T06:00:00Z", "old"),
        &key,
    ]);
    let tree = old.git_text(["rev-parse", "refs/notes/handoff^{tree}"]);
    let listing =
        format!("{}\n100644 blob {key}\thandoff-key-{key}\n", old.git_text(["ls-tree", &tree]));
    let mut mktree = old.git_cmd(["mktree"]);
    let flat = {
        use std::io::Write;
        let mut child = mktree.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(listing.as_bytes()).unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap().trim().to_string()
    };
    let parent = old.git_text(["rev-parse", "refs/notes/handoff"]);
    let commit = old.git_text(["commit-tree", &flat, "-p", &parent, "-m", "flat key"]);
    old.git(["update-ref", "refs/notes/handoff", &commit]);

    let trace = env.root.path().join("packets");
    let out =
        old.handoff().args(["sync", "--json"]).env("GIT_TRACE_PACKET", &trace).output().unwrap();
    let report: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_eq!(report["writers"], 3, "{report}");
    let packets = std::fs::read_to_string(&trace).unwrap();
    let lines = |what: &str| packets.lines().filter(|l| l.contains(what)).count();
    assert_eq!(lines("upload-pack> version 2"), 1, "one connection: {packets}");
    assert_eq!(lines("fetch> command=ls-refs"), 1, "one ref listing: {packets}");
    assert_eq!(lines("fetch> ref-prefix refs/handoff/writers/"), 1, "{packets}");
    assert_eq!(lines("fetch> ref-prefix refs/notes/handoff"), 1, "{packets}");
    for commit in &commits {
        assert!(records_on(&old, commit).iter().any(|(_, c, _)| c == commit), "{commit}");
    }
    assert_eq!(records_on(&old, &key).len(), 1);
    // The next write moves the flat key into the folder, beside every writer's keys.
    hand_off(&old, "b9", 49, "g");
    let entries = old.git_text(["ls-tree", "-r", "--name-only", "refs/notes/handoff"]);
    assert!(!entries.lines().any(|l| l.starts_with("handoff-key-")), "{entries}");
    assert!(entries.lines().any(|l| l == format!("handoff-keys/{}/{}", &key[..2], &key[2..])));
    for issue in [40, 41, 42, 49] {
        let key = key_id(&old, &format!("git-handoff issue {issue}\n"));
        assert!(entries.lines().any(|l| l == format!("handoff-keys/{}/{}", &key[..2], &key[2..])));
    }
}

/// Issue 61: a writer's ref carries only the records the remote lacked when it pushed, on its own
/// earlier commit, not everything its clone merged (which would make every writer's ref hold every
/// record, and a fleet's fetches grow with the writers times the records); a reader still gets
/// every record, and a second sync of the same clone adds to its ref.
#[test]
fn a_writers_ref_holds_only_what_the_remote_lacked() {
    let env = Env::new();
    let (remote, repos) = clones(&env, &["a", "b"]);
    let (a, b) = (&repos[0], &repos[1]);
    b.git(["config", "handoff.writer", "b"]);
    let a_first = hand_off(a, "a1", 1, "a's");
    sync_json(a, &[]);
    let b_first = hand_off(b, "b1", 2, "b's");
    let report = sync_json(b, &[]);
    assert_eq!((report["fetched"].as_u64(), report["pushed"].as_u64()), (Some(1), Some(1)));
    let bare = a.at(remote.clone());
    let notes_of_b = |bare: &Repo| -> Vec<String> {
        let listing = bare.git_text(["ls-tree", "-r", "--name-only", "refs/handoff/writers/b"]);
        listing.lines().filter(|l| !l.starts_with("handoff-keys/")).map(str::to_owned).collect()
    };
    let notes = notes_of_b(&bare);
    assert!(notes.iter().any(|n| n.replace('/', "") == b_first), "{notes:?}");
    assert!(
        !notes.iter().any(|n| n.replace('/', "") == a_first),
        "a's record in b's ref: {notes:?}"
    );
    let first = bare.git_text(["rev-parse", "refs/handoff/writers/b"]);
    assert!(bare.git_text(["rev-list", "--parents", "-n1", &first]).split(' ').count() == 1);

    let b_second = hand_off(b, "b2", 3, "b's second");
    sync_json(b, &[]);
    let second = bare.git_text(["rev-parse", "refs/handoff/writers/b"]);
    assert_eq!(bare.git_text(["rev-parse", &format!("{second}^")]), first, "on its own commit");
    let notes = notes_of_b(&bare);
    for commit in [&b_first, &b_second] {
        assert!(notes.iter().any(|n| n.replace('/', "") == **commit), "{commit}: {notes:?}");
    }
    assert!(!notes.iter().any(|n| n.replace('/', "") == a_first), "{notes:?}");
    sync_json(a, &[]);
    all_agree(&env, &remote, &repos, &[a_first, b_first, b_second]);
}
