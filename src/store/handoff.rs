//! The handoff of an attempt, found the one way every command finds it: the branch is the truth.
//!
//! A handoff lives in the branch: the attempt's note commit (message `Handoff note: issue #N`),
//! the seal right above it (or the attempt's own seal right below it, when the runtime sealed
//! before writing an emergency note), and the record the notes ref holds on the note commit, if
//! there is one. `show`, `recall`, `log`, `note --emergency` ("does a note exist?"),
//! `note --digest-only`, `note` again and `seal` all look here. Records enrich a handoff (digest,
//! tags, progress) and find one the branch no longer holds (after a squash merge, or a digest-only
//! handoff on a work commit), but they are never the only place a handoff exists: a note
//! committed with plain git is read from its file ([`from_note`]).
//!
//! Finding the latest handoff walks first parents from HEAD reading commit messages only
//! ([`branch`]), so it costs as many commit reads as there are commits above the note; an
//! attempt's own lookup stops at the attempt's base, and every walk at [`WALK_LIMIT`] commits.
//! A line found to hold no note is remembered ([`note_free`]), so the next lookup reads only the
//! commits made since. What happened on the branch after a handoff (commits, files, the last
//! check) is told by [`since`].

pub mod branch;
mod from_note;
mod note_free;
pub mod place;
pub mod since;

use anyhow::Result;
use gix::ObjectId;
use serde::Serialize;

use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::note::Note;
use crate::store::records::{self, Key, Record, RecordKind};

pub use branch::NoteOnBranch;

/// The most commits a lookup reads on its way down the branch: a note further down belongs to an
/// attempt long gone by (the records still find it), and recall must stay cheap on any history.
pub const WALK_LIMIT: usize = 1_000;

/// One handoff as readers present it.
#[derive(Debug, Clone)]
pub struct Handoff {
    /// The stored record, or one made from the note file; its `seal_commit` names the seal found
    /// on the branch.
    pub record: Record,
    pub source: ReadFrom,
    /// The note file as committed, when there is one.
    pub note: Option<String>,
    /// The seal that belongs to this handoff, when there is one.
    pub seal: Option<Seal>,
}

/// Where a handoff was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadFrom {
    /// A note commit on the branch and the record on it.
    Record,
    /// A note commit on the branch without a record (committed with plain git): its file.
    NoteFile,
    /// A record whose commit the branch does not hold (a squash merge, a digest-only handoff).
    RecordOnly,
}

/// The seal of a handoff: its commit and the files it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Seal {
    pub commit: String,
    pub files: Vec<String>,
    pub position: SealPosition,
}

/// Where the seal sits: right above the note commit, or right below it (the runtime sealed, then
/// wrote the emergency note on top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SealPosition {
    Above,
    Below,
}

/// The latest handoff, as [`find`] finds it, and the warnings met on the way (notes that are not
/// records, skipped) for the command to print, also when there is no handoff.
#[derive(Debug)]
pub struct Latest {
    pub handoff: Option<Handoff>,
    pub warnings: Vec<String>,
}

/// Every handoff on a first-parent line, newest first, as [`all`] lists them, and the warnings met
/// on the way, for the command to print.
#[derive(Debug)]
pub struct Listing {
    pub handoffs: Vec<Handoff>,
    pub warnings: Vec<String>,
}

/// What a reader asks for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Query<'a> {
    /// Where the walk begins [default: HEAD].
    pub start: Option<ObjectId>,
    /// Only this issue's handoffs (`--issue N`).
    pub issue: Option<u64>,
    /// The issue of the attempt under way, whose record is looked up when the branch holds no
    /// note (a squash-merged branch).
    pub attempt_issue: Option<u64>,
    /// The branch whose record key is looked up when the branch holds no note.
    pub branch: Option<&'a str>,
}

/// The latest handoff on the branch (of `query.issue` when given); else the latest record for the
/// branch or issue, as before any note was on the branch.
pub fn find(repo: &Repo, config: &Config, query: &Query<'_>) -> Result<Latest> {
    let mut warnings = Vec::new();
    let start = match query.start {
        Some(start) => Some(start),
        None => repo.head()?.id,
    };
    let refs = records::readable_refs(repo, &config.notes_ref)?;
    if let Some(start) = start {
        let walk = branch::Walk { start, stop: None, limit: WALK_LIMIT };
        let wanted = |n: &NoteOnBranch| query.issue.is_none_or(|issue| n.issue == issue);
        let found = note_free::notes(repo, walk, wanted)?;
        if let Some(note) = found.notes.into_iter().find(|n| wanted(n)) {
            let handoff = assemble(repo, config, &refs, &note, &mut warnings)?;
            return Ok(Latest { handoff: Some(handoff), warnings });
        }
    }
    let record = records_fallback(repo, &refs, query, &mut warnings)?;
    Ok(Latest { handoff: record.map(|record| record_only(repo, record)), warnings })
}

