//! A delta-base cache sized for the walk: trees and commits of neighbouring commits share bases,
//! so keeping the recent ones avoids inflating the same base again.

/// A clone of the repository handle with a delta-base cache, for the objects the pack reader
/// leaves to gix (alternates, replace refs): gix is built without its LRU pack caches, and
/// without one every tree read resolves its whole delta chain, up to 50 deltas in an ordinary
/// pack.
pub fn with_delta_cache(repo: &gix::Repository) -> gix::Repository {
    let mut odb = repo.clone();
    odb.objects.set_pack_cache(|| Box::<DeltaBaseCache>::default());
    odb
}

/// A small cache of decoded pack entries, keyed by pack and offset: the last few objects a delta
/// chain produced, which is where the next object's base is when objects are read in delta order.
/// Its buffers are reused, so reading many trees allocates (and faults in) little memory.
#[derive(Default)]
pub(super) struct DeltaBaseCache {
    pub(super) slots: Vec<CachedEntry>,
    /// The slot the next entry goes to, once all are in use.
    pub(super) next: usize,
    /// Counts the lookups that found nothing.
    pub(super) misses: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
}

pub(super) struct CachedEntry {
    pub(super) key: (u32, u64),
    pub(super) kind: gix::object::Kind,
    pub(super) data: Vec<u8>,
    pub(super) compressed_size: usize,
}

impl DeltaBaseCache {
    const SLOTS: usize = 16;
    /// Larger entries are not kept.
    const MAX_ENTRY: usize = 1 << 20;
}

impl gix::odb::pack::cache::DecodeEntry for DeltaBaseCache {
    fn put(&mut self, pack: u32, offset: u64, data: &[u8], kind: gix::object::Kind, size: usize) {
        let key = (pack, offset);
        if data.len() > Self::MAX_ENTRY || self.slots.iter().any(|slot| slot.key == key) {
            return;
        }
        let entry = if self.slots.len() < Self::SLOTS {
            self.slots.push(CachedEntry { key, kind, data: Vec::new(), compressed_size: size });
            self.slots.last_mut().expect("just pushed")
        } else {
            let entry = &mut self.slots[self.next];
            self.next = (self.next + 1) % Self::SLOTS;
            entry
        };
        entry.key = key;
        entry.kind = kind;
        entry.compressed_size = size;
        entry.data.clear();
        entry.data.extend_from_slice(data);
    }

    fn get(
        &mut self,
        pack: u32,
        offset: u64,
        out: &mut Vec<u8>,
    ) -> Option<(gix::object::Kind, usize)> {
        let Some(entry) = self.slots.iter().find(|slot| slot.key == (pack, offset)) else {
            if let Some(misses) = &self.misses {
                misses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            return None;
        };
        out.clear();
        out.extend_from_slice(&entry.data);
        Some((entry.kind, entry.compressed_size))
    }
}
