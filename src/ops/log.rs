//! `log`: every attempt's handoff on a branch, newest first, like `git log` for handoffs.
//!
//! The entries come from [`crate::store::handoff::all`] (the note commits on the first-parent line,
//! their seals and records, and digest-only records on the commits passed), so `log` tells the
//! same story as `show` and `recall`, one block per attempt.

use anyhow::Result;
use gix::ObjectId;
use serde::Serialize;

use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::store::handoff::{self, Handoff, ReadFrom, Seal};
use crate::store::records::Tag;

/// One handoff, in the shape of `log --json`'s `handoffs` items.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// The note commit, or the commit a digest-only record is on.
    pub commit: String,
    /// `agent`, `emergency` or `digest`.
    pub kind: String,
    pub issue: Option<u64>,
    pub reason: Option<String>,
    pub started_at: Option<String>,
    pub written_at: String,
    pub note_path: Option<String>,
    pub seal: Option<Seal>,
    pub digest_line: Option<String>,
    pub goal: Option<String>,
    /// The claims tagged `[unverified: ...]`.
    pub tags: Vec<Tag>,
    pub source: ReadFrom,
    /// The runtime's session that wrote it: each session's contribution is its note or its
    /// digest-only record.
    pub session: Option<String>,
}

/// What `log` lists: the entries, and the warnings met reading them (notes that are not records,
/// skipped) for the command to print.
#[derive(Debug, Default)]
pub struct Log {
    pub entries: Vec<Entry>,
    pub warnings: Vec<String>,
}

/// The handoffs on the first-parent line of `start`, newest first (of `issue` when given).
pub fn entries(repo: &Repo, config: &Config, start: ObjectId, issue: Option<u64>) -> Result<Log> {
    let branch = repo.head()?.ref_name;
    let listing = handoff::all(repo, config, start, issue, branch.as_deref())?;
    let entries = listing.handoffs.into_iter().map(entry).collect();
    Ok(Log { entries, warnings: listing.warnings })
}

fn entry(handoff: Handoff) -> Entry {
    let record = handoff.record;
    Entry {
        commit: record.commit,
        kind: record.kind.to_string(),
        issue: record.issue,
        reason: record.reason,
        started_at: record.started_at,
        written_at: record.written_at,
        note_path: record.note_path,
        seal: handoff.seal,
        digest_line: record.digest_line,
        goal: record.summary.and_then(|s| s.goal),
        tags: record.tags,
        source: handoff.source,
        session: record.session,
    }
}