/// Every handoff on the first-parent line from `start`, newest first (of `issue` when given):
/// the note commits, and the digest-only records on commits the walk passes.
pub fn all(
    repo: &Repo,
    config: &Config,
    start: ObjectId,
    issue: Option<u64>,
    branch_name: Option<&str>,
) -> Result<Listing> {
    let mut warnings = Vec::new();
    let refs = records::readable_refs(repo, &config.notes_ref)?;
    let walk = branch::Walk { start, stop: None, limit: usize::MAX };
    let walked = branch::notes(repo, walk, |_| false)?;
    let mut out: Vec<(usize, Handoff)> = Vec::new();
    for note in walked.notes.iter().filter(|n| issue.is_none_or(|i| n.issue == i)) {
        out.push((note.depth, assemble(repo, config, &refs, note, &mut warnings)?));
    }
    // Digest-only handoffs sit on work commits: the branch's and the issue's keys list them.
    let mut digests = Vec::new();
    if let Some(name) = branch_name {
        digests.extend(read(repo, &refs, Key::Branch(name).id(repo)?, &mut warnings)?);
    }
    if let Some(issue) = issue {
        digests.extend(read(repo, &refs, Key::Issue(issue).id(repo)?, &mut warnings)?);
    }
    digests.retain(|r| r.kind == RecordKind::Digest && issue.is_none_or(|i| r.issue == Some(i)));
    // One per session: the branch's and the issue's keys list the same record twice. A key
    // lists records in the order they were stored: the later of two written in one second
    // stays the later.
    let session_of = |r: &Record| (r.commit.clone(), r.session.clone(), r.started_at.clone());
    let mut stored: Vec<(usize, Record)> = digests.into_iter().enumerate().collect();
    stored.sort_by(|(na, a), (nb, b)| {
        (session_of(a), &b.written_at, nb).cmp(&(session_of(b), &a.written_at, na))
    });
    stored.dedup_by(|(_, a), (_, b)| session_of(a) == session_of(b));
    let depth: std::collections::HashMap<ObjectId, usize> =
        walked.line.iter().enumerate().map(|(n, id)| (*id, n)).collect();
    // Newest first: by depth, and on one commit the later session's record first (after a note
    // commit's own note came the sessions that ended on it later).
    let mut ranked: Vec<(usize, usize, Handoff)> =
        out.into_iter().map(|(depth, handoff)| (depth, usize::MAX, handoff)).collect();
    for (n, record) in stored {
        let at = ObjectId::from_hex(record.commit.as_bytes()).ok().and_then(|id| depth.get(&id));
        if let Some(&at) = at {
            ranked.push((at, n, record_only(repo, record)));
        }
    }
    ranked.sort_by(|(da, na, a), (db, nb, b)| {
        let digest = |h: &Handoff| h.record.kind == RecordKind::Digest;
        let key = |h: &Handoff, n: &usize| (digest(h), h.record.written_at.clone(), *n);
        da.cmp(db).then_with(|| key(b, nb).cmp(&key(a, na)))
    });
    let out: Vec<(usize, Handoff)> = ranked.into_iter().map(|(d, _, h)| (d, h)).collect();
    let handoffs = out.into_iter().map(|(_, handoff)| handoff).collect();
    Ok(Listing { handoffs, warnings })
}

/// This attempt's note commit on the branch: the newest note of `issue` between the attempt's
/// base and HEAD (on the whole branch when the base is unknown).
pub fn attempt_note(
    repo: &Repo,
    issue: u64,
    base: Option<ObjectId>,
) -> Result<Option<NoteOnBranch>> {
    let Some(head) = repo.head()?.id else { return Ok(None) };
    let walk = branch::Walk { start: head, stop: base, limit: WALK_LIMIT };
    let found = branch::notes(repo, walk, |n| n.issue == issue)?;
    Ok(found.notes.into_iter().find(|n| n.issue == issue))
}

/// The attempt's own note commit on the branch: a note between its base and HEAD whose
/// `started_at` is the attempt's (of its issue, when it has one). A note without a `started_at`
/// above a known base counts as the attempt's, as `note` places it.
pub fn own_note(
    repo: &Repo,
    config: &Config,
    attempt: &crate::agent::attempt::Attempt,
) -> Result<Option<NoteOnBranch>> {
    let Some(head) = repo.head()?.id else { return Ok(None) };
    let walk = branch::Walk { start: head, stop: attempt.base, limit: WALK_LIMIT };
    let started_at = crate::util::time::format(attempt.started_at);
    let walked = branch::notes(repo, walk, |_| false)?;
    for note in walked.notes {
        if attempt.issue.is_some_and(|issue| issue != note.issue) {
            continue;
        }
        let ours = match note_started_at(repo, config, &note) {
            Some(theirs) => theirs.trim() == started_at,
            None => attempt.base.is_some(),
        };
        if ours {
            return Ok(Some(note));
        }
    }
    Ok(None)
}

