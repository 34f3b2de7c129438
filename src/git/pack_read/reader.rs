//! Reading pack entries: an entry's header, a reader that resolves delta chains with a small
//! cache of what they produced, and git's delta format.

use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use gix::ObjectId;
use gix::objs::Kind;

use super::inflater::Inflater;
use super::{Location, MAX_CHAIN, Packs};

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
    inflate: Inflater,
    cache: Vec<Cached>,
    /// The slot the next entry goes to, once all are in use.
    next: usize,
    delta: Vec<u8>,
    /// Where a delta is applied; then swapped into the cache slot that keeps the result.
    result: Vec<u8>,
    /// How many deltas were applied.
    pub deltas: usize,
}

struct Cached {
    at: Location,
    kind: Kind,
    data: Vec<u8>,
}

/// Where [`PackReader::resolve`] left an object: in the caller's buffer, or in a cache slot.
#[derive(Clone, Copy)]
enum Landed {
    Out,
    Slot(usize),
}

impl PackReader {
    /// Enough for a whole delta chain (git's default depth is 50): a chain resolved to read one
    /// tree leaves the older trees along it here, which the walk asks for next. At most 64 MiB,
    /// for trees of a mebibyte each.
    const SLOTS: usize = 64;
    /// Larger objects are not kept.
    const MAX_CACHED: usize = 1 << 20;

    pub fn new(packs: Arc<Packs>) -> PackReader {
        PackReader {
            packs,
            inflate: Inflater::new(),
            cache: Vec::new(),
            next: 0,
            delta: Vec::new(),
            result: Vec::new(),
            deltas: 0,
        }
    }

    /// The inflater, lent to a reader of loose objects between two reads from the packs.
    pub fn inflater(&mut self) -> &mut gix::zlib::Inflate {
        &mut self.inflate
    }

    /// Reads `id` into `out`: `Ok(None)` when no pack has it, an error when a pack has it but
    /// it cannot be read (the caller may ask gix, which reports in its own words).
    pub fn read(&mut self, id: &gix::oid, out: &mut Vec<u8>) -> Result<Option<Kind>> {
        let Some((kind, place)) = self.locate_and_resolve(id, out)? else { return Ok(None) };
        if let Landed::Slot(slot) = place {
            out.clear();
            out.extend_from_slice(&self.cache[slot].data);
        }
        Ok(Some(kind))
    }

