//! `git handoff start`: begin an attempt.

use std::io::Write;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::agent::attempt::{Attempt, EVENTS_FILE};
use crate::cli::context::Ctx;
use crate::cli::output;
use crate::util::time;

/// Begin an attempt: its issue, base and start time, and a fresh event log.
///
/// The state lives in this worktree's own git dir (`handoff/`), never in the work tree. A previous
/// attempt's state, event log and plan are moved to `handoff/archive/`, not deleted.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The issue number the attempt works on.
    #[arg(long, value_name = "N")]
    pub issue: u64,

    /// The base revision [default: HEAD].
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,

    /// When the attempt began, RFC 3339 [default: now].
    #[arg(long, value_name = "TIME")]
    pub started_at: Option<String>,
}

#[derive(Serialize)]
struct Report {
    issue: u64,
    base: Option<String>,
    branch: Option<String>,
    started_at: String,
    state_dir: String,
    events: String,
    archived: Option<String>,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    // A bad configuration never stops a start: what cannot be used is said, the defaults stand.
    let (mut repo, config, _) = ctx.open_saving()?;
    let head = repo.head()?;
    let base = match &args.base {
        Some(rev) => Some(repo.resolve_commit(rev).context("--base")?),
        None => head.id,
    };
    let started_at = match &args.started_at {
        Some(text) => time::parse(text).context("--started-at")?,
        None => time::now(),
    };
    let attempt = Attempt { issue: Some(args.issue), base, started_at, branch: head.branch };
    let archived = attempt.begin(&repo)?;
    // Above an earlier note, the notes ref says where this attempt began, so `validate` on any
    // machine tells its work from work committed after that note.
    if let Err(err) = crate::ops::start::mark_if_above_note(&mut repo, &config, &attempt) {
        ctx.warn(&format!("{err:#}; `validate` elsewhere may not tell this attempt's work apart"));
    }
    let dir = repo.handoff_dir();
    let report = Report {
        issue: args.issue,
        base: attempt.base.map(|id| id.to_string()),
        branch: attempt.branch.clone(),
        started_at: time::format(attempt.started_at),
        state_dir: dir.display().to_string(),
        events: dir.join(EVENTS_FILE).display().to_string(),
        archived: archived.map(|p| p.display().to_string()),
    };
    if ctx.json {
        return Ok(output::write_json(out, &report)?);
    }
    writeln!(out, "{} issue #{}", output::heading("Started attempt:"), report.issue)?;
    let base = report.base.as_deref().unwrap_or("(unborn branch)");
    writeln!(out, "base:       {base}")?;
    writeln!(out, "branch:     {}", report.branch.as_deref().unwrap_or("(detached HEAD)"))?;
    writeln!(out, "started_at: {}", report.started_at)?;
    writeln!(out, "state:      {}", report.state_dir)?;
    if let Some(archived) = &report.archived {
        writeln!(out, "{}", output::dim(&format!("previous attempt archived in {archived}")))?;
    }
    Ok(())
}
