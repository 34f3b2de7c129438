//! One object's note in a notes ref, looked up as git's notes code finds it, reading only the
//! trees on the object's fanout path: the ref's commit, its tree, at most one subtree per level
//! (`ab/cdef…`, `ab/cd/ef…`), and the note's blob.
//!
//! gix's notes platform loads every entry of the top of the notes tree into its fanout structure
//! before it answers, and again for each lookup: recall's two lookups (the branch's key, then the
//! issue's) cost more than the rest of recall together, and recall runs at every session start,
//! where it is measured against `git notes show`. The top of the tree, read whole once, is kept
//! for the next lookup in the same process ([`NotesCache`]: a tree's bytes never change under its
//! id), and so is what a reader made of a note's blob ([`Roots::made_of`]): `note` stores one
//! record list on the commit's, the branch's and the keys, and recall reads all three.
//!
//! What counts as a note follows gix's rules, which are git's: a blob whose name is the rest of
//! the object's id at that depth, or a tree named by the next two hex digits, to look in next.
//! Anything else in a notes tree is not a note and is passed over.

use std::any::Any;
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result, bail};
use gix::ObjectId;

use crate::git::walk::Objects;

/// What lookups in one process share: an object reader (its inflater is costly to set up) and the
/// trees read whole at the top of notes trees, by id.
#[derive(Default)]
pub struct NotesCache(Mutex<Shared>);

#[derive(Default)]
struct Shared {
    objects: Option<Objects>,
    roots: Vec<(ObjectId, Arc<Vec<u8>>)>,
    /// The tree each notes commit read so far names (a commit's tree never changes either).
    trees: Vec<(ObjectId, ObjectId)>,
    /// What readers made of note blobs, by blob id.
    made: Vec<Made>,
}

/// What a reader made of one blob (its parsed records), kept under the blob's id.
type Made = (ObjectId, Arc<dyn Any + Send + Sync>);

impl NotesCache {
    /// How many roots are kept: the notes ref and a few remote-tracking copies.
    const KEPT: usize = 4;

    /// Runs `read` with the shared object reader (made by `objects` on first use) and the kept
    /// roots.
    pub fn with<T>(
        &self,
        objects: impl FnOnce() -> Objects,
        read: impl FnOnce(&mut Objects, &mut Roots<'_>) -> T,
    ) -> T {
        let mut guard = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Shared { objects: kept, roots, trees, made } = &mut *guard;
        let objects = kept.get_or_insert_with(objects);
        read(objects, &mut Roots { roots, trees, made })
    }
}

/// What [`NotesCache`] keeps (roots, the trees of notes commits, what was made of blobs), lent
/// to one lookup.
pub struct Roots<'a> {
    roots: &'a mut Vec<(ObjectId, Arc<Vec<u8>>)>,
    trees: &'a mut Vec<(ObjectId, ObjectId)>,
    made: &'a mut Vec<Made>,
}

impl Roots<'_> {
    fn get(&self, id: ObjectId) -> Option<Arc<Vec<u8>>> {
        self.roots.iter().find(|(at, _)| *at == id).map(|(_, data)| data.clone())
    }

    fn put(&mut self, id: ObjectId, data: Arc<Vec<u8>>) {
        keep(self.roots, (id, data));
    }

    /// What a reader made of the blob `id` earlier in this process, if it kept it as a `T`.
    pub fn made_of<T: Any + Send + Sync>(&self, id: ObjectId) -> Option<Arc<T>> {
        let (_, made) = self.made.iter().find(|(at, _)| *at == id)?;
        made.clone().downcast::<T>().ok()
    }

    /// Keeps what a reader made of the blob `id`, for [`Roots::made_of`]: the blob never changes.
    pub fn keep_made<T: Any + Send + Sync>(&mut self, id: ObjectId, made: Arc<T>) {
        keep(self.made, (id, made));
    }

    /// [`root_of`] `tip`, read once per process: recall looks in the same notes ref twice.
    pub fn root_of(&mut self, objects: &mut Objects, tip: ObjectId) -> Result<ObjectId> {
        if let Some((_, root)) = self.trees.iter().find(|(at, _)| *at == tip) {
            return Ok(*root);
        }
        let root = root_of(objects, tip)?;
        keep(self.trees, (tip, root));
        Ok(root)
    }
}

/// Adds `entry` to what is kept, the oldest dropped once [`NotesCache::KEPT`] are.
fn keep<T>(kept: &mut Vec<T>, entry: T) {
    if kept.len() == NotesCache::KEPT {
        kept.remove(0);
    }
    kept.push(entry);
}

