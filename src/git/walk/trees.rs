//! Which commits touch the note directory: tree lookups on a second thread, each tree read only as
//! far as the search needs (it stops at the first entry sorting after the name, as git's
//! `find_tree_entry` does), in the direction the delta chains run.

use anyhow::{Context, Result};
use gix::ObjectId;
use gix::objs::tree::EntryMode;

use super::delta_cache::DeltaBaseCache;
use super::objects::{Objects, Sources};
use super::tree_entry::Entry;

/// The trees whose entry at the path is wanted: the walk adds them as it parses commits (newest
/// first), and a second thread looks them up a chunk at a time.
#[derive(Default)]
pub(super) struct TreeWork {
    pub(super) state: std::sync::Mutex<TreeQueue>,
    pub(super) added: std::sync::Condvar,
}

#[derive(Default)]
pub(super) struct TreeQueue {
    pub(super) trees: Vec<ObjectId>,
    /// Where the next chunk starts.
    pub(super) next: usize,
    /// No more trees will come.
    pub(super) finished: bool,
    /// The lookup thread waits for a chunk to fill.
    pub(super) waiting: bool,
}

impl TreeWork {
    pub(super) const CHUNK: usize = 64;
    /// How many trees wait when the lookup thread starts: it takes them at once, a chunk smaller
    /// than the others, so it is busy from the start while the walk goes on.
    pub(super) const START: usize = 16;

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, TreeQueue> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Adds a tree; returns how many trees have been added in all.
    pub(super) fn push(&self, tree: ObjectId) -> usize {
        let mut queue = self.lock();
        queue.trees.push(tree);
        let added = queue.trees.len();
        // The waiting thread is woken for a whole chunk: a wake-up costs more than a lookup.
        if queue.waiting && queue.trees.len() - queue.next >= Self::CHUNK {
            queue.waiting = false;
            drop(queue);
            self.added.notify_one();
        }
        added
    }

    pub(super) fn finish(&self) {
        self.lock().finished = true;
        self.added.notify_one();
    }

