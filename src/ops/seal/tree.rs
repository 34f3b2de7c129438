//! The seal's tree without `git write-tree`: HEAD's tree edited in-process at the paths the seal
//! changes (the list it has already made from the two indexes), the new trees stored as one pack
//! in the quarantine, written here (see [`pack`]). `write-tree` reads and rewrites the whole
//! private index and writes each new tree as a loose file; on the generated 30k-file tree (201
//! edits over 300 directories) that was a third of the seal. The index the seal installs then
//! lacks the cache tree of the changed directories, which git rebuilds at the next commit.
//!
//! The tree is git's by construction: entries are sorted as git sorts them, emptied directories
//! disappear, and the differential tests compare every seal's tree with `git add -A`'s.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Result, anyhow, bail};
use gix::ObjectId;

use super::stage::Change;
use crate::git::pack_write;

/// The tree of HEAD (`head`, `None` when unborn) with `changes` applied, except those at `held`;
/// its new trees go to the object directory `objects_dir` (flushed to disk with `flush`).
pub(super) fn build(
    repo: &gix::Repository,
    (objects_dir, flush): (&Path, bool),
    head: Option<ObjectId>,
    changes: &[Change],
    held: &HashSet<&[u8]>,
) -> Result<String> {
    let hash = repo.object_hash();
    let base = match head {
        Some(commit) => repo.find_commit(commit)?.tree_id()?.detach(),
        None => ObjectId::empty_tree(hash),
    };
    let mut editor = repo.edit_tree(base)?.detach();
    let applied = changes.iter().filter(|c| !held.contains(c.path.as_slice()));
    // Removals first: a file that became a directory (or the reverse) is two changes.
    for change in applied.clone().filter(|c| c.new_mode == 0) {
        editor.remove(components(&change.path))?;
    }
    for change in applied.filter(|c| c.new_mode != 0) {
        let Some(kind) = pack_write::entry_kind(change.new_mode) else {
            bail!("an index entry of mode {:o} cannot go into a tree", change.new_mode);
        };
        let id = ObjectId::from_hex(change.new_id.as_bytes())
            .map_err(|err| anyhow!("reading the staged object id {}: {err}", change.new_id))?;
        editor.upsert(components(&change.path), kind, id)?;
    }
    Ok(pack_write::write_tree(&mut editor, objects_dir, hash, pack_write::Pack::Kept { flush })?
        .to_string())
}

fn components(path: &[u8]) -> impl Iterator<Item = &gix::bstr::BStr> {
    path.split(|&b| b == b'/').map(Into::into)
}
