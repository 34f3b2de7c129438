//! One pass over the index file for what the snapshot needs before it runs `git status`: whether
//! an entry is a submodule, a sparse directory or a conflict stage, or the index is split; and
//! where each entry, its stat data and its path are, and where the extensions are. It reads the
//! on-disk format (versions 2 to 4, `Documentation/gitformat-index.txt`) without building gix's
//! entries, so a 57k-entry index costs a read of the file and a walk over its entry headers.
//! Anything it does not know makes it answer `None`, and the caller then asks git instead.
//!
//! The file is mapped, as git maps it, rather than read: on the machines measured a fresh page of
//! memory costs about 2 µs to fault in, so reading a 57k-entry index into a buffer cost more than
//! scanning it. For the same reason the paths of a version 2 or 3 index stay where they are in
//! the file; only version 4's prefix-compressed paths are spelled out.

use std::fs::File;
use std::ops::{Deref, Range};
use std::path::Path;

/// The index file's bytes: mapped, or read when the file cannot be (an empty file, a pipe).
pub enum Bytes {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Read(bytes) => bytes,
        }
    }
}

/// The index file at `path`, and its metadata (both from one open file).
pub fn read(path: &Path) -> std::io::Result<(Bytes, std::fs::Metadata)> {
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    // SAFETY: the map is only read. git, gix and libgit2 never rewrite an index in place: they
    // write a lock file and rename it over the old one, so the mapped file keeps its bytes; git
    // itself maps the index the same way. A file truncated under the map by some other program
    // would raise SIGBUS, as it would in git.
    let bytes = match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) if meta.is_file() => Bytes::Mapped(map),
        _ => {
            let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0) + 1);
            std::io::Read::read_to_end(&mut file, &mut bytes)?;
            Bytes::Read(bytes)
        }
    };
    Ok((bytes, meta))
}

/// What one pass over the index found, with the index's bytes.
pub struct Scan {
    /// The index file as read.
    pub bytes: Bytes,
    /// An entry is a submodule (gitlink), a sparse directory or an unmerged stage, or the index is
    /// sparse: what status reports for it is not only what it prints.
    pub special: bool,
    /// The entries in index order.
    pub entries: Vec<Entry>,
    /// A version 4 index's paths spelled out, one after another; empty for versions 2 and 3,
    /// whose entries' paths are read where they are in the file.
    paths: Vec<u8>,
    v4: bool,
    /// Where the entries end and the extensions begin.
    pub entries_end: usize,
    /// Each extension's signature and bytes (header included), in order.
    pub extensions: Vec<([u8; 4], Range<usize>)>,
}

/// One index entry: where it is in the file, its mode and flags, and where its path is. Small,
/// since there is one per tracked file.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The offset of the entry, which starts with its 40 bytes of stat data.
    at: u32,
    pub mode: u32,
    /// The extended flags are set (intent-to-add, skip-worktree).
    pub extended: bool,
    /// Where the path starts: in the file, or in a version 4 index's spelled-out paths.
    path_at: u32,
    path_len: u32,
}

impl Entry {
    /// The offset of the entry in the file, which starts with its 40 bytes of stat data.
    pub fn at(&self) -> usize {
        self.at as usize
    }
}

impl Scan {
    /// The path of `entry`.
    pub fn path(&self, entry: &Entry) -> &[u8] {
        let from = if self.v4 { &self.paths[..] } else { &self.bytes[..] };
        let start = entry.path_at as usize;
        &from[start..start + entry.path_len as usize]
    }

    /// The object id of `entry` (after its stat data), in a repository of `hash`.
    pub fn id(&self, entry: &Entry, hash: gix::hash::Kind) -> Option<gix::ObjectId> {
        let at = entry.at() + STAT_BYTES;
        gix::ObjectId::try_from(self.bytes.get(at..at + hash.len_in_bytes())?).ok()
    }
}

const STAT_BYTES: usize = 40;
const MODE_AT: usize = 24;
const GITLINK: u32 = 0o160000;
const TREE: u32 = 0o040000;