/// The id of the note blob on `object` in the notes tree `root`, if there is one.
pub fn note_in_tree(
    objects: &mut Objects,
    memo: &mut Roots<'_>,
    root: ObjectId,
    object: &gix::oid,
) -> Result<Option<ObjectId>> {
    let hex = object.to_hex().to_string();
    let hash = object.kind();
    let mut tree = root;
    let mut at = 0;
    let mut buf = Vec::new();
    loop {
        let data = match (at, memo.get(tree)) {
            (0, Some(data)) => data,
            _ => {
                let data = Arc::new(read_tree(objects, tree, &mut buf)?);
                if at == 0 {
                    memo.put(tree, data.clone());
                }
                data
            }
        };
        let rest = &hex.as_bytes()[at..];
        // A fanout subtree leaves at least two hex digits for the names below it.
        let fanout = (at + 2 < hex.len()).then(|| &rest[..2]);
        let malformed = || format!("the notes tree {tree} cannot be parsed");
        match note_or_fanout(&data, rest, fanout, hash.len_in_bytes()).with_context(malformed)? {
            Found::Note(blob) => return Ok(Some(blob)),
            Found::Fanout(subtree) => {
                tree = subtree;
                at += 2;
            }
            Found::Neither => return Ok(None),
        }
    }
}

/// What one level of a notes tree holds for an object.
enum Found {
    Note(ObjectId),
    Fanout(ObjectId),
    Neither,
}

/// In the raw tree `data`, the blob called `rest` (the object's note), else the tree called
/// `fanout` (where to look next); `None` when an entry is malformed. One pass over the entries,
/// their modes read as gix reads them: `100…` a blob's (git writes `100644` or `100755`),
/// `40000` a tree's.
fn note_or_fanout(data: &[u8], rest: &[u8], fanout: Option<&[u8]>, id_len: usize) -> Option<Found> {
    let mut subtree = None;
    let mut left = data;
    while !left.is_empty() {
        let space = memchr::memchr(b' ', left)?;
        let mode = &left[..space];
        let after = &left[space + 1..];
        let nul = memchr::memchr(0, after)?;
        let name = &after[..nul];
        let id = after.get(nul + 1..nul + 1 + id_len)?;
        left = &after[nul + 1 + id_len..];
        if name == rest && mode.len() == 6 && mode.starts_with(b"100") {
            return Some(Found::Note(ObjectId::from_bytes_or_panic(id)));
        }
        if Some(name) == fanout && matches!(mode, b"40000" | b"040000") {
            subtree = Some(ObjectId::from_bytes_or_panic(id));
        }
    }
    Some(subtree.map_or(Found::Neither, Found::Fanout))
}

/// The tree a notes ref's tip names: the tree of its commit (the tip itself when it is a tree,
/// a tag peeled first).
fn root_of(objects: &mut Objects, tip: ObjectId) -> Result<ObjectId> {
    let mut buf = Vec::new();
    let mut at = tip;
    for _ in 0..16 {
        match objects.read(at, &mut buf)? {
            gix::object::Kind::Commit => {
                return gix::objs::CommitRefIter::from_bytes(&buf, at.kind())
                    .tree_id()
                    .with_context(|| format!("the notes commit {at} cannot be parsed"));
            }
            gix::object::Kind::Tree => return Ok(at),
            gix::object::Kind::Tag => {
                at = gix::objs::TagRefIter::from_bytes(&buf, at.kind())
                    .target_id()
                    .with_context(|| format!("the tag {at} cannot be parsed"))?;
            }
            kind => bail!("the notes ref names {tip}, which leads to a {kind}, not a commit"),
        }
    }
    bail!("the notes ref names {tip}, a chain of tags too long to follow")
}

/// The whole tree `id`.
fn read_tree(objects: &mut Objects, id: ObjectId, buf: &mut Vec<u8>) -> Result<Vec<u8>> {
    let kind = objects.read(id, buf)?;
    if kind != gix::object::Kind::Tree {
        bail!("the notes tree {id} is a {kind}, not a tree");
    }
    Ok(std::mem::take(buf))
}

#[cfg(test)]
mod tests {
    use super::{Found, note_or_fanout};

    fn entry(mode: &str, name: &str, id: u8) -> Vec<u8> {
        let mut bytes = format!("{mode} {name}\0").into_bytes();
        bytes.extend([id; 20]);
        bytes
    }

    #[test]
    fn a_note_is_found_before_its_fanout_and_trees_named_as_notes_are_passed_over() {
        let rest = "cdef".repeat(9) + "cdef";
        let tree = [
            entry("40000", "ab", 1),
            entry("40000", &rest, 2),
            entry("100644", "README", 3),
            entry("100644", &rest, 4),
        ]
        .concat();
        let found = note_or_fanout(&tree, rest.as_bytes(), Some(b"cd"), 20);
        assert!(matches!(found, Some(Found::Note(id)) if id.as_bytes()[0] == 4));
        let found = note_or_fanout(&tree, b"abcd", Some(b"ab"), 20);
        assert!(matches!(found, Some(Found::Fanout(id)) if id.as_bytes()[0] == 1));
        assert!(matches!(note_or_fanout(&tree, b"abcd", None, 20), Some(Found::Neither)));
        assert!(note_or_fanout(&tree[..tree.len() - 3], b"x", None, 20).is_none());
    }
}
