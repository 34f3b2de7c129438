//! The progress plan: the interruption-proof change summary.
//!
//! An attempt with several units of work writes the plan first (tasks, or review findings), then
//! sets each item's status as it goes. The plan lives with the attempt state
//! (`<git dir>/handoff/progress.toml`) and is rewritten whole through a temporary file and a
//! rename under a lock, so an interruption at any moment leaves either the old or the new plan,
//! never half of one. Whoever reads it next (the emergency note, recall, an orchestrator) finds
//! what is done, in progress and untouched.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::model::markdown::count;
use crate::util::fs::write_atomic;

/// One progress-plan item as it stood when the record was written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProgressItem {
    pub id: String,
    pub title: String,
    pub status: String,
    pub note: Option<String>,
}

pub const PLAN_FILE: &str = "progress.toml";
const LOCK_FILE: &str = "progress.lock";
/// The most of the plan read: thousands of items with their notes fit well below it.
const PLAN_MAX: u64 = 16 << 20;

/// Tasks or review findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Tasks,
    Findings,
}

/// An item's status. Tasks take pending, in_progress, done, abandoned; findings take pending,
/// fixed, not_fixed, already_resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    InProgress,
    Done,
    Abandoned,
    Fixed,
    NotFixed,
    AlreadyResolved,
}

impl Status {
    /// The name as written in the plan and in `--json` (`in_progress`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::InProgress => "in_progress",
            Status::Done => "done",
            Status::Abandoned => "abandoned",
            Status::Fixed => "fixed",
            Status::NotFixed => "not_fixed",
            Status::AlreadyResolved => "already_resolved",
        }
    }

    /// The name as words (`in progress`).
    pub fn words(self) -> &'static str {
        match self {
            Status::InProgress => "in progress",
            Status::NotFixed => "not fixed",
            Status::AlreadyResolved => "already resolved",
            other => other.as_str(),
        }
    }

    /// Whether the item's work is over.
    pub fn is_finished(self) -> bool {
        !matches!(self, Status::Pending | Status::InProgress)
    }

    /// Finished without being done: a deferred item of the change summary.
    pub fn is_deferred(self) -> bool {
        matches!(self, Status::Abandoned | Status::NotFixed)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Mode {
    /// The statuses this mode accepts, the first being where every item starts.
    pub fn statuses(self) -> &'static [Status] {
        match self {
            Mode::Tasks => &[Status::Pending, Status::InProgress, Status::Done, Status::Abandoned],
            Mode::Findings => {
                &[Status::Pending, Status::Fixed, Status::NotFixed, Status::AlreadyResolved]
            }
        }
    }

    /// Reads a status of this mode in any letter case (`FIXED`, `In_Progress`; `-` or a space
    /// for `_`), with an error that lists the accepted ones.
    pub fn parse_status(self, text: &str) -> Result<Status> {
        let wanted = text.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        self.statuses().iter().copied().find(|s| s.as_str() == wanted).ok_or_else(|| {
            let names: Vec<&str> = self.statuses().iter().map(|s| s.as_str()).collect();
            anyhow!("{text:?} is not a {} status; use one of: {}", self.noun(), names.join(", "))
        })
    }

    pub fn noun(self) -> &'static str {
        match self {
            Mode::Tasks => "task",
            Mode::Findings => "finding",
        }
    }
}

/// One item of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub id: String,
    pub title: String,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

/// The whole plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub mode: Mode,
    pub created_at: String,
    #[serde(default, rename = "item")]
    pub items: Vec<Item>,
}

impl Plan {
    /// A new plan from the command line's items. Findings are given as `F1: title`.
    pub fn new(mode: Mode, items: &[String], created_at: String) -> Result<Plan> {
        if items.is_empty() {
            bail!(
                "a plan needs at least one item, e.g. `git handoff progress plan \"Parse input\" \"Write tests\"`"
            );
        }
        let mut out: Vec<Item> = Vec::new();
        for (index, text) in items.iter().enumerate() {
            let (id, title) = match mode {
                Mode::Tasks => (index.to_string(), text.trim().to_string()),
                Mode::Findings => parse_finding(text)?,
            };
            if title.is_empty() {
                bail!("item {} has no title; give each item some words", index + 1);
            }
            if out.iter().any(|item| item.id == id) {
                bail!("finding id {id} is given twice; each finding needs its own id");
            }
            let status = Status::Pending;
            out.push(Item { id, title, status, note: None, files: Vec::new(), updated_at: None });
        }
        Ok(Plan { mode, created_at, items: out })
    }

