//! Tree reading for the layout checks: which paths a commit changed, and a file's blob at a commit.

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::object::Kind;
use gix::objs::tree::EntryMode;

use super::Odb;
use crate::git::walk;

pub(super) type Entries = std::collections::BTreeMap<Vec<u8>, (EntryMode, ObjectId)>;

/// The tree of commit `commit`.
fn tree_of(repo: &Odb, commit: ObjectId) -> Result<ObjectId> {
    let data = repo.read(commit, Kind::Commit).with_context(|| format!("reading {commit}"))?;
    gix::objs::CommitRefIter::from_bytes(&data, commit.kind()).tree_id().map_err(|_| {
        anyhow!("commit {commit} cannot be parsed: it does not start with a tree line")
    })
}

/// The paths a commit changes against its first parent (all of them for a root commit), with a
/// status letter (`A`, `D`, `M`), as `git diff-tree -r --no-renames` lists them.
pub(super) fn changed_paths(
    repo: &Odb,
    parent: Option<ObjectId>,
    id: ObjectId,
) -> Result<Vec<(u8, String)>> {
    let old = parent.map(|p| tree_of(repo, p)).transpose()?;
    let mut changes = Vec::new();
    diff_trees(repo, old, Some(tree_of(repo, id)?), "", &mut changes)
        .with_context(|| format!("listing the files of {id}"))?;
    changes.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(changes)
}

pub(super) fn tree_entries(repo: &Odb, tree: Option<ObjectId>) -> Result<Entries> {
    let mut entries = Entries::new();
    if let Some(tree) = tree {
        let data = repo.read(tree, Kind::Tree)?;
        for entry in gix::objs::TreeRefIter::from_bytes(&data, tree.kind()) {
            let entry = entry.map_err(|_| anyhow!("tree {tree} cannot be parsed"))?;
            entries.insert(entry.filename.to_vec(), (entry.mode, entry.oid.to_owned()));
        }
    }
    Ok(entries)
}

/// Recursively compares two trees (`None` is the empty tree) and collects changed blob paths.
pub(super) fn diff_trees(
    repo: &Odb,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    prefix: &str,
    out: &mut Vec<(u8, String)>,
) -> Result<()> {
    let (old, new) = (tree_entries(repo, old)?, tree_entries(repo, new)?);
    let names: std::collections::BTreeSet<&Vec<u8>> = old.keys().chain(new.keys()).collect();
    for name in names {
        let path = format!("{prefix}{}", name.to_str_lossy());
        let (a, b) = (old.get(name), new.get(name));
        if a == b {
            continue;
        }
        let subtree = |e: Option<&(EntryMode, ObjectId)>| {
            e.filter(|(mode, _)| mode.is_tree()).map(|(_, id)| *id)
        };
        let leaf = |e: Option<&(EntryMode, ObjectId)>| {
            e.filter(|(mode, _)| !mode.is_tree()).map(|(_, id)| *id)
        };
        if subtree(a).is_some() || subtree(b).is_some() {
            diff_trees(repo, subtree(a), subtree(b), &format!("{path}/"), out)?;
        }
        match (leaf(a), leaf(b)) {
            (None, None) => {}
            (None, Some(_)) => out.push((b'A', path)),
            (Some(_), None) => out.push((b'D', path)),
            (Some(_), Some(_)) => out.push((b'M', path)),
        }
    }
    Ok(())
}

/// The object id at `path` (`/`-separated) in a commit's tree.
pub(super) fn entry_id(repo: &Odb, commit: ObjectId, path: &str) -> Result<Option<ObjectId>> {
    let mut tree =
        tree_of(repo, commit).with_context(|| format!("reading the tree of {commit}"))?;
    let mut components = path.split('/').filter(|c| !c.is_empty()).peekable();
    while let Some(name) = components.next() {
        let data = repo
            .read(tree, Kind::Tree)
            .with_context(|| format!("looking up {path} in {commit}"))?;
        // The walk's search, as git's `find_tree_entry` searches.
        let found = walk::find_entry(&data, name.as_bytes(), tree.kind(), true)
            .ok_or_else(|| anyhow!("tree {tree} cannot be parsed"))?;
        match found {
            None => return Ok(None),
            Some((_, id)) if components.peek().is_none() => return Ok(Some(id)),
            Some((mode, id)) if mode.is_tree() => tree = id,
            Some(_) => return Ok(None),
        }
    }
    Ok(Some(tree))
}

/// The content of the blob at `path` in a commit.
pub(super) fn read_blob(repo: &Odb, commit: ObjectId, path: &str) -> Result<Vec<u8>> {
    let Some(id) = entry_id(repo, commit, path)? else {
        bail!("{path} is not in commit {commit}, though git diff-tree listed it");
    };
    // Whatever it is (a note checked as text, even a gitlink's commit), as gix read it before.
    let (_, data) = repo.read_any(id).with_context(|| format!("reading {path} in {commit}"))?;
    Ok(data)
}
