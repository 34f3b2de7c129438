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

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::{Result, anyhow, bail};
use gix::ObjectId;
use gix::objs::Kind;

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
        let objects = store.path();
        if objects.join("info/alternates").exists() {
            return None;
        }
        let mut packs = Vec::new();
        let dir = objects.join("pack");
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Some(Arc::new(Packs { hash: repo.object_hash(), packs: Vec::new() }));
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
        Some(Arc::new(Packs { hash: repo.object_hash(), packs: packs.collect() }))
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

/// A pack entry's header: its type, its size once inflated, where its data starts, and for a
/// delta, where its base is.
struct EntryHeader {
    kind: EntryKind,
    size: usize,
    data: usize,
}

enum EntryKind {
    Whole(Kind),
    Delta(Base),
}

enum Base {
    Offset(u64),
    Id(ObjectId),
}

fn entry_header(pack: &[u8], offset: u64, hash: gix::hash::Kind) -> Option<EntryHeader> {
    let start = usize::try_from(offset).ok()?;
    let mut at = start;
    let mut byte = *pack.get(at)?;
    at += 1;
    let kind = (byte >> 4) & 7;
    let mut size = u64::from(byte & 15);
    let mut shift = 4;
    while byte & 0x80 != 0 {
        byte = *pack.get(at)?;
        at += 1;
        if shift > 57 {
            return None;
        }
        size |= u64::from(byte & 0x7f) << shift;
        shift += 7;
    }
    let kind = match kind {
        1 => EntryKind::Whole(Kind::Commit),
        2 => EntryKind::Whole(Kind::Tree),
        3 => EntryKind::Whole(Kind::Blob),
        4 => EntryKind::Whole(Kind::Tag),
        6 => {
            // The distance back to the base, in git's offset varint.
            let (distance, used) = crate::git::index_scan::varint(pack.get(at..)?)?;
            at += used;
            let distance = u64::try_from(distance).ok()?;
            if distance == 0 || distance >= offset {
                return None;
            }
            EntryKind::Delta(Base::Offset(offset - distance))
        }
        7 => {
            let id = pack.get(at..at + hash.len_in_bytes())?;
            at += id.len();
            EntryKind::Delta(Base::Id(ObjectId::from_bytes_or_panic(id)))
        }
        _ => return None,
    };
    Some(EntryHeader { kind, size: usize::try_from(size).ok()?, data: at })
}

/// Reads objects from [`Packs`], one reader a thread: its inflater, a small cache of the objects
/// delta chains produced (where the next object's base usually is), and its buffers.
pub struct PackReader {
    packs: Arc<Packs>,
    inflate: gix::zlib::Inflate,
    cache: Vec<Cached>,
    /// The slot the next entry goes to, once all are in use.
    next: usize,
    delta: Vec<u8>,
    /// How many deltas were applied.
    pub deltas: usize,
}

struct Cached {
    at: Location,
    kind: Kind,
    data: Vec<u8>,
}

impl PackReader {
    const SLOTS: usize = 16;
    /// Larger objects are not kept.
    const MAX_CACHED: usize = 1 << 20;

    pub fn new(packs: Arc<Packs>) -> PackReader {
        PackReader {
            packs,
            inflate: Default::default(),
            cache: Vec::new(),
            next: 0,
            delta: Vec::new(),
            deltas: 0,
        }
    }

    /// Reads `id` into `out`: `Ok(None)` when no pack has it, an error when a pack has it but
    /// it cannot be read (the caller may ask gix, which reports in its own words).
    pub fn read(&mut self, id: &gix::oid, out: &mut Vec<u8>) -> Result<Option<Kind>> {
        let Some(at) = self.packs.locate(id) else { return Ok(None) };
        self.read_at(at, out).map(Some).map_err(|err| anyhow!("reading object {id}: {err}"))
    }

    fn read_at(&mut self, at: Location, out: &mut Vec<u8>) -> Result<Kind> {
        let packs = self.packs.clone();
        let hash = packs.hash;
        let pack = |n: usize| -> Result<&[u8]> {
            Ok(&packs.mapped(n).ok_or_else(|| anyhow!("a pack cannot be read"))?.pack[..])
        };
        // Down the delta chain to an object held whole, or one in the cache.
        let mut chain: Vec<(Location, EntryHeader)> = Vec::new();
        let mut next = at;
        let kind = loop {
            if let Some(hit) = self.cache.iter().find(|c| c.at == next) {
                out.clear();
                out.extend_from_slice(&hit.data);
                break hit.kind;
            }
            let data = pack(next.pack)?;
            let header = entry_header(data, next.offset, hash)
                .ok_or_else(|| anyhow!("the pack entry at {} is malformed", next.offset))?;
            match header.kind {
                EntryKind::Whole(kind) => {
                    self.inflate_to(data, &header, out)?;
                    // A base, or a tree whole (git's repacks keep the newest whole, the older
                    // ones against it, and the walk reads newest first).
                    if !chain.is_empty() || kind == Kind::Tree {
                        self.put(next, kind, out);
                    }
                    break kind;
                }
                EntryKind::Delta(ref base) => {
                    let base = match base {
                        Base::Offset(offset) => Location { pack: next.pack, offset: *offset },
                        Base::Id(id) => packs
                            .locate(id)
                            .ok_or_else(|| anyhow!("the delta base {id} is in no pack"))?,
                    };
                    chain.push((next, header));
                    if chain.len() > MAX_CHAIN {
                        bail!("the delta chain is longer than {MAX_CHAIN}: a loop");
                    }
                    next = base;
                }
            }
        };
        // Up the chain again, each delta applied to the object below it.
        let mut result = Vec::new();
        while let Some((location, header)) = chain.pop() {
            let mut delta = std::mem::take(&mut self.delta);
            self.inflate_to(pack(location.pack)?, &header, &mut delta)?;
            apply_delta(out, &delta, &mut result)?;
            self.delta = delta;
            self.deltas += 1;
            std::mem::swap(out, &mut result);
            // A delta's result has its base's type.
            self.put(location, kind, out);
        }
        Ok(kind)
    }

