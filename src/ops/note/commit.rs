//! The steps every kind of note shares: the commit it goes on, committing the note file alone,
//! validating the result, and the record stored with it.

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;

use crate::agent::digest::Digest;
use crate::agent::progress::Store;
use crate::git::repo::Repo;
use crate::model::claims::Evidence;
use crate::model::config::Config;
use crate::model::note;
use crate::ops::validate::{self, Range};
use crate::store::handoff::place::NoteAttempt;
use crate::store::records::{self, Record, RecordKind};
use crate::util::time;

/// The evidence claims are checked against: the digest's, and the work tree's top as git names
/// it and with links resolved (a Files touched entry may give an absolute path).
pub fn evidence(digest: &Digest, repo: &Repo) -> Evidence {
    let mut evidence = digest.evidence();
    if let Ok(top) = repo.top() {
        evidence.tops.push(top.to_string_lossy().into_owned());
        if let Ok(real) = std::fs::canonicalize(top) {
            let real = real.to_string_lossy().into_owned();
            if !evidence.tops.contains(&real) {
                evidence.tops.push(real);
            }
        }
    }
    evidence
}

pub fn head_commit(repo: &Repo) -> Result<ObjectId> {
    repo.head()?.id.ok_or_else(|| {
        anyhow!(
            "HEAD has no commit yet, so a note commit has no last work commit; commit the work \
             (or run `git handoff seal`) first"
        )
    })
}

/// This attempt's note commit on the branch (see [`crate::store::handoff::attempt_note`]), if any.
pub fn existing_note(repo: &Repo, attempt: &NoteAttempt) -> Result<Option<ObjectId>> {
    Ok(crate::store::handoff::attempt_note(repo, attempt.issue, attempt.base)?.map(|n| n.commit))
}

/// Commits the note file alone on `parent` (HEAD, or the parent of the note commit it replaces)
/// and validates the result; returns the commit and the problems.
pub fn commit_note(
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
pub fn validate_note(
    repo: &Repo,
    config: &Config,
    commit: ObjectId,
    issue: u64,
) -> Result<Vec<String>> {
    let parent = repo
        .gix()
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

pub fn plan_items(repo: &Repo) -> Vec<records::ProgressItem> {
    Store::new(&repo.handoff_dir())
        .load()
        .ok()
        .flatten()
        .map(|p| p.record_items())
        .unwrap_or_default()
}

pub fn base_record(
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
        session: digest.session_id.clone(),
    })
}