    /// Sets an item's status (given in any letter case), and optionally its note and files.
    pub fn set(
        &mut self,
        id: &str,
        status: &str,
        note: Option<String>,
        files: Vec<String>,
        now: String,
    ) -> Result<()> {
        let status = self.mode.parse_status(status)?;
        let ids: Vec<String> = self.items.iter().map(|i| i.id.clone()).collect();
        let item = self.items.iter_mut().find(|item| item.id.eq_ignore_ascii_case(id)).ok_or_else(
            || anyhow!("no item {id:?} in the plan; the ids are: {}", ids.join(", ")),
        )?;
        item.status = status;
        if note.is_some() {
            item.note = note;
        }
        for file in files {
            if !item.files.contains(&file) {
                item.files.push(file);
            }
        }
        item.updated_at = Some(now);
        Ok(())
    }

    pub fn is_complete(&self) -> bool {
        !self.items.is_empty() && self.items.iter().all(|item| item.status.is_finished())
    }

    /// What the change summary shows before a plan is written (seed 004's orchestrator wants the
    /// file whole from the coder's start): no items, every section pending.
    pub fn scaffold() -> Plan {
        Plan { mode: Mode::Tasks, created_at: String::new(), items: Vec::new() }
    }

    /// The change summary's status line, counting by id: `In progress — task 1 of 3` (the item in
    /// progress, else the next pending one; task 0 in a fresh scaffold), and at the end
    /// `Complete — 2 of 3 tasks done (task 2 abandoned)` or
    /// `Complete — 3 of 3 findings addressed (F2 not fixed)`.
    pub fn status_line(&self) -> String {
        if self.items.is_empty() {
            return "Not started — no plan yet".to_string();
        }
        let total = self.items.len();
        let noun = self.mode.noun();
        let current = self
            .items
            .iter()
            .find(|i| i.status == Status::InProgress)
            .or_else(|| self.items.iter().find(|i| i.status == Status::Pending));
        if let Some(item) = current {
            return format!("In progress — {noun} {} of {total}", item.id);
        }
        let deferred: Vec<&str> =
            self.items.iter().filter(|i| i.status.is_deferred()).map(|i| i.id.as_str()).collect();
        match self.mode {
            Mode::Tasks => {
                let done = total - deferred.len();
                let tasks = if total == 1 { "task" } else { "tasks" };
                let mut line = format!("Complete — {done} of {total} {tasks} done");
                if !deferred.is_empty() {
                    let tasks = if deferred.len() == 1 { "task" } else { "tasks" };
                    line.push_str(&format!(" ({tasks} {} abandoned)", deferred.join(", ")));
                }
                line
            }
            Mode::Findings => {
                let findings = if total == 1 { "finding" } else { "findings" };
                let mut line = format!("Complete — {total} of {total} {findings} addressed");
                if !deferred.is_empty() {
                    line.push_str(&format!(" ({} not fixed)", deferred.join(", ")));
                }
                line
            }
        }
    }

    /// `2 tasks done, 1 task in progress, 1 task pending`: the items by status, in English.
    pub fn counts(&self) -> String {
        let mut parts: Vec<(Status, u64)> = Vec::new();
        for item in &self.items {
            match parts.iter_mut().find(|(s, _)| *s == item.status) {
                Some((_, n)) => *n += 1,
                None => parts.push((item.status, 1)),
            }
        }
        // What is finished first, then what is in progress, then what waits.
        let rank = |s: &Status| match s {
            Status::InProgress => 1,
            Status::Pending => 2,
            _ => 0,
        };
        parts.sort_by_key(|(s, _)| (rank(s), self.mode.statuses().iter().position(|x| x == s)));
        let (one, many) = match self.mode {
            Mode::Tasks => ("task", "tasks"),
            Mode::Findings => ("finding", "findings"),
        };
        let parts: Vec<String> =
            parts.iter().map(|(s, n)| format!("{} {}", count(*n, one, many), s.words())).collect();
        parts.join(", ")
    }

