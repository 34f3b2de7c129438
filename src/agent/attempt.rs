//! The attempt: one session of work on one issue, from a base revision, begun at `started_at`.
//!
//! Its state lives in this worktree's own git dir, `handoff/attempt.toml`, next to the event log,
//! so parallel agents in linked worktrees never collide and nothing appears in the work tree.
//! Starting a new attempt moves everything of the previous one into `handoff/archive/`: nothing
//! is deleted. Commands take `--issue/--base/--started-at` over the stored state, so a runtime can
//! stay stateless.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::git::repo::Repo;
use crate::util::fs::write_atomic;
use crate::util::time;

pub const STATE_FILE: &str = "attempt.toml";
pub const EVENTS_FILE: &str = "events.jsonl";
pub const ARCHIVE_DIR: &str = "archive";
/// The most of the attempt state read: a few keys.
const STATE_MAX: u64 = 64 << 10;

/// The stored form of an attempt.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    /// Absent when `record` began the attempt and no issue is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    issue: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base: Option<String>,
    started_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    branch: Option<String>,
    /// True when `record` began the attempt because no `start` ran.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    implicit: bool,
}

/// A started attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// `None` when `record` began the attempt because no `start` ran: the issue is unknown.
    pub issue: Option<u64>,
    /// `None` when the attempt began on an unborn branch.
    pub base: Option<ObjectId>,
    pub started_at: Timestamp,
    pub branch: Option<String>,
}

/// What the caller says of the attempt, overriding the attempt state, so a runtime can stay
/// stateless (the command line's `--issue`, `--base`, `--started-at`).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub issue: Option<u64>,
    /// A revision, resolved against the repository.
    pub base: Option<String>,
    /// RFC 3339.
    pub started_at: Option<String>,
}

/// What a command knows of the attempt after merging flags over the stored state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resolved {
    pub issue: Option<u64>,
    /// `Some(None)` is a known unborn base; `None` means nobody said.
    pub base: Option<Option<ObjectId>>,
    pub started_at: Option<Timestamp>,
}

impl Resolved {
    /// The issue, or the error that tells how to start an attempt.
    pub fn require_issue(&self) -> Result<u64> {
        self.issue.ok_or_else(|| {
            anyhow!(
                "no attempt is started here; run `git handoff start --issue N` or pass --issue N"
            )
        })
    }
}

impl Attempt {
    /// Loads the stored attempt of this worktree, if any.
    pub fn load(repo: &Repo) -> Result<Option<Attempt>> {
        let path = repo.handoff_dir().join(STATE_FILE);
        let read = crate::util::fs::read_regular_if_any(&path, STATE_MAX, "the attempt state")?;
        let Some(bytes) = read else { return Ok(None) };
        let text = String::from_utf8(bytes)
            .map_err(|_| anyhow!("{}: the attempt state is not UTF-8 text", path.display()))?;
        let mend = "run `git handoff start --issue N` to begin a fresh attempt";
        let stored: Stored = toml::from_str(&text).map_err(|err| {
            anyhow!("{}: broken attempt state: {}; {mend}", path.display(), err.message())
        })?;
        let base = match &stored.base {
            Some(hex) => Some(ObjectId::from_hex(hex.as_bytes()).map_err(|_| {
                anyhow!("{}: base {hex:?} is not a commit id; {mend}", path.display())
            })?),
            None => None,
        };
        let started_at = time::parse(&stored.started_at)
            .map_err(|err| anyhow!("{}: started_at: {err}; {mend}", path.display()))?;
        Ok(Some(Attempt {
            // An implicit attempt knows no issue, whatever an older file stored for it.
            issue: stored.issue.filter(|_| !stored.implicit),
            base,
            started_at,
            branch: stored.branch,
        }))
    }

    /// True when `record` began the attempt because no `start` ran.
    pub fn implicit(&self) -> bool {
        self.issue.is_none()
    }

    /// Writes the attempt state atomically.
    pub fn save(&self, repo: &Repo) -> Result<()> {
        let stored = Stored {
            issue: self.issue,
            base: self.base.map(|id| id.to_string()),
            started_at: time::format(self.started_at),
            branch: self.branch.clone(),
            implicit: self.implicit(),
        };
        let text = toml::to_string(&stored).context("serialising the attempt state")?;
        let dir = repo.handoff_dir();
        write_atomic(&dir.join(STATE_FILE), text.as_bytes())
    }

