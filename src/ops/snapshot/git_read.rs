//! How the snapshot runs git: read-only commands whose output is checked, whether git could
//! colour a command's output, and its worker threads joined.

use std::process::Command;

use anyhow::{Result, anyhow};

use crate::git::{self, Git};

pub fn run_git(git: &Git, args: &[String]) -> Result<Vec<u8>> {
    let mut cmd = git_command(git, args);
    let output = git::run(&mut cmd)?;
    git::checked(&cmd, output)
}

/// A git command of the snapshot's: it only reads. Status must not write the refreshed index
/// back (it would take index.lock from under a concurrent git of the agent's, and costs time).
/// The output is the same either way.
pub fn git_command<S: AsRef<std::ffi::OsStr>>(git: &Git, args: &[S]) -> Command {
    let mut cmd = git.command(args);
    cmd.env("GIT_OPTIONAL_LOCKS", "0");
    cmd
}

/// Whether git could colour a command's output: one of its colour `keys` (`color.diff` and its
/// older synonym `diff.color`, say, then `color.ui`) set to `always`, or a pager git started
/// (`GIT_PAGER_IN_USE`), under which `auto`, the default, colours a pipe too. Parts of a
/// command's output put together by us would lose that colour, so the command then runs whole.
pub fn colour_possible(config: &gix::config::Snapshot<'_>, keys: &[&str]) -> bool {
    let always =
        |key: &&str| config.string(*key).is_some_and(|v| v.eq_ignore_ascii_case(b"always"));
    keys.iter().any(always) || std::env::var_os("GIT_PAGER_IN_USE").is_some()
}

pub fn join<T>(handle: std::thread::ScopedJoinHandle<'_, Result<T>>) -> Result<T> {
    handle.join().map_err(|_| anyhow!("a snapshot worker thread panicked"))?
}
