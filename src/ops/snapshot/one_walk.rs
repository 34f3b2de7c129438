//! `git diff --stat <base>` without a second walk of the work tree.
//!
//! On a large tree, `git status` and `git diff <base>` each stat every tracked file (and status
//! also reads every directory): the snapshot paid for the work tree twice. Status already names
//! every tracked path whose work-tree side differs from the index, so a private copy of the index
//! (a hard link: git replaces index files by rename, never in place) brought up to date for just
//! those paths with `git update-index --add --remove` holds what `git add -u` would stage, and
//! `git diff --stat --cached <base>` on it prints what `git diff --stat <base>` prints, without
//! looking at the work tree again. Both are git's own diff under the caller's config, so rename
//! detection, widths and the summary line are unchanged.
//!
//! Where the status lines do not say enough (unmerged paths, a submodule with modified or
//! untracked content, coloured or unparseable output), this path declines and the snapshot runs
//! `git diff --stat <base>` as before. The real index is never written.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::git::quote;
use crate::git::{self, Git, plumbing};

/// From this index size up (about 2,500 entries) one walk beats two on two cores; below it the
/// three git commands run side by side instead, which is quicker on small trees.
pub(super) const MIN_INDEX_BYTES: u64 = 256 * 1024;

/// Overrides the choice by size: `one` or `two` walks (for tests and benchmarks).
pub(super) const WALKS_ENV: &str = "GIT_HANDOFF_SNAPSHOT_WALKS";

/// The index to copy when one walk is worth it here, `None` to walk twice.
pub(super) fn chosen(index: &Path) -> Option<PathBuf> {
    let size = fs::metadata(index).ok()?.len();
    let wanted = match std::env::var(WALKS_ENV).as_deref() {
        Ok("one") => true,
        Ok("two") => false,
        _ => size >= MIN_INDEX_BYTES,
    };
    wanted.then(|| index.to_path_buf())
}

/// `git diff --stat` output for `diff_args` (`diff --stat <base> --`) computed on a private index
/// updated from `status` (the bytes of `git status --short`). `Ok(None)` when the status lines do
/// not allow it; the caller then runs the diff on the work tree.
pub(super) fn diff_stat(
    git: &Git,
    git_dir: &Path,
    index: &Path,
    status: &[u8],
    diff_args: &[String],
) -> Result<Option<Vec<u8>>> {
    let Some(paths) = worktree_paths(status) else { return Ok(None) };
    let Some(private) = PrivateIndex::link(git_dir, index)? else { return Ok(None) };
    if !paths.is_empty() {
        let mut input = Vec::new();
        for path in &paths {
            input.extend_from_slice(path);
            input.push(0);
        }
        // The copy is thrown away: no checksum to compute, and never a split index.
        let args = [
            "-c",
            "index.skipHash=true",
            "-c",
            "core.splitIndex=false",
            "update-index",
            "--add",
            "--remove",
            "-z",
            "--stdin",
        ];
        let mut cmd = private.command(git, args);
        plumbing::run_with_input(&mut cmd, &input)
            .context("bringing a private copy of the index up to date for `git diff --stat`")?;
    }
    let mut args: Vec<String> = diff_args.to_vec();
    args.insert(2, "--cached".into());
    let mut cmd = private.command(git, &args);
    let output = git::run(&mut cmd)?;
    git::checked(&cmd, output).map(Some)
}

