//! A cloned repository is untrusted, continued: a FIFO or a device where git-handoff reads a file
//! is refused at once (and the hard-limit path completes without it), a configuration's patterns
//! cannot make a hook slow, and control characters in a record fetched from another clone are
//! shown escaped, never sent to the terminal or the model.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::common;

use common::payloads::bash_ok;
use common::{Env, Repo, stdout_ok};
use common::{STARTED, started, stderr};

/// Runs `cmd` with `stdin`, and fails the test if it has not ended within `secs` (killing it).
pub fn within(mut cmd: Command, stdin: &[u8], secs: u64) -> Output {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    std::thread::spawn(move || input.write_all(&stdin));
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!("{cmd:?} did not end within {secs} s");
        }
    }
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

fn handoff(repo: &Repo, args: &[&str]) -> Command {
    let mut cmd = repo.handoff();
    cmd.args(args);
    cmd
}

#[test]
fn a_special_configuration_is_refused_at_once_by_every_command() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    let payload = bash_ok(&repo, "cargo test").to_string();
    for (make, kind) in [
        (&(|p: &Path| mkfifo(p)) as &dyn Fn(&Path), "FIFO"),
        (&|p: &Path| std::os::unix::fs::symlink("/dev/zero", p).unwrap(), "character device"),
    ] {
        let config = repo.path.join(".handoff.toml");
        let _ = std::fs::remove_file(&config);
        make(&config);
        // `record` runs on every tool call, and `recall` at every session start: they end at
        // once, with the defaults, saying why.
        for (args, stdin) in [(&["record"][..], payload.as_bytes()), (&["recall"], b"")] {
            let out = within(handoff(&repo, args), stdin, 10);
            assert_eq!(out.status.code(), Some(0), "{out:?}");
            let err = stderr(&out);
            assert!(err.contains(".handoff.toml") && err.contains(kind), "{err}");
            assert!(err.contains("the whole file: the defaults") && err.contains("rm "), "{err}");
        }
        for args in [&["snapshot"][..], &["show"], &["progress", "show"], &["digest"]] {
            let out = within(handoff(&repo, args), b"", 10);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
            assert!(stderr(&out).contains(kind), "{args:?}: {}", stderr(&out));
        }
    }
}

#[test]
fn a_fifo_at_the_rules_path_leaves_the_rules_out_of_recall() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    repo.write("s.toml", "goal = \"Fix the parser\"\n");
    stdout_ok(repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap());
    mkfifo(&repo.path.join(".agent/rules.md"));
    let out = within(handoff(&repo, &["recall"]), b"", 10);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Fix the parser"), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("rules") && err.contains("FIFO") && err.contains("left out"), "{err}");
}

#[test]
fn the_hard_limit_path_completes_past_a_fifo_at_the_note_path() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    let note = repo.path.join(".agent/handoff/12.md");
    mkfifo(&note);
    repo.write("work.rs", "fn half_done() {}\n");
    let out = within(handoff(&repo, &["seal"]), b"", 20);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stderr(&out).contains("FIFO"), "{}", stderr(&out));
    let sealed = repo.git_text(["show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(sealed.trim(), "work.rs");

    let facts = repo.path.join("facts.json");
    mkfifo(&facts);
    let args = ["note", "--emergency", "--reason", "time_limit", "--facts", "facts.json"];
    let out = within(handoff(&repo, &args), b"", 20);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("the note is a FIFO") && err.contains("facts file is a FIFO"), "{err}");
    let head = repo.git_text(["log", "-1", "--format=%s"]);
    assert!(head.starts_with("Handoff note: issue #12"), "{head}");
    assert!(std::fs::read_to_string(&note).unwrap().contains("issue: 12"));

    // The committed note replaced by a FIFO: `git add -A` refuses it, seal leaves it out.
    std::fs::remove_file(&note).unwrap();
    mkfifo(&note);
    repo.write("more.rs", "fn more() {}\n");
    let out = within(handoff(&repo, &["seal"]), b"", 20);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stderr(&out).contains("FIFO"), "{}", stderr(&out));
    let sealed = repo.git_text(["show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(sealed.trim(), "more.rs");
}

#[test]
fn a_fifo_as_the_note_or_summary_given_is_an_error_at_once() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    mkfifo(&repo.path.join("pipe"));
    for args in [&["note", "--from", "pipe"][..], &["note", "--summary", "pipe"]] {
        let out = within(handoff(&repo, args), b"", 10);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(stderr(&out).contains("FIFO"), "{}", stderr(&out));
    }
}

