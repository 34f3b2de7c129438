//! `git handoff snapshot`: the repository state rendered for a prompt.

use std::io::Write;

use anyhow::{Result, bail};

use crate::agent::attempt::Attempt;
use crate::cli::AttemptArgs;
use crate::cli::commands::Ctx;
use crate::cli::output;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::ops::snapshot::{self, Capped, Request, Snapshot};

/// Print the repository state for a prompt, with a pre-filled note header.
///
/// The snapshot holds branch, base, HEAD, `git status --short`, `git log --oneline <base>..HEAD`
/// and `git diff --stat <base>` (each byte-identical to git's own, capped with a `+N more` line)
/// and a pre-filled handoff note header.
///
/// Without an attempt, the base is the merge-base with the upstream, else HEAD, and no header is
/// printed.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Lines kept from each git output [default: caps.snapshot_lines, 40].
    #[arg(long, value_name = "N")]
    pub max_lines: Option<usize>,

    /// The reason written into the note header.
    #[arg(long, value_name = "REASON", default_value = "agent_request")]
    pub reason: String,

    #[command(flatten)]
    pub attempt: AttemptArgs,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let repo = Repo::discover()?;
    let config = Config::load(repo.top().ok())?;
    config.check_reason(&args.reason)?;
    let max_lines = args.max_lines.unwrap_or(config.caps.snapshot_lines);
    if max_lines == 0 {
        bail!("--max-lines must be at least 1 (it caps each git output; the default is 40)");
    }
    let resolved = Attempt::resolve(&repo, &(&args.attempt).into())?;
    let req = Request {
        issue: resolved.issue,
        base: resolved.base,
        started_at: resolved.started_at,
        reason: args.reason,
        max_lines,
    };
    let snap = snapshot::take(&repo, &req)?;
    if ctx.json {
        return Ok(output::write_json(out, &snap)?);
    }
    render(&snap, out)
}

/// The text form: Markdown headings, each git output in a fenced block, `+N more` lines.
fn render(snap: &Snapshot, out: &mut impl Write) -> Result<()> {
    let title = match snap.issue {
        Some(issue) => format!("# Snapshot: issue #{issue}"),
        None => "# Snapshot".to_string(),
    };
    writeln!(out, "{}\n", output::heading(&title))?;
    writeln!(out, "branch: {}", snap.branch.as_deref().unwrap_or("(detached HEAD)"))?;
    writeln!(out, "base: {}", snap.base.as_deref().unwrap_or("(none: unborn branch)"))?;
    writeln!(out, "head: {}", snap.head.as_deref().unwrap_or("(none: unborn branch)"))?;
    if let Some(started) = &snap.started_at {
        writeln!(out, "started_at: {started}")?;
    }
    writeln!(out, "taken_at: {}", snap.taken_at)?;

    let base = snap.base.as_deref().map(crate::util::text::short_id).unwrap_or("(root)");
    section(out, "git status --short", &snap.status, "(clean)")?;
    section(out, &format!("git log --oneline {base}..HEAD"), &snap.log, "(no commits)")?;
    let mut stat = snap.diff_stat.lines.clone();
    let summary = if snap.diff_stat.summary.is_empty() {
        b"(no changes)".to_vec()
    } else {
        snap.diff_stat.summary.clone()
    };
    let capped = Capped { lines: std::mem::take(&mut stat), more: snap.diff_stat.more };
    writeln!(out, "\n{}\n", output::heading(&format!("## git diff --stat {base}")))?;
    fenced(out, &capped.lines, Some(&summary), capped.more)?;

    if let Some(header) = &snap.header {
        writeln!(out, "\n{}\n", output::heading("## Handoff note header"))?;
        let lines: Vec<Vec<u8>> = header.lines().map(|l| l.as_bytes().to_vec()).collect();
        fenced(out, &lines, None, 0)?;
    }
    Ok(())
}

fn section(out: &mut impl Write, title: &str, part: &Capped, empty: &str) -> Result<()> {
    writeln!(out, "\n{}\n", output::heading(&format!("## {title}")))?;
    if part.lines.is_empty() {
        writeln!(out, "{empty}")?;
        return Ok(());
    }
    fenced(out, &part.lines, None, part.more)
}

/// A fenced block whose fence is longer than any backtick run inside, so names cannot close it.
fn fenced(out: &mut impl Write, lines: &[Vec<u8>], last: Option<&[u8]>, more: usize) -> Result<()> {
    let longest =
        lines.iter().chain(last.map(|l| l.to_vec()).iter()).map(|l| backtick_run(l)).max();
    let fence = "`".repeat(longest.unwrap_or(0).max(2) + 1);
    writeln!(out, "{fence}")?;
    for line in lines {
        out.write_all(line)?;
        out.write_all(b"\n")?;
    }
    if more > 0 {
        writeln!(out, "+{more} more")?;
    }
    if let Some(last) = last {
        out.write_all(last)?;
        out.write_all(b"\n")?;
    }
    writeln!(out, "{fence}")?;
    Ok(())
}

fn backtick_run(line: &[u8]) -> usize {
    line.split(|&b| b != b'`').map(<[u8]>::len).max().unwrap_or(0)
}