/// The `started_at` header of the note in `note`'s commit, if it has one.
pub fn note_started_at(repo: &Repo, config: &Config, note: &NoteOnBranch) -> Option<String> {
    let path = config.note_path(note.issue);
    let bytes = branch::file_at(repo, note.commit, &path)?;
    let parsed = Note::parse(&bytes).ok()?;
    parsed.field("started_at").map(|f| f.value.clone())
}

/// A found note commit with its record (or its file) and its seal.
fn assemble(
    repo: &Repo,
    config: &Config,
    refs: &[String],
    found: &NoteOnBranch,
    warnings: &mut Vec<String>,
) -> Result<Handoff> {
    let path = config.note_path(found.issue);
    let note = branch::file_at(repo, found.commit, &path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let stored = read(repo, refs, found.commit, warnings)?;
    let stored = records::latest(stored.into_iter().filter(|r| r.kind != RecordKind::Digest));
    let (mut record, source) = match stored {
        Some(record) => (record, ReadFrom::Record),
        None => (from_note::record(repo, found, &path, note.as_deref()), ReadFrom::NoteFile),
    };
    let started_at = record.started_at.clone();
    let seal = seal_of(repo, found, started_at.as_deref())?;
    // The branch is the truth: a record's own idea of the seal (an emergency note written on top
    // of another attempt's seal) gives way to what the branch holds.
    record.seal_commit = seal.as_ref().map(|s| s.commit.clone());
    Ok(Handoff { record, source, note, seal })
}

/// The attempt's seal: right above the note commit, else right below it. A seal carries its
/// attempt's `started_at` in its trailer; one of another attempt (the next attempt sealed on top
/// of this note, or the runtime wrote this note on the previous attempt's seal) is not this one's.
fn seal_of(repo: &Repo, found: &NoteOnBranch, started_at: Option<&str>) -> Result<Option<Seal>> {
    let same_attempt = |seal: ObjectId| {
        let trailer = branch::seal_started_at(repo, seal);
        trailer.is_some() && (started_at.is_none() || trailer.as_deref() == started_at)
    };
    if let Some(seal) = found.seal_above.filter(|s| same_attempt(*s)) {
        let files = branch::changed_files(repo, Some(found.commit), seal)?;
        return Ok(Some(Seal { commit: seal.to_string(), files, position: SealPosition::Above }));
    }
    let Some(parent) = found.parent else { return Ok(None) };
    if started_at.is_none() || !same_attempt(parent) {
        return Ok(None);
    }
    let grandparent = repo.objects().commit(parent)?.parents.first().copied();
    let files = branch::changed_files(repo, grandparent, parent)?;
    Ok(Some(Seal { commit: parent.to_string(), files, position: SealPosition::Below }))
}

/// The latest record for the branch (when it agrees with the issue asked for), else the issue's.
fn records_fallback(
    repo: &Repo,
    refs: &[String],
    query: &Query<'_>,
    warnings: &mut Vec<String>,
) -> Result<Option<Record>> {
    let issue = query.issue.or(query.attempt_issue);
    let on_branch = match query.branch {
        Some(name) => records::latest(read(repo, refs, Key::Branch(name).id(repo)?, warnings)?),
        None => None,
    };
    if on_branch.as_ref().is_some_and(|r| issue.is_none() || r.issue == issue) {
        return Ok(on_branch);
    }
    if let Some(issue) = issue
        && let Some(record) =
            records::latest(read(repo, refs, Key::Issue(issue).id(repo)?, warnings)?)
    {
        return Ok(Some(record));
    }
    // An explicit --issue that nothing matches finds nothing, not another issue's handoff.
    Ok(if query.issue.is_some() { None } else { on_branch })
}

/// The records attached to `object`, each warning of reading them added to `warnings`.
fn read(
    repo: &Repo,
    refs: &[String],
    object: ObjectId,
    warnings: &mut Vec<String>,
) -> Result<Vec<Record>> {
    let attached = records::read_lenient(repo, refs, object)?;
    warnings.extend(attached.warnings);
    Ok(attached.records)
}

/// A handoff known only from its record: the note (if the record names one) from its commit.
fn record_only(repo: &Repo, record: Record) -> Handoff {
    let commit = ObjectId::from_hex(record.commit.as_bytes()).ok();
    let note = match (commit, &record.note_path) {
        (Some(commit), Some(path)) => branch::file_at(repo, commit, path)
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        _ => None,
    };
    let seal = record.seal_commit.as_deref().and_then(|hex| {
        let id = ObjectId::from_hex(hex.as_bytes()).ok()?;
        let parent = repo.objects().commit(id).ok()?.parents.first().copied();
        let files = branch::changed_files(repo, parent, id).ok()?;
        let position = if commit.is_some_and(|c| Some(c) == parent) {
            SealPosition::Above
        } else {
            SealPosition::Below
        };
        Some(Seal { commit: hex.to_string(), files, position })
    });
    Handoff { record, source: ReadFrom::RecordOnly, note, seal }
}
