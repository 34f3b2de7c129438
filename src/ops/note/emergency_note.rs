//! The emergency note: written from the event log and the runtime's facts when the agent wrote
//! none, and never over a note the agent did write.

use anyhow::{Result, bail};

use gix::ObjectId;

use crate::agent::digest::{self};
use crate::agent::progress::Plan;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::emergency::{self, Facts};
use crate::model::note::{self, Note};
use crate::model::redact::Redactor;
use crate::store::handoff::place::NoteAttempt;
use crate::store::records::{self, Record, RecordKind, Summary};

use super::agent::agent_note;
use super::commit::{base_record, commit_note, existing_note, head_commit, validate_note};
use super::emergency_input::EmergencyNote;
use super::outcome::{NOT_COMMITTED, NoteOutcome, NoteSource};

/// The emergency note, unless the attempt already has a note.
pub fn emergency_note(
    repo: &mut Repo,
    config: &Config,
    attempt: &NoteAttempt,
    reason: &str,
    facts: Facts,
) -> Result<NoteOutcome> {
    config.check_reason(reason)?;
    let digest = digest::for_repo(repo, config)?;
    let note = EmergencyNote { attempt, reason, rel: config.note_path(attempt.issue), digest };
    let existing = existing_note(repo, attempt)?;
    // An emergency note committed by a run killed before its record: this run completes it, from
    // the commit the note went on.
    let resumed = existing.filter(|&commit| lacks_its_record(repo, config, commit, &note.rel));
    let head = match resumed.and_then(|commit| first_parent(repo, commit)) {
        Some(parent) => parent,
        None => head_commit(repo)?,
    };
    if let (Some(existing), None) = (existing, resumed) {
        return Ok(note.already_written(existing));
    }
    let mut warnings = Vec::new();
    let draft = match agents_draft(repo, config, attempt, reason, &note.rel, &mut warnings)? {
        Draft::Committed(outcome) => return Ok(outcome),
        Draft::Kept(text) => Some(text),
        Draft::None => None,
    };
    let (input, plan) = note.input(repo, head, draft, facts)?;
    let redactor = Redactor::new(config)?;
    let text = redactor.redact(&emergency::render(&input)).into_owned();
    let (commit, problems) = match resumed {
        Some(commit) => {
            crate::git::note_commit::complete(repo, &note.rel, commit)?;
            (commit, validate_note(repo, config, commit, attempt.issue)?)
        }
        None => commit_note(repo, config, attempt.issue, &note.rel, &text, head)?,
    };
    let seal_commit = input.seal.as_ref().map(|(c, _)| c.clone());
    let record = note.record(repo, config, commit, seal_commit, plan.as_ref())?;
    records::store(repo, &config.notes_ref, commit, &record)?;
    Ok(note.outcome(commit, problems, warnings))
}

