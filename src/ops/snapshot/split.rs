//! The snapshot on a large tree: `git status` split in two halves that run beside the diff.
//!
//! The three git commands are bound by CPU: status stats every tracked file and reads every
//! directory for untracked files, `git diff <base>` stats every tracked file again and diffs the
//! blobs. Run as two processes on two cores, status (the longer) sets the time. Split in three,
//! `git status --short -uno` (the tracked changes), `git ls-files --others --exclude-standard` (the
//! untracked walk) and `git diff --stat <base>` share the cores evenly, and the snapshot ends
//! sooner (see `bench/table.sh`). git prints the tracked lines before the untracked ones, each part
//! sorted, so the two halves joined are status's output, with the untracked paths quoted as status
//! quotes them (`quote_path` with `QUOTE_PATH_QUOTE_SP`).
//!
//! Measured and left: the diff taken between HEAD's tree edited at the paths status reported and
//! the base (no second walk) loses on trees with large directories, whose edited trees must be
//! hashed and written; a private index brought up to date with `git update-index` costs two reads
//! and a write of the index after status, which is more than the walk it saves on two cores.
//!
//! Where the halves could print other bytes than status (submodules, whose untracked content `-uno`
//! hides; conflicts; sparse or split indexes; colour; config given on the command line, which gix
//! does not read; an unknown `status.showUntrackedFiles`), the snapshot runs status whole.

use std::thread;

use anyhow::Result;

use crate::git::Git;
use crate::git::index_scan;
use crate::git::quote::quote_status_path;
use crate::git::repo::Repo;

/// From this index size up (about 2,500 entries) the split pays for its extra git start and index
/// read; below it status runs whole.
pub(super) const MIN_INDEX_BYTES: u64 = 256 * 1024;

/// Overrides the choice by size: `split` or `two` (status whole beside the diff), for tests and
/// benchmarks.
pub(super) const WALKS_ENV: &str = "GIT_HANDOFF_SNAPSHOT_WALKS";

/// How status lists untracked files (`status.showUntrackedFiles`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Untracked {
    No,
    Normal,
    All,
}

/// What the split needs to know, decided before any git starts.
#[derive(Debug)]
pub(super) struct Plan {
    untracked: Untracked,
    quote_path_fully: bool,
}

/// The plan for splitting status in `repo`, or `None` to run it whole.
pub(super) fn chosen(repo: &Repo) -> Option<Plan> {
    let index = repo.index_path().ok()?;
    let wanted = match std::env::var(WALKS_ENV).as_deref() {
        Ok("split") => true,
        Ok("two") => false,
        _ => std::fs::metadata(&index).ok()?.len() >= MIN_INDEX_BYTES,
    };
    let from_command_line =
        ["GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"].iter().any(|k| std::env::var_os(k).is_some());
    if !wanted || from_command_line {
        return None;
    }
    let config = repo.gix.config_snapshot();
    let always = |key: &str| config.string(key).is_some_and(|v| v.eq_ignore_ascii_case(b"always"));
    let colour = match config.string("color.status") {
        Some(_) => always("color.status"),
        None => always("color.ui"),
    };
    if colour {
        return None;
    }
    let setting = config.string("status.showUntrackedFiles").map(|v| v.to_ascii_lowercase());
    let untracked = match setting.as_deref() {
        None => Untracked::Normal,
        Some(b"no" | b"false" | b"off" | b"0") => Untracked::No,
        Some(b"normal" | b"true" | b"yes" | b"on" | b"1") => Untracked::Normal,
        Some(b"all") => Untracked::All,
        Some(_) => return None,
    };
    if index_scan::scan(&index, repo.gix.object_hash())?.special {
        return None;
    }
    let quote_path_fully = config.boolean("core.quotePath").unwrap_or(true);
    Some(Plan { untracked, quote_path_fully })
}

/// `git status --short` (`status_args`, which end in `--short`), from its two halves run at once.
pub(super) fn status(git: &Git, plan: &Plan, status_args: &[String]) -> Result<Vec<u8>> {
    let (tracked, untracked) = thread::scope(|s| {
        let untracked = s.spawn(|| untracked_lines(git, plan));
        let mut args = status_args.to_vec();
        args.push("-uno".into());
        (super::run_git(git, &args), super::join(untracked))
    });
    let mut status = tracked?;
    status.extend_from_slice(&untracked?);
    Ok(status)
}

/// The `?? path` lines status prints for untracked files.
fn untracked_lines(git: &Git, plan: &Plan) -> Result<Vec<u8>> {
    let mut args = vec!["ls-files", "-z", "--others", "--exclude-standard"];
    match plan.untracked {
        Untracked::No => return Ok(Vec::new()),
        Untracked::Normal => args.extend(["--directory", "--no-empty-directory"]),
        Untracked::All => {}
    }
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let listed = super::run_git(git, &args)?;
    let mut lines = Vec::with_capacity(listed.len() + listed.len() / 8);
    for path in listed.split(|&b| b == 0).filter(|p| !p.is_empty()) {
        lines.extend_from_slice(b"?? ");
        lines.extend_from_slice(&quote_status_path(path, plan.quote_path_fully));
        lines.push(b'\n');
    }
    Ok(lines)
}