    /// Items not yet finished, for the emergency note's Remaining work.
    pub fn unfinished(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|item| !item.status.is_finished())
    }

    /// The plan as record items.
    pub fn record_items(&self) -> Vec<ProgressItem> {
        self.items
            .iter()
            .map(|i| ProgressItem {
                id: i.id.clone(),
                title: i.title.clone(),
                status: i.status.as_str().to_string(),
                note: i.note.clone(),
            })
            .collect()
    }
}

/// `tasks 0–4 done, 5 in progress, 6–7 pending` from `(id, status)` pairs in plan order.
pub fn compact_line(noun: &str, items: &[(&str, &str)]) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (id, status) in items {
        let status = status.replace('_', " ");
        match groups.last_mut() {
            Some((last, ids)) if *last == status => ids.push(id.to_string()),
            _ => groups.push((status, vec![id.to_string()])),
        }
    }
    let parts: Vec<String> =
        groups.iter().map(|(status, ids)| format!("{} {status}", id_range(ids))).collect();
    format!("{noun} {}", parts.join(", "))
}

/// `0–4` for consecutive task ids, `F1, F2` otherwise.
fn id_range(ids: &[String]) -> String {
    let numbers: Option<Vec<u64>> = ids.iter().map(|id| id.parse().ok()).collect();
    match numbers {
        Some(n) if n.len() > 1 && n.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("{}–{}", n[0], n[n.len() - 1])
        }
        _ => ids.join(", "),
    }
}

fn parse_finding(text: &str) -> Result<(String, String)> {
    let (id, title) = text.split_once(':').ok_or_else(|| {
        anyhow!("finding {text:?} has no id; write findings as \"F1: title\" (or W1, N2 ...)")
    })?;
    let id = id.trim();
    let valid = id.len() >= 2
        && id.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && id.chars().all(|c| c.is_ascii_alphanumeric());
    if !valid {
        bail!("finding id {id:?} is not like F1 or W2; write findings as \"F1: title\"");
    }
    Ok((id.to_ascii_uppercase(), title.trim().to_string()))
}

/// Where the plan of an attempt is kept.
pub struct Store {
    dir: PathBuf,
}

impl Store {
    pub fn new(handoff_dir: &Path) -> Store {
        Store { dir: handoff_dir.to_path_buf() }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join(PLAN_FILE)
    }

    /// Reads the plan, if one was written.
    pub fn load(&self) -> Result<Option<Plan>> {
        let path = self.path();
        let read = crate::util::fs::read_regular_if_any(&path, PLAN_MAX, "the progress plan")?;
        let Some(bytes) = read else { return Ok(None) };
        let text = String::from_utf8(bytes)
            .map_err(|_| anyhow!("{}: the progress plan is not UTF-8 text", path.display()))?;
        let plan = toml::from_str(&text).map_err(|err| {
            anyhow!(
                "{}: broken progress plan: {}; write a new one with `git handoff progress plan`",
                path.display(),
                err.message()
            )
        })?;
        Ok(Some(plan))
    }

    /// Runs `change` on the plan under an exclusive lock and writes the result atomically.
    pub fn update(&self, change: impl FnOnce(Option<Plan>) -> Result<Plan>) -> Result<Plan> {
        self.locked(|old| {
            let plan = change(old)?;
            let text = toml::to_string(&plan).context("serialising the plan")?;
            write_atomic(&self.path(), text.as_bytes())?;
            Ok(plan)
        })
    }

    /// Runs `read` on the plan under the same lock, so what it writes from the plan (the change
    /// summary files) is never older than a change that finished before it.
    pub fn locked<T>(&self, read: impl FnOnce(Option<Plan>) -> Result<T>) -> Result<T> {
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("creating {}", self.dir.display()))?;
        let lock_path = self.dir.join(LOCK_FILE);
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("opening {}", lock_path.display()))?;
        lock.lock().with_context(|| format!("locking {}", lock_path.display()))?;
        read(self.load()?)
    }
}
