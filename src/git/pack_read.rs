//! Objects read from the repository's packs the way git reads them, for the paths timed against
//! git itself (the pre-push walk and the checks after it).
//!
//! gix checks a pack index on opening it by reading its whole offset table (4 bytes an object:
//! 1.2 MB, most of a millisecond, for a history of 100,000 commits), where git only checks the
//! fan-out table and the file's size; and a lookup through gix's object store passes several
//! layers built for many threads and changing packs. Here an index is mapped when first needed
//! and checked as git's `check_packed_git_idx` checks it; every read is bounds-checked, so a
//! corrupt pack is an error, never a panic. Only what this reads plainly is taken on: version 2
//! indexes of the repository's own packs, without alternates or replace refs ([`Packs::open`]
//! says `None` otherwise, and callers go to gix, as they do for any object not found here).
//!
//! This file owns the packs and their indexes: which object sits where ([`Packs`]). Reading an
//! entry, its delta chain and git's delta format is its child [`reader`]'s.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::{Result, anyhow, bail};

pub mod inflater;
pub mod reader;

/// The repository's packs, newest first; each index mapped on first use.
pub struct Packs {
    hash: gix::hash::Kind,
    packs: Vec<Pack>,
}

struct Pack {
    /// The path without its extension: `.../pack-<checksum>`.
    stem: PathBuf,
    mapped: OnceLock<Option<Mapped>>,
}

struct Mapped {
    idx: memmap2::Mmap,
    pack: memmap2::Mmap,
    count: usize,
}

/// Where an object is: the pack's position in [`Packs`] and the entry's offset in it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Location {
    pack: usize,
    offset: u64,
}

const IDX_MAGIC: &[u8; 4] = b"\xfftOc";
const HEADER: usize = 8 + 256 * 4;
/// A delta chain longer than this is taken for a loop (git's own packs stay under 4,096).
const MAX_CHAIN: usize = 10_000;

impl Packs {
    /// The packs of `repo`'s object directory; `None` when its objects are not all here to read
    /// plainly (alternates, replace refs), or the pack directory cannot be listed.
    pub fn open(repo: &gix::Repository) -> Option<Arc<Packs>> {
        let store = repo.objects.store_ref();
        if store.replacements().next().is_some() {
            return None;
        }
        Self::at(store.path(), repo.object_hash())
    }

    /// [`Packs::open`] for the object directory `objects` of a repository without replace refs,
    /// whose objects are named by `hash`.
    pub fn at(objects: &Path, hash: gix::hash::Kind) -> Option<Arc<Packs>> {
        if objects.join("info/alternates").exists() {
            return None;
        }
        let mut packs = Vec::new();
        let dir = objects.join("pack");
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Some(Arc::new(Packs { hash, packs: Vec::new() }));
            }
            Err(_) => return None,
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "idx") {
                continue;
            }
            // Newest first, as git orders its packs: a push's objects are in the newest.
            let mtime = entry.metadata().and_then(|m| m.modified()).ok();
            packs.push((mtime, path.with_extension("")));
        }
        packs.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let packs = packs.into_iter().map(|(_, stem)| Pack { stem, mapped: OnceLock::new() });
        Some(Arc::new(Packs { hash, packs: packs.collect() }))
    }

    fn mapped(&self, pack: usize) -> Option<&Mapped> {
        let pack = &self.packs[pack];
        pack.mapped.get_or_init(|| Mapped::open(&pack.stem, self.hash).ok()).as_ref()
    }

    fn locate(&self, id: &gix::oid) -> Option<Location> {
        (0..self.packs.len()).find_map(|pack| {
            let offset = self.mapped(pack)?.find(id, self.hash)?;
            Some(Location { pack, offset })
        })
    }
}

