//! Compaction: every writer's ref on the remote folded into the notes ref, and removed, in one
//! atomic push with a lease on each ref. A writer that pushed in between makes the push fail
//! whole (nothing is removed that was not folded); the sync then fetches and tries again.

use anyhow::Result;

use super::link::Link;
use super::remote::{self, Lost, Update};
use super::round::{Fetched, Names, tree_of};
use super::writers::{self, Merged};
use crate::git::repo::Repo;

/// The most writers' refs folded in one push (their leases and refspecs are arguments of one
/// `git push`); the next round folds the rest.
const PER_PUSH: usize = 400;

/// Folds the writers' refs of `fetched` into the remote's notes ref: the local notes ref, which
/// the round just before merged them all into, becomes the remote's notes ref. Returns how many
/// writers' refs were folded, or why the push did not land.
pub fn fold(
    repo: &Repo,
    link: &mut Link,
    names: &Names,
    fetched: &Fetched,
) -> Result<std::result::Result<usize, Lost>> {
    let Some(local) = remote::ref_id(repo, &names.notes_ref)? else { return Ok(Ok(0)) };
    let remote_prefix = writers::remote_prefix(&names.notes_ref);
    let mut updates = Vec::new();
    if fetched.notes != Some(local) {
        updates.push(Update { dst: names.notes_ref.clone(), new: Some(local), old: fetched.notes });
    }
    let folded: Vec<&(String, gix::ObjectId)> = fetched.writers.iter().take(PER_PUSH).collect();
    for (tracking, id) in &folded {
        let Some(writer) = tracking.strip_prefix(&names.writers_tracking) else { continue };
        let dst = format!("{remote_prefix}{writer}");
        updates.push(Update { dst, new: None, old: Some(*id) });
    }
    if updates.is_empty() {
        return Ok(Ok(0));
    }
    if let Err(lost) = remote::push(repo, link, &names.remote, &updates, true)? {
        return Ok(Err(lost));
    }
    // The tracking refs show what the remote now holds; only copies, so failures change nothing
    // that matters (the next fetch prunes the writers' copies anyway).
    use gix::refs::transaction::PreviousValue;
    let _ = repo.gix().reference(
        names.tracking.as_str(),
        local,
        PreviousValue::Any,
        "git-handoff: sync (compacted)",
    );
    for (tracking, _) in &folded {
        if let Ok(Some(reference)) = repo.gix().try_find_reference(tracking.as_str()) {
            let _ = reference.delete();
        }
    }
    let mut merged = Merged { refs: Default::default(), remote_view: Some(tree_of(repo, local)?) };
    merged.refs.insert(names.tracking.clone(), local);
    for (tracking, id) in fetched.writers.iter().skip(PER_PUSH) {
        merged.refs.insert(tracking.clone(), *id);
    }
    writers::save_merged(repo, &names.remote, &merged);
    Ok(Ok(folded.len()))
}
