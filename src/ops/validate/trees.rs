//! Tree reading for the layout checks: which paths a commit changed, and a file's blob at a commit.

use anyhow::{Context, Result, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;

use super::Odb;

pub(super) type Entries =
    std::collections::BTreeMap<Vec<u8>, (gix::object::tree::EntryMode, ObjectId)>;

/// The paths a commit changes against its first parent (all of them for a root commit), with a
/// status letter (`A`, `D`, `M`), as `git diff-tree -r --no-renames` lists them.
pub(super) fn changed_paths(
    repo: &Odb,
    parent: Option<ObjectId>,
    id: ObjectId,
) -> Result<Vec<(u8, String)>> {
    let tree_of = |c: ObjectId| -> Result<ObjectId> {
        Ok(repo.find_commit(c)?.tree_id().with_context(|| format!("reading {c}"))?.detach())
    };
    let old = parent.map(tree_of).transpose()?;
    let mut changes = Vec::new();
    diff_trees(repo, old, Some(tree_of(id)?), "", &mut changes)
        .with_context(|| format!("listing the files of {id}"))?;
    changes.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(changes)
}

pub(super) fn tree_entries(repo: &Odb, tree: Option<ObjectId>) -> Result<Entries> {
    let mut entries = Entries::new();
    if let Some(tree) = tree {
        let tree = repo.find_tree(tree)?;
        for entry in tree.decode()?.entries {
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
        let subtree = |e: Option<&(gix::object::tree::EntryMode, ObjectId)>| {
            e.filter(|(mode, _)| mode.is_tree()).map(|(_, id)| *id)
        };
        let leaf = |e: Option<&(gix::object::tree::EntryMode, ObjectId)>| {
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

/// The object id at `path` in a commit's tree.
pub(super) fn entry_id(repo: &Odb, commit: ObjectId, path: &str) -> Result<Option<ObjectId>> {
    let tree = repo
        .find_commit(commit)
        .and_then(|c| c.tree())
        .with_context(|| format!("reading the tree of {commit}"))?;
    let entry = tree
        .lookup_entry_by_path(path)
        .with_context(|| format!("looking up {path} in {commit}"))?;
    Ok(entry.map(|e| e.object_id()))
}

/// The content of the blob at `path` in a commit.
pub(super) fn read_blob(repo: &Odb, commit: ObjectId, path: &str) -> Result<Vec<u8>> {
    let Some(id) = entry_id(repo, commit, path)? else {
        bail!("{path} is not in commit {commit}, though git diff-tree listed it");
    };
    let object = repo.find_object(id).with_context(|| format!("reading {path} in {commit}"))?;
    Ok(object.data.clone())
}