impl Mapped {
    /// Maps a pack and its index and checks them as git does on opening them: the index's
    /// header, fan-out and size, the pack's header, object count and checksum against the index.
    fn open(stem: &Path, hash: gix::hash::Kind) -> Result<Mapped> {
        let map = |ext: &str| -> Result<memmap2::Mmap> {
            let path = stem.with_extension(ext);
            let file = std::fs::File::open(&path)?;
            // SAFETY: packs and their indexes are never changed in place: git writes new ones
            // under new names and deletes old ones, which leaves a mapping intact.
            Ok(unsafe { memmap2::Mmap::map(&file)? })
        };
        let idx = map("idx")?;
        let hash_len = hash.len_in_bytes();
        if idx.len() < HEADER + 2 * hash_len || &idx[..4] != IDX_MAGIC || be32(&idx, 4) != Some(2) {
            bail!("{}: not a version 2 pack index", stem.display());
        }
        let mut previous = 0;
        for n in 0..256 {
            let count = be32(&idx, 8 + 4 * n).unwrap_or(0);
            if count < previous {
                bail!("{}: the index's fan-out table is not sorted", stem.display());
            }
            previous = count;
        }
        let count = previous as usize;
        let min = count
            .checked_mul(hash_len + 8)
            .and_then(|tables| tables.checked_add(HEADER + 2 * hash_len))
            .ok_or_else(|| anyhow!("{}: too many objects for one index", stem.display()))?;
        let max = count.saturating_sub(1).saturating_mul(8).saturating_add(min);
        if idx.len() < min || idx.len() > max {
            bail!("{}: the index's size does not fit {count} objects", stem.display());
        }
        let pack = map("pack")?;
        let trailer = pack.len().checked_sub(hash_len);
        let header_ok = pack.len() >= 12 + hash_len
            && &pack[..4] == b"PACK"
            && matches!(be32(&pack, 4), Some(2 | 3))
            && be32(&pack, 8) == Some(count as u32);
        let checksum = &idx[idx.len() - 2 * hash_len..idx.len() - hash_len];
        if !header_ok || trailer.is_none_or(|t| &pack[t..] != checksum) {
            bail!("{}: the pack does not match its index", stem.display());
        }
        Ok(Mapped { idx, pack, count })
    }

    /// The offset of `id` in the pack, by the fan-out table and a binary search of the names.
    fn find(&self, id: &gix::oid, hash: gix::hash::Kind) -> Option<u64> {
        let hash_len = hash.len_in_bytes();
        let first = usize::from(id.as_bytes()[0]);
        let lo = if first == 0 { 0 } else { be32(&self.idx, 8 + 4 * (first - 1))? as usize };
        let hi = be32(&self.idx, 8 + 4 * first)? as usize;
        let names = self.idx.get(HEADER..HEADER + self.count * hash_len)?;
        // Names compared by their first eight bytes as a number, which nearly always decides
        // (a call to memcmp for each step of the search was a sixth of a pre-push walk).
        let prefix = |name: &[u8]| u64::from_be_bytes(name[..8].try_into().expect("8 bytes"));
        let wanted = prefix(id.as_bytes());
        let (mut lo, mut hi) = (lo, hi.min(self.count));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let name = &names[mid * hash_len..(mid + 1) * hash_len];
            let order = prefix(name).cmp(&wanted).then_with(|| name[8..].cmp(&id.as_bytes()[8..]));
            match order {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.offset_at(mid, hash_len),
            }
        }
        None
    }

    fn offset_at(&self, at: usize, hash_len: usize) -> Option<u64> {
        let offsets = HEADER + self.count * (hash_len + 4);
        let offset = be32(&self.idx, offsets + 4 * at)?;
        if offset & 0x8000_0000 == 0 {
            return Some(u64::from(offset));
        }
        let large = (offset & 0x7fff_ffff) as usize;
        let large = large.checked_mul(8)?.checked_add(offsets + 4 * self.count)?;
        let bytes = self.idx.get(large..large.checked_add(8)?)?;
        Some(u64::from_be_bytes(bytes.try_into().ok()?))
    }
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}
