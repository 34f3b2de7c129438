//! The digest-only handoff: a session that made tool calls and wrote no note of its own leaves
//! its digest as a record on HEAD, so the next session at least knows which files changed and
//! how the last check ended.
//!
//! One record per session, not per HEAD: two sessions that end on the same commit each keep
//! theirs, and a record on a commit that holds an agent's note (an earlier attempt's) sits beside
//! that note's record, never in its place. A session with no tool calls stores nothing, and a
//! session whose attempt has its own note is handed off already.

use anyhow::Result;
use gix::ObjectId;

use crate::agent::attempt::{Attempt, EVENTS_FILE};
use crate::agent::digest::Digest;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::store::records::{self, Record, RecordKind};
use crate::util::time;

use super::commit::{existing_note, plan_items};
use super::outcome::NoteOutcome;
use crate::store::handoff::place::NoteAttempt;

/// The attempt and session a digest-only record is written for.
#[derive(Debug, Clone, Default)]
pub struct DigestSession {
    pub issue: Option<u64>,
    pub started_at: Option<String>,
    pub base: Option<ObjectId>,
    /// The runtime's session id (from the SessionEnd payload), else the log's.
    pub session: Option<String>,
}

/// The session's digest stored as a record on HEAD, for a session that ended without a note.
pub fn digest_only(repo: &mut Repo, config: &Config, asked: &DigestSession) -> Result<NoteOutcome> {
    let log = repo.handoff_dir().join(EVENTS_FILE);
    let mut digest = crate::agent::session::session_digest(&log, config, asked.session.as_deref())?;
    digest.implicit_attempt = Attempt::load(repo).ok().flatten().is_some_and(|a| a.implicit());
    let skip = |why: String, digest: &Digest| NoteOutcome {
        commit: None,
        path: None,
        kind: None,
        tags: Vec::new(),
        digest_line: digest.line(),
        skipped: Some(why),
        fixes: Vec::new(),
        problems: Vec::new(),
        warnings: Vec::new(),
    };
    if digest.tool_calls == 0 {
        return Ok(skip("no tool calls recorded in this session".into(), &digest));
    }
    let Some(head) = repo.head()?.id else {
        return Ok(skip("HEAD has no commit yet".into(), &digest));
    };
    // What HEAD holds already, read as readers read it: a note there that is not a record is
    // said, whether or not this session's record joins it.
    let on_head = records::read_lenient(repo, std::slice::from_ref(&config.notes_ref), head)?;
    let warnings = on_head.warnings;
    if let Some(note) = own_note(repo, config, asked)? {
        let issue = asked.issue.map(|i| format!(" for issue #{i}")).unwrap_or_default();
        let why = format!("the agent's note{issue} is in {note}");
        return Ok(NoteOutcome { warnings, ..skip(why, &digest) });
    }
    let session = asked.session.clone().or_else(|| digest.session_id.clone());
    let record = Record {
        version: 1,
        kind: RecordKind::Digest,
        issue: asked.issue,
        branch: repo.head()?.ref_name,
        started_at: asked.started_at.clone(),
        reason: None,
        written_at: time::format(time::now()),
        commit: head.to_string(),
        digest_line: Some(digest.line()),
        digest: toml::Table::try_from(&digest).ok(),
        progress: plan_items(repo),
        session,
        ..Record::default()
    };
    records::store_session_digest(repo, &config.notes_ref, head, &record)?;
    Ok(NoteOutcome {
        commit: Some(head.to_string()),
        path: None,
        kind: Some(RecordKind::Digest),
        tags: Vec::new(),
        digest_line: digest.line(),
        skipped: None,
        fixes: Vec::new(),
        problems: Vec::new(),
        warnings,
    })
}

/// The note commit of the session's own attempt, if it has one on the branch: the attempt is then
/// handed off, and its session needs no digest-only record.
fn own_note(repo: &Repo, config: &Config, asked: &DigestSession) -> Result<Option<ObjectId>> {
    if let Some(started) = asked.started_at.as_deref().and_then(|s| time::parse(s).ok()) {
        let attempt =
            Attempt { issue: asked.issue, base: asked.base, started_at: started, branch: None };
        return Ok(crate::store::handoff::own_note(repo, config, &attempt)?.map(|n| n.commit));
    }
    match (asked.issue, &asked.started_at) {
        (Some(issue), Some(started)) => {
            let attempt = NoteAttempt { issue, started_at: started.clone(), base: asked.base };
            existing_note(repo, &attempt)
        }
        _ => Ok(None),
    }
}
