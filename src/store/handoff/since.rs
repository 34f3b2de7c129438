//! What happened on the branch since a handoff: the commits above it (count and subjects), the
//! files they and the sessions since changed, and the last check since, so `recall` and `show`
//! never present a note's facts as today's.
//!
//! The last check since comes from this worktree's event log when it holds one (every event of an
//! attempt begun after the note, or the events written after the note in the note's own
//! attempt), else from the digest-only records sessions left on the commits since (another
//! machine's sessions, after a fetch of the notes ref).

use anyhow::Result;
use gix::ObjectId;
use gix::bstr::ByteSlice;
use serde::Serialize;

use crate::agent::attempt::{Attempt, EVENTS_FILE};
use crate::agent::session;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::verdict::CheckOutcome;
use crate::store::records::{self, Key, RecordKind};
use crate::util::time;

use super::{Handoff, SealPosition, WALK_LIMIT};

/// How many commit subjects are kept.
pub const SUBJECTS: usize = 3;

/// What happened since a handoff, as `show --json` and `recall --json` carry it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Since {
    /// The commit the handoff ends at: its seal above the note, else its note commit (or the
    /// commit a record-only handoff is on).
    pub from: String,
    /// Commits on the first-parent line from HEAD down to `from`; `None` when `from` is not on
    /// it (a squash-merged handoff) within the walk.
    pub commits: Option<usize>,
    /// The newest commits' subjects, newest first, at most [`SUBJECTS`].
    pub subjects: Vec<String>,
    /// Files the commits since changed, and files the sessions since edited, sorted.
    pub files: Vec<String>,
    /// The last check run since the handoff was written.
    pub check: Option<CheckSince>,
}

/// A check run since the handoff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckSince {
    pub command: String,
    pub ok: bool,
    /// `passed`, `failed (exit 101)`, `did not finish` ...
    pub result: String,
    /// When it ran (or when the record that saw it was written).
    pub at: Option<String>,
}

impl Since {
    /// True when nothing happened since the handoff.
    pub fn is_empty(&self) -> bool {
        self.commits.unwrap_or(0) == 0 && self.files.is_empty() && self.check.is_none()
    }
}

/// What happened since `handoff`, up to HEAD.
pub fn since(repo: &Repo, config: &Config, handoff: &Handoff) -> Result<Since> {
    let record = &handoff.record;
    let Some(head) = repo.head()?.id else { return Ok(Since::default()) };
    let Ok(mut from) = ObjectId::from_hex(record.commit.as_bytes()) else {
        return Ok(Since::default());
    };
    if let Some(seal) = handoff.seal.as_ref().filter(|s| s.position == SealPosition::Above)
        && let Ok(id) = ObjectId::from_hex(seal.commit.as_bytes())
    {
        from = id;
    }
    let mut since = Since { from: from.to_string(), ..Since::default() };
    let line = commits_down_to(repo, head, from)?;
    if let Some(line) = &line {
        since.commits = Some(line.len());
        since.subjects = line.iter().take(SUBJECTS).map(|(_, s)| s.clone()).collect();
        if !line.is_empty() {
            since.files = super::branch::changed_files(repo, Some(from), head)?;
        }
    }
    let (check, edited) = from_log(repo, config, record)?;
    since.files.extend(edited);
    since.files.sort();
    since.files.dedup();
    since.check = match check {
        Some(check) => Some(check),
        None => from_records(repo, config, record, line.as_deref().unwrap_or_default())?,
    };
    Ok(since)
}

/// The commits from `head` down to `from` (left out) on the first-parent line, newest first, with
/// their subjects; `None` when the walk does not reach `from`.
fn commits_down_to(
    repo: &Repo,
    head: ObjectId,
    from: ObjectId,
) -> Result<Option<Vec<(ObjectId, String)>>> {
    let mut line = Vec::new();
    let mut next = Some(head);
    let mut objects = repo.objects();
    while let Some(id) = next {
        if id == from {
            return Ok(Some(line));
        }
        if line.len() >= WALK_LIMIT {
            break;
        }
        let Ok(commit) = objects.commit(id) else { break };
        let message = commit.message.to_str_lossy();
        let subject = message.lines().next().unwrap_or("").trim().to_string();
        line.push((id, subject));
        next = commit.parents.first().copied();
    }
    Ok(None)
}

