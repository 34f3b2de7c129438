//! Reading a commit as git's `parse_commit_buffer` does: the tree line, the parent lines, the
//! committer date and where the message starts, and nothing else (signatures are never decoded).

use gix::ObjectId;
use smallvec::SmallVec;

/// A commit's parents: one for almost every commit, two for a merge, kept inline.
pub type Parents<T> = SmallVec<[T; 2]>;

/// What the walk reads of a raw commit, as git's `parse_commit_buffer` reads it: the tree line
/// first, then the parent lines, the committer date, and the message after the first empty line.
pub(super) struct CommitFields<'a> {
    pub(super) tree: ObjectId,
    /// `None` when a parent line is malformed.
    pub(super) parents: Option<Parents<ObjectId>>,
    pub(super) date: i64,
    pub(super) message: &'a [u8],
}

impl<'a> CommitFields<'a> {
    /// `None` when the commit does not start with `tree <id>`.
    pub(super) fn parse(data: &'a [u8], hash: gix::hash::Kind) -> Option<CommitFields<'a>> {
        let hex_len = hash.len_in_hex();
        let id_line = |rest: &[u8], key: &[u8]| -> Option<Option<ObjectId>> {
            let hex = rest.strip_prefix(key)?;
            Some(
                (hex.get(hex_len) == Some(&b'\n'))
                    .then(|| ObjectId::from_hex(&hex[..hex_len]).ok())
                    .flatten(),
            )
        };
        let tree = id_line(data, b"tree ")??;
        let mut rest = &data[5 + hex_len + 1..];
        let mut parents = Some(Parents::new());
        while let Some(parent) = id_line(rest, b"parent ") {
            let Some(parent) = parent else {
                parents = None;
                break;
            };
            parents.as_mut().expect("set above").push(parent);
            rest = &rest[7 + hex_len + 1..];
        }
        // The header ends at the first empty line, which tree and parent lines cannot hold: the
        // search starts at the newline ending the last of them.
        let header_end = data.len() - rest.len() - 1;
        let header = &data[header_end..];
        let blank =
            memchr::memchr_iter(b'\n', header).find(|&at| header.get(at + 1) == Some(&b'\n'));
        let message = match blank {
            Some(at) => &header[at + 2..],
            None => &[],
        };
        Some(CommitFields { tree, parents, date: committer_date(rest), message })
    }
}

/// The committer date as git's `parse_commit_date` reads it from what follows the parent lines:
/// an author line, then a committer line, whose date is the number after its last `>`; 0 when
/// any of that is missing.
pub(super) fn committer_date(rest: &[u8]) -> i64 {
    let Some(author) = rest.strip_prefix(b"author") else { return 0 };
    let Some(eol) = memchr::memchr(b'\n', author) else { return 0 };
    let Some(committer) = author[eol + 1..].strip_prefix(b"committer") else { return 0 };
    let Some(eol) = memchr::memchr(b'\n', committer) else { return 0 };
    let line = &committer[..eol];
    let Some(end) = memchr::memrchr(b'>', line) else { return 0 };
    let date = line[end + 1..].trim_ascii_start();
    let digits = date.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&date[..digits]).ok().and_then(|d| d.parse().ok()).unwrap_or(0)
}
