//! `git handoff progress`: the incremental progress plan.

use std::io::Write;

use anyhow::{Result, bail};
use clap::Subcommand;
use serde::Serialize;

use crate::agent::attempt::Attempt;
use crate::agent::change_summary;
use crate::agent::digest::{self, OwnFiles};
use crate::agent::progress::{Item, Mode, Plan, Status, Store};
use crate::cli::AttemptArgs;
use crate::cli::commands::Ctx;
use crate::cli::output;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::redact::Redactor;
use crate::util::fs::write_atomic;
use crate::util::time;

/// Keep a progress plan that survives interruption.
///
/// Write the plan before the work, set each item's status after each unit.
///
/// Tasks take the statuses pending, in_progress, done, abandoned; review findings (`--findings`,
/// items given as "F1: title") take pending, fixed, not_fixed, already_resolved; any letter case
/// (FIXED is fixed).
///
/// The plan reads as a change summary: `# Change summary — ticket #N`, `## Status` (`In progress —
/// task 1 of 3`, counted by id), `## Per-task summary` (`### Task 0: Parse input — done` with
/// `Files:` and `Outcome:` lines; findings `### F1: off by one — FIXED` with `Action:`), `## Files
/// changed`, `## Quality gates` (the checks the event log saw, the last run of each) and
/// `## Deferred items`. With `[progress] write` it is rewritten to that file after every change.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...).
    Plan {
        /// Items are review findings given as "F1: title".
        #[arg(long)]
        findings: bool,
        /// Replace a plan whose items already have progress.
        #[arg(long)]
        force: bool,
        /// The items, in order.
        #[arg(required = true, value_name = "ITEM")]
        items: Vec<String>,
    },
    /// Set an item's status, with an optional note and the files it touched.
    Set {
        /// The item id (0, 1 ... or F1, W2 ...).
        id: String,
        /// The new status.
        status: String,
        /// A short note: the outcome (the action, for a finding), why it was abandoned ...
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        /// Files the item changed.
        #[arg(long, num_args = 1.., value_name = "PATH")]
        files: Vec<String>,
    },
    /// Show the change summary: status, each item, files changed, quality gates, deferred items.
    Show {
        /// Also (over)write the summary to this file.
        #[arg(long, value_name = "PATH")]
        write: Option<String>,
        #[command(flatten)]
        attempt: AttemptArgs,
    },
}

#[derive(Serialize)]
struct Report<'a> {
    mode: Mode,
    status_line: String,
    complete: bool,
    items: &'a [Item],
    files_changed: Vec<String>,
}

impl Report<'_> {
    fn of(plan: &Plan, files_changed: Vec<String>) -> Report<'_> {
        Report {
            mode: plan.mode,
            status_line: plan.status_line(),
            complete: plan.is_complete(),
            items: &plan.items,
            files_changed,
        }
    }
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let repo = Repo::discover()?;
    let config = Config::load(repo.top().ok())?;
    let store = Store::new(&repo.handoff_dir());
    // Item titles and notes go to the plan, the progress file and records: secrets never do.
    let redactor = Redactor::new(&config)?;
    let (plan, attempt_args) = match args.action {
        Action::Plan { findings, force, items } => {
            let items: Vec<String> = items.into_iter().map(|i| redactor.redact_string(i)).collect();
            let mode = if findings { Mode::Findings } else { Mode::Tasks };
            let plan = store.update(|old| {
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
            })?;
            (plan, AttemptArgs::default())
        }
        Action::Set { id, status, note, files } => {
            let note = note.map(|n| redactor.redact_string(n));
            let plan = store.update(|old| {
                let Some(mut plan) = old else {
                    bail!("there is no progress plan yet; write one with `git handoff progress plan ITEM...`");
                };
                plan.set(&id, &status, note, files, time::format(time::now()))?;
                Ok(plan)
            })?;
            (plan, AttemptArgs::default())
        }
        Action::Show { write, attempt } => {
            let Some(plan) = store.load()? else {
                bail!(
                    "there is no progress plan yet; write one with `git handoff progress plan ITEM...`"
                );
            };
            let facts = summary_facts(&repo, &config, &plan, &attempt)?;
            let summary = change_summary::render(&plan, &facts);
            let files = facts.files_changed;
            if let Some(path) = write {
                write_summary(&repo, &path, &summary)?;
            }
            if ctx.json {
                return Ok(output::write_json(out, &Report::of(&plan, files))?);
            }
            out.write_all(summary.as_bytes())?;
            return Ok(());
        }
    };
    // After a change: the configured summary file is rewritten so readers always find a whole one.
    if let Some(path) = &config.progress.write {
        let facts = summary_facts(&repo, &config, &plan, &attempt_args)?;
        write_summary(&repo, path, &change_summary::render(&plan, &facts))?;
    }
    if ctx.json {
        return Ok(output::write_json(out, &Report::of(&plan, Vec::new()))?);
    }
    let heading = format!("{} ({})", plan.status_line(), plan.counts());
    writeln!(out, "{}", output::heading(&heading))?;
    for item in &plan.items {
        let status = item.status.as_str();
        writeln!(out, "  {} {status:<16} {}", mark(item.status), item_label(item))?;
    }
    Ok(())
}

/// What the change summary says besides the plan: the ticket, the files, the quality gates.
fn summary_facts(
    repo: &Repo,
    config: &Config,
    plan: &Plan,
    args: &AttemptArgs,
) -> Result<change_summary::Facts> {
    let resolved = Attempt::resolve(repo, &args.into())?;
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

fn item_label(item: &Item) -> String {
    format!("{}: {}", item.id, item.title)
}

fn mark(status: Status) -> &'static str {
    match status {
        Status::Done | Status::Fixed | Status::AlreadyResolved => "[x]",
        Status::InProgress => "[~]",
        Status::Abandoned | Status::NotFixed => "[-]",
        Status::Pending => "[ ]",
    }
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

/// Writes the summary to `path` (relative to the work tree top) atomically.
fn write_summary(repo: &Repo, path: &str, summary: &str) -> Result<()> {
    let target = match repo.top() {
        Ok(top) => crate::util::paths::inside(top, path, "the progress file")?,
        Err(_) => std::path::PathBuf::from(path),
    };
    write_atomic(&target, summary.as_bytes())
}