    /// Begins an attempt: archives the previous one (state, event log, plan), writes the new state
    /// and an empty event log. Returns where the previous attempt was archived.
    pub fn begin(&self, repo: &Repo) -> Result<Option<PathBuf>> {
        let dir = repo.handoff_dir();
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        crate::util::leftovers::sweep(&dir, crate::util::fs::TMP_PREFIX);
        let archived = archive_previous(&dir)?;
        // What killed writers left in archives made before temporary files stayed out of them.
        if let Ok(archives) = std::fs::read_dir(dir.join(ARCHIVE_DIR)) {
            for archive in archives.flatten() {
                crate::util::leftovers::sweep(&archive.path(), crate::util::fs::TMP_PREFIX);
            }
        }
        self.save(repo)?;
        let events = dir.join(EVENTS_FILE);
        // Never truncate: a hook that fired after the old log was archived may already have
        // begun the new one.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&events)
            .with_context(|| format!("creating {}", events.display()))?;
        Ok(archived)
    }

    /// Merges `args` over the stored attempt. Stored base and started_at apply only to the stored
    /// issue: `--issue` naming another issue starts from a clean slate. An implicit attempt (begun
    /// by `record`) has no known issue, so its base and started_at serve any `--issue`.
    pub fn resolve(repo: &Repo, args: &Overrides) -> Result<Resolved> {
        let stored = Attempt::load(repo)?;
        // An implicit attempt (no issue) serves any `--issue`; a stored issue only its own.
        let stored =
            stored.filter(|a| a.issue.is_none() || args.issue.is_none_or(|i| a.issue == Some(i)));
        let base = match &args.base {
            Some(rev) => Some(Some(repo.resolve_commit(rev)?)),
            None => stored.as_ref().map(|a| a.base),
        };
        let started_at = match &args.started_at {
            Some(text) => Some(time::parse(text).context("--started-at")?),
            None => stored.as_ref().map(|a| a.started_at),
        };
        let stored_issue = stored.as_ref().and_then(|a| a.issue);
        Ok(Resolved { issue: args.issue.or(stored_issue), base, started_at })
    }
}

/// Where the next `start` archives the attempt begun at `started_at`: `archive/<started_at>` in
/// the handoff dir (colons left out), or `-2`, `-3` ... after it when that is taken. Named ahead
/// of time, so the emergency note can say where the attempt's log will stay.
pub fn archive_target(dir: &Path, started_at: Timestamp) -> PathBuf {
    let stamp = time::format(started_at).replace(':', "");
    let root = dir.join(ARCHIVE_DIR);
    let mut target = root.join(&stamp);
    let mut n = 1;
    while target.exists() {
        n += 1;
        target = root.join(format!("{stamp}-{n}"));
    }
    target
}

/// Moves everything in the handoff dir but the archive into `archive/<started_at>/` (the archived
/// attempt's, else now; see [`archive_target`]).
fn archive_previous(dir: &Path) -> Result<Option<PathBuf>> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry?;
        // Temporary files are another process's, or a killed one's: never archived, where no
        // sweep would find them (the next command's sweep removes a killed writer's).
        let name = entry.file_name();
        let temporary = name
            .to_str()
            .is_some_and(|n| n.starts_with(crate::util::fs::TMP_PREFIX) || n.starts_with(".tmp"));
        if name != ARCHIVE_DIR && !temporary {
            entries.push(entry.path());
        }
    }
    if entries.is_empty() {
        return Ok(None);
    }
    let started_at = std::fs::read_to_string(dir.join(STATE_FILE))
        .ok()
        .and_then(|text| toml::from_str::<Stored>(&text).ok())
        .and_then(|stored| time::parse(&stored.started_at).ok());
    let target = archive_target(dir, started_at.unwrap_or_else(time::now));
    std::fs::create_dir_all(&target).with_context(|| format!("creating {}", target.display()))?;
    // The event log moves under its writers' lock, so no hook appends to it mid-move.
    let events = dir.join(EVENTS_FILE);
    let _log_lock =
        if events.exists() { Some(crate::agent::events::open_locked(&events)?) } else { None };
    for path in entries {
        let name = path.file_name().expect("read_dir entries have names");
        match std::fs::rename(&path, target.join(name)) {
            // Listed, then gone: a file another process wrote through a temporary name (a hook's
            // implicit attempt state, the note-free cache) and renamed since. Nothing to archive.
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            other => other.with_context(|| {
                format!("archiving {} into {}", path.display(), target.display())
            })?,
        }
    }
    Ok(Some(target))
}
