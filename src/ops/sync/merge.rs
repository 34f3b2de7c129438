//! The merge of notes trees that loses nothing from any side.
//!
//! A notes tree maps annotated objects to note blobs, at paths made of the object id's hex digits
//! with any number of two-digit fanout directories (`ab/cdef...`); two trees may use different
//! fanouts for the same notes. Their merge holds every note of all. An object annotated on several
//! sides with different blobs gets one blob holding every record list ([`records::merge`]); when
//! a blob is not a valid record list, the contents are kept, concatenated, so no byte is dropped.
//! Entries that are not notes are kept too (folders such as the record keys' merged entry by
//! entry).
//!
//! Only the sides being merged in are walked, and only where they differ from ours (identical
//! subtrees at the same path are skipped by id); our side is edited through gix's notes-tree
//! state, which writes the fanout git itself would choose, once for all sides.

use std::collections::HashSet;

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};
use gix::note::plumbing::State;

use crate::git::repo::Repo;
use crate::store::records::{self, Record};

/// A note: the annotated object and its blob.
#[derive(Debug, Clone, Copy)]
struct Note {
    object: ObjectId,
    blob: ObjectId,
}

/// An entry of a notes tree that is not a note (kept by the merge, never interpreted).
#[derive(Debug, Clone)]
struct Other {
    path: BString,
    mode: gix::objs::tree::EntryMode,
    id: ObjectId,
}

/// What one side holds that the other does not hold at the same path.
#[derive(Debug, Default)]
struct Walk {
    notes: Vec<Note>,
    others: Vec<Other>,
}

/// The tree holding every note of `ours` and of each of `others`: each is walked where it differs
/// from `ours`, and all they add is written in one pass (one notes tree written, not one a side).
fn fold_into(repo: &Repo, ours: ObjectId, others: &[ObjectId]) -> Result<ObjectId> {
    let mut walk = Walk::default();
    let mut seen = HashSet::from([ours]);
    for other in others {
        if seen.insert(*other) {
            walk_tree(repo, *other, Some(ours), "", "", &mut walk)?;
        }
    }
    let mut state = State::new(ours, repo.gix())
        .map_err(|err| anyhow!("reading the notes tree {ours}: {err}"))?;
    for note in &walk.notes {
        let mine = state
            .get(&note.object, repo.gix())
            .map_err(|err| anyhow!("reading the note on {} in {ours}: {err}", note.object))?;
        let blob = match mine {
            Some(mine) if mine == note.blob => continue,
            Some(mine) => merge_blobs(repo, mine, note.blob)?,
            None => note.blob,
        };
        if Some(blob) != mine {
            state
                .edit(note.object, Some(blob), repo.gix())
                .map_err(|err| anyhow!("merging the note on {}: {err}", note.object))?;
        }
    }
    let tree = state.write(repo.gix()).map_err(|err| anyhow!("writing the merged notes: {err}"))?;
    keep_others(repo, tree, &walk.others)
}

/// The tree holding every note of `base` and of each of `others` (the first of them standing in
/// for `base` when it is `None`); `None` when there is nothing at all.
pub fn fold(repo: &Repo, base: Option<ObjectId>, others: &[ObjectId]) -> Result<Option<ObjectId>> {
    let Some(base) = base.or_else(|| others.first().copied()) else { return Ok(None) };
    Ok(Some(fold_into(repo, base, others)?))
}

/// The tree holding every note of `a` and of `b`, built on the one with more top-level entries:
/// only the other is walked and rewritten into it, and the larger one's subtrees are kept by id (a
/// new clone's few records merged into a remote's many write a few trees, not all of them).
pub fn fold_two(repo: &Repo, a: ObjectId, b: ObjectId) -> Result<ObjectId> {
    let (base, other) =
        if entries(repo, b)?.len() > entries(repo, a)?.len() { (b, a) } else { (a, b) };
    fold_into(repo, base, &[other])
}