/// `n` valid patterns for `key` (`secrets` or `redact`).
fn patterns(key: &str, n: usize) -> String {
    let list: Vec<String> = (0..n).map(|i| format!("'CORP{i}_[A-Z0-9]{{20}}'")).collect();
    format!("[{key}]\npatterns = [{}]\n", list.join(", "))
}

#[test]
fn configured_patterns_are_capped_and_record_stays_quick() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    let payload = bash_ok(&repo, "echo CORP3_ABCDEFGHIJ0123456789").to_string();
    // At the cap: taken, and it redacts.
    repo.write(".handoff.toml", patterns("redact", 64));
    let out = within(handoff(&repo, &["record"]), payload.as_bytes(), 10);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let log = String::from_utf8(repo.read(".git/handoff/events.jsonl")).unwrap();
    assert!(log.contains("[redacted:pattern]") && !log.contains("CORP3_ABC"), "{log}");

    // 200 of them: a config error naming the key, at once; record goes on with the first 64.
    for key in ["redact", "secrets"] {
        repo.write(".handoff.toml", patterns(key, 200));
        let start = std::time::Instant::now();
        let out = within(handoff(&repo, &["record"]), payload.as_bytes(), 10);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
        let err = stderr(&out);
        assert!(err.contains(&format!(".handoff.toml:2: {key}.patterns holds 200")), "{err}");
        assert!(err.contains(&format!("`{key}.patterns[64..=199]`")), "{err}");
        let out = within(handoff(&repo, &["snapshot"]), b"", 10);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
    }
    // Long lists the hooks would go through on every event: capped too.
    let globs: Vec<String> = (0..300).map(|i| format!("'*.s{i}'")).collect();
    repo.write(".handoff.toml", format!("[secrets]\nfiles = [{}]\n", globs.join(", ")));
    let out = within(handoff(&repo, &["record"]), payload.as_bytes(), 10);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stderr(&out).contains("secrets.files holds 300 entries"), "{}", stderr(&out));
    let out = within(handoff(&repo, &["snapshot"]), b"", 10);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    // Few patterns that compile large: refused by their compiled size, naming the key.
    repo.write(".handoff.toml", "[secrets]\npatterns = ['\\w{60}', '\\pL{50}']\n");
    let out = within(handoff(&repo, &["snapshot"]), b"", 10);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("secrets.patterns") && stderr(&out).contains("KiB"));
    // The seal goes on without the pattern that does not fit, and says so.
    let out = within(handoff(&repo, &["seal"]), b"", 10);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stderr(&out).contains("`secrets.patterns[0..=1]`"), "{}", stderr(&out));
}

/// What a terminal or a model must never receive raw.
fn assert_no_controls(what: &str, text: &str) {
    let raw =
        text.chars().find(|c| (c.is_control() && *c != '\n' && *c != '\t') || *c == '\u{202e}');
    assert!(raw.is_none(), "{what} passes {raw:?} on:\n{text}");
}

