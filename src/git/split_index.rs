//! A split index (`core.splitIndex`) made whole: the shared index's entries with the split file's
//! deletions, replacements and additions applied, as git's `merge_base_index` applies them, laid
//! out as one index of version 2 (3 with extended flags) with the split file's extensions but
//! `link`. Also the EWAH bitmaps git writes (`ewah/ewah_io.c`), which the link and the file system
//! monitor's extension hold.
//!
//! The split file's `link` extension names the shared index (`<git dir>/sharedindex.<id>`) and
//! holds two bitmaps over the shared index's entries: those deleted, and those replaced, in order,
//! by the split file's first entries (written with an empty path: the shared entry's path stays).
//! The split file's other entries are added, each replacing a shared entry of the same path and
//! stage. Anything not in that shape (a bitmap that does not parse, a position past the end, a
//! replacement with a path) makes it answer `None`, and the caller asks git instead.

use std::path::{Path, PathBuf};

use super::index_scan::{self, Bytes, Entry, Scan};

/// The index at `path` as one whole index (a split one made whole, its shared part read from
/// `git_dir`), and its metadata;
/// `None` when it is in a form not known here.
pub fn read_whole(
    path: &Path,
    git_dir: &Path,
    hash: gix::hash::Kind,
) -> Option<(Scan, std::fs::Metadata)> {
    let (bytes, meta) = index_scan::read(path).ok()?;
    let scan = whole(index_scan::scan_bytes(bytes, hash)?, git_dir, hash)?;
    Some((scan, meta))
}

/// `scan` made whole when it is a split index (its shared index read from `git_dir`); as it is
/// otherwise. `None` when the split cannot be read here.
pub fn whole(scan: Scan, git_dir: &Path, hash: gix::hash::Kind) -> Option<Scan> {
    let Some((_, range)) = scan.extensions.iter().find(|(signature, _)| signature == b"link")
    else {
        return Some(scan);
    };
    let data = scan.bytes.get(range.start + 8..range.end)?;
    let id_len = hash.len_in_bytes();
    let id = gix::ObjectId::try_from(data.get(..id_len)?).ok()?;
    if id.is_null() {
        return Some(scan);
    }
    let (deleted, replaced) = match &data[id_len..] {
        [] => (Vec::new(), Vec::new()),
        bitmaps => {
            let (deleted, used) = ewah_bits(bitmaps)?;
            let (replaced, used_too) = ewah_bits(&bitmaps[used..])?;
            (used + used_too == bitmaps.len()).then_some((deleted, replaced))?
        }
    };
    let shared_path = git_dir.join(format!("sharedindex.{id}"));
    let (bytes, _) = index_scan::read(&shared_path).ok()?;
    let shared = index_scan::scan_bytes(bytes, hash)?;

    // The shared entries, each from the shared index or, replaced, from the split file.
    let mut from_shared: Vec<Option<(&Scan, &Entry)>> =
        shared.entries.iter().map(|e| Some((&shared, e))).collect();
    for &at in &deleted {
        *from_shared.get_mut(at)? = None;
    }
    let mut own = scan.entries.iter();
    let mut kept: Vec<(&Scan, &Entry, &[u8])> = Vec::with_capacity(from_shared.len());
    let mut replacing = replaced.iter().peekable();
    for (at, slot) in from_shared.iter().enumerate() {
        let Some((file, entry)) = slot else {
            if replacing.next_if(|r| **r == at).is_some() {
                return None;
            }
            continue;
        };
        let path = file.path(entry);
        if replacing.next_if(|r| **r == at).is_some() {
            let new = own.next()?;
            if !scan.path(new).is_empty() {
                return None;
            }
            kept.push((&scan, new, path));
        } else {
            kept.push((file, entry, path));
        }
    }
    if replacing.next().is_some() {
        return None;
    }
    // The added entries, in order, merged in by path and stage; an equal one replaces.
    let key = |file: &Scan, entry: &Entry, path: &[u8]| (path.to_vec(), stage(file, entry, id_len));
    let mut merged: Vec<(&Scan, &Entry, &[u8])> = Vec::with_capacity(kept.len() + own.len());
    let mut kept = kept.into_iter().peekable();
    for new in own {
        let path = scan.path(new);
        let new_key = key(&scan, new, path);
        while let Some(old) = kept.next_if(|(f, e, p)| key(f, e, p) < new_key) {
            merged.push(old);
        }
        kept.next_if(|(f, e, p)| key(f, e, p) == new_key);
        merged.push((&scan, new, path));
    }
    merged.extend(kept);
    write_whole(&scan, &merged, hash)
}

