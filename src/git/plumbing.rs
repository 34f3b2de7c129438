//! Commit plumbing: `git commit-tree` without hooks or signing, and moving HEAD with a
//! compare-and-swap `git update-ref` (and undoing that move).

use std::io::{self, Write};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::git::{self, Git};

/// `git commit-tree`: no hooks, no signing, the message verbatim.
pub fn commit_tree(
    git: &Git,
    tree: &str,
    parent: Option<ObjectId>,
    message: &str,
    identity: &[(String, String)],
) -> Result<String> {
    let parent = parent.map(|p| p.to_string());
    let mut args = vec!["commit-tree", "--no-gpg-sign", tree];
    if let Some(parent) = &parent {
        args.extend(["-p", parent.as_str()]);
    }
    let mut cmd = git.command(&args);
    cmd.envs(identity.iter().map(|(k, v)| (k, v)));
    let out = run_with_input(&mut cmd, message.as_bytes()).context("git commit-tree")?;
    Ok(out.trim_ascii().to_str_lossy().into_owned())
}

/// Moves HEAD (its branch, or HEAD itself when detached) from `old` to `new`, only if it still
/// points at `old` (an unborn branch must still be unborn).
pub fn move_head(git: &Git, new: &str, old: Option<ObjectId>, reflog: &str) -> Result<()> {
    let old = old.map(|o| o.to_string()).unwrap_or_else(|| "0".repeat(new.len()));
    git.output(["update-ref", "-m", reflog, "HEAD", new, old.as_str()]).map(drop).with_context(
        || format!("moving HEAD from {old} to {new} failed (did HEAD move meanwhile?)"),
    )
}

/// Puts HEAD back where it was after a failure past [`move_head`].
pub fn undo_head(git: &Git, sealed: &str, old: Option<ObjectId>) -> Result<()> {
    match old {
        Some(old) => {
            let old = old.to_string();
            let args = ["update-ref", "-m", "handoff seal: undone", "HEAD", old.as_str(), sealed];
            git.output(args).map(drop)
        }
        None => git.output(["update-ref", "-d", "HEAD", sealed]).map(drop),
    }
}

/// Runs `cmd` with `input` on its stdin and returns stdout; a non-zero exit is an error.
pub fn run_with_input(cmd: &mut Command, input: &[u8]) -> Result<Vec<u8>> {
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().with_context(|| format!("running {}", git::describe(cmd)))?;
    let mut stdin = child.stdin.take().context("stdin of a child process")?;
    // The writer runs beside the reader so neither side can fill a pipe and wait on the other.
    let (output, written) = std::thread::scope(|s| {
        let writer = s.spawn(move || stdin.write_all(input));
        let output = child.wait_with_output();
        let written = writer.join().unwrap_or_else(|_| Err(io::Error::other("writer thread")));
        (output, written)
    });
    let output = output.with_context(|| format!("waiting for {}", git::describe(cmd)))?;
    let stdout = git::checked(cmd, output)?;
    // A failed write matters only when git did not fail first (then its message is the better one).
    written.with_context(|| format!("writing to {}", git::describe(cmd)))?;
    Ok(stdout)
}
