//! The tracked half of `git status --short`, from the narrowed diff's private index (see
//! [`narrowed_diff`](super::narrowed_diff)) instead of a status of the whole index.
//!
//! The narrowed diff is only made when the index is HEAD's tree (its cache tree says so): nothing
//! is staged, so every tracked line status prints is ` Y path`, where `Y` is what the diff of the
//! index against the work tree says of the path (`M`, `D` or `T`: status takes it from the same
//! `run_diff_files`). An entry can differ from the work tree only where the walk doubted it, and
//! every entry the walk doubted is in the narrowed diff's first part, with the real index's stat
//! data, dated as the real index (so git doubts the same racily clean entries). So
//! `git diff --raw` on that part gives status's tracked lines; git reads a few hundred
//! entries instead of the whole index. On tc39/test262 (57k entries, 8 MB of index) the status it
//! replaces read the private index for 25-30 ms, most of what the snapshot waited for after the
//! walk.
//!
//! Status sorts its lines by path, byte by byte, as the index does; the lines are sorted here too,
//! whatever order `diff.orderFile` asks of the diff. Where the short format's tracked lines hold
//! more than this (`status.branch` adds a header), status runs as before.
//!
//! Mostly no git runs for them at all: the narrowed diff's first part is asked for `--raw` too
//! ([`from_raw`]), and where HEAD did not change a path since the base, the base's entry there is
//! the index's, so the letter the diff gives the path is the one status would. Only where the walk
//! doubted a path HEAD changed does `git diff --raw` run as above. Either way, a type change to a
//! repository (a tracked file replaced by one with commits) is status's `M`.
//!
//! Status refreshes the index before it compares; `git diff` drops a file whose content is the
//! index's only while `diff.autoRefreshIndex` is true (git's default), so that is what it runs
//! with here, and the raw letters are not taken where the user turned it off.

use anyhow::{Result, bail};

use super::git_read::run_git;
use crate::git::Git;
use crate::git::quote::quote_status_path;

/// Whether the tracked lines may come from the narrowed index under this configuration.
pub(super) fn allowed(config: &gix::config::Snapshot<'_>) -> bool {
    !config.boolean("status.branch").unwrap_or(false)
}

/// Whether the narrowed diff's raw letters may stand for status's under this configuration.
pub(super) fn raw_allowed(config: &gix::config::Snapshot<'_>) -> bool {
    config.boolean("diff.autoRefreshIndex").unwrap_or(true)
}

/// Status's tracked lines (` M path`, quoted as status quotes), from `git`, which reads the
/// narrowed diff's first part as its index.
pub(super) fn tracked_lines(git: &Git, quote_path_fully: bool) -> Result<Vec<u8>> {
    // Raw records rather than `--name-status`: their modes tell a repository in a file's place.
    let args = ["diff", "--raw", "-z", "--no-renames", "--no-ext-diff", "--"];
    let git = git.clone().with_config("diff.autoRefreshIndex=true");
    let out = run_git(&git, &args.map(String::from))?;
    lines(&out, quote_path_fully)
}

/// One record of `git diff --raw -z`: its status letter, its path, and for a rename or a copy the
/// path it came from.
pub(super) struct Raw<'a> {
    pub letter: u8,
    pub path: &'a [u8],
    pub from: Option<&'a [u8]>,
    /// The work tree holds a repository there (mode 160000): a type change to the diff, where
    /// status says modified.
    pub to_gitlink: bool,
}

/// The records `git diff --raw -z` prints before the other formats asked for, and the rest of the
/// output; `None` when it is not in that shape.
pub(super) fn split_raw(out: &[u8]) -> Option<(Vec<Raw<'_>>, &[u8])> {
    let mut records = Vec::new();
    let mut rest = out;
    while let Some(record) = rest.strip_prefix(b":") {
        let (meta, after) = split_at_nul(record)?;
        // `:100644 100644 <id> <id> M`, a score after a rename's or a copy's letter.
        let letter = *meta.rsplit(|&b| b == b' ').next()?.first()?;
        let to_gitlink = meta.split(|&b| b == b' ').nth(1) == Some(b"160000");
        let (first, after) = split_at_nul(after)?;
        let (from, path, after) = match letter {
            b'R' | b'C' => {
                let (second, after) = split_at_nul(after)?;
                (Some(first), second, after)
            }
            _ => (None, first, after),
        };
        records.push(Raw { letter, path, from, to_gitlink });
        rest = after;
    }
    Some((records, rest))
}

impl Raw<'_> {
    /// The letter status gives the path: the record's, but `M` for a type change to a
    /// repository (a tracked file replaced by one with commits).
    fn status_letter(&self) -> u8 {
        match (self.letter, self.to_gitlink) {
            (b'T', true) => b'M',
            (letter, _) => letter,
        }
    }
}

fn split_at_nul(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = bytes.iter().position(|&b| b == 0)?;
    Some((&bytes[..at], &bytes[at + 1..]))
}