impl EmergencyNote<'_> {
    /// Nothing written: the attempt's note is already in `existing`.
    fn already_written(self, existing: ObjectId) -> NoteOutcome {
        NoteOutcome {
            commit: Some(existing.to_string()),
            path: Some(self.rel),
            kind: None,
            tags: Vec::new(),
            digest_line: self.digest.line(),
            skipped: Some(format!(
                "a handoff note for issue #{} already exists in {existing}; nothing changed",
                self.attempt.issue
            )),
            fixes: Vec::new(),
            problems: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The emergency record of the note commit `commit`: the seal under it, the plan's unfinished
    /// items, the files the log saw edited.
    fn record(
        &self,
        repo: &Repo,
        config: &Config,
        commit: ObjectId,
        seal_commit: Option<String>,
        plan: Option<&Plan>,
    ) -> Result<Record> {
        let (attempt, reason, digest) = (self.attempt, self.reason, &self.digest);
        Ok(Record {
            kind: RecordKind::Emergency,
            seal_commit,
            summary: Some(Summary {
                goal: None,
                done: Vec::new(),
                in_progress: plan
                    .map(|p| p.unfinished().map(|i| format!("{} {} ({})", i.id, i.title, i.status)).collect())
                    .unwrap_or_default(),
                decisions: Vec::new(),
                next: vec!["The runtime could not determine what remains; the issue's acceptance criteria are the reference.".into()],
                files_touched: digest.files_edited.clone(),
            }),
            ..base_record(repo, config, attempt, Some(reason.to_string()), commit, &self.rel, digest)?
        })
    }

    /// What writing the note at `commit` produced.
    fn outcome(
        self,
        commit: ObjectId,
        problems: Vec<String>,
        warnings: Vec<String>,
    ) -> NoteOutcome {
        NoteOutcome {
            commit: Some(commit.to_string()),
            path: Some(self.rel),
            kind: Some(RecordKind::Emergency),
            tags: Vec::new(),
            digest_line: self.digest.line(),
            skipped: None,
            fixes: Vec::new(),
            problems,
            warnings,
        }
    }
}

/// What the agent left uncommitted at the note path.
enum Draft {
    /// Nothing, or what HEAD holds.
    None,
    /// Not a note that passes its check: kept verbatim inside the emergency note.
    Kept(String),
    /// The agent's own note, which passed its check and was committed as the agent's.
    Committed(NoteOutcome),
}

/// Whatever the agent left uncommitted at the note path is its word, never written over: a note
/// that passes its check is committed as the agent's note; anything else is kept verbatim inside
/// the emergency note.
fn agents_draft(
    repo: &mut Repo,
    config: &Config,
    attempt: &NoteAttempt,
    reason: &str,
    rel: &str,
    warnings: &mut Vec<String>,
) -> Result<Draft> {
    let path = repo.inside_work_tree(rel, "the note")?;
    // A note path holding something unreadable (a FIFO, a device, a file over the bound) is left
    // out with a warning: at the hard limit the emergency note is written all the same.
    let read = crate::util::fs::read_regular_if_any(&path, note::MAX_BYTES, "the note")
        .unwrap_or_else(|err| {
            warnings.push(format!("{err:#}; the emergency note is written without it"));
            None
        });
    let Some(bytes) = read.filter(|bytes| !same_as_head(repo, rel, bytes)) else {
        return Ok(Draft::None);
    };
    let Ok(parsed) = Note::parse(&bytes) else {
        bail!(
            "{rel} holds uncommitted content that is not a text note; run `git handoff seal` \
             first (it commits the file as it is), then the emergency note"
        );
    };
    if parsed.kind() == note::Kind::Agent {
        match agent_note(repo, config, attempt, Some(reason), NoteSource::WorkTree) {
            Err(err) if err.is::<crate::util::error::NotPassed>() => {
                let report = crate::util::error::not_passed_report(&err).join("\n");
                let problems: Vec<&str> = report.lines().filter(|l| *l != NOT_COMMITTED).collect();
                warnings.push(format!(
                    "the agent's draft {rel} does not pass its check ({}); it is kept \
                     verbatim in the emergency note, which was committed instead",
                    problems.join("; ")
                ));
            }
            done => return done.map(Draft::Committed),
        }
    }
    Ok(Draft::Kept(String::from_utf8_lossy(&bytes).into_owned()))
}

fn first_parent(repo: &Repo, commit: gix::ObjectId) -> Option<gix::ObjectId> {
    let commit = repo.gix().find_commit(commit).ok()?;
    commit.parent_ids().next().map(|id| id.detach())
}

/// Whether `commit` holds an emergency note at `rel` and no emergency record is attached to it: a
/// run was killed between the note commit and its record.
fn lacks_its_record(repo: &Repo, config: &Config, commit: gix::ObjectId, rel: &str) -> bool {
    let spec = format!("{commit}:{rel}");
    let Some(blob) =
        repo.gix().rev_parse_single(spec.as_str()).ok().and_then(|id| id.object().ok())
    else {
        return false;
    };
    let emergency = Note::parse(&blob.data).is_ok_and(|n| n.kind() == note::Kind::Emergency);
    let refs = [config.notes_ref.clone()];
    emergency
        && records::read_lenient(repo, &refs, commit)
            .is_ok_and(|attached| !attached.records.iter().any(|r| r.kind == RecordKind::Emergency))
}

fn same_as_head(repo: &Repo, rel: &str, bytes: &[u8]) -> bool {
    let spec = format!("HEAD:{rel}");
    repo.gix()
        .rev_parse_single(spec.as_str())
        .ok()
        .and_then(|id| id.object().ok())
        .is_some_and(|blob| blob.data == bytes)
}
