//! Changing and reading the progress plan as `progress` and the `handoff_progress` agent tool do:
//! write the plan (refusing to drop progress unless forced), set an item, and the change summary
//! with the ticket, the files the attempt changed and the quality gates. After each change the
//! configured summary file (`[progress] write`) is rewritten whole, so an orchestrator always
//! finds a complete one.

use anyhow::{Result, bail};
use serde::Serialize;

use crate::agent::attempt::{Attempt, Overrides};
use crate::agent::change_summary;
use crate::agent::digest::{self, OwnFiles};
use crate::agent::progress::{Item, Mode, Plan, Status, Store};
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::redact::Redactor;
use crate::util::fs::{write_atomic, write_atomic_in};
use crate::util::time;

/// A change to the plan.
pub enum Change {
    /// Write the plan: one item per entry (findings given as "F1: title").
    Plan { mode: Mode, items: Vec<String>, force: bool },
    /// Set an item's status, with an optional note and the files it touched.
    Set { id: String, status: String, note: Option<String>, files: Vec<String> },
}

/// The plan in the shape of `progress --json`.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub mode: Mode,
    pub status_line: String,
    pub complete: bool,
    pub items: &'a [Item],
    pub files_changed: Vec<String>,
}

impl Report<'_> {
    pub fn of(plan: &Plan, files_changed: Vec<String>) -> Report<'_> {
        Report {
            mode: plan.mode,
            status_line: plan.status_line(),
            complete: plan.is_complete(),
            items: &plan.items,
            files_changed,
        }
    }
}

const NO_PLAN: &str =
    "there is no progress plan yet; write one with `git handoff progress plan ITEM...`";

/// Applies `change` under the plan's lock, then rewrites the configured summary file.
pub fn change(repo: &Repo, config: &Config, change: Change) -> Result<Plan> {
    let store = Store::new(&repo.handoff_dir());
    // Item titles and notes go to the plan, the progress file and records: secrets never do.
    let redactor = Redactor::new(config)?;
    // The summary's path is checked before the plan changes, so a refusal changes nothing.
    let target = match &config.progress.write {
        Some(path) => Some(summary_target(repo, path)?),
        None => None,
    };
    let plan = match change {
        Change::Plan { mode, items, force } => store.update(|old| {
            let items: Vec<String> = items.into_iter().map(|i| redactor.redact_string(i)).collect();
            if let Some(old) = old {
                let started = old.items.iter().any(|i| i.status != Status::Pending);
                if started && !force {
                    bail!(
                        "a plan with progress exists ({}); pass --force to replace it, or \
                         `git handoff progress set` to update it",
                        old.status_line()
                    );
                }
            }
            Plan::new(mode, &items, time::format(time::now()))
        })?,
        Change::Set { id, status, note, files } => store.update(|old| {
            let note = note.map(|n| redactor.redact_string(n));
            let files = files.into_iter().map(|f| redactor.redact_string(f)).collect();
            let Some(mut plan) = old else { bail!(NO_PLAN) };
            plan.set(&id, &status, note, files, time::format(time::now()))?;
            Ok(plan)
        })?,
    };
    if let Some(target) = target {
        // The stored attempt, with no overrides: a change names no attempt.
        let (summary, _) = summary(repo, config, &plan, &Overrides::default())?;
        // The temporary copy goes to the git dir: a kill must not leave it in the work tree.
        write_atomic_in(&target, summary.as_bytes(), &repo.handoff_dir())?;
    }
    Ok(plan)
}

/// The plan, or the error that says how to write one.
pub fn load(repo: &Repo) -> Result<Plan> {
    match Store::new(&repo.handoff_dir()).load()? {
        Some(plan) => Ok(plan),
        None => bail!(NO_PLAN),
    }
}

/// The change summary of `plan` for the attempt, and the files it lists as changed, redacted.
pub fn summary(
    repo: &Repo,
    config: &Config,
    plan: &Plan,
    overrides: &Overrides,
) -> Result<(String, Vec<String>)> {
    let facts = summary_facts(repo, config, plan, overrides)?;
    // One pass over the final text: file names (a file may be named after a token), the plan
    // written before redaction covered it, the quality gates.
    let redactor = Redactor::new(config)?;
    let text = redactor.redact_string(change_summary::render(plan, &facts));
    let files = facts.files_changed.into_iter().map(|f| redactor.redact_string(f)).collect();
    Ok((text, files))
}

/// What the change summary says besides the plan: the ticket, the files, the quality gates.
fn summary_facts(
    repo: &Repo,
    config: &Config,
    plan: &Plan,
    overrides: &Overrides,
) -> Result<change_summary::Facts> {
    let resolved = Attempt::resolve(repo, overrides)?;
    let own = OwnFiles::of(config);
    let mut files = files_changed(repo, plan, resolved.base)?;
    files.retain(|f| !own.holds(f));
    let digest = digest::for_repo(repo, config)?;
    Ok(change_summary::Facts {
        ticket: resolved.issue,
        files_changed: files,
        quality_gates: change_summary::quality_gates(&digest),
    })
}

/// The files the items name, then what changed since the attempt's base (tracked and untracked).
fn files_changed(
    repo: &Repo,
    plan: &Plan,
    base: Option<Option<gix::ObjectId>>,
) -> Result<Vec<String>> {
    let mut files: Vec<String> = Vec::new();
    for item in &plan.items {
        for file in &item.files {
            if !files.contains(file) {
                files.push(file.clone());
            }
        }
    }
    if let (Some(Some(base)), Ok(_)) = (base, repo.top()) {
        let git = repo.git();
        let base = base.to_string();
        let tracked = git.text(["diff", "--name-only", "--no-renames", base.as_str(), "--"])?;
        let untracked = git.text(["ls-files", "--others", "--exclude-standard"])?;
        for line in tracked.lines().chain(untracked.lines()) {
            if !line.is_empty() && !files.iter().any(|f| f == line) {
                files.push(line.to_string());
            }
        }
    }
    Ok(files)
}

/// Where the summary goes for `path` (relative to the work tree top). A file already there is
/// replaced only when it is a change summary, one git-handoff wrote: the path comes from a
/// committed `.handoff.toml`, which must not be able to overwrite the user's own files.
fn summary_target(repo: &Repo, path: &str) -> Result<std::path::PathBuf> {
    let target = repo.inside_work_tree(path, "the progress file")?;
    match std::fs::symlink_metadata(&target) {
        Ok(meta) if !meta.is_file() || !is_change_summary(&target) => bail!(
            "{path} exists and is not a change summary that git-handoff wrote, so `[progress] \
             write` would replace it; move it away, or set `write` in {} to a new path",
            crate::model::config::FILE_NAME
        ),
        _ => {}
    }
    Ok(target)
}

/// Writes the summary to a file the caller named on the command line: any path they choose (an
/// orchestrator's artifact store), relative to the current directory.
pub fn write_summary(path: &std::path::Path, summary: &str) -> Result<()> {
    write_atomic(path, summary.as_bytes())
}

/// True when the file opens as a change summary does (`# Change summary`).
fn is_change_summary(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut head))
        .is_ok_and(|_| head == *b"# Change summary")
}
