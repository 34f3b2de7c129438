//! `seal` for an attempt: every note change is kept out of the seal commit. With the note file
//! changed, the change is first committed as the note (replacing the note commit when it is not
//! on any remote-tracking ref yet), then the rest is sealed on top; when it cannot be, the note
//! change stays in the work tree, left out of the seal like a secret, and seal exits 1. A draft
//! (the attempt has no note commit yet) that does not pass its check is the exception: it stays
//! in the work tree for the emergency note, which keeps it verbatim, and the work is sealed, so
//! it is a warning, not a failure.

use anyhow::{Context, Result};
use gix::ObjectId;

use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::ops::note::{self, NoteOutcome, NoteSource};
use crate::store::handoff::branch;
use crate::store::handoff::place::{NoteAttempt, Place, place, sealed_refusal, short};
use crate::util::error::NotPassed;

use super::commit::{preflight, seal};
use super::request::{Request, Sealed, Skipped};

/// What `seal` did around the note.
pub struct SealOutcome {
    pub sealed: Sealed,
    /// The note commit written (or replaced) with the edited note before sealing.
    pub note: Option<NoteOutcome>,
    /// What seal could not read and left alone (a FIFO at the note path), for the command to say.
    pub warnings: Vec<String>,
    /// The attempt's uncommitted draft note, held out of the seal because it does not pass its
    /// check: kept for the emergency note, a warning rather than a failure.
    pub draft: Option<String>,
}

/// Seals the attempt's leftover work, keeping every note change out of the seal commit.
pub fn seal_attempt(
    repo: &mut Repo,
    config: &Config,
    attempt: &NoteAttempt,
    mut req: Request,
) -> Result<SealOutcome> {
    let place = place(repo, config, attempt)?;
    if let Place::Sealed { note, seal } = place {
        return already_sealed(repo, attempt, note, seal);
    }
    let rel = config.note_path(attempt.issue);
    let mut first = NoteFirst::default();
    if let Some(why) = note_change(repo, &rel)? {
        // Whatever would stop the seal stops it before the note commit moves HEAD.
        preflight(repo, &req)?;
        first = note_first(repo, config, attempt, place, why, &rel, &mut req)?;
    }
    let mut sealed = seal_the_rest(repo, config, &req, first.note.as_ref())?;
    let NoteFirst { mut note, warnings, mut draft, note_after } = first;
    if note_after && sealed.commit.is_some() {
        let outcome = note_on_the_seal(repo, config, attempt, &rel, &mut sealed)?;
        (note, draft) = outcome;
    }
    list_left_out(repo, &sealed)?;
    Ok(SealOutcome { sealed, note, warnings, draft })
}

/// A sealed attempt takes no second seal: refused when there is work to seal, else nothing to do.
fn already_sealed(
    repo: &Repo,
    attempt: &NoteAttempt,
    note: ObjectId,
    seal: ObjectId,
) -> Result<SealOutcome> {
    if has_changes(repo)? {
        return Err(sealed_refusal(attempt, note, seal, "a second seal").into());
    }
    let sealed = Sealed { commit: None, files: Vec::new(), skipped: Vec::new() };
    Ok(SealOutcome { sealed, note: None, warnings: Vec::new(), draft: None })
}

/// What became of a changed note before the seal: the note commit written, warnings, the draft
/// kept for the emergency note, or (`note_after`) the note left for after the seal.
#[derive(Default)]
struct NoteFirst {
    note: Option<NoteOutcome>,
    warnings: Vec<String>,
    draft: Option<String>,
    /// On an unborn branch a note commit has nothing to stand on: the work is sealed first, as
    /// the root commit, and the note follows on top of it, as a note does on any seal.
    note_after: bool,
}

/// The changed note at `rel` (`why`: how it changed) is committed as the agent's note where the
/// attempt's `place` allows it and it passes its check; otherwise it is held out of the seal
/// (`req`), with the reason.
fn note_first(
    repo: &mut Repo,
    config: &Config,
    attempt: &NoteAttempt,
    place: Place,
    why: Change,
    rel: &str,
    req: &mut Request,
) -> Result<NoteFirst> {
    let mut first = NoteFirst::default();
    let hold = |why: String| Skipped { path: rel.to_string().into_bytes(), why };
    // No note commit for the attempt yet: the work-tree note is its draft.
    let is_draft = matches!(place, Place::OnTop { buried: None });
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
        _ if let Change::Unreadable(err) = &why => {
            first.warnings.push(format!("{err}; seal leaves it out and seals the rest"));
            req.hold.push(hold(format!("{err}; seal leaves it out")))
        }
        _ if repo.head()?.id.is_none() => {
            first.note_after = true;
            req.hold.push(hold(
                "no commit yet: the work is sealed first, as the root commit, and the note \
                 follows on top of it"
                    .into(),
            ))
        }
        _ if why == Change::Deleted => req.hold.push(hold(
            "the note file is deleted in the work tree; a seal never changes the note \
             (`git checkout -- <note>` restores it)"
                .into(),
        )),
        _ => match note::agent_note(repo, config, attempt, None, NoteSource::WorkTree) {
            Ok(outcome) => first.note = Some(outcome),
            Err(err) if err.is::<NotPassed>() && is_draft => {
                req.hold.push(hold(draft_kept(&err)));
                first.draft = Some(rel.to_string());
            }
            Err(err) if err.is::<NotPassed>() => req.hold.push(hold(
                "the edited note does not pass its check (see above); it stays in the work \
                 tree: mend it and run `git handoff note`"
                    .into(),
            )),
            Err(err) => return Err(err),
        },
    }
    Ok(first)
}