    /// Inflates an entry's data into `out`: exactly the size its header gives, or an error.
    fn inflate_to(&mut self, pack: &[u8], header: &EntryHeader, out: &mut Vec<u8>) -> Result<()> {
        // Deflate gives at most about 1,032 bytes a byte: a size beyond that is a corrupt header,
        // not an allocation to make.
        let compressed = pack.len().saturating_sub(header.data);
        if header.size > compressed.saturating_mul(1032).saturating_add(64) {
            bail!("a pack entry says {} bytes, more than its data can hold", header.size);
        }
        out.clear();
        out.resize(header.size, 0);
        self.inflate.reset();
        let (status, _, written) = self
            .inflate
            .once(&pack[header.data..], out)
            .map_err(|err| anyhow!("a pack entry does not inflate: {err}"))?;
        if status != gix::zlib::Status::StreamEnd || written != header.size {
            bail!("a pack entry inflates to other than the {} bytes it says", header.size);
        }
        Ok(())
    }

    fn put(&mut self, at: Location, kind: Kind, data: &[u8]) {
        if data.len() > Self::MAX_CACHED {
            return;
        }
        if self.cache.len() < Self::SLOTS {
            self.cache.push(Cached { at, kind, data: data.to_vec() });
            return;
        }
        let slot = &mut self.cache[self.next];
        self.next = (self.next + 1) % Self::SLOTS;
        slot.at = at;
        slot.kind = kind;
        slot.data.clear();
        slot.data.extend_from_slice(data);
    }
}

/// Applies a git delta (`gitformat-pack`, "Deltified representation") to `base`, into `out`.
fn apply_delta(base: &[u8], delta: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let malformed = || anyhow!("a delta is malformed");
    let mut at = 0;
    let mut size = || -> Option<usize> {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let byte = *delta.get(at)?;
            at += 1;
            if shift > 63 {
                return None;
            }
            value |= u64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                return usize::try_from(value).ok();
            }
        }
    };
    let (base_size, result_size) = (size().ok_or_else(malformed)?, size().ok_or_else(malformed)?);
    if base_size != base.len() {
        bail!("a delta expects a base of {base_size} bytes, its base has {}", base.len());
    }
    // An instruction of at most 8 bytes copies at most 16 MiB: a larger size is a corrupt header,
    // not an allocation to make.
    if result_size > delta.len().saturating_mul(1 << 24) {
        return Err(malformed());
    }
    out.clear();
    out.reserve(result_size);
    while let Some(&op) = delta.get(at) {
        at += 1;
        if op & 0x80 != 0 {
            let mut field = |bits: u8, shift: u32| -> Option<usize> {
                if op & bits == 0 {
                    return Some(0);
                }
                let byte = *delta.get(at)?;
                at += 1;
                Some(usize::from(byte) << shift)
            };
            let offset =
                field(1, 0).and_then(|a| Some(a | field(2, 8)? | field(4, 16)? | field(8, 24)?));
            let length = field(0x10, 0).and_then(|a| Some(a | field(0x20, 8)? | field(0x40, 16)?));
            let (Some(offset), Some(length)) = (offset, length) else { return Err(malformed()) };
            let length = if length == 0 { 0x10000 } else { length };
            let copy = offset.checked_add(length).and_then(|end| base.get(offset..end));
            out.extend_from_slice(copy.ok_or_else(malformed)?);
        } else if op != 0 {
            let insert = delta.get(at..at + usize::from(op)).ok_or_else(malformed)?;
            at += insert.len();
            out.extend_from_slice(insert);
        } else {
            return Err(malformed());
        }
        if out.len() > result_size {
            return Err(malformed());
        }
    }
    if out.len() != result_size {
        bail!("a delta gives {} bytes where it says {result_size}", out.len());
    }
    Ok(())
}

/// The object `id` as [`PackReader`] reads it from `repo`'s packs alone (no loose objects, no
/// gix): `None` when no pack has it or the packs cannot be read plainly. For the tests, which
/// compare it with `git cat-file`.
pub fn read_packed(repo: &gix::Repository, id: &gix::oid) -> Result<Option<(Kind, Vec<u8>)>> {
    let Some(packs) = Packs::open(repo) else { return Ok(None) };
    let mut out = Vec::new();
    Ok(PackReader::new(packs).read(id, &mut out)?.map(|kind| (kind, out)))
}

#[cfg(test)]
mod tests;
