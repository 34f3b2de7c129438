//! One pass over the index file for what the snapshot needs before it runs `git status`: whether
//! an entry is a submodule, a sparse directory or a conflict stage, or the index is split; and
//! where each entry, its stat data and its path are, and where the extensions are. It reads the
//! on-disk format (versions 2 to 4, `Documentation/gitformat-index.txt`) without building gix's
//! entries, so a 57k-entry index costs a read of the file and a walk over its entry headers.
//! Anything it does not know makes it answer `None`, and the caller then asks git instead.

use std::ops::Range;

/// What one pass over the index found.
#[derive(Debug, Default)]
pub struct Scan {
    /// An entry is a submodule (gitlink), a sparse directory or an unmerged stage, or the index is
    /// split or sparse: what status reports for it is not only what it prints.
    pub special: bool,
    /// The entries in index order.
    pub entries: Vec<Entry>,
    /// Every entry's path, one after another (see [`Entry::path`]).
    pub paths: Vec<u8>,
    /// Where the entries end and the extensions begin.
    pub entries_end: usize,
    /// Each extension's signature and bytes (header included), in order.
    pub extensions: Vec<([u8; 4], Range<usize>)>,
}

/// One index entry: where it is in the file, its mode and flags, and where its path is.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The offset of the entry, which starts with its 40 bytes of stat data.
    pub at: usize,
    pub mode: u32,
    /// The extended flags are set (intent-to-add, skip-worktree).
    pub extended: bool,
    /// The range of [`Scan::paths`] that holds the path.
    pub path: Range<usize>,
}

impl Scan {
    /// The path of `entry`.
    pub fn path(&self, entry: &Entry) -> &[u8] {
        &self.paths[entry.path.clone()]
    }
}

const STAT_BYTES: usize = 40;
const MODE_AT: usize = 24;
const GITLINK: u32 = 0o160000;
const TREE: u32 = 0o040000;

/// Reads the index file's `bytes`. `None` when they are in a form not known here.
pub fn scan_bytes(bytes: &[u8], hash: gix::hash::Kind) -> Option<Scan> {
    let id_len = hash.len_in_bytes();
    if bytes.len() < 12 + id_len || &bytes[..4] != b"DIRC" {
        return None;
    }
    let version = be32(bytes, 4)?;
    let count = be32(bytes, 8)? as usize;
    if !(2..=4).contains(&version) {
        return None;
    }
    let end = bytes.len() - id_len;
    let mut scan = Scan { entries: Vec::with_capacity(count), ..Scan::default() };
    let mut at = 12;
    for _ in 0..count {
        let entry = at;
        let mode = be32(bytes, entry + MODE_AT)?;
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
        let start = scan.paths.len();
        if version == 4 {
            // The path is a number of bytes to strip from the previous one and a new suffix.
            let (strip, used) = varint(bytes.get(name_at..end)?)?;
            let suffix_at = name_at + used;
            let len = bytes.get(suffix_at..end)?.iter().position(|&b| b == 0)?;
            let previous = scan.entries.last().map_or(0..0, |e: &Entry| e.path.clone());
            let kept = previous.len().checked_sub(strip)?;
            scan.paths.extend_from_within(previous.start..previous.start + kept);
            scan.paths.extend_from_slice(&bytes[suffix_at..suffix_at + len]);
            at = suffix_at + len + 1;
        } else {
            let len = bytes.get(name_at..end)?.iter().position(|&b| b == 0)?;
            scan.paths.extend_from_slice(&bytes[name_at..name_at + len]);
            // Entries are padded with NULs to a multiple of eight bytes.
            at = entry + ((name_at - entry + len + 8) & !7);
        }
        let extended = flags & 0x4000 != 0;
        scan.entries.push(Entry { at: entry, mode, extended, path: start..scan.paths.len() });
        if at > end {
            return None;
        }
        if mode == GITLINK || mode == TREE || stage != 0 {
            scan.special = true;
        }
    }
    // Extensions: a split index keeps its entries elsewhere; a sparse one folds directories.
    scan.entries_end = at;
    while at + 8 <= end {
        let signature: [u8; 4] = bytes[at..at + 4].try_into().ok()?;
        let size = be32(bytes, at + 4)? as usize;
        if &signature == b"link" || &signature == b"sdir" {
            scan.special = true;
        }
        let next = at.checked_add(8 + size).filter(|&next| next <= end)?;
        scan.extensions.push((signature, at..next));
        at = next;
    }
    (at == end).then_some(scan)
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// git's offset varint (`decode_varint`): the number and the bytes it took.
fn varint(bytes: &[u8]) -> Option<(usize, usize)> {
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
        assert!(scan_bytes(b"", sha1).is_none());
        assert!(scan_bytes(b"DIRC\0\0\0\x02\0\0\0\x05", sha1).is_none());
        let mut header = b"DIRC\0\0\0\x02\0\0\0\x01".to_vec();
        header.extend_from_slice(&[0xff; 90]);
        assert!(scan_bytes(&header, sha1).is_none());
    }
}
