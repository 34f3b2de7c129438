//! `git handoff start`: begin an attempt ([`crate::ops::start`] does it).

use std::io::Write;

use anyhow::Result;

use crate::cli::context::Ctx;
use crate::cli::output;
use crate::ops::start;

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

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    // A bad configuration never stops a start: what cannot be used is said, the defaults stand.
    let (mut repo, config, _) = ctx.open_saving()?;
    let request = start::Request {
        issue: args.issue,
        base: args.base.as_deref(),
        started_at: args.started_at.as_deref(),
    };
    let report = start::start(&mut repo, &config, &request)?;
    report.warnings.iter().for_each(|warning| ctx.warn(warning));
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