    /// The next chunk of trees and where it starts among all added, or `None` once every tree
    /// has been handed out. The first chunk may be as small as [`Self::START`].
    pub(super) fn take(&self) -> Option<(usize, Vec<ObjectId>)> {
        let mut queue = self.lock();
        loop {
            let available = queue.trees.len() - queue.next;
            let enough = if queue.next == 0 { Self::START } else { Self::CHUNK };
            if available >= enough || (queue.finished && available > 0) {
                let start = queue.next;
                queue.next += available.min(Self::CHUNK);
                return Some((start, queue.trees[start..queue.next].to_vec()));
            }
            if queue.finished {
                return None;
            }
            queue.waiting = true;
            queue = self.added.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Looks the path up in every tree handed out, until the walk is done; stops early (leaving
    /// the rest unlooked-up) on the first error. Also gives back the lookup if it read the first
    /// chunk: the newest trees are in its cache.
    pub(super) fn run(
        &self,
        repo: &gix::Repository,
        sources: &Sources,
        path: &str,
    ) -> Result<(gix::hashtable::HashMap<ObjectId, Entry>, Option<TreeLookup>)> {
        let mut entries = gix::hashtable::HashMap::default();
        // Which way the pack's delta chains run: git's repacks keep the newest tree whole and
        // store older ones against newer ones, so trees are best read newest first, the walk's
        // order; `git fast-import` stores each tree against its parent's, so parents first is
        // best. Reading against the chains' direction resolves a whole chain (up to 50 deltas)
        // for one tree; the reader keeps the last 64 objects it produced, so the older trees
        // along that chain are then found in its cache.
        let mut parents_first = false;
        let mut lookup = None;
        let mut first = false;
        while let Some((start, mut chunk)) = self.take() {
            first |= start == 0;
            let lookup = lookup.get_or_insert_with(|| TreeLookup::new(repo, sources, path));
            entries.reserve(chunk.len());
            let mut look_up = |tree: ObjectId, lookup: &mut TreeLookup| -> Result<()> {
                if let gix::hashtable::hash_map::Entry::Vacant(slot) = entries.entry(tree) {
                    slot.insert(lookup.entry(tree)?);
                }
                Ok(())
            };
            let mut next = 0;
            // Newest first until two trees in a row cost more than a couple of deltas each: their
            // bases are older trees. (One such tree may just follow a tree read out of order.)
            let mut costly = 0;
            while !parents_first && next < chunk.len() {
                let deltas = lookup.deltas();
                look_up(chunk[next], lookup)?;
                next += 1;
                costly = if lookup.deltas() - deltas > 2 { costly + 1 } else { 0 };
                parents_first = costly == 2;
            }
            let rest = &mut chunk[next..];
            rest.reverse();
            let deltas_before = lookup.deltas();
            for &tree in rest.iter() {
                look_up(tree, lookup)?;
            }
            // Back to newest first when parents first costs more than a couple of deltas a tree
            // (the first tree read parents first resolves its whole chain, up to 50 deltas).
            if lookup.deltas() - deltas_before > 50 + 2 * rest.len() {
                parents_first = false;
            }
        }
        Ok((entries, lookup.filter(|_| first)))
    }
}

/// Looks up one path in trees, remembering what it read: the trees along the path rarely change
/// from one commit to the next.
pub(super) struct TreeLookup {
    pub(super) objects: Objects,
    /// How many deltas the cache did not have.
    pub(super) misses: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    pub(super) components: Vec<Vec<u8>>,
    /// For each depth below the root, tree id to the entry of the next path component in it.
    pub(super) memo: Vec<gix::hashtable::HashMap<ObjectId, Entry>>,
    pub(super) buf: Vec<u8>,
}

impl TreeLookup {
    pub(super) fn new(repo: &gix::Repository, sources: &Sources, path: &str) -> Self {
        let components =
            path.split('/').filter(|c| !c.is_empty()).map(|c| c.as_bytes().to_vec()).collect();
        let misses = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut cached = repo.clone();
        let counter = misses.clone();
        cached.objects.set_pack_cache(move || {
            Box::new(DeltaBaseCache { misses: Some(counter.clone()), ..Default::default() })
        });
        TreeLookup {
            objects: Objects::new(&cached, sources),
            misses,
            components,
            memo: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// How many deltas were resolved so far (by the pack reader, and delta-base cache misses in
    /// gix).
    pub(super) fn deltas(&self) -> usize {
        self.objects.deltas() + self.misses.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The type and id of the entry at the path in `tree`, if there is one.
    pub(super) fn entry(&mut self, tree: ObjectId) -> Result<Entry> {
        let mut at = tree;
        for depth in 0..self.components.len() {
            // Each root tree is looked up once (the caller keeps what it found); the trees below
            // it rarely change from one commit to the next, and are remembered.
            let entry = if depth == 0 {
                self.find(at, depth)?
            } else {
                if self.memo.len() < depth {
                    self.memo.resize_with(depth, Default::default);
                }
                match self.memo[depth - 1].get(&at) {
                    Some(entry) => *entry,
                    None => {
                        let entry = self.find(at, depth)?;
                        self.memo[depth - 1].insert(at, entry);
                        entry
                    }
                }
            };
            match entry {
                None => return Ok(None),
                Some(found) if depth + 1 == self.components.len() => return Ok(Some(found)),
                Some((mode, id)) if mode.is_tree() => at = id,
                Some(_) => return Ok(None),
            }
        }
        // An empty path names the whole tree.
        Ok(Some((EntryMode::from(gix::objs::tree::EntryKind::Tree), tree)))
    }

    pub(super) fn find(&mut self, tree: ObjectId, depth: usize) -> Result<Entry> {
        self.objects
            .find_in_tree(tree, &self.components[depth], &mut self.buf)
            .with_context(|| format!("reading tree {tree}"))
    }
}