/// How many records `other` holds that `base` does not (each counted once, though a record is
/// stored on its commit and on its issue and branch keys).
pub fn new_records(repo: &Repo, base: Option<ObjectId>, other: Option<ObjectId>) -> Result<usize> {
    let Some(other) = other else { return Ok(0) };
    if base == Some(other) {
        return Ok(0);
    }
    let mut walk = Walk::default();
    walk_tree(repo, other, base, "", "", &mut walk)?;
    let mut state = state_of(repo, base)?;
    let mut seen = HashSet::new();
    for note in &walk.notes {
        let known = known_note(repo, state.as_mut(), note.object)?;
        if known == Some(note.blob) {
            continue;
        }
        // Unreadable notes are carried, not counted: they are not records.
        let known = known.map(|id| parsed(repo, id)).unwrap_or_default();
        for record in parsed(repo, note.blob) {
            if !known.contains(&record) {
                seen.insert(identity(&record));
            }
        }
    }
    Ok(seen.len())
}

/// The notes tree of what `tree` holds that `base` does not: each note `base` lacks or holds
/// with another blob, each other entry it lacks at that path; `None` when there is none. What a
/// writer's own ref must carry for the remote to hold all of `tree` when it holds `base`.
pub fn difference(repo: &Repo, base: Option<ObjectId>, tree: ObjectId) -> Result<Option<ObjectId>> {
    if base == Some(tree) {
        return Ok(None);
    }
    let mut walk = Walk::default();
    walk_tree(repo, tree, base, "", "", &mut walk)?;
    let mut base_state = state_of(repo, base)?;
    let empty =
        repo.gix().write_object(gix::objs::Tree::empty()).context("writing the empty tree")?;
    let mut state = State::new(empty.detach(), repo.gix())
        .map_err(|err| anyhow!("reading the empty tree: {err}"))?;
    let mut any = !walk.others.is_empty();
    for note in &walk.notes {
        if known_note(repo, base_state.as_mut(), note.object)? == Some(note.blob) {
            continue;
        }
        state
            .edit(note.object, Some(note.blob), repo.gix())
            .map_err(|err| anyhow!("adding the note on {}: {err}", note.object))?;
        any = true;
    }
    if !any {
        return Ok(None);
    }
    let notes = state.write(repo.gix()).map_err(|err| anyhow!("writing the new notes: {err}"))?;
    Ok(Some(keep_others(repo, notes, &walk.others)?))
}

/// The notes-tree state of `tree`, if there is one.
fn state_of(repo: &Repo, tree: Option<ObjectId>) -> Result<Option<State>> {
    let Some(tree) = tree else { return Ok(None) };
    let state = State::new(tree, repo.gix())
        .map_err(|err| anyhow!("reading the notes tree {tree}: {err}"))?;
    Ok(Some(state))
}

/// The blob `state` holds on `object`, if any.
fn known_note(
    repo: &Repo,
    state: Option<&mut State>,
    object: ObjectId,
) -> Result<Option<ObjectId>> {
    let Some(state) = state else { return Ok(None) };
    state.get(&object, repo.gix()).map_err(|err| anyhow!("reading the note on {object}: {err}"))
}

/// What makes a record the same record wherever it is stored.
fn identity(record: &Record) -> (String, String, String, Option<u64>, Option<String>) {
    (
        record.commit.clone(),
        record.written_at.clone(),
        record.kind.to_string(),
        record.issue,
        record.started_at.clone(),
    )
}

fn parsed(repo: &Repo, blob: ObjectId) -> Vec<Record> {
    read_blob(repo, blob).ok().and_then(|bytes| records::parse(&bytes, "").ok()).unwrap_or_default()
}

