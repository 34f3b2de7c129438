//! The moves that write next to a handoff without breaking the layout (work commits, then the
//! note commit, then at most one seal): where `note` puts the note, and how `seal` keeps every
//! note change out of the seal commit.
//!
//! `note` again with the attempt's note commit at HEAD replaces it (same parent); with a seal
//! above the note it refuses, since a second note or seal would break the layout. `seal` with the
//! note file changed first commits the change as the note (replacing the note commit when it is
//! not on any remote-tracking ref yet), then seals the rest on top; when it cannot, the note
//! change stays in the work tree, left out of the seal like a secret, and seal exits 1.

use anyhow::Result;
use gix::ObjectId;

use crate::agent::attempt::Resolved;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::store::handoff;
use crate::util::error::Refused;
use crate::util::time;

/// The attempt as a handoff needs it: the note header's issue and `started_at`, and the base
/// below which its note is never looked for.
pub struct NoteAttempt {
    pub issue: u64,
    pub started_at: String,
    /// `None` when unknown (all history) or unborn.
    pub base: Option<ObjectId>,
}

impl NoteAttempt {
    /// The attempt a note is written for: the issue is required, started_at defaults to now.
    pub fn from_resolved(resolved: &Resolved) -> Result<NoteAttempt> {
        Ok(NoteAttempt {
            issue: resolved.require_issue()?,
            started_at: time::format(resolved.started_at.unwrap_or_else(time::now)),
            base: resolved.base.flatten(),
        })
    }
}

/// Where this attempt's next note goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// On top of HEAD: the attempt has no note yet (or one that later commits buried).
    OnTop { buried: Option<ObjectId> },
    /// In place of the attempt's note commit at HEAD, on the same parent.
    Replace { note: ObjectId, parent: ObjectId, published: Option<String> },
    /// Nowhere: a seal sits above the attempt's note commit.
    Sealed { note: ObjectId, seal: ObjectId },
}

/// Where this attempt's note goes. A note commit at HEAD is the attempt's when its `started_at` is
/// the attempt's (or, a note without one, when it lies above the attempt's base): a note of an
/// earlier attempt is never replaced, even when the new attempt's base lies below it.
pub fn place(repo: &Repo, config: &Config, attempt: &NoteAttempt) -> Result<Place> {
    let Some(found) = handoff::attempt_note(repo, attempt.issue, attempt.base)? else {
        return Ok(Place::OnTop { buried: None });
    };
    let ours = match handoff::note_started_at(repo, config, &found) {
        Some(started_at) => started_at == attempt.started_at,
        None => attempt.base.is_some(),
    };
    if !ours {
        return Ok(Place::OnTop { buried: None });
    }
    match (found.depth, found.seal_above, found.parent) {
        (0, _, Some(parent)) => {
            let published = published(repo, found.commit)?;
            Ok(Place::Replace { note: found.commit, parent, published })
        }
        (1, Some(seal), _) => Ok(Place::Sealed { note: found.commit, seal }),
        _ => Ok(Place::OnTop { buried: Some(found.commit) }),
    }
}

/// The refusal for a note or seal in a sealed attempt.
pub fn sealed_refusal(
    attempt: &NoteAttempt,
    note: ObjectId,
    seal: ObjectId,
    what: &str,
) -> Refused {
    Refused(format!(
        "the attempt on issue #{issue} is sealed: the seal {seal} sits above its note commit \
         {note}, and {what} would break the layout; nothing changed. `git handoff start --issue \
         {issue}` begins a new attempt",
        issue = attempt.issue,
        seal = short(seal),
        note = short(note),
    ))
}

/// The refusal to replace a note commit that a remote-tracking ref already holds.
pub fn published_refusal(attempt: &NoteAttempt, note: ObjectId, remote: &str) -> Refused {
    Refused(format!(
        "the note commit {} of issue #{issue} is on {remote} already: replacing it would rewrite \
         what was pushed, and a second note commit would break the layout; nothing changed. \
         `git handoff start --issue {issue}` begins a new attempt",
        short(note),
        issue = attempt.issue,
    ))
}

/// The remote-tracking ref that holds `commit`, if one does: a pushed commit is not rewritten.
pub fn published(repo: &Repo, commit: ObjectId) -> Result<Option<String>> {
    let hex = commit.to_string();
    let out = repo.git().text([
        "for-each-ref",
        "--count=1",
        "--format=%(refname:short)",
        "--contains",
        hex.as_str(),
        "refs/remotes/",
    ])?;
    Ok(Some(out.trim().to_string()).filter(|r| !r.is_empty()))
}

pub fn short(id: ObjectId) -> String {
    id.to_hex_with_len(12).to_string()
}