/// Scans the index file's `bytes`. `None` when they are in a form not known here.
pub fn scan_bytes(bytes: Bytes, hash: gix::hash::Kind) -> Option<Scan> {
    let id_len = hash.len_in_bytes();
    // Offsets are kept in 32 bits (as the index's own offset table keeps them).
    u32::try_from(bytes.len()).ok()?;
    if bytes.len() < 12 + id_len || &bytes[..4] != b"DIRC" {
        return None;
    }
    let version = be32(&bytes, 4)?;
    let count = be32(&bytes, 8)? as usize;
    if !(2..=4).contains(&version) {
        return None;
    }
    let end = bytes.len() - id_len;
    let v4 = version == 4;
    let mut entries = Vec::with_capacity(count.min(bytes.len() / 62));
    let mut paths = Vec::new();
    let mut special = false;
    let mut at = 12;
    for _ in 0..count {
        let entry = at;
        let mode = be32(&bytes, entry + MODE_AT)?;
        let id_at = entry + STAT_BYTES;
        let flags =
            u16::from_be_bytes(bytes.get(id_at + id_len..id_at + id_len + 2)?.try_into().ok()?);
        let mut name_at = id_at + id_len + 2;
        if flags & 0x4000 != 0 {
            if version < 3 {
                return None;
            }
            name_at += 2;
        }
        let stage = (flags >> 12) & 3;
        let (path_at, len) = if v4 {
            // The path is a number of bytes to strip from the previous one and a new suffix.
            let (strip, used) = varint(bytes.get(name_at..end)?)?;
            let suffix_at = name_at + used;
            let len = bytes.get(suffix_at..end)?.iter().position(|&b| b == 0)?;
            let start = paths.len();
            let previous = entries.last().map_or(0..0, |e: &Entry| {
                e.path_at as usize..e.path_at as usize + e.path_len as usize
            });
            let kept = previous.len().checked_sub(strip)?;
            paths.extend_from_within(previous.start..previous.start + kept);
            paths.extend_from_slice(&bytes[suffix_at..suffix_at + len]);
            u32::try_from(paths.len()).ok()?;
            at = suffix_at + len + 1;
            (start, kept + len)
        } else {
            let len = bytes.get(name_at..end)?.iter().position(|&b| b == 0)?;
            // Entries are padded with NULs to a multiple of eight bytes.
            at = entry + ((name_at - entry + len + 8) & !7);
            (name_at, len)
        };
        let extended = flags & 0x4000 != 0;
        // Every offset is below the file's length, which fits in 32 bits.
        let (entry, path_at, path_len) = (entry as u32, path_at as u32, len as u32);
        entries.push(Entry { at: entry, mode, extended, path_at, path_len });
        if at > end {
            return None;
        }
        if mode == GITLINK || mode == TREE || stage != 0 {
            special = true;
        }
    }
    // Extensions: a split index keeps its entries elsewhere; a sparse one folds directories.
    let entries_end = at;
    let mut extensions = Vec::new();
    while at + 8 <= end {
        let signature: [u8; 4] = bytes[at..at + 4].try_into().ok()?;
        let size = be32(&bytes, at + 4)? as usize;
        // A split index is made whole elsewhere (the split index module).
        if &signature == b"sdir" {
            special = true;
        }
        let next = at.checked_add(8 + size).filter(|&next| next <= end)?;
        extensions.push((signature, at..next));
        at = next;
    }
    (at == end).then_some(Scan { bytes, special, entries, paths, v4, entries_end, extensions })
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// git's offset varint (`decode_varint`): the number and the bytes it took. (Pack entries name
/// their delta base's distance back in it too.)
pub(crate) fn varint(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut used = 0;
    let mut byte = *bytes.first()?;
    used += 1;
    let mut value = usize::from(byte & 0x7f);
    while byte & 0x80 != 0 {
        byte = *bytes.get(used)?;
        used += 1;
        value = value.checked_add(1)?.checked_mul(128)? | usize::from(byte & 0x7f);
    }
    Some((value, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_as_git_writes_them() {
        assert_eq!(varint(&[0x05]), Some((5, 1)));
        assert_eq!(varint(&[0x80, 0x00]), Some((128, 2)));
        assert_eq!(varint(&[0x81, 0x7f]), Some((383, 2)));
        assert_eq!(varint(&[0x80]), None);
    }

    #[test]
    fn garbage_is_none_not_a_panic() {
        let sha1 = gix::hash::Kind::Sha1;
        let scan = |bytes: &[u8]| scan_bytes(Bytes::Read(bytes.to_vec()), sha1);
        assert!(scan(b"").is_none());
        assert!(scan(b"DIRC\0\0\0\x02\0\0\0\x05").is_none());
        let mut header = b"DIRC\0\0\0\x02\0\0\0\x01".to_vec();
        header.extend_from_slice(&[0xff; 90]);
        assert!(scan(&header).is_none());
    }
}