/// Collects the notes and other entries of `tree` that `skip` (ours, at the same path) does not
/// hold identically. `prefix` is the hex of the fanout directories walked so far.
fn walk_tree(
    repo: &Repo,
    tree: ObjectId,
    skip: Option<ObjectId>,
    prefix: &str,
    path: &str,
    out: &mut Walk,
) -> Result<()> {
    if skip == Some(tree) {
        return Ok(());
    }
    let hex_len = tree.kind().len_in_hex();
    let ours = match skip {
        Some(id) => entries(repo, id)?,
        None => Vec::new(),
    };
    for (name, mode, id) in entries(repo, tree)? {
        let same = ours.iter().find(|(n, _, _)| *n == name);
        if same.is_some_and(|(_, m, i)| *m == mode && *i == id) {
            continue;
        }
        let text = name.to_str().ok().filter(|n| n.bytes().all(|b| b.is_ascii_hexdigit()));
        let full_path = if path.is_empty() { name.to_string() } else { format!("{path}/{name}") };
        match text {
            Some(hex) if mode.is_tree() && hex.len() == 2 && prefix.len() + 2 < hex_len => {
                let ours_sub = same.filter(|(_, m, _)| m.is_tree()).map(|(_, _, i)| *i);
                walk_tree(repo, id, ours_sub, &format!("{prefix}{hex}"), &full_path, out)?;
            }
            Some(hex) if mode.is_blob() && prefix.len() + hex.len() == hex_len => {
                let full = format!("{prefix}{hex}").to_ascii_lowercase();
                let object = ObjectId::from_hex(full.as_bytes())
                    .with_context(|| format!("reading the note path {full_path}"))?;
                out.notes.push(Note { object, blob: id });
            }
            // A folder that is not fanout (the record keys'), on both sides: merged entry by
            // entry, so neither side's keys are lost and no copy is kept beside it.
            // Down to its blobs, so that several sides' folders at one path all merge.
            _ if mode.is_tree() && same.is_none_or(|(_, m, _)| m.is_tree()) => {
                let ours_sub = same.map(|(_, _, i)| *i);
                walk_others(repo, id, ours_sub, &full_path, out)?;
            }
            _ => out.others.push(Other { path: full_path.into(), mode, id }),
        }
    }
    Ok(())
}

/// Every entry of the non-note tree `tree` at `path` that `skip` (ours at the same path) lacks or
/// holds otherwise, as entries to keep.
fn walk_others(
    repo: &Repo,
    tree: ObjectId,
    skip: Option<ObjectId>,
    path: &str,
    out: &mut Walk,
) -> Result<()> {
    if skip == Some(tree) {
        return Ok(());
    }
    let ours = match skip {
        Some(id) => entries(repo, id)?,
        None => Vec::new(),
    };
    for (name, mode, id) in entries(repo, tree)? {
        let same = ours.iter().find(|(n, _, _)| *n == name);
        if same.is_some_and(|(_, m, i)| *m == mode && *i == id) {
            continue;
        }
        let full_path = format!("{path}/{name}");
        match same {
            Some((_, m, i)) if mode.is_tree() && m.is_tree() => {
                walk_others(repo, id, Some(*i), &full_path, out)?;
            }
            None if mode.is_tree() => walk_others(repo, id, None, &full_path, out)?,
            _ => out.others.push(Other { path: full_path.into(), mode, id }),
        }
    }
    Ok(())
}

/// The entries of a tree: name, mode, id.
fn entries(
    repo: &Repo,
    tree: ObjectId,
) -> Result<Vec<(BString, gix::objs::tree::EntryMode, ObjectId)>> {
    let object = repo.gix().find_tree(tree).map_err(|err| anyhow!("reading tree {tree}: {err}"))?;
    let decoded = object.decode().map_err(|err| anyhow!("decoding tree {tree}: {err}"))?;
    Ok(decoded.entries.iter().map(|e| (e.filename.to_owned(), e.mode, e.oid.to_owned())).collect())
}

