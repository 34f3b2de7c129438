//! Writing handoffs: the agent's checked note, the emergency note and the digest-only record.
//!
//! Each path gathers facts (attempt, digest, git), produces the note text, redacts it, commits the
//! note file alone ([`crate::git::note_commit`]), validates the result, and stores the record
//! ([`crate::store::records`]). Nothing here prints: the command renders the [`Outcome`].

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;
use serde::Serialize;

use crate::agent::digest::{Digest, LastCheck};
use crate::agent::progress::Store;
use crate::git::repo::Repo;
use crate::model::claims::Evidence;
use crate::model::config::Config;
use crate::model::note::{self};
use crate::ops::validate::{self, Range};
use crate::store::handoff::place::NoteAttempt;
use crate::store::records::{self, Record, RecordKind, Summary, Tag};
use crate::util::time;

mod agent;
mod digest_only;
mod emergency_note;

pub use agent::agent_note;
pub use digest_only::digest_only;
pub use emergency_note::emergency_note;

/// What a handoff produced, in the shape of `note --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The note commit (or, for a digest-only record, the commit it is attached to); null when
    /// nothing was written.
    pub commit: Option<String>,
    pub path: Option<String>,
    /// `agent`, `emergency`, `digest`, or `none` when nothing was written.
    #[serde(serialize_with = "kind_or_none")]
    pub kind: Option<RecordKind>,
    pub tags: Vec<Tag>,
    pub digest_line: String,
    /// Why nothing was written, when nothing was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// Header fields git-handoff corrected in the agent's note.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<String>,
    /// Problems the validator found after committing (the command then exits 1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// The last line of a failed check's report: what happened and what to do.
pub const NOT_COMMITTED: &str =
    "The note was not committed: mend it and run `git handoff note` again.";

/// Where the agent's note comes from.
pub enum Source<'a> {
    /// The note file at the note path in the work tree.
    WorkTree,
    /// A Markdown file elsewhere.
    Markdown(&'a Path),
    /// A TOML summary.
    Summary(&'a Path),
    /// A summary given as data (the `handoff_note` agent tool).
    Given(Summary),
}

/// The evidence claims are checked against.
pub fn evidence(digest: &Digest) -> Evidence {
    Evidence {
        files_edited: digest.files_edited.clone(),
        tool_calls: digest.tool_calls,
        last_check: digest.last_check.as_ref().map(LastCheck::run),
        last_of_kind: digest.last_of_kind.clone().map(|c| c.as_ref().map(LastCheck::run)),
    }
}

fn head_commit(repo: &Repo) -> Result<ObjectId> {
    repo.head()?.id.ok_or_else(|| {
        anyhow!(
            "HEAD has no commit yet, so a note commit has no last work commit; commit the work \
             (or run `git handoff seal`) first"
        )
    })
}

/// This attempt's note commit on the branch (see [`crate::store::handoff::attempt_note`]), if any.
fn existing_note(repo: &Repo, attempt: &NoteAttempt) -> Result<Option<ObjectId>> {
    Ok(crate::store::handoff::attempt_note(repo, attempt.issue, attempt.base)?.map(|n| n.commit))
}

/// Commits the note file alone on `parent` (HEAD, or the parent of the note commit it replaces)
/// and validates the result; returns the commit and the problems.
fn commit_note(
    repo: &Repo,
    config: &Config,
    issue: u64,
    rel: &str,
    text: &str,
    parent: ObjectId,
) -> Result<(ObjectId, Vec<String>)> {
    let message = note::commit_message(issue);
    let commit = crate::git::note_commit::commit_file_on(
        repo,
        rel,
        text.as_bytes(),
        &message,
        Some(parent),
    )?;
    Ok((commit, validate_note(repo, config, commit, issue)?))
}

/// Validates the note commit just made; returns the problems as text.
fn validate_note(
    repo: &Repo,
    config: &Config,
    commit: ObjectId,
    issue: u64,
) -> Result<Vec<String>> {
    let parent = repo
        .gix
        .find_commit(commit)
        .context("reading the note commit")?
        .parent_ids()
        .next()
        .map(|p| p.detach());
    let range = Range {
        include: vec![commit],
        exclude: parent.into_iter().collect(),
        exclude_remotes: Vec::new(),
    };
    let report = validate::validate(repo, config, &range, Some(issue))?;
    Ok(report.problems.iter().map(|p| p.to_string()).collect())
}

fn plan_items(repo: &Repo) -> Vec<records::ProgressItem> {
    Store::new(&repo.handoff_dir())
        .load()
        .ok()
        .flatten()
        .map(|p| p.record_items())
        .unwrap_or_default()
}

fn base_record(
    repo: &Repo,
    _config: &Config,
    attempt: &NoteAttempt,
    reason: Option<String>,
    commit: ObjectId,
    rel: &str,
    digest: &Digest,
) -> Result<Record> {
    Ok(Record {
        version: 1,
        kind: RecordKind::Agent,
        issue: Some(attempt.issue),
        branch: repo.head()?.ref_name,
        started_at: Some(attempt.started_at.clone()),
        reason,
        written_at: time::format(time::now()),
        commit: commit.to_string(),
        note_path: Some(rel.to_string()),
        seal_commit: None,
        digest_line: Some(digest.line()),
        digest: toml::Table::try_from(digest).ok(),
        summary: None,
        tags: Vec::new(),
        progress: plan_items(repo),
    })
}

fn kind_or_none<S: serde::Serializer>(kind: &Option<RecordKind>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.as_ref().map_or("none", RecordKind::as_str))
}
