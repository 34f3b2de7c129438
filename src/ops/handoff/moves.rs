//! The moves that write next to a handoff without breaking the layout (work commits, then the
//! note commit, then at most one seal): where `note` puts the note, and how `seal` keeps every
//! note change out of the seal commit.
//!
//! `note` again with the attempt's note commit at HEAD replaces it (same parent); with a seal
//! above the note it refuses, since a second note or seal would break the layout. `seal` with the
//! note file changed first commits the change as the note (replacing the note commit when it is
//! not on any remote-tracking ref yet), then seals the rest on top; when it cannot, the note
//! change stays in the work tree, left out of the seal like a secret, and seal exits 1.

use anyhow::{Context, Result};
use gix::ObjectId;

use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::ops::handoff::{self, branch};
use crate::ops::seal::{self, Request, Sealed, Skipped};
use crate::ops::write_note::{self, Attempt, Outcome, Source};
use crate::util::error::{CheckFailed, Refused};

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
pub fn place(repo: &Repo, config: &Config, attempt: &Attempt) -> Result<Place> {
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
pub fn sealed_refusal(attempt: &Attempt, note: ObjectId, seal: ObjectId, what: &str) -> Refused {
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
pub fn published_refusal(attempt: &Attempt, note: ObjectId, remote: &str) -> Refused {
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

/// What `seal` did around the note.
pub struct SealOutcome {
    pub sealed: Sealed,
    /// The note commit written (or replaced) with the edited note before sealing.
    pub note: Option<Outcome>,
}

/// Seals the attempt's leftover work, keeping every note change out of the seal commit.
pub fn seal_attempt(
    repo: &mut Repo,
    config: &Config,
    attempt: &Attempt,
    mut req: Request,
) -> Result<SealOutcome> {
    let place = place(repo, config, attempt)?;
    if let Place::Sealed { note, seal } = place {
        if has_changes(repo)? {
            return Err(sealed_refusal(attempt, note, seal, "a second seal").into());
        }
        let sealed = Sealed { commit: None, files: Vec::new(), skipped: Vec::new() };
        return Ok(SealOutcome { sealed, note: None });
    }
    let rel = config.note_path(attempt.issue);
    let mut note = None;
    if let Some(why) = note_change(repo, &rel)? {
        // Whatever would stop the seal stops it before the note commit moves HEAD.
        seal::preflight(repo, &req)?;
        let hold = |why: String| Skipped { path: rel.clone().into_bytes(), why };
        match place {
            Place::Replace { published: Some(remote), note, .. } => req.hold.push(hold(format!(
                "the note changed since its commit {}, which {remote} already holds; the change \
                 stays in the work tree (`git handoff start` begins a new attempt for a new note)",
                short(note)
            ))),
            Place::OnTop { buried: Some(buried) } => req.hold.push(hold(format!(
                "the note changed, but work was committed after its note commit {}; the change \
                 stays in the work tree",
                short(buried)
            ))),
            _ if why == Change::Deleted => req.hold.push(hold(
                "the note file is deleted in the work tree; a seal never changes the note \
                 (`git checkout -- <note>` restores it)"
                    .into(),
            )),
            _ => match write_note::agent_note(repo, config, attempt, None, Source::WorkTree) {
                Ok(outcome) => note = Some(outcome),
                Err(err) if err.is::<CheckFailed>() => req.hold.push(hold(
                    "the edited note does not pass its check (see above); it stays in the work \
                     tree: mend it and run `git handoff note`"
                        .into(),
                )),
                Err(err) => return Err(err),
            },
        }
    }
    let sealed = seal::seal(repo, config, &req)?;
    Ok(SealOutcome { sealed, note })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    Edited,
    Deleted,
}

/// How the work-tree note differs from HEAD's, if it does.
fn note_change(repo: &Repo, rel: &str) -> Result<Option<Change>> {
    let top = repo.top()?;
    let committed = repo.head()?.id.and_then(|head| branch::file_at(repo, head, rel));
    let path = top.join(rel);
    match std::fs::read(&path) {
        Ok(bytes) if committed.as_deref() == Some(bytes.as_slice()) => Ok(None),
        Ok(_) => Ok(Some(Change::Edited)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            Ok(committed.map(|_| Change::Deleted))
        }
        Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
    }
}

/// True when the work tree or the index differs from HEAD (untracked files included, ignored
/// ones not). Asks git without refreshing the index, so a refusal writes nothing.
fn has_changes(repo: &Repo) -> Result<bool> {
    let git = repo.git();
    let mut cmd = git.command(["status", "--porcelain", "-z", "--untracked-files=normal"]);
    cmd.env("GIT_OPTIONAL_LOCKS", "0");
    let out = crate::git::run(&mut cmd)?;
    Ok(!crate::git::checked(&cmd, out)?.is_empty())
}

fn short(id: ObjectId) -> String {
    id.to_hex_with_len(12).to_string()
}
