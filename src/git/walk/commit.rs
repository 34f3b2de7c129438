//! Reading a commit as git's `parse_commit_buffer` does: the tree line, the parent lines, the
//! committer date and where the message starts, and nothing else (signatures are never decoded).

use anyhow::{Result, anyhow, bail};
use gix::ObjectId;
use smallvec::SmallVec;

use super::objects::Objects;
use super::tree_entry::find_entry;

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
        let committer = committer_line(rest);
        let date = committer.map_or(0, |(line, _)| committer_date(line));
        // The header ends at the first empty line. Most often it directly follows the committer
        // line, itself right after the author line; else (other headers: a signature, an
        // encoding) it is searched for from the newline ending the last tree or parent line,
        // since those lines cannot be empty.
        let message = match committer {
            Some((_, after)) if rest.get(after) == Some(&b'\n') => &rest[after + 1..],
            _ => {
                let header = &data[data.len() - rest.len() - 1..];
                let blank = memchr::memchr_iter(b'\n', header)
                    .find(|&at| header.get(at + 1) == Some(&b'\n'));
                blank.map_or(&[][..], |at| &header[at + 2..])
            }
        };
        Some(CommitFields { tree, parents, date, message })
    }
}

/// The committer line as git's `parse_commit_date` finds it in what follows the parent lines: an
/// author line, then a committer line. Gives the committer line after its key, without its
/// newline, and where the line after it starts in `rest`.
fn committer_line(rest: &[u8]) -> Option<(&[u8], usize)> {
    let author = rest.strip_prefix(b"author")?;
    let eol = memchr::memchr(b'\n', author)?;
    let committer = author[eol + 1..].strip_prefix(b"committer")?;
    let end = memchr::memchr(b'\n', committer)?;
    let after = rest.len() - committer.len() + end + 1;
    Some((&committer[..end], after))
}

/// The committer date as git's `parse_commit_date` reads it from the committer line (after its
/// key): the number after its last `>`; 0 when there is none.
pub(super) fn committer_date(line: &[u8]) -> i64 {
    let Some(end) = memchr::memrchr(b'>', line) else { return 0 };
    let date = line[end + 1..].trim_ascii_start();
    let digits = date.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&date[..digits]).ok().and_then(|d| d.parse().ok()).unwrap_or(0)
}

/// A commit as the readers beside the walk take it (the handoff found on the branch, what
/// happened since): read with the walk's plain object reads, so recall needs no gix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    pub tree: ObjectId,
    pub parents: Parents<ObjectId>,
    /// The committer date, seconds since the epoch.
    pub time: i64,
    /// What follows the header's empty line (empty when there is none).
    pub message: Vec<u8>,
}

impl Objects {
    /// The commit `id`; an error when it is missing, not a commit, or malformed.
    pub fn commit(&mut self, id: ObjectId) -> Result<Commit> {
        let mut data = Vec::new();
        let kind = self.read(id, &mut data)?;
        if kind != gix::object::Kind::Commit {
            bail!("object {id} is a {kind}, not a commit");
        }
        let fields = CommitFields::parse(&data, id.kind())
            .ok_or_else(|| anyhow!("commit {id} does not start with its tree"))?;
        let parents =
            fields.parents.ok_or_else(|| anyhow!("commit {id} has a malformed parent line"))?;
        let (tree, time, message) = (fields.tree, fields.date, fields.message.to_vec());
        Ok(Commit { tree, parents, time, message })
    }

    /// The blob at `path` (`/`-separated) in the tree `tree`; `None` when there is none there.
    pub fn blob_at(&mut self, tree: ObjectId, path: &str) -> Result<Option<Vec<u8>>> {
        let mut data = Vec::new();
        let mut at = tree;
        // As a path's components: no empty part, no `.`.
        let mut parts = path.split('/').filter(|p| !p.is_empty() && *p != ".").peekable();
        while let Some(name) = parts.next() {
            if self.read(at, &mut data)? != gix::object::Kind::Tree {
                bail!("object {at} is not a tree");
            }
            let found = find_entry(&data, name.as_bytes(), at.kind(), true)
                .ok_or_else(|| anyhow!("tree {at} is malformed"))?;
            let Some((mode, id)) = found else { return Ok(None) };
            match (parts.peek(), mode.is_tree()) {
                (Some(_), true) => at = id,
                (Some(_), false) | (None, true) => return Ok(None),
                (None, false) => {
                    return Ok(match self.read(id, &mut data)? {
                        gix::object::Kind::Blob => Some(data),
                        _ => None,
                    });
                }
            }
        }
        Ok(None)
    }
}
