//! `git handoff start` begins an attempt; and, one model with it, what a session's start does to
//! the attempt.
//!
//! A new session that begins after its attempt's note is committed (whatever started it: startup,
//! resume, clear, compact) begins the next attempt on its own: same issue, based on HEAD, begun
//! now, the previous attempt archived as `start` archives it. The same session going on (its id
//! already in the attempt's log, as after a compaction; a compaction without an id) stays in its
//! attempt: its note stays the attempt's note, and an emergency note at its end finds it there
//! instead of landing on top of it. Only the same attempt's work committed after its own note is
//! a fault (the runner's rule); the next attempt's work above an earlier note is not. So that
//! `validate` tells the two apart on any machine, also on CI where only the branch and
//! `refs/notes/handoff` arrive, every attempt begun above an earlier note leaves an `attempt`
//! record on its base's key in the notes ref ([`records::mark_begun`]); `start` does the same.
//!
//! A session that begins while its attempt has no note continues the attempt; its start is
//! written to the event log, so the digest at its end is the session's own.

use anyhow::{Context, Result};
use gix::ObjectId;
use serde::Serialize;

use crate::agent::attempt::{Attempt, EVENTS_FILE};
use crate::agent::events;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::store::handoff::{self, NoteOnBranch, WALK_LIMIT, branch};
use crate::store::records::{self, Record, RecordKind};
use crate::util::time;

/// What `start` is asked: the issue, the base revision (HEAD when `None`) and when the attempt
/// began (now when `None`).
pub struct Request<'a> {
    pub issue: u64,
    pub base: Option<&'a str>,
    pub started_at: Option<&'a str>,
}

