//! The binary's own start (src/main.rs): on glibc Linux it starts without std's run-time set-up
//! and does what the commands need of it itself. Output into a closed pipe ends the output, not
//! the process (SIGPIPE ignored), and a standard descriptor the caller closed is opened on
//! `/dev/null` before anything else is, so no file the command opens becomes its stdout.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Env, hermetic, path_with_binary};

#[test]
fn output_into_a_closed_pipe_ends_quietly_with_exit_0() {
    let env = Env::new();
    let repo = env.repo("r");
    // Rust starts children with SIGPIPE at its default, which kills a process that writes into a
    // pipe nobody reads: the binary must ignore it itself. The read end is closed before the
    // child starts, so its first write fails.
    for args in [&["completions", "bash"][..], &["--help"][..], &["snapshot"][..]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let status = repo.handoff().args(args).stdout(writer).stderr(Stdio::null()).status();
        let status = status.unwrap();
        assert_eq!(status.code(), Some(0), "git-handoff {args:?} into a closed pipe: {status}");
    }
}

#[test]
#[cfg(target_os = "linux")] // /proc shows the descriptors
fn a_closed_stdout_is_opened_on_dev_null_first() {
    let env = Env::new();
    let repo = env.repo("r");
    // `exec ... >&-`: the server starts with no descriptor 1 and waits on stdin, which is kept
    // open here. Left closed, descriptor 1 would be the first file the server opens (the
    // repository's config, say), and what it prints would go into that file.
    let mut sh = Command::new("sh");
    hermetic(&mut sh, env.home().as_path());
    sh.current_dir(&repo.path).env("PATH", path_with_binary());
    let mut child = sh
        .args(["-c", "exec git-handoff mcp >&-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let fd1 = format!("/proc/{}/fd/1", child.id());
    let exe = format!("/proc/{}/exe", child.id());
    let deadline = Instant::now() + Duration::from_secs(20);
    let target = loop {
        let started = std::fs::read_link(&exe).is_ok_and(|e| e.ends_with("git-handoff"));
        match std::fs::read_link(&fd1) {
            Ok(target) if started => break Some(target),
            _ if Instant::now() > deadline => break None,
            _ => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    // End the server (end of its input) before judging, so a failure leaves no process behind.
    drop(child.stdin.take());
    let status = child.wait().unwrap();
    assert_eq!(target.as_deref(), Some(std::path::Path::new("/dev/null")));
    assert_eq!(status.code(), Some(0), "the server ends at the end of its input: {status}");
}
