//! git's untracked cache, the index's `UNTR` extension (`core.untrackedCache`,
//! `feature.manyFiles`), read as git's `read_untracked_extension` reads it.
//!
//! For each directory git last read for untracked files it keeps the directory's stat data, the
//! id of the `.gitignore` it found there, and the untracked names it found (a directory as
//! `name/`, ignored names left out). The extension begins with what the whole cache depends on:
//! where it was made (`Location <work tree>, system <kernel>`), the flags git listed with, and the
//! ids of `info/exclude` and `core.excludesFile`. The directories follow depth first, then three
//! EWAH bitmaps by that order (valid, check-only, `.gitignore` id known), the stat data of each
//! valid directory and the `.gitignore` id of each that has one.

use super::index_scan::varint;
use super::split_index::ewah_bits;

/// `DIR_SHOW_OTHER_DIRECTORIES | DIR_HIDE_EMPTY_DIRECTORIES`: the flags of a cache `git status`
/// made listing untracked files as `normal` (an untracked directory as one name).
pub const NORMAL_FLAGS: u32 = 0b110;

/// The cache as read.
pub struct UntrackedCache {
    /// `Location <work tree>, system <kernel>`, without its NUL.
    pub ident: Vec<u8>,
    pub dir_flags: u32,
    /// The blob ids of `info/exclude` and `core.excludesFile` (all zeros for none).
    pub info_exclude: Vec<u8>,
    pub excludes_file: Vec<u8>,
    /// The per-directory exclude file's name (`.gitignore`).
    pub exclude_per_dir: Vec<u8>,
    /// The directories, depth first (the top of the work tree first, its path empty).
    pub dirs: Vec<Dir>,
}

/// One directory of the cache.
pub struct Dir {
    /// Its path from the top of the work tree, no trailing slash.
    pub path: Vec<u8>,
    /// Its parent's position in [`UntrackedCache::dirs`] (`None` for the top).
    pub parent: Option<usize>,
    /// The untracked names in it, a directory's ending in `/`.
    pub untracked: Vec<Vec<u8>>,
    /// The directory's stat data when it was read (ctime, mtime, dev, ino, uid, gid, size, as
    /// git keeps them, 32 bits each), for a valid directory only.
    pub stat: Option<[u32; 9]>,
    pub check_only: bool,
    /// The id of its `.gitignore` (all zeros for none).
    pub exclude_id: Vec<u8>,
}

/// The cache in the `UNTR` extension's data (after its signature and size), for hashes of
/// `hash_len` bytes; `None` when it cannot be read.
pub fn parse(data: &[u8], hash_len: usize) -> Option<UntrackedCache> {
    let (data, end) = (data.strip_suffix(b"\0")?, data.len() - 1);
    let (ident_len, used) = varint(data)?;
    let mut at = used;
    let ident = data.get(at..at + ident_len)?;
    let ident = ident.strip_suffix(b"\0").unwrap_or(ident).to_vec();
    at += ident_len;
    // Two stat data (36 bytes each) and the flags, then the two ids.
    let fixed = data.get(at..at + 76 + 2 * hash_len)?;
    let dir_flags = u32::from_be_bytes(fixed[72..76].try_into().ok()?);
    let info_exclude = fixed[76..76 + hash_len].to_vec();
    let excludes_file = fixed[76 + hash_len..].to_vec();
    at += fixed.len();
    let name_end = at + data.get(at..)?.iter().position(|&b| b == 0)?;
    let exclude_per_dir = data[at..name_end].to_vec();
    at = name_end + 1;
    let mut cache = UntrackedCache {
        ident,
        dir_flags,
        info_exclude,
        excludes_file,
        exclude_per_dir,
        dirs: vec![],
    };
    if at >= end {
        return Some(cache);
    }
    let (count, used) = varint(data.get(at..)?)?;
    at += used;
    if count == 0 {
        return Some(cache);
    }
    let mut reader = Reader { data, at, dirs: Vec::with_capacity(count), hash_len };
    reader.dir(None, &mut Vec::new())?;
    let Reader { mut at, mut dirs, .. } = reader;
    if dirs.len() != count {
        return None;
    }
    let mut bitmaps = Vec::with_capacity(3);
    for _ in 0..3 {
        let (bits, used) = ewah_bits(data.get(at..)?)?;
        bitmaps.push(bits);
        at += used;
    }
    for &bit in &bitmaps[1] {
        dirs.get_mut(bit)?.check_only = true;
    }
    for &bit in &bitmaps[0] {
        let bytes = data.get(at..at + 36)?;
        let field = |i: usize| u32::from_be_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
        dirs.get_mut(bit)?.stat = Some(std::array::from_fn(field));
        at += 36;
    }
    for &bit in &bitmaps[2] {
        dirs.get_mut(bit)?.exclude_id = data.get(at..at + hash_len)?.to_vec();
        at += hash_len;
    }
    cache.dirs = dirs;
    Some(cache)
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    dirs: Vec<Dir>,
    hash_len: usize,
}

