//! The tracked half of `git status --short`, from the narrowed diff's private index (see
//! [`narrowed_diff`](super::narrowed_diff)) instead of a status of the whole index.
//!
//! The narrowed diff is only made when the index is HEAD's tree (its cache tree says so): nothing
//! is staged, so every tracked line status prints is ` Y path`, where `Y` is what the diff of the
//! index against the work tree says of the path (`M`, `D` or `T`: status takes it from the same
//! `run_diff_files`). An entry can differ from the work tree only where the walk doubted it, and
//! every entry the walk doubted is in the narrowed diff's first part, with the real index's stat
//! data, dated as the real index (so git doubts the same racily clean entries). So
//! `git diff --name-status` on that part gives status's tracked lines; git reads a few hundred
//! entries instead of the whole index. On tc39/test262 (57k entries, 8 MB of index) the status it
//! replaces read the private index for 25-30 ms, most of what the snapshot waited for after the
//! walk.
//!
//! Status sorts its lines by path, byte by byte, as the index does; the lines are sorted here too,
//! whatever order `diff.orderFile` asks of the diff. Where the short format's tracked lines hold
//! more than this (`status.branch` adds a header), status runs as before.
//!
//! Status refreshes the index before it compares; `git diff` drops a file whose content is the
//! index's only while `diff.autoRefreshIndex` is true (git's default), so that is what it runs
//! with here: with it false, a file whose stat data changed but not its content would be listed.

use anyhow::{Result, bail};

use super::git_read::run_git;
use crate::git::Git;
use crate::git::quote::quote_status_path;

/// Whether the tracked lines may come from the narrowed index under this configuration.
pub(super) fn allowed(config: &gix::config::Snapshot<'_>) -> bool {
    !config.boolean("status.branch").unwrap_or(false)
}

/// Status's tracked lines (` M path`, quoted as status quotes), from `git`, which reads the
/// narrowed diff's first part as its index.
pub(super) fn tracked_lines(git: &Git, quote_path_fully: bool) -> Result<Vec<u8>> {
    let args = ["diff", "--name-status", "-z", "--no-renames", "--no-ext-diff", "--"];
    let git = git.clone().with_config("diff.autoRefreshIndex=true");
    let out = run_git(&git, &args.map(String::from))?;
    lines(&out, quote_path_fully)
}

/// The lines of `git diff --name-status -z --no-renames` output, sorted by path.
fn lines(out: &[u8], quote_path_fully: bool) -> Result<Vec<u8>> {
    let mut fields = out.split(|&b| b == 0);
    let mut changed: Vec<(u8, &[u8])> = Vec::new();
    while let Some(letter) = fields.next().filter(|f| !f.is_empty()) {
        let (&[letter @ (b'M' | b'D' | b'T')], Some(path)) = (letter, fields.next()) else {
            bail!("an unexpected line from git diff --name-status");
        };
        changed.push((letter, path));
    }
    changed.sort_unstable_by(|a, b| a.1.cmp(b.1));
    let mut lines = Vec::with_capacity(changed.len() * 48);
    for (letter, path) in changed {
        lines.extend_from_slice(&[b' ', letter, b' ']);
        lines.extend_from_slice(&quote_status_path(path, quote_path_fully));
        lines.push(b'\n');
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::lines;

    #[test]
    fn name_status_becomes_status_lines_sorted_and_quoted() {
        let out = b"M\0b.txt\0D\0a b.txt\0T\0c\0";
        let got = lines(out, true).unwrap();
        assert_eq!(got, b" D \"a b.txt\"\n M b.txt\n T c\n");
        assert_eq!(lines(b"", true).unwrap(), b"");
        assert!(lines(b"A\0x\0", true).is_err());
    }
}
