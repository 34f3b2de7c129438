//! Issue 56 item 4: every kill leaves either nothing or the whole result, and the next run of the
//! same command completes it. `note --emergency` killed with its whole process group (as a
//! runtime kills an agent) never leaves an `index.lock` that blocks its retry or the seal; one
//! killed between its note commit and its record gets the record from the retry; a killed
//! `start` leaves no temporary file in the archive; a retried `recall --hook` records its
//! SessionStart once.

use std::os::unix::process::CommandExt;
use std::process::Stdio;
use std::time::Duration;

use crate::common::{Env, Repo, Rng, started, stderr, stdout_ok};

const EMERGENCY: [&str; 4] = ["note", "--emergency", "--reason", "token_hard_limit"];

fn record_on(repo: &Repo, commit: &str) -> String {
    let out = repo.git_cmd(["notes", "--ref=refs/notes/handoff", "show", commit]).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The note commit at HEAD holds the emergency note, its record is on it, nothing blocks git.
fn assert_whole(repo: &Repo, what: &str) {
    assert!(!repo.path.join(".git/index.lock").exists(), "{what}: index.lock left");
    let status = repo.git_cmd(["status", "--porcelain"]).output().unwrap();
    assert!(status.status.success(), "{what}: {}", stderr(&status));
    assert_eq!(repo.git_text(["log", "-1", "--format=%s"]), "Handoff note: issue #3", "{what}");
    let record = record_on(repo, "HEAD");
    assert!(record.contains("emergency"), "{what}: no record: {record}");
    let staged = repo.git_text(["diff", "--cached", "--name-only"]);
    assert_eq!(staged, "", "{what}: the index is not HEAD's");
}

#[test]
fn an_emergency_note_killed_before_its_record_gets_it_from_the_retry() {
    let env = Env::new();
    let repo = started(&env, "r", 3);
    repo.write("work.txt", "w\n");
    stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    stdout_ok(repo.handoff().args(EMERGENCY).output().unwrap());
    let note = repo.head();
    let first = record_on(&repo, &note);
    // The state a kill between the commit and the record leaves.
    repo.git(["notes", "--ref=refs/notes/handoff", "remove", &note]);
    let out = stdout_ok(repo.handoff().args(EMERGENCY).output().unwrap());
    assert!(out.contains("Emergency handoff note saved in"), "{out}");
    assert_eq!(repo.head(), note, "the retry completes, it does not note again");
    assert_whole(&repo, "retry");
    // The same record as the run that was killed would have written, but for when.
    let without_time = |record: &str| -> String {
        record.lines().filter(|l| !l.starts_with("written_at")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(without_time(&record_on(&repo, &note)), without_time(&first));
    // Whole now: a third run changes nothing.
    let out = stdout_ok(repo.handoff().args(EMERGENCY).output().unwrap());
    assert!(out.contains("already exists"), "{out}");
}

#[test]
fn emergency_notes_killed_with_their_process_group_are_completed_by_the_retry() {
    let env = Env::new();
    let mut rng = Rng::new(56);
    for run in 0..12 {
        let repo = started(&env, &format!("r{run}"), 3);
        repo.write(format!("work-{run}.txt"), "w\n");
        stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
        let mut cmd = repo.handoff();
        cmd.args(EMERGENCY).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
        let child = cmd.spawn().unwrap();
        let group = child.id() as libc::pid_t;
        std::thread::sleep(Duration::from_millis(rng.below(120) as u64));
        let signal = if run % 3 == 2 { libc::SIGTERM } else { libc::SIGKILL };
        // SAFETY: signals the process group our own child leads.
        unsafe { libc::kill(-group, signal) };
        let out = child.wait_with_output().unwrap();
        let said = stderr(&out);
        if out.status.code() == Some(0)
            || repo.git_text(["log", "-1", "--format=%s"]).contains("note")
        {
            // A run that got past its commit never tells the user to mend what it committed.
            assert!(!said.contains("git reset"), "run {run}: {said}");
        }
        let retry = repo.handoff().args(EMERGENCY).output().unwrap();
        assert_eq!(retry.status.code(), Some(0), "run {run}: {}", stderr(&retry));
        assert_whole(&repo, &format!("run {run}"));
        stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    }
}

#[test]
fn temporary_files_of_a_killed_start_never_stay_in_the_archive() {
    let env = Env::new();
    let repo = started(&env, "r", 3);
    let handoff = repo.path.join(".git/handoff");
    // A writer killed mid-write (a pid that is gone), and one from a build that archived them.
    std::fs::write(handoff.join(".handoff-tmp-999999999-abc"), "half").unwrap();
    let old_archive = handoff.join("archive/2026-01-01T00-00-00Z");
    std::fs::create_dir_all(&old_archive).unwrap();
    std::fs::write(old_archive.join(".handoff-tmp-999999999-def"), "half").unwrap();
    let args = ["start", "--issue", "4", "--started-at", "2026-12-01T00:00:00Z"];
    stdout_ok(repo.handoff().args(args).output().unwrap());
    let mut left = Vec::new();
    for dir in std::fs::read_dir(handoff.join("archive")).unwrap().flatten() {
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            left.push(file.file_name().to_string_lossy().into_owned());
        }
    }
    assert!(!left.iter().any(|n| n.starts_with(".handoff-tmp-")), "{left:?}");
    assert!(!handoff.join(".handoff-tmp-999999999-abc").exists());
}

#[test]
fn a_retried_session_start_hook_records_its_start_once() {
    let env = Env::new();
    let repo = started(&env, "r", 3);
    let payload = serde_json::json!({"session_id": "s1", "source": "startup",
        "hook_event_name": "SessionStart", "cwd": repo.path.to_str().unwrap()});
    for _ in 0..2 {
        let mut hook = repo.handoff();
        hook.args(["recall", "--hook", "claude"]);
        let out = crate::hostile_io::within(hook, payload.to_string().as_bytes(), 30);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let log = std::fs::read_to_string(repo.path.join(".git/handoff/events.jsonl")).unwrap();
    assert_eq!(log.matches("SessionStart").count(), 1, "{log}");
}