/// The seal of the rest of the work. Should it fail after the edited `note` was committed, the
/// note commit stands: the error must not read as if nothing had changed.
fn seal_the_rest(
    repo: &Repo,
    config: &Config,
    req: &Request,
    note: Option<&NoteOutcome>,
) -> Result<Sealed> {
    seal(repo, config, req).map_err(|err| match note.and_then(|n| n.commit.as_deref()) {
        Some(commit) => err.context(format!(
            "the edited note was committed first, as {} (HEAD moved to it); sealing the \
             rest of the work then failed, and that step changed nothing; run `git \
             handoff seal` again to seal the rest",
            &commit[..commit.len().min(12)]
        )),
        None => err,
    })
}

/// What was left out, for the emergency note to name; a seal that left nothing out says so. Only
/// beside an attempt's state: a stateless seal (`--issue`) leaves the git dir as it was.
fn list_left_out(repo: &Repo, sealed: &Sealed) -> Result<()> {
    let left_out = repo.handoff_dir().join(crate::model::seal_message::LEFT_OUT_FILE);
    let listed = serde_json::to_vec(&sealed.skipped).context("listing the files left out")?;
    if repo.handoff_dir().is_dir() {
        crate::util::fs::write_atomic(&left_out, &listed)?;
    }
    Ok(())
}

/// The note commit on top of the root seal of an unborn branch: the agent's note when it passes
/// its check (no longer left out), else the draft, kept for the emergency note.
fn note_on_the_seal(
    repo: &mut Repo,
    config: &Config,
    attempt: &NoteAttempt,
    rel: &str,
    sealed: &mut Sealed,
) -> Result<(Option<NoteOutcome>, Option<String>)> {
    let held = sealed.skipped.iter().position(|s| s.path == rel.as_bytes());
    match note::agent_note(repo, config, attempt, None, NoteSource::WorkTree) {
        Ok(outcome) => {
            if let Some(at) = held {
                sealed.skipped.remove(at);
            }
            Ok((Some(outcome), None))
        }
        Err(err) if err.is::<NotPassed>() => {
            if let Some(at) = held {
                sealed.skipped[at].why = draft_kept(&err);
            }
            Ok((None, Some(rel.to_string())))
        }
        Err(err) => Err(err),
    }
}

/// Why a draft note that did not pass its check (`err`) stays in the work tree.
fn draft_kept(err: &anyhow::Error) -> String {
    let report = crate::util::error::not_passed_report(err);
    let problems: Vec<&str> =
        report.iter().flat_map(|r| r.lines()).filter(|l| *l != note::NOT_COMMITTED).collect();
    format!(
        "the draft note does not pass its check ({}); it stays in the work tree, kept for `git \
         handoff note --emergency` (or mend it and run `git handoff note`)",
        problems.join("; ")
    )
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    Edited,
    Deleted,
    /// Not a regular file of a note's size: left out of the seal, with the reason.
    Unreadable(String),
}

/// How the work-tree note differs from HEAD's, if it does.
fn note_change(repo: &Repo, rel: &str) -> Result<Option<Change>> {
    let top = repo.top()?;
    let committed = repo.head()?.id.and_then(|head| branch::file_at(repo, head, rel));
    let path = top.join(rel);
    // A FIFO, a device or an oversized file at the note path is refused at once, without
    // waiting on it: at the hard limit the rest is sealed all the same.
    match crate::util::fs::read_regular(&path, crate::model::note::MAX_BYTES, "the note") {
        Ok(bytes) if committed.as_deref() == Some(bytes.as_slice()) => Ok(None),
        Ok(_) => Ok(Some(Change::Edited)),
        Err(err) if crate::util::fs::is_missing(&err) => Ok(committed.map(|_| Change::Deleted)),
        Err(err) => Ok(Some(Change::Unreadable(format!("{err:#}")))),
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