/// The attempt `start` began, where its state lives, and the previous attempt's archive.
#[derive(Debug, Serialize)]
pub struct Started {
    pub issue: u64,
    pub base: Option<String>,
    pub branch: Option<String>,
    pub started_at: String,
    pub state_dir: String,
    pub events: String,
    pub archived: Option<String>,
    /// What could not be done beside it (the begin mark in the notes ref).
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// Begins an attempt: its issue, base and start time, and a fresh event log. The state lives in
/// this worktree's own git dir (`handoff/`); a previous attempt's state, event log and plan are
/// moved to `handoff/archive/`, not deleted.
pub fn start(repo: &mut Repo, config: &Config, request: &Request<'_>) -> Result<Started> {
    let head = repo.head()?;
    let base = match request.base {
        Some(rev) => Some(repo.resolve_commit(rev).context("--base")?),
        None => head.id,
    };
    let started_at = match request.started_at {
        Some(text) => time::parse(text).context("--started-at")?,
        None => time::now(),
    };
    let attempt = Attempt { issue: Some(request.issue), base, started_at, branch: head.branch };
    let archived = attempt.begin(repo)?;
    // Above an earlier note, the notes ref says where this attempt began, so `validate` on any
    // machine tells its work from work committed after that note.
    let mut warnings = Vec::new();
    if let Err(err) = mark_if_above_note(repo, config, &attempt) {
        warnings
            .push(format!("{err:#}; `validate` elsewhere may not tell this attempt's work apart"));
    }
    let dir = repo.handoff_dir();
    Ok(Started {
        issue: request.issue,
        base: attempt.base.map(|id| id.to_string()),
        branch: attempt.branch.clone(),
        started_at: time::format(attempt.started_at),
        state_dir: dir.display().to_string(),
        events: dir.join(EVENTS_FILE).display().to_string(),
        archived: archived.map(|p| p.display().to_string()),
        warnings,
    })
}

/// What a runtime says of a session that starts.
#[derive(Debug, Clone, Default)]
pub struct SessionStart {
    /// `claude`, `codex` or `generic`.
    pub agent: String,
    /// `startup`, `resume`, `clear`, `compact`, `fork`.
    pub source: String,
    /// The runtime's session id, when the payload carried one.
    pub session: Option<String>,
    /// The caller writes the session's start to the event log itself (`record`).
    pub logged: bool,
}

/// What the session's start did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "began")]
pub enum Began {
    /// The attempt has no note yet: the session continues it.
    Continued,
    /// The attempt's note is committed: the session began the next attempt on HEAD.
    NextAttempt { issue: Option<u64>, base: Option<String>, started_at: String },
    /// Nothing to do: no attempt is started here and no note lies on the branch (the first tool
    /// call begins an implicit attempt), or HEAD is unborn.
    Nothing,
}

/// Begins the session: the next attempt when the current one's note is committed, else a
/// session-start event in the current attempt's log.
pub fn begin(repo: &mut Repo, config: &Config, start: &SessionStart) -> Result<Began> {
    let head = repo.head()?;
    let Some(head_id) = head.id else { return Ok(Began::Nothing) };
    let current = Attempt::load(repo)?;
    let next_after = match &current {
        Some(attempt) => match handoff::own_note(repo, config, attempt)? {
            Some(_) if !same_session(repo, start) => Some(attempt.clone()),
            _ => {
                append_start(repo, start)?;
                return Ok(Began::Continued);
            }
        },
        // No attempt here yet (a fresh clone, a new worktree): an attempt above a note on the
        // branch is begun now, so its work is told from a fault; else the first tool call
        // begins one as usual.
        None if latest_note(repo, head_id)?.is_some() => None,
        None => return Ok(Began::Nothing),
    };
    let mut started_at = time::now();
    if let Some(previous) = &next_after
        && started_at <= previous.started_at
    {
        // Two attempts never share a started_at: it is what tells them apart.
        started_at = previous.started_at + jiff::SignedDuration::from_secs(1);
    }
    let attempt = Attempt {
        issue: next_after.as_ref().and_then(|a| a.issue),
        base: Some(head_id),
        started_at,
        branch: head.branch,
    };
    // The record below is written through gix: opened before the first write, so a repository
    // it cannot open changes nothing.
    repo.try_gix()?;
    attempt.begin(repo)?;
    append_start(repo, start)?;
    mark_begun(repo, config, &attempt, Some(start))?;
    Ok(Began::NextAttempt {
        issue: attempt.issue,
        base: Some(head_id.to_string()),
        started_at: time::format(attempt.started_at),
    })
}

/// Records in the notes ref that `attempt` began on its base, when a note lies at or below the
/// base on the branch (so the attempt's work sits above an earlier note). True when stored.
pub fn mark_if_above_note(repo: &mut Repo, config: &Config, attempt: &Attempt) -> Result<bool> {
    let Some(base) = attempt.base else { return Ok(false) };
    if latest_note(repo, base)?.is_none() {
        return Ok(false);
    }
    mark_begun(repo, config, attempt, None)?;
    Ok(true)
}

fn mark_begun(
    repo: &mut Repo,
    config: &Config,
    attempt: &Attempt,
    start: Option<&SessionStart>,
) -> Result<()> {
    let Some(base) = attempt.base else { return Ok(()) };
    let record = Record {
        version: 1,
        kind: RecordKind::Attempt,
        issue: attempt.issue,
        branch: repo.head()?.ref_name,
        started_at: Some(time::format(attempt.started_at)),
        reason: start.map(|s| format!("session_{}", s.source)),
        written_at: time::format(time::now()),
        commit: base.to_string(),
        session: start.and_then(|s| s.session.clone()),
        ..Record::default()
    };
    records::mark_begun(repo, &config.notes_ref, base, &record)
}

/// Appends the session's start to the attempt's event log (unless the caller does).
/// Whether `start` is the attempt's own session going on: a session id the attempt's event log
/// already holds (a compaction keeps its id), or, without an id, a compaction.
fn same_session(repo: &Repo, start: &SessionStart) -> bool {
    let Some(id) = start.session.as_deref() else { return start.source == "compact" };
    let mut seen = false;
    let log = repo.handoff_dir().join(EVENTS_FILE);
    let _ = events::for_each(&log, |event| seen |= event.session.as_deref() == Some(id));
    seen
}

fn append_start(repo: &Repo, start: &SessionStart) -> Result<()> {
    if start.logged {
        return Ok(());
    }
    let source = if start.source.is_empty() { "startup" } else { start.source.as_str() };
    let agent = if start.agent.is_empty() { "generic" } else { start.agent.as_str() };
    let line = crate::agent::session::start_event(
        agent,
        source,
        start.session.as_deref(),
        time::format(time::now()),
    )?;
    let dir = repo.handoff_dir();
    std::fs::create_dir_all(&dir)?;
    // A hook retried after a kill (its SessionStart written, its answer not) records it once.
    let same = |last: &events::Event<'_>| {
        last.kind == events::Kind::SessionStart
            && last.agent == agent
            && last.text.as_deref() == Some(source)
            && last.session.as_deref() == start.session.as_deref()
    };
    events::append_once(&dir.join(EVENTS_FILE), &line, same)?;
    Ok(())
}

/// The newest note commit on the first-parent line from `from`, if one is within the walk.
fn latest_note(repo: &Repo, from: ObjectId) -> Result<Option<NoteOnBranch>> {
    let walk = branch::Walk { start: from, stop: None, limit: WALK_LIMIT };
    Ok(branch::notes(repo, walk, |_| true)?.notes.into_iter().next())
}