/// The tracked paths whose work-tree side `git status --short` reports as changed, or `None` when
/// a line is one the private index cannot stand for.
pub(super) fn worktree_paths(status: &[u8]) -> Option<Vec<Vec<u8>>> {
    if status.contains(&0x1b) {
        // Colour codes (color.status=always): not the plain lines parsed here.
        return None;
    }
    let mut paths = Vec::new();
    for line in status.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        if line.starts_with(b"## ") {
            continue; // status.branch
        }
        let [x, y, b' ', rest @ ..] = line else { return None };
        match (x, y) {
            (b'?', b'?') | (b'!', b'!') => continue,
            (b'U', _) | (_, b'U') | (b'D', b'D') | (b'A', b'A') => return None,
            (_, b' ') => continue,
            (_, b'M' | b'T' | b'D' | b'A' | b'R' | b'C') => {}
            // `m` and `?`: a submodule's modified or untracked content, which `git diff` shows
            // as `-dirty` and the index cannot hold; anything else is a letter we do not know.
            _ => return None,
        }
        if matches!(x, b'R' | b'C') || matches!(y, b'R' | b'C') {
            let (from, to) = split_rename(rest)?;
            if matches!(y, b'R' | b'C') {
                paths.push(from);
            }
            paths.push(to);
        } else {
            paths.push(quote::unquote(rest)?);
        }
    }
    Some(paths)
}

/// `from -> to` of a rename or copy line, each side possibly quoted.
fn split_rename(rest: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    const ARROW: &[u8] = b" -> ";
    let (from, after) = if rest.first() == Some(&b'"') {
        let (from, after) = quote::unquote_prefix(rest)?;
        (from, after.strip_prefix(ARROW)?)
    } else {
        let at = rest.windows(ARROW.len()).position(|w| w == ARROW)?;
        (rest[..at].to_vec(), &rest[at + ARROW.len()..])
    };
    Some((from, quote::unquote(after)?))
}

/// A hard link to the index in a temporary directory of the git dir, removed on drop.
struct PrivateIndex {
    file: PathBuf,
    _dir: tempfile::TempDir,
}

impl PrivateIndex {
    /// `None` when the file system cannot link (the caller then walks twice).
    fn link(git_dir: &Path, index: &Path) -> Result<Option<PrivateIndex>> {
        let dir = tempfile::Builder::new()
            .prefix("handoff-snapshot-")
            .tempdir_in(git_dir)
            .with_context(|| format!("creating a temporary directory in {}", git_dir.display()))?;
        let file = dir.path().join("index");
        match fs::hard_link(index, &file) {
            Ok(()) => Ok(Some(PrivateIndex { file, _dir: dir })),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(_) => Ok(None),
        }
    }

    fn command<I, S>(&self, git: &Git, args: I) -> std::process::Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut cmd = git.command(args);
        cmd.env("GIT_INDEX_FILE", &self.file).env("GIT_OPTIONAL_LOCKS", "0");
        cmd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(status: &str) -> Option<Vec<String>> {
        worktree_paths(status.as_bytes())
            .map(|ps| ps.into_iter().map(|p| String::from_utf8(p).unwrap()).collect())
    }

    #[test]
    fn worktree_side_changes_are_listed() {
        let status = " M a.rs\nM  staged.rs\nMM both.rs\n D gone\n T link\n A ita.txt\n\
                      ?? new/\n!! ignored\nR  old -> new\nRM \"o l d\" -> \"n e w\"\n \
                      R was -> now\n \"\\303\\274 x\"\n";
        assert_eq!(paths(status), None, "a line without its two letters is not understood");
        let status = " M a.rs\nM  staged.rs\nMM both.rs\n D gone\n T link\n A ita.txt\n\
                      ?? new/\n!! ignored\nR  old -> new\nRM \"o l d\" -> \"n e w\"\n \
                      R was -> now\n M \"\\303\\274 x\"\n## main\n";
        assert_eq!(
            paths(status).unwrap(),
            ["a.rs", "both.rs", "gone", "link", "ita.txt", "n e w", "was", "now", "ü x"]
        );
    }

    #[test]
    fn what_the_index_cannot_hold_declines() {
        for status in
            ["UU conflict\n", "AA both-added\n", "DD both-deleted\n", " m sub\n", " ? sub\n"]
        {
            assert_eq!(paths(status), None, "{status:?}");
        }
        assert_eq!(paths("\x1b[31m M\x1b[m a\n"), None);
        assert_eq!(paths(" M \"unterminated\n"), None);
        assert_eq!(paths("").unwrap(), Vec::<String>::new());
    }
}