#[test]
fn escape_sequences_in_a_synced_record_are_shown_escaped() {
    let env = Env::new();
    let seed = env.repo("seed");
    seed.write("README", "base\n");
    seed.commit_all("base");
    let remote = env.root.path().join("remote.git");
    seed.git(["init", "-q", "--bare", "-b", "main", remote.to_str().unwrap()]);
    let url = format!("file://{}", remote.display());
    seed.git(["push", "-q", &url, "main"]);
    let clone = |name: &str| {
        let path = env.root.path().join(name);
        seed.git(["clone", "-q", &url, path.to_str().unwrap()]);
        seed.at(path)
    };
    let (theirs, ours) = (clone("theirs"), clone("ours"));
    let args = ["start", "--issue", "7", "--started-at", STARTED];
    stdout_ok(theirs.handoff().args(args).output().unwrap());
    theirs.write("s.toml", "goal = \"Fix it\"\ndone = [\"Rewrote it\"]\n");
    stdout_ok(theirs.handoff().args(["note", "--summary", "s.toml"]).output().unwrap());
    // The other clone's record, rewritten by hand with OSC, CSI, BEL, C1 and a bidi override.
    let hostile = r#"\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e"#;
    let record = theirs.git_text(["notes", "--ref=handoff", "show", "HEAD"]);
    let record = record
        .replace("goal = \"Fix it\"", &format!("goal = \"Fix {hostile} it\""))
        .replace("item = \"Rewrote it\"", &format!("item = \"Rewrote {hostile} it\""))
        .replace("digest_line = \"", &format!("digest_line = \"{hostile}"));
    theirs.write("record.toml", &record);
    theirs.git(["notes", "--ref=handoff", "add", "-f", "-F", "record.toml", "HEAD"]);
    theirs.git(["push", "-q", "origin", "HEAD:refs/heads/topic"]);
    stdout_ok(theirs.handoff().arg("sync").output().unwrap());

    ours.git(["fetch", "-q", "origin", "topic"]);
    ours.git(["checkout", "-q", "-b", "topic", "FETCH_HEAD"]);
    stdout_ok(ours.handoff().arg("sync").output().unwrap());
    for args in [
        &["show"][..],
        &["show", "--color", "always"],
        &["log"],
        &["log", "--oneline"],
        &["recall"],
        &["recall", "--hook", "claude", "--source", "resume"],
    ] {
        let out = within(handoff(&ours, args), b"{}", 10);
        let text = stdout_ok(out);
        let shown = match args.contains(&"--hook") {
            true => {
                let answer: serde_json::Value = serde_json::from_str(&text).unwrap();
                answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_string()
            }
            false => text,
        };
        let shown = strip_own_styles(&shown);
        assert_no_controls(&format!("{args:?}"), &shown);
        // The one-line form shows neither the goal nor the digest line.
        let escaped = shown.contains(r"\x1b]0;pwned\x07\x1b[2J\u{9b}31m\u{202e}");
        assert!(escaped || args == ["log", "--oneline"], "{args:?}: {shown}");
    }
    // The agent tool's reply goes into the model's context too.
    let messages = [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "handoff_recall", "arguments": {}}}),
    ];
    let input: String = messages.iter().map(|m| format!("{m}\n")).collect();
    let out = stdout_ok(within(handoff(&ours, &["mcp"]), input.as_bytes(), 10));
    let answer: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert_no_controls("handoff_recall", text);
    assert!(text.contains(r"\x1b]0;pwned\x07\x1b[2J\u{9b}31m\u{202e}"), "{text}");
    // JSON stays JSON: the text as it is, escaped by the JSON writer.
    let json = stdout_ok(ours.handoff().args(["show", "--json"]).output().unwrap());
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let goal = value["record"]["summary"]["goal"].as_str().unwrap();
    assert_eq!(goal, "Fix \x1b]0;pwned\x07\x1b[2J\u{9b}31m\u{202e} it");
}

/// `text` without the styles git-handoff itself writes (`ESC[...m` of bold, dim and colours).
fn strip_own_styles(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let end = tail.find(|c: char| !(c.is_ascii_digit() || c == ';')).unwrap_or(tail.len());
        match tail[end..].starts_with('m') {
            true => rest = &tail[end + 1..],
            false => {
                out.push_str("\x1b[");
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}
