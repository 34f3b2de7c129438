//! A note in the notes ref that is not a record list (hand-written, or fetched from elsewhere) is
//! skipped by every reader, never silently: `show`, `log`, `recall` and `note --digest-only` print
//! one warning for it on stderr, after their output and also when the command fails, and the
//! `handoff_recall` agent tool appends it to its reply.

use std::io::Write;
use std::process::{Output, Stdio};

use crate::common;

use common::payloads::{edit, record};
use common::stderr;
use common::{Env, Repo, stdout_ok};
use serde_json::{Value, json};

/// A repository whose note commit for issue 5 carries its record, and also a note that is not a
/// record in a remote-tracking copy of the notes ref (which readers look in too).
fn with_a_foreign_note(env: &Env) -> (Repo, String) {
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "5"]).output().unwrap());
    repo.write("s.toml", "goal = \"Fix it\"\ndone = [\"Rewrote it\"]\n");
    stdout_ok(repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap());
    std::fs::remove_file(repo.path.join("s.toml")).unwrap();
    let note_commit = repo.head();
    repo.git(["notes", "--ref=refs/notes/remotes/origin/handoff", "add", "-m", "not a record"]);
    (repo, note_commit)
}

/// The one warning line every reader prints for the foreign note on `commit`.
fn warning_line(commit: &str, out: &Output) -> String {
    let err = stderr(out);
    let prefix =
        format!("warning: refs/notes/remotes/origin/handoff:{commit}: not a git-handoff record: ");
    assert!(err.starts_with(&prefix), "{err}");
    assert!(err.ends_with("; skipped\n"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn every_reader_warns_once_about_a_note_that_is_not_a_record() {
    let env = Env::new();
    let (repo, note_commit) = with_a_foreign_note(&env);

    let shown = repo.handoff().arg("show").output().unwrap();
    let line = warning_line(&note_commit, &shown);
    assert!(stdout_ok(shown).starts_with("Handoff: issue #5"));

    for args in [
        &["show", "--json"][..],
        &["log"],
        &["log", "--oneline"],
        &["log", "--json"],
        &["recall"],
        &["recall", "--source", "startup"],
        &["recall", "--json"],
    ] {
        let out = repo.handoff().args(args).output().unwrap();
        assert_eq!(stderr(&out), line, "{args:?}");
        assert!(!stdout_ok(out).is_empty(), "{args:?}");
    }

    // The agent tool reads the same warning at the end of its reply, after the recall itself.
    let mut child = repo
        .handoff()
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "handoff_recall", "arguments": {}}});
    child.stdin.take().unwrap().write_all(format!("{call}\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(stderr(&out), "");
    let answer: Value = serde_json::from_str(stdout_ok(out).trim()).unwrap();
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Handoff recall: Last handoff (") && text.contains("): issue #5"),
        "{text}"
    );
    assert!(text.ends_with(&format!("\n{}", line.trim_end())), "{text}");
    assert_eq!(text.matches("warning: ").count(), 1, "{text}");
    assert_eq!(answer["result"]["isError"], false);
}

#[test]
fn a_failing_show_still_warns_first() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "7"]).output().unwrap());
    // The branch's record key carries a note that is not a record; the branch holds no note.
    let key = {
        let mut git = repo.git_cmd(["hash-object", "-w", "--stdin"]);
        let mut child = git.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(b"git-handoff branch refs/heads/main\n").unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap().trim().to_string()
    };
    repo.git(["notes", "--ref=handoff", "add", "-m", "by hand", &key]);
    let warning = format!("warning: refs/notes/handoff:{key}: not a git-handoff record: ");

    let out = repo.handoff().arg("show").output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with(&warning) && lines[0].ends_with("; skipped"), "{err}");
    assert!(lines[1].starts_with("error: no handoff found for this branch"), "{err}");

    let out = repo.handoff().arg("recall").output().unwrap();
    let err = stderr(&out);
    assert!(err.starts_with(&warning) && err.ends_with("; skipped\n"), "{err}");
    assert_eq!(stdout_ok(out), "");
}

#[test]
fn a_digest_only_handoff_warns_when_it_writes_nothing() {
    let env = Env::new();
    let (repo, note_commit) = with_a_foreign_note(&env);
    // The record on the note commit itself replaced by a note that is not one.
    repo.git(["notes", "--ref=handoff", "add", "-f", "-m", "by hand", &note_commit]);
    repo.git(["update-ref", "-d", "refs/notes/remotes/origin/handoff"]);
    record(&repo, &edit(&repo, "a.txt"));
    let out = repo.handoff().args(["note", "--digest-only"]).stdin(Stdio::null()).output().unwrap();
    let err = stderr(&out);
    let warning = format!("warning: refs/notes/handoff:{note_commit}: not a git-handoff record: ");
    assert!(err.starts_with(&warning) && err.ends_with("; skipped\n"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let text = stdout_ok(out);
    let own = format!("Nothing written: the agent's note for issue #5 is in {note_commit}");
    assert!(text.starts_with(&own), "{text}");
}