/// The last check and the files edited in this worktree's event log since the handoff was
/// written: the whole log of a later attempt, or the events since the note in its own attempt.
fn from_log(
    repo: &Repo,
    config: &Config,
    record: &records::Record,
) -> Result<(Option<CheckSince>, Vec<String>)> {
    let Some(attempt) = Attempt::load(repo).ok().flatten() else { return Ok((None, Vec::new())) };
    let log = repo.handoff_dir().join(EVENTS_FILE);
    let started_at = time::format(attempt.started_at);
    let same_attempt = record.started_at.as_deref().map(str::trim) == Some(started_at.as_str());
    // Another attempt whose base is the handoff's commit or above it began after the handoff:
    // its whole log is since.
    let later_attempt = !same_attempt
        && match (attempt.base, ObjectId::from_hex(record.commit.as_bytes())) {
            (Some(base), Ok(commit)) => commits_down_to(repo, base, commit)?.is_some(),
            _ => false,
        };
    if !same_attempt && !later_attempt {
        return Ok((None, Vec::new()));
    }
    let (whole, after) = if later_attempt {
        (crate::agent::digest::compute(&log, config)?, None)
    } else {
        let (whole, after) = session::whole_and_since(&log, config, &record.written_at)?;
        (whole, Some(after))
    };
    let at = whole.last_check_call.as_ref().map(|c| c.at.clone());
    let mut check = whole.last_check.as_ref().map(|c| CheckSince {
        command: c.command.clone(),
        ok: c.ok && c.finished,
        result: c.result(),
        at,
    });
    let Some(after) = after else { return Ok((check, whole.files_edited)) };
    // The note's own attempt: "since the note" counts from the note commit, however it was made.
    // With a record, its digest was made from this very log, so a last check other than the
    // note's ran after it (times are to the second, too coarse to tell). A note committed with
    // plain git has no digest: a check at or before its commit's second ran before it (the agent
    // runs its check, then writes and commits the note).
    let before = |c: &CheckSince| match (&c.at, record.digest.is_some()) {
        (Some(at), true) => at.as_str() < record.written_at.as_str(),
        (Some(at), false) => at.as_str() <= record.written_at.as_str(),
        (None, _) => false,
    };
    if check.as_ref().is_some_and(|c| same_check(record, c) || before(c)) {
        check = None;
    }
    Ok((check, after.files_edited))
}

/// True when `check` is the last check the record's digest names.
fn same_check(record: &records::Record, check: &CheckSince) -> bool {
    let Some(noted) = record.digest.as_ref().and_then(|d| d.get("last_check")?.as_table().cloned())
    else {
        return false;
    };
    let command = noted.get("command").and_then(toml::Value::as_str);
    let ok = noted.get("ok").and_then(toml::Value::as_bool);
    let result = check_result(&noted);
    command == Some(check.command.as_str()) && ok == Some(check.ok) && result == check.result
}

/// `passed`, `failed (exit 101)` ... for a check as a record's digest stores it.
fn check_result(check: &toml::Table) -> String {
    let ok = check.get("ok").and_then(toml::Value::as_bool).unwrap_or(false);
    let readable = check.get("readable").and_then(toml::Value::as_bool).unwrap_or(true);
    let outcome = CheckOutcome::of(true, ok, readable);
    match (outcome, check.get("exit_code").and_then(toml::Value::as_integer)) {
        (CheckOutcome::Failed, Some(code)) => format!("failed (exit {code})"),
        (outcome, _) => outcome.phrase().to_string(),
    }
}

/// The newest last check that the digest-only records on the commits since (or on the handoff's
/// own commit, written after it) name: what other machines' sessions saw.
fn from_records(
    repo: &Repo,
    config: &Config,
    record: &records::Record,
    line: &[(ObjectId, String)],
) -> Result<Option<CheckSince>> {
    let Some(branch) = record.branch.clone().or(repo.head()?.ref_name) else { return Ok(None) };
    let refs = records::readable_refs(repo, &config.notes_ref)?;
    let mut found = records::read_lenient(repo, &refs, Key::Branch(&branch).id(repo)?)?.records;
    if let Some(issue) = record.issue {
        found.extend(records::read_lenient(repo, &refs, Key::Issue(issue).id(repo)?)?.records);
    }
    let on_line = |commit: &str| {
        let id = ObjectId::from_hex(commit.as_bytes()).ok();
        commit == record.commit || line.iter().any(|(on, _)| Some(*on) == id)
    };
    let newest = found
        .into_iter()
        .filter(|r| r.kind == RecordKind::Digest && r.written_at > record.written_at)
        .filter(|r| on_line(&r.commit))
        .filter_map(|r| {
            let check = r.digest.as_ref()?.get("last_check")?.as_table()?.clone();
            Some((r.written_at, check))
        })
        .max_by(|a, b| a.0.cmp(&b.0));
    Ok(newest.and_then(|(at, check)| {
        let command = check.get("command")?.as_str()?.to_string();
        let ok = check.get("ok")?.as_bool()?;
        let readable = check.get("readable").and_then(toml::Value::as_bool).unwrap_or(true);
        let result = check_result(&check);
        Some(CheckSince { command, ok: ok && readable, result, at: Some(at) })
    }))
}
