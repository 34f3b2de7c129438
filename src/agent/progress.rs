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

/// Tasks or review findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Tasks,
    Findings,
}

impl Mode {
    /// The statuses this mode accepts, the first being where every item starts.
    pub fn statuses(self) -> &'static [&'static str] {
        match self {
            Mode::Tasks => &["pending", "in_progress", "done", "abandoned"],
            Mode::Findings => &["pending", "fixed", "not_fixed", "already_resolved"],
        }
    }

    /// Statuses that end an item's work.
    fn is_finished(self, status: &str) -> bool {
        match self {
            Mode::Tasks => matches!(status, "done" | "abandoned"),
            Mode::Findings => matches!(status, "fixed" | "not_fixed" | "already_resolved"),
        }
    }

    fn noun(self) -> &'static str {
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
    pub status: String,
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
            let status = mode.statuses()[0].to_string();
            out.push(Item { id, title, status, note: None, files: Vec::new(), updated_at: None });
        }
        Ok(Plan { mode, created_at, items: out })
    }

    /// Sets an item's status (and optionally its note and files).
    pub fn set(
        &mut self,
        id: &str,
        status: &str,
        note: Option<String>,
        files: Vec<String>,
        now: String,
    ) -> Result<()> {
        let mode = self.mode;
        if !mode.statuses().contains(&status) {
            bail!(
                "{status:?} is not a {} status; use one of: {}",
                mode.noun(),
                mode.statuses().join(", ")
            );
        }
        let ids: Vec<String> = self.items.iter().map(|i| i.id.clone()).collect();
        let item = self.items.iter_mut().find(|item| item.id.eq_ignore_ascii_case(id)).ok_or_else(
            || anyhow!("no item {id:?} in the plan; the ids are: {}", ids.join(", ")),
        )?;
        item.status = status.to_string();
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
        self.items.iter().all(|item| self.mode.is_finished(&item.status))
    }

    /// `Complete`, `In progress — task 3 of 8`, `Not started — 8 tasks pending` ...
    pub fn status_line(&self) -> String {
        let total = self.items.len();
        let noun = self.mode.noun();
        if self.is_complete() {
            return "Complete".to_string();
        }
        if let Some(pos) = self.items.iter().position(|i| i.status == "in_progress") {
            return format!("In progress — {noun} {} of {total}", pos + 1);
        }
        let finished = self.items.iter().filter(|i| self.mode.is_finished(&i.status)).count();
        if finished == 0 {
            return format!("Not started — {total} {noun}s pending");
        }
        format!("In progress — {finished} of {total} {noun}s finished")
    }

    /// Items not yet finished, for the emergency note's Remaining work.
    pub fn unfinished(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|item| !self.mode.is_finished(&item.status))
    }

    /// The plan as record items.
    pub fn record_items(&self) -> Vec<ProgressItem> {
        self.items
            .iter()
            .map(|i| ProgressItem {
                id: i.id.clone(),
                title: i.title.clone(),
                status: i.status.clone(),
                note: i.note.clone(),
            })
            .collect()
    }

    /// The change summary in Markdown: status line, one section per item, files changed,
    /// quality gates and deferred items.
    pub fn summary(&self, files_changed: &[String], quality_gates: &[String]) -> String {
        let mut out = format!("# Change summary\n\n{}\n", self.status_line());
        for item in &self.items {
            out.push_str(&format!(
                "\n## {} {}: {}\n\n",
                self.mode.noun_title(),
                item.id,
                item.title
            ));
            out.push_str(&format!("Status: {}\n", item.status));
            if !item.files.is_empty() {
                out.push_str(&format!("Files: {}\n", item.files.join(", ")));
            }
            if let Some(note) = &item.note {
                out.push_str(&format!("Note: {note}\n"));
            }
        }
        out.push_str("\n## Files changed\n\n");
        push_list(&mut out, files_changed, "none recorded");
        out.push_str("\n## Quality gates\n\n");
        push_list(&mut out, quality_gates, "none recorded");
        out.push_str("\n## Deferred items\n\n");
        let deferred: Vec<String> = self
            .items
            .iter()
            .filter(|i| matches!(i.status.as_str(), "abandoned" | "not_fixed"))
            .map(|i| match &i.note {
                Some(note) => format!("{} {} ({}): {note}", i.id, i.title, i.status),
                None => format!("{} {} ({})", i.id, i.title, i.status),
            })
            .collect();
        push_list(&mut out, &deferred, "none");
        out
    }
}

impl Mode {
    fn noun_title(self) -> &'static str {
        match self {
            Mode::Tasks => "Task",
            Mode::Findings => "Finding",
        }
    }
}

fn push_list(out: &mut String, items: &[String], empty: &str) {
    if items.is_empty() {
        out.push_str(empty);
        out.push('\n');
    }
    for item in items {
        out.push_str(&format!("- {item}\n"));
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
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(anyhow!("{}: cannot read the plan: {err}", path.display())),
        };
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
        let plan = change(self.load()?)?;
        let text = toml::to_string(&plan).context("serialising the plan")?;
        write_atomic(&self.path(), text.as_bytes())?;
        Ok(plan)
    }
}
