//! Key objects: the small blobs whose content names an issue (`git-handoff issue 179`) or a branch
//! (`git-handoff branch refs/heads/x`), on which every record is also stored, so the latest
//! handoff of an issue or branch is one notes lookup.

use anyhow::{Context, Result};
use gix::ObjectId;

use crate::git::repo::Repo;

/// What a key object stands for.
pub enum Key<'a> {
    Issue(u64),
    Branch(&'a str),
    /// A commit on which an attempt began (see [`super::begun`]).
    Begun(ObjectId),
}

impl Key<'_> {
    fn content(&self) -> String {
        match self {
            Key::Issue(n) => format!("git-handoff issue {n}\n"),
            Key::Branch(name) => format!("git-handoff branch {name}\n"),
            Key::Begun(commit) => format!("git-handoff attempt began on {commit}\n"),
        }
    }

    /// The id of the key object (a blob) in this repository's hash, without writing it.
    pub fn id(&self, repo: &Repo) -> Result<ObjectId> {
        let content = self.content();
        gix::objs::compute_hash(repo.object_hash(), gix::objs::Kind::Blob, content.as_bytes())
            .context("hashing a record key")
    }

    pub(super) fn write(&self, repo: &Repo) -> Result<ObjectId> {
        Ok(repo
            .gix()
            .write_blob(self.content().as_bytes())
            .context("writing a record key")?
            .detach())
    }
}

/// The folder of the notes tree that keeps every key blob, fanned out by the first two hex digits
/// of its id (`handoff-keys/ab/cdef…`): an entry git (and gix) keep as a non-note through every
/// note edit and `git notes prune`, so the key blobs travel with the notes ref and survive `git
/// gc` in any clone. One folder, not an entry per key beside the notes: the top of the notes tree
/// stays as small as the notes' own fanout, and a write rewrites two small trees, not every key.
pub const KEYS_DIR: &str = "handoff-keys";

/// Where earlier versions kept each key: a top-level entry `handoff-key-<id>`.
const FLAT_KEY_PREFIX: &str = "handoff-key-";

/// `tree` with every key of `keys` kept under [`KEYS_DIR`], and the top-level key entries of
/// earlier versions moved there too. Returns `tree` itself when nothing was missing.
pub(super) fn keep_entries(repo: &Repo, tree: ObjectId, keys: &[ObjectId]) -> Result<ObjectId> {
    let gix = repo.gix();
    let top = gix.find_tree(tree).context("reading the notes tree")?;
    let mut flat = Vec::new();
    for entry in top.iter() {
        let entry = entry.context("reading the notes tree")?;
        let name = entry.filename().to_string();
        if let Some(hex) = name.strip_prefix(FLAT_KEY_PREFIX)
            && entry.mode().is_blob()
            && let Ok(id) = ObjectId::from_hex(hex.as_bytes())
        {
            flat.push((name, id));
        }
    }
    let mut missing = Vec::new();
    for key in keys {
        let path = entry_path(*key);
        if top.lookup_entry_by_path(&path).context("reading the notes tree")?.is_none() {
            missing.push(*key);
        }
    }
    if flat.is_empty() && missing.is_empty() {
        return Ok(tree);
    }
    let mut editor = gix.edit_tree(tree).context("editing the notes tree")?;
    for (name, id) in &flat {
        editor.remove(name.as_str()).context("moving a record key")?;
        editor
            .upsert(entry_path(*id), gix::objs::tree::EntryKind::Blob, *id)
            .context("moving a record key")?;
    }
    for key in missing {
        editor
            .upsert(entry_path(key), gix::objs::tree::EntryKind::Blob, key)
            .context("keeping a record key in the notes tree")?;
    }
    Ok(editor.write().context("writing the notes tree")?.detach())
}

/// The path of a key blob's entry in the notes tree.
pub fn entry_path(key: ObjectId) -> String {
    let hex = key.to_string();
    format!("{KEYS_DIR}/{}/{}", &hex[..2], &hex[2..])
}