    /// [`Self::read`] without copying an object the cache keeps: the data is in `out` or in the
    /// cache, wherever reading left it. (A tree read through a delta chain is built once, in the
    /// cache slot that keeps it.)
    pub fn read_in_place<'a>(
        &'a mut self,
        id: &gix::oid,
        out: &'a mut Vec<u8>,
    ) -> Result<Option<(Kind, &'a [u8])>> {
        let Some((kind, place)) = self.locate_and_resolve(id, out)? else { return Ok(None) };
        Ok(Some(match place {
            Landed::Out => (kind, &out[..]),
            Landed::Slot(slot) => (kind, &self.cache[slot].data[..]),
        }))
    }

    fn locate_and_resolve(
        &mut self,
        id: &gix::oid,
        out: &mut Vec<u8>,
    ) -> Result<Option<(Kind, Landed)>> {
        let Some(at) = self.packs.locate(id) else { return Ok(None) };
        self.resolve(at, out).map(Some).map_err(|err| anyhow!("reading object {id}: {err}"))
    }

    fn resolve(&mut self, at: Location, out: &mut Vec<u8>) -> Result<(Kind, Landed)> {
        let packs = self.packs.clone();
        let hash = packs.hash;
        let pack = |n: usize| -> Result<&[u8]> {
            Ok(&packs.mapped(n).ok_or_else(|| anyhow!("a pack cannot be read"))?.pack[..])
        };
        // Down the delta chain to an object held whole, or one in the cache.
        let mut chain: Vec<(Location, EntryHeader)> = Vec::new();
        let mut next = at;
        let (kind, mut place) = loop {
            if let Some(slot) = self.cache.iter().position(|c| c.at == next) {
                break (self.cache[slot].kind, Landed::Slot(slot));
            }
            let data = pack(next.pack)?;
            let header = entry_header(data, next.offset, hash)
                .ok_or_else(|| anyhow!("the pack entry at {} is malformed", next.offset))?;
            match header.kind {
                EntryKind::Whole(kind) => {
                    // A base, or a tree whole (git's repacks keep the newest whole, the older
                    // ones against it, and the walk reads newest first), is kept.
                    let keep = (!chain.is_empty() || kind == Kind::Tree)
                        && header.size <= Self::MAX_CACHED;
                    if !keep {
                        self.inflate_to(data, &header, out)?;
                        break (kind, Landed::Out);
                    }
                    let slot = self.slot_for(next, kind);
                    let mut kept = std::mem::take(&mut self.cache[slot].data);
                    let inflated = self.inflate_to(data, &header, &mut kept);
                    self.cache[slot].data = kept;
                    if let Err(err) = inflated {
                        self.cache[slot].at = Location { pack: usize::MAX, offset: 0 };
                        return Err(err);
                    }
                    break (kind, Landed::Slot(slot));
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
        // Up the chain again, each delta applied to the object below it, into the slot that
        // keeps the result (or into `out`, for a result too large to keep).
        while let Some((location, header)) = chain.pop() {
            let mut delta = std::mem::take(&mut self.delta);
            self.inflate_to(pack(location.pack)?, &header, &mut delta)?;
            let mut result = std::mem::take(&mut self.result);
            let base = match place {
                Landed::Out => &out[..],
                Landed::Slot(slot) => &self.cache[slot].data[..],
            };
            let applied = apply_delta(base, &delta, &mut result);
            self.delta = delta;
            applied?;
            self.deltas += 1;
            // A delta's result has its base's type.
            if result.len() <= Self::MAX_CACHED {
                let slot = self.slot_for(location, kind);
                std::mem::swap(&mut self.cache[slot].data, &mut result);
                place = Landed::Slot(slot);
            } else {
                std::mem::swap(out, &mut result);
                place = Landed::Out;
            }
            self.result = result;
        }
        Ok((kind, place))
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

    /// The cache slot that is to keep the object at `at` (the next one in turn once all are in
    /// use), marked as holding it; the caller puts the data in.
    fn slot_for(&mut self, at: Location, kind: Kind) -> usize {
        if self.cache.len() < Self::SLOTS {
            self.cache.push(Cached { at, kind, data: Vec::new() });
            return self.cache.len() - 1;
        }
        let slot = self.next;
        self.next = (self.next + 1) % Self::SLOTS;
        self.cache[slot].at = at;
        self.cache[slot].kind = kind;
        slot
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

/// An object's type and content.
pub type Object = (Kind, Vec<u8>);

/// The objects `ids` as one [`PackReader`] reads them from `repo`'s packs alone (no loose objects,
/// no gix), in that order, so each read finds what the reads before it left in the cache (an
/// error included); through [`PackReader::read_in_place`] when `in_place`. `None` for an object
/// no pack has, and for all when the packs cannot be read plainly. For the tests, which compare
/// them with `git cat-file`.
pub fn read_packed(
    repo: &gix::Repository,
    ids: &[ObjectId],
    in_place: bool,
) -> Vec<Result<Option<Object>>> {
    let Some(packs) = Packs::open(repo) else { return ids.iter().map(|_| Ok(None)).collect() };
    let mut reader = PackReader::new(packs);
    let mut out = Vec::new();
    let mut read = |id: &ObjectId| -> Result<Option<Object>> {
        if in_place {
            return Ok(reader
                .read_in_place(id, &mut out)?
                .map(|(kind, data)| (kind, data.to_vec())));
        }
        Ok(reader.read(id, &mut out)?.map(|kind| (kind, out.clone())))
    };
    ids.iter().map(&mut read).collect()
}

#[cfg(test)]
mod tests;