/// Status's tracked letters from the raw records of the narrowed diff's first part, for the
/// paths HEAD did not change since the base (`changed`, sorted): there the base's entry is the
/// index's. A path HEAD changed is one the walk did not doubt (where it did, the letters are not
/// asked for). `None` for a record that cannot be read so.
pub(super) fn from_raw<'a>(raw: &[Raw<'a>], changed: &[Vec<u8>]) -> Option<Vec<(u8, &'a [u8])>> {
    let is_changed = |path: &[u8]| changed.binary_search_by(|c| c.as_slice().cmp(path)).is_ok();
    let mut letters = Vec::new();
    for record in raw {
        match (record.letter, record.from) {
            (b'M' | b'D' | b'T', None) if !is_changed(record.path) => {
                letters.push((record.status_letter(), record.path));
            }
            // An addition, and the new end of a rename or a copy, are paths HEAD added.
            (b'M' | b'D' | b'T' | b'A', None) | (b'C', Some(_)) if is_changed(record.path) => {}
            // A rename's old end is gone from the work tree.
            (b'R', Some(from)) if is_changed(record.path) => {
                if !is_changed(from) {
                    letters.push((b'D', from));
                }
            }
            _ => return None,
        }
    }
    Some(letters)
}

/// The lines of `git diff --raw -z --no-renames` output, sorted by path: each record's letter,
/// but `M` for a type change to a repository (status's word for it).
fn lines(out: &[u8], quote_path_fully: bool) -> Result<Vec<u8>> {
    let Some((raw, b"")) = split_raw(out) else {
        bail!("an unexpected line from git diff --raw");
    };
    let mut changed: Vec<(u8, &[u8])> = Vec::new();
    for record in raw {
        if !matches!(record.letter, b'M' | b'D' | b'T') {
            bail!("an unexpected line from git diff --raw");
        }
        changed.push((record.status_letter(), record.path));
    }
    Ok(status_lines(changed, quote_path_fully))
}

/// Status's tracked lines of these letters and paths, sorted by path and quoted as status quotes.
pub(super) fn status_lines<P: AsRef<[u8]>>(
    mut changed: Vec<(u8, P)>,
    quote_path_fully: bool,
) -> Vec<u8> {
    changed.sort_unstable_by(|a, b| a.1.as_ref().cmp(b.1.as_ref()));
    let mut lines = Vec::with_capacity(changed.len() * 48);
    for (letter, path) in changed {
        lines.extend_from_slice(&[b' ', letter, b' ']);
        lines.extend_from_slice(&quote_status_path(path.as_ref(), quote_path_fully));
        lines.push(b'\n');
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::{from_raw, lines, split_raw, status_lines};

    #[test]
    fn raw_records_become_status_lines_sorted_and_quoted() {
        let out = b":100644 100644 1111111 0000000 M\0b.txt\0\
:100644 000000 2222222 0000000 D\0a b.txt\0\
:100644 120000 3333333 0000000 T\0c\0\
:100644 160000 4444444 0000000 T\0repo\0";
        let got = lines(out, true).unwrap();
        assert_eq!(got, b" D \"a b.txt\"\n M b.txt\n T c\n M repo\n");
        assert_eq!(lines(b"", true).unwrap(), b"");
        assert!(lines(b":000000 100644 0000000 1111111 A\0x\0", true).is_err());
        assert!(lines(b"M\0x\0", true).is_err());
    }

    #[test]
    fn raw_records_give_statuss_letters_where_head_did_not_change_the_path() {
        let out = b":100644 100644 1111111 0000000 M\0a.txt\0\
:100644 000000 2222222 0000000 D\0b c.txt\0\
:100644 120000 3333333 0000000 T\0link\0\
:000000 100644 0000000 4444444 A\0new.txt\0\
:100644 100644 5555555 6666666 R100\0old.txt\0moved.txt\0\
:100644 100644 7777777 8888888 M\0head.txt\0 a.txt | 2 +\n";
        let (raw, rest) = split_raw(out).unwrap();
        assert_eq!(rest, b" a.txt | 2 +\n");
        let changed = [b"head.txt".to_vec(), b"moved.txt".to_vec(), b"new.txt".to_vec()];
        let letters = from_raw(&raw, &changed).unwrap();
        let want: Vec<(u8, &[u8])> =
            vec![(b'M', b"a.txt"), (b'D', b"b c.txt"), (b'T', b"link"), (b'D', b"old.txt")];
        assert_eq!(letters, want);
        assert_eq!(status_lines(letters, true), b" M a.txt\n D \"b c.txt\"\n T link\n D old.txt\n");
        // An addition or a rename's new end at a path HEAD did not add cannot be status's.
        assert!(from_raw(&raw, &changed[..1]).is_none());
        // Cut short, or no records at all.
        assert!(split_raw(b":100644 100644 1 2 M\0a.txt").is_none());
        let (raw, rest) = split_raw(b" a | 1 +\n").unwrap();
        assert!(raw.is_empty() && rest == b" a | 1 +\n");
    }
}