impl Reader<'_> {
    /// One directory block and, after it, its subdirectories' (`read_one_dir`).
    fn dir(&mut self, parent: Option<usize>, path: &mut Vec<u8>) -> Option<()> {
        let (untracked_nr, used) = varint(self.data.get(self.at..)?)?;
        self.at += used;
        let (dirs_nr, used) = varint(self.data.get(self.at..)?)?;
        self.at += used;
        let name = self.string()?;
        let len = path.len();
        if parent.is_some() {
            if parent != Some(0) {
                path.push(b'/');
            }
            path.extend_from_slice(name);
        }
        let mut untracked = Vec::with_capacity(untracked_nr.min(1 << 16));
        for _ in 0..untracked_nr {
            untracked.push(self.string()?.to_vec());
        }
        let me = self.dirs.len();
        self.dirs.push(Dir {
            path: path.clone(),
            parent,
            untracked,
            stat: None,
            check_only: false,
            exclude_id: vec![0; self.hash_len],
        });
        for _ in 0..dirs_nr {
            self.dir(Some(me), path)?;
        }
        path.truncate(len);
        Some(())
    }

    /// A NUL-terminated string, which must end before the data does.
    fn string(&mut self) -> Option<&[u8]> {
        let rest = self.data.get(self.at..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        self.at += end + 1;
        Some(&rest[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_reads_back_with_its_directories_in_order() {
        let hash = 20;
        let mut d = Vec::new();
        let ident = b"Location /w, system Linux\0";
        d.push(ident.len() as u8);
        d.extend_from_slice(ident);
        d.extend_from_slice(&[0; 72]);
        d.extend_from_slice(&NORMAL_FLAGS.to_be_bytes());
        d.extend_from_slice(&[0; 40]);
        d.extend_from_slice(b".gitignore\0");
        d.push(2); // two directories
        d.extend_from_slice(&[1, 1]); // the top: one name, one subdirectory
        d.extend_from_slice(b"\0new/\0");
        d.extend_from_slice(&[1, 0]);
        d.extend_from_slice(b"src\0x.rs\0");
        // valid: both; check-only: none; ids: the second.
        let bitmap = |bits: u64| {
            let mut b = 2u32.to_be_bytes().to_vec();
            b.extend_from_slice(&2u32.to_be_bytes());
            b.extend_from_slice(&(1u64 << 33).to_be_bytes());
            b.extend_from_slice(&bits.to_be_bytes());
            b.extend_from_slice(&0u32.to_be_bytes());
            b
        };
        d.extend(bitmap(0b11));
        d.extend(bitmap(0));
        d.extend(bitmap(0b10));
        d.extend_from_slice(&[1; 36]);
        d.extend_from_slice(&[2; 36]);
        d.extend_from_slice(&[7; 20]);
        d.push(0);
        let cache = parse(&d, hash).unwrap();
        assert_eq!(cache.ident, b"Location /w, system Linux");
        assert_eq!(cache.dir_flags, NORMAL_FLAGS);
        assert_eq!(cache.exclude_per_dir, b".gitignore");
        let paths: Vec<&[u8]> = cache.dirs.iter().map(|d| d.path.as_slice()).collect();
        assert_eq!(paths, [&b""[..], b"src"]);
        assert_eq!(cache.dirs[0].untracked, [b"new/".to_vec()]);
        assert_eq!(cache.dirs[1].parent, Some(0));
        assert_eq!(cache.dirs[1].stat, Some([0x0202_0202; 9]));
        assert_eq!(cache.dirs[1].exclude_id, vec![7; 20]);
        assert_eq!(cache.dirs[0].exclude_id, vec![0; 20]);
        assert!(parse(&d[..d.len() - 5], hash).is_none());
    }
}
