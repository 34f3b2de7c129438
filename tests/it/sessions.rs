//! Work goes on after a handoff: a later session (compact, resume, or the next morning) begins the
//! next attempt, the branch stays pushable here and on a machine that sees only the branch and
//! `refs/notes/handoff`, the runner's fault is still refused, every session with tool calls
//! leaves a trace, and recall, show and log say what happened since the note.

use std::io::Write;
use std::process::{Output, Stdio};

use serde_json::{Value, json};

use crate::common::payloads::{bash_failed, bash_ok, edit, hook, record};
use crate::common::{Env, Repo, stdout_ok};

/// Runs `git handoff <args>` with `stdin` piped in.
fn with_stdin(repo: &Repo, args: &[&str], stdin: &str) -> Output {
    let mut child = repo
        .handoff()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The SessionStart hook as Claude Code runs it.
fn session_start(repo: &Repo, session: &str, source: &str) -> String {
    let mut payload = hook(repo, "SessionStart", json!({"source": source}));
    payload["session_id"] = json!(session);
    stdout_ok(with_stdin(repo, &["recall", "--hook", "claude"], &payload.to_string()))
}

/// The SessionEnd hook as Claude Code runs it.
fn session_end(repo: &Repo, session: &str) -> String {
    let mut payload = hook(repo, "SessionEnd", json!({"reason": "other"}));
    payload["session_id"] = json!(session);
    stdout_ok(with_stdin(repo, &["note", "--digest-only"], &payload.to_string()))
}

/// A payload of session `session`.
fn of(mut payload: Value, session: &str) -> Value {
    payload["session_id"] = json!(session);
    payload
}

/// `start --issue 30`, work, a passing `cargo test`, a checked note; returns the repository, its
/// bare remote and the note commit.
fn handed_off(env: &Env) -> (Repo, Repo, String) {
    let remote = env.repo("remote.git");
    remote.git(["config", "core.bare", "true"]);
    let repo = env.repo("work");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    repo.git(["remote", "add", "origin", remote.path.to_str().unwrap()]);
    stdout_ok(repo.handoff().args(["start", "--issue", "30"]).output().unwrap());
    repo.write("src/lib.rs", "fn a() { b() }\n");
    record(&repo, &of(edit(&repo, "src/lib.rs"), "s1"));
    record(&repo, &of(bash_ok(&repo, "cargo test"), "s1"));
    repo.commit_all("work");
    repo.write("s.toml", "goal = \"Parse it\"\ndone = [\"Parser done, cargo test passes\"]\n");
    stdout_ok(repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap());
    std::fs::remove_file(repo.path.join("s.toml")).unwrap();
    let note = repo.head();
    (repo, remote, note)
}

/// A later session: edits, a failing `cargo test`, a plain git commit, the session's end.
fn later_session(repo: &Repo, source: &str) {
    session_start(repo, "s2", source);
    repo.write("src/lib.rs", "fn a() { b() }\nfn b() {}\n");
    repo.write("src/more.rs", "fn c() {}\n");
    record(repo, &of(edit(repo, "src/lib.rs"), "s2"));
    record(repo, &of(bash_failed(repo, "cargo test", 101), "s2"));
    repo.git(["add", "-A", "src"]);
    repo.git(["commit", "-q", "-m", "more work"]);
    let ended = session_end(repo, "s2");
    assert!(ended.starts_with("Digest stored on "), "{ended}");
}

/// `validate` over the whole branch in a fresh clone that fetched the branch and the notes ref,
/// as CI sees it: no attempt state of this machine.
fn validate_as_ci(env: &Env, remote: &Repo, name: &str) -> Output {
    let ci = env.repo(name);
    let from = remote.path.to_str().unwrap();
    ci.git(["fetch", "-q", from, "main:refs/remotes/origin/main", "refs/notes/*:refs/notes/*"]);
    ci.git(["checkout", "-q", "-B", "main", "refs/remotes/origin/main"]);
    let root = ci.git_text(["rev-list", "--max-parents=0", "HEAD"]);
    ci.handoff().args(["validate", "--base", root.trim()]).output().unwrap()
}

#[test]
fn work_after_a_handoff_stays_pushable_and_recall_says_what_changed() {
    for source in ["compact", "resume", "startup"] {
        let env = Env::new();
        let (repo, remote, note) = handed_off(&env);
        later_session(&repo, source);

        let out = repo.handoff().arg("validate").output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{source}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let root = repo.git_text(["rev-list", "--max-parents=0", "HEAD"]);
        let out = repo.handoff().args(["validate", "--base", root.trim()]).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{source}: {}",
            String::from_utf8_lossy(&out.stdout)
        );

        // The pre-push hook lets the branch go, and CI, with only the branch and the notes ref,
        // agrees.
        stdout_ok(repo.handoff().args(["hooks", "install", "--pre-push"]).output().unwrap());
        let mut push = repo.git_cmd(["push", "-q", "origin", "main", "refs/notes/handoff"]);
        let push = push.env("PATH", crate::common::path_with_binary()).output().unwrap();
        assert!(push.status.success(), "{source}: {}", String::from_utf8_lossy(&push.stderr));
        let ci = validate_as_ci(&env, &remote, "ci");
        assert_eq!(ci.status.code(), Some(0), "{source}: {}", String::from_utf8_lossy(&ci.stdout));

        // Recall says what happened since the note, the failing check first; the note's own
        // "passed" is marked as the note's.
        let text = stdout_ok(repo.handoff().args(["recall", "--source", source]).output().unwrap());
        assert!(text.lines().count() <= 10, "{text}");
        assert!(text.contains("at the note: last `cargo test` passed"), "{source}: {text}");
        let since = "Since the note: last `cargo test` failed (exit 101); 1 commit: more work; 2 \
                     files changed: src/lib.rs, src/more.rs";
        assert!(text.contains(since), "{source}: {text}");
        if source != "startup" {
            assert!(text.lines().nth(1).unwrap().starts_with(since), "{source}: {text}");
        }

        let show: Value = serde_json::from_str(&stdout_ok(
            repo.handoff().args(["show", "--json"]).output().unwrap(),
        ))
        .unwrap();
        assert_eq!(show["record"]["commit"], note.as_str());
        assert_eq!(show["since"]["commits"], 1);
        assert_eq!(show["since"]["subjects"], json!(["more work"]));
        assert_eq!(show["since"]["check"]["ok"], false, "{show}");
        assert_eq!(show["since"]["check"]["result"], "failed (exit 101)");
        let human = stdout_ok(repo.handoff().arg("show").output().unwrap());
        assert!(human.contains("Since the note\n  last `cargo test` failed (exit 101)"), "{human}");

        // log: each session's contribution, the later session's digest above the note.
        let log: Value = serde_json::from_str(&stdout_ok(
            repo.handoff().args(["log", "--json"]).output().unwrap(),
        ))
        .unwrap();
        let kinds: Vec<(&str, &str)> = log["handoffs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["kind"].as_str().unwrap(), h["session"].as_str().unwrap_or("")))
            .collect();
        assert_eq!(kinds, [("digest", "s2"), ("agent", "s1")], "{source}: {log}");
    }
}

#[test]
fn the_runners_fault_is_refused_here_and_on_ci() {
    let env = Env::new();
    let (repo, remote, _) = handed_off(&env);
    // The same attempt, no session in between: work committed after its own note.
    record(&repo, &of(edit(&repo, "src/lib.rs"), "s1"));
    repo.write("src/late.rs", "fn late() {}\n");
    repo.commit_all("late work");
    let out = repo.handoff().arg("validate").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"late work\" sits above the note commit"), "{text}");
    repo.git(["push", "-q", "--no-verify", "origin", "main", "refs/notes/handoff"]);
    let ci = validate_as_ci(&env, &remote, "ci");
    assert_eq!(ci.status.code(), Some(1), "{}", String::from_utf8_lossy(&ci.stdout));

    // A session that begins now does not excuse the commit made before it.
    session_start(&repo, "s2", "resume");
    let out = repo.handoff().args(["validate", "--base", "HEAD~3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn every_session_with_tool_calls_leaves_its_own_trace() {
    let env = Env::new();
    let (repo, _remote, note) = handed_off(&env);
    // The session that wrote the note ends: it has its note, nothing more is stored.
    let ended = session_end(&repo, "s1");
    assert!(ended.starts_with("Nothing written: the agent's note for issue #30 is in"), "{ended}");

    // Two later sessions end on the note commit itself, each with tool calls of its own.
    session_start(&repo, "s2", "startup");
    record(&repo, &of(bash_failed(&repo, "cargo test", 101), "s2"));
    assert!(session_end(&repo, "s2").starts_with("Digest stored on "));
    session_start(&repo, "s3", "resume");
    record(&repo, &of(bash_ok(&repo, "cargo test"), "s3"));
    assert!(session_end(&repo, "s3").starts_with("Digest stored on "));
    // A session with no tool calls stores nothing.
    session_start(&repo, "s4", "startup");
    let ended = session_end(&repo, "s4");
    assert!(
        ended.starts_with("Nothing written: no tool calls recorded in this session"),
        "{ended}"
    );

    assert_eq!(repo.head(), note, "no session moved HEAD");
    let stored = repo.git_text(["notes", "--ref=handoff", "show", &note]);
    assert_eq!(stored.matches("kind = \"agent\"").count(), 1, "{stored}");
    assert_eq!(stored.matches("kind = \"digest\"").count(), 2, "{stored}");
    // The note is still the handoff, and the last check since is the latest session's.
    let show: Value =
        serde_json::from_str(&stdout_ok(repo.handoff().args(["show", "--json"]).output().unwrap()))
            .unwrap();
    assert_eq!(show["record"]["kind"], "agent");
    assert_eq!(show["since"]["check"]["result"], "passed", "{show}");
    let log = stdout_ok(repo.handoff().args(["log", "--oneline"]).output().unwrap());
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 3, "{log}");
    assert!(lines[0].contains("digest") && lines[0].ends_with("session s3"), "{log}");
    assert!(lines[1].contains("digest") && lines[1].ends_with("session s2"), "{log}");
    assert!(lines[2].contains("agent") && lines[2].ends_with("session s1"), "{log}");
}

#[test]
fn a_session_without_a_note_continues_its_attempt() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    let started: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["start", "--issue", "7", "--json"]).output().unwrap(),
    ))
    .unwrap();
    session_start(&repo, "s1", "startup");
    session_start(&repo, "s1", "compact");
    let state = std::fs::read_to_string(repo.path.join(".git/handoff/attempt.toml")).unwrap();
    assert!(state.contains(started["started_at"].as_str().unwrap()), "{state}");
    assert!(!repo.path.join(".git/handoff/archive").exists());
    // No note exists, so nothing was recorded as a new attempt's beginning.
    let notes = repo.git_cmd(["notes", "--ref=handoff", "list"]).output().unwrap();
    assert!(notes.stdout.is_empty());
}