/// The entry's stage (0 for a merged path, 1 to 3 in a conflict).
fn stage(file: &Scan, entry: &Entry, id_len: usize) -> u16 {
    (flags(file, entry, id_len) >> 12) & 3
}

fn flags(file: &Scan, entry: &Entry, id_len: usize) -> u16 {
    let at = entry.at() + 40 + id_len;
    u16::from_be_bytes([file.bytes[at], file.bytes[at + 1]])
}

/// One index of `entries` (each from its file, with its path) and `split`'s extensions but `link`.
fn write_whole(
    split: &Scan,
    entries: &[(&Scan, &Entry, &[u8])],
    hash: gix::hash::Kind,
) -> Option<Scan> {
    let id_len = hash.len_in_bytes();
    let extended = entries.iter().any(|(_, e, _)| e.extended);
    let mut bytes = Vec::with_capacity(split.bytes.len() + entries.len() * 80);
    bytes.extend_from_slice(b"DIRC");
    bytes.extend_from_slice(&(if extended { 3u32 } else { 2 }).to_be_bytes());
    bytes.extend_from_slice(&u32::try_from(entries.len()).ok()?.to_be_bytes());
    for (file, entry, path) in entries {
        let at = entry.at();
        let head = 40 + id_len + 2 + if entry.extended { 2 } else { 0 };
        let start = bytes.len();
        bytes.extend_from_slice(file.bytes.get(at..at + head)?);
        // The flags' low 12 bits are the path's length (a replacement's was 0).
        let flags_at = start + 40 + id_len;
        let flags = (flags(file, entry, id_len) & 0xF000) | path.len().min(0xFFF) as u16;
        bytes[flags_at..flags_at + 2].copy_from_slice(&flags.to_be_bytes());
        bytes.extend_from_slice(path);
        bytes.resize(start + ((head + path.len() + 8) & !7), 0);
    }
    for (signature, range) in &split.extensions {
        if signature != b"link" {
            bytes.extend_from_slice(&split.bytes[range.clone()]);
        }
    }
    bytes.resize(bytes.len() + id_len, 0);
    index_scan::scan_bytes(Bytes::Read(bytes), hash)
}

/// Where the shared index of the split index `scan` is, when it is split.
pub fn shared_path(scan: &Scan, git_dir: &Path, hash: gix::hash::Kind) -> Option<PathBuf> {
    let (_, range) = scan.extensions.iter().find(|(signature, _)| signature == b"link")?;
    let data = scan.bytes.get(range.start + 8..range.end)?;
    let id = gix::ObjectId::try_from(data.get(..hash.len_in_bytes())?).ok()?;
    (!id.is_null()).then(|| git_dir.join(format!("sharedindex.{id}")))
}

/// The positions of the bits set in an EWAH bitmap as git writes it (its size in bits, its number
/// of words, the words, the position of the last marker word), read by gix-bitmap; and how many
/// bytes it took.
pub fn ewah_bits(bytes: &[u8]) -> Option<(Vec<usize>, usize)> {
    let (bitmap, rest) = gix_bitmap::ewah::decode(bytes).ok()?;
    let mut bits = Vec::new();
    bitmap.for_each_set_bit(|bit| {
        bits.push(bit);
        Some(())
    })?;
    Some((bits, bytes.len() - rest.len()))
}

#[cfg(test)]
mod tests {
    use super::ewah_bits;

    #[test]
    fn ewah_bitmaps_read_as_git_writes_them() {
        // 200 bits: a run of one word of ones, then one literal word with bits 0 and 5.
        let mut bytes = 200u32.to_be_bytes().to_vec();
        bytes.extend_from_slice(&3u32.to_be_bytes());
        bytes.extend_from_slice(&((1u64 << 33) | (1 << 1) | 1).to_be_bytes());
        bytes.extend_from_slice(&0b10_0001u64.to_be_bytes());
        bytes.extend_from_slice(&0u64.to_be_bytes());
        bytes.extend_from_slice(&2u32.to_be_bytes());
        let (bits, used) = ewah_bits(&bytes).unwrap();
        let mut want: Vec<usize> = (0..64).collect();
        want.extend([64, 69]);
        assert_eq!((bits, used), (want, bytes.len()));
        assert!(ewah_bits(&bytes[..20]).is_none());
    }
}
