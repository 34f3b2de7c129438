//! `git handoff progress`: the incremental progress plan.

use std::io::Write;

use anyhow::Result;
use clap::Subcommand;

use crate::agent::change_summary;
use crate::agent::progress::{Item, Mode, Status};
use crate::cli::context::{AttemptArgs, Ctx};
use crate::cli::output;
use crate::ops::progress::{self, Change, Report};

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
/// `## Deferred items`. With `[progress] write`, and at any path named with `show --write`, it is
/// rewritten after every change and whenever `record` takes an edit or a check's result, so the
/// file never claims more than the log.
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
        /// A short note: the outcome (the action, for a finding), why it was abandoned ... A
        /// finding set without one reads `Action: none given`.
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        /// Files the item changed.
        #[arg(long, num_args = 1.., value_name = "PATH")]
        files: Vec<String>,
    },
    /// Show the change summary: status, each item, files changed, quality gates, deferred items.
    Show {
        /// Also (over)write the summary to this file (any path, relative to the current
        /// directory, outside the repository too); later changes, edits and checks rewrite it.
        #[arg(long, value_name = "PATH")]
        write: Option<std::path::PathBuf>,
        #[command(flatten)]
        attempt: AttemptArgs,
    },
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (repo, config) = ctx.open()?;
    let mut set_id = None;
    let change = match args.action {
        Action::Plan { findings, force, items } => {
            let mode = if findings { Mode::Findings } else { Mode::Tasks };
            Change::Plan { mode, items, force }
        }
        Action::Set { id, status, note, files } => {
            set_id = Some(id.clone());
            Change::Set { id, status, note, files }
        }
        Action::Show { write, attempt } => {
            // Before the plan, the scaffold: every section there, pending.
            let plan = progress::load_or_scaffold(&repo)?;
            let (summary, files) = progress::summary(&repo, &config, &plan, &(&attempt).into())?;
            if let Some(path) = write {
                progress::write_summary(&repo, &path, &summary)?;
            }
            if ctx.json {
                return Ok(output::write_json(out, &Report::of(&plan, files))?);
            }
            // Titles, notes and file names are the agent's: control characters shown escaped.
            let summary = crate::util::text::escape_controls(&summary, true);
            out.write_all(summary.as_bytes())?;
            return Ok(());
        }
    };
    let plan = progress::change(&repo, &config, change)?;
    if ctx.json {
        return Ok(output::write_json(out, &Report::of(&plan, Vec::new()))?);
    }
    // Say what the set did, Action included: a finding set without --note gets one too.
    if let Some(item) =
        set_id.and_then(|id| plan.items.iter().find(|i| i.id.eq_ignore_ascii_case(&id)))
    {
        writeln!(out, "{}", change_summary::set_line(plan.mode, item, "--note TEXT"))?;
    }
    let heading = format!("{} ({})", plan.status_line(), plan.counts());
    let heading = crate::util::text::escape_controls(&heading, false);
    writeln!(out, "{}", output::heading(&heading))?;
    for item in &plan.items {
        let status = item.status.as_str();
        writeln!(out, "  {} {status:<16} {}", mark(item.status), item_label(item))?;
    }
    Ok(())
}

fn item_label(item: &Item) -> String {
    crate::util::text::escape_controls(&format!("{}: {}", item.id, item.title), false).into_owned()
}

fn mark(status: Status) -> &'static str {
    match status {
        Status::Done | Status::Fixed | Status::AlreadyResolved => "[x]",
        Status::InProgress => "[~]",
        Status::Abandoned | Status::NotFixed => "[-]",
        Status::Pending => "[ ]",
    }
}
