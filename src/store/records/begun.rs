//! The records of sessions: where a later attempt began, and each session's digest-only record.
//!
//! An attempt that begins above an earlier note (a session that starts after its attempt's note
//! is committed, or `start` on such a branch) leaves an `attempt` record on the key object of
//! the commit it began on (`git-handoff attempt began on <commit>`). The key travels with the
//! notes ref, so `validate` on any machine that fetched `refs/notes/handoff` tells "a later
//! attempt's work above an earlier note" from "work committed after the attempt's own note"
//! without this worktree's attempt state. No reader of handoffs looks at these keys: an attempt
//! record never stands in for a note.
//!
//! A digest-only record is one per session: stored on HEAD and the issue and branch keys, it
//! replaces only the same session's earlier record, never another session's nor a note's.

use anyhow::Result;
use gix::ObjectId;

use crate::git::repo::Repo;

use super::key::Key;
use super::read::read_lenient;
use super::record::{Record, RecordKind};
use super::write::{Edit, ensure_identity, keys_of, write_with_retry};

/// Stores `record` (an [`RecordKind::Attempt`] record) on the key of `base`, the commit the
/// attempt began on; an earlier record of the same attempt (same `started_at`) is replaced.
pub fn mark_begun(repo: &mut Repo, notes_ref: &str, base: ObjectId, record: &Record) -> Result<()> {
    ensure_identity(repo);
    let key = Key::Begun(base).write(repo)?;
    let edit = Edit::key(key, |existing| {
        let mut kept: Vec<Record> = existing
            .into_iter()
            .filter(|r| !(r.kind == record.kind && r.started_at == record.started_at))
            .collect();
        kept.push(record.clone());
        kept
    });
    write_with_retry(repo, notes_ref, &[edit])
}

/// The attempt records on the key of `commit`, in any of `refs` (the notes ref and its
/// remote-tracking copies): empty when no attempt began there. Records that cannot be read are
/// skipped, as every reader does.
pub fn began_on(repo: &Repo, refs: &[String], commit: ObjectId) -> Result<Vec<Record>> {
    let key = Key::Begun(commit).id(repo)?;
    let attached = read_lenient(repo, refs, key)?;
    Ok(attached.records.into_iter().filter(|r| r.kind == RecordKind::Attempt).collect())
}

/// Stores a session's digest-only `record` on `object` (HEAD) and on its issue and branch keys:
/// it replaces only the record of the same kind, commit and session (and attempt), so every
/// session keeps its own trace and no note's record is touched.
pub fn store_session_digest(
    repo: &mut Repo,
    notes_ref: &str,
    object: ObjectId,
    record: &Record,
) -> Result<()> {
    ensure_identity(repo);
    let same = |r: &Record| {
        r.commit == record.commit
            && r.kind == record.kind
            && r.session == record.session
            && r.started_at == record.started_at
    };
    let replace = |existing: Vec<Record>| {
        let mut kept: Vec<Record> = existing.into_iter().filter(|r| !same(r)).collect();
        kept.push(record.clone());
        kept
    };
    let mut edits = vec![Edit::note(object, replace)];
    for key in keys_of(repo, record)? {
        edits.push(Edit::key(key, replace));
    }
    write_with_retry(repo, notes_ref, &edits)
}
