//! Tree reading for the layout checks: which paths a commit changed, and a file's blob at a commit.

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::object::Kind;
use gix::objs::tree::EntryMode;

use super::history::Odb;
use crate::git::walk;

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

/// The entries of `tree` (none for `None`, the empty tree), sorted by name as bytes, borrowing
/// from `data`, which holds the tree's bytes.
fn tree_entries<'d>(
    repo: &Odb,
    tree: Option<ObjectId>,
    data: &'d mut Vec<u8>,
) -> Result<Vec<(&'d [u8], EntryMode, ObjectId)>> {
    let Some(tree) = tree else { return Ok(Vec::new()) };
    *data = repo.read(tree, Kind::Tree)?;
    let mut entries = Vec::new();
    for entry in gix::objs::TreeRefIter::from_bytes(data, tree.kind()) {
        let entry = entry.map_err(|_| anyhow!("tree {tree} cannot be parsed"))?;
        entries.push((entry.filename.as_bytes(), entry.mode, entry.oid.to_owned()));
    }
    // Git orders a subtree as if its name ended in `/`; by plain bytes here, so that the two
    // lists merge by name. A name given twice (a broken tree) keeps its last entry.
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            *kept = *later;
        }
        same
    });
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
    let (mut old_data, mut new_data) = (Vec::new(), Vec::new());
    let old = tree_entries(repo, old, &mut old_data)?;
    let new = tree_entries(repo, new, &mut new_data)?;
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        // The next name of the two lists, and its entry in each.
        let (a, b) = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a.0 == b.0 => (Some(a), Some(b)),
            (Some(a), Some(b)) if a.0 < b.0 => (Some(a), None),
            (Some(_), Some(b)) => (None, Some(b)),
            (a, b) => (a, b),
        };
        i += usize::from(a.is_some());
        j += usize::from(b.is_some());
        let entry = |e: Option<&(&[u8], EntryMode, ObjectId)>| e.map(|&(_, mode, id)| (mode, id));
        let (a, b, name) = (entry(a), entry(b), a.or(b).expect("one of the two").0);
        if a == b {
            continue;
        }
        let path = format!("{prefix}{}", name.to_str_lossy());
        let subtree =
            |e: Option<(EntryMode, ObjectId)>| e.filter(|(m, _)| m.is_tree()).map(|e| e.1);
        let leaf = |e: Option<(EntryMode, ObjectId)>| e.filter(|(m, _)| !m.is_tree()).map(|e| e.1);
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