/// Adds the other side's non-note entries to `tree`: those missing at their path as they are,
/// blobs that differ from ours concatenated with ours.
fn keep_others(repo: &Repo, tree: ObjectId, others: &[Other]) -> Result<ObjectId> {
    if others.is_empty() {
        return Ok(tree);
    }
    let current =
        repo.gix().find_tree(tree).map_err(|err| anyhow!("reading tree {tree}: {err}"))?;
    let mut edits: Vec<(String, gix::objs::tree::EntryMode, ObjectId)> = Vec::new();
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for other in others {
        let path = other.path.to_str_lossy().into_owned();
        // Several sides with the same path: one entry, their blobs merged.
        if let Some(&i) = at.get(&path) {
            let (_, mode, id) = edits[i];
            if id != other.id && mode.is_blob() && other.mode.is_blob() {
                edits[i].2 = merge_blobs(repo, id, other.id)?;
            }
            continue;
        }
        let existing = current
            .lookup_entry_by_path(&path)
            .map_err(|err| anyhow!("reading {path} in the notes tree {tree}: {err}"))?;
        let id = match existing {
            None => other.id,
            Some(entry) if entry.object_id() == other.id => continue,
            Some(entry) if entry.mode().is_blob() && other.mode.is_blob() => {
                merge_blobs(repo, entry.object_id(), other.id)?
            }
            // A tree against a blob at the same path: ours stays, theirs is kept beside it.
            Some(_) => {
                edits.push((format!("{path}.theirs-{}", other.id), other.mode, other.id));
                continue;
            }
        };
        at.insert(path.clone(), edits.len());
        edits.push((path, other.mode, id));
    }
    let mut editor = repo
        .gix()
        .edit_tree(tree)
        .map_err(|err| anyhow!("editing the notes tree {tree}: {err}"))?;
    for (path, mode, id) in &edits {
        editor
            .upsert(path.as_str(), mode.kind(), *id)
            .map_err(|err| anyhow!("adding {path} to the notes tree: {err}"))?;
    }
    let written = editor.write().map_err(|err| anyhow!("writing the merged notes tree: {err}"))?;
    Ok(written.detach())
}

/// One blob for an object both sides annotated: the union of both record lists, or both
/// contents concatenated when either is not a record list.
fn merge_blobs(repo: &Repo, ours: ObjectId, theirs: ObjectId) -> Result<ObjectId> {
    let ours_bytes = read_blob(repo, ours)?;
    let theirs_bytes = read_blob(repo, theirs)?;
    let merged = match (records::parse(&ours_bytes, ""), records::parse(&theirs_bytes, "")) {
        (Ok(mine), Ok(other)) => {
            let union = records::merge(mine.clone(), other.clone());
            if union == mine {
                return Ok(ours);
            }
            if union == other {
                return Ok(theirs);
            }
            records::render(&union)?.into_bytes()
        }
        _ => match concatenate(&ours_bytes, &theirs_bytes) {
            Some(bytes) => bytes,
            None if theirs_bytes.len() > ours_bytes.len() => return Ok(theirs),
            None => return Ok(ours),
        },
    };
    let id = repo.gix().write_blob(&merged).context("writing a merged note")?;
    Ok(id.detach())
}

/// Both contents, ours first, on separate lines; `None` when one already holds the other.
fn concatenate(ours: &[u8], theirs: &[u8]) -> Option<Vec<u8>> {
    if ours.find(theirs).is_some() || theirs.find(ours).is_some() {
        return None;
    }
    let mut out = ours.to_vec();
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.extend_from_slice(theirs);
    Some(out)
}

fn read_blob(repo: &Repo, id: ObjectId) -> Result<Vec<u8>> {
    let object =
        repo.gix().find_object(id).map_err(|err| anyhow!("reading note blob {id}: {err}"))?;
    Ok(object.data.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concatenation_keeps_every_byte_once() {
        assert_eq!(concatenate(b"a", b"b").unwrap(), b"a\nb");
        assert_eq!(concatenate(b"a\n", b"\xffb").unwrap(), b"a\n\xffb");
        assert!(concatenate(b"a\nb", b"b").is_none());
        assert!(concatenate(b"b", b"a\nb").is_none());
    }
}
