//! `git handoff log`: every attempt's handoff on the branch, newest first.

use std::io::Write;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::cli::context::Ctx;
use crate::cli::output;
use crate::ops::log::{self, Entry};
use crate::store::handoff::SealPosition;

/// List every attempt's handoff on the branch, newest first, like `git log` for handoffs.
///
/// Walks the first-parent line from REV (HEAD by default) and shows one block per handoff: the
/// note commit, the issue and kind, the reason, when the attempt started and the note was
/// written, the seal of the attempt, the digest line, the goal, and the claims tagged
/// `[unverified: ...]`, each tag whole. A note committed with plain git is read from its file;
/// digest-only handoffs on the commits passed are listed too.
///
/// Each session's contribution is listed: its note, or the digest-only record it left when it
/// wrote none (one per session, several on one commit when several sessions ended there), with
/// the runtime's session id when known.
///
/// --oneline prints one line per handoff; --json prints {"handoffs": [{"commit", "kind",
/// "issue", "reason", "started_at", "written_at", "note_path", "seal": {"commit", "files",
/// "position": "above"|"below"}|null, "digest_line", "goal", "tags": [{"item", "why"}],
/// "source": "record"|"note_file"|"record_only", "session"}]}.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where the walk begins [default: HEAD].
    #[arg(value_name = "REV")]
    pub rev: Option<String>,

    /// Only this issue's handoffs.
    #[arg(long, value_name = "N")]
    pub issue: Option<u64>,

    /// One line per handoff.
    #[arg(long)]
    pub oneline: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    handoffs: &'a [Entry],
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (repo, config) = ctx.open()?;
    let start = match &args.rev {
        Some(rev) => Some(repo.resolve_commit(rev).context("REV")?),
        None => repo.head()?.id,
    };
    let log = match start {
        Some(start) => log::entries(&repo, &config, start, args.issue)?,
        None => log::Log::default(), // an unborn branch holds no handoff
    };
    let listed = list(ctx, &args, &log.entries, config.caps.seal_files, out);
    for warning in &log.warnings {
        ctx.warn(warning);
    }
    listed
}

fn list(ctx: &Ctx, args: &Args, entries: &[Entry], cap: usize, out: &mut impl Write) -> Result<()> {
    if ctx.json {
        return Ok(output::write_json(out, &Report { handoffs: entries })?);
    }
    for (n, entry) in entries.iter().enumerate() {
        if args.oneline {
            writeln!(out, "{}", oneline(entry))?;
            continue;
        }
        if n > 0 {
            writeln!(out)?;
        }
        block(entry, cap, out)?;
    }
    Ok(())
}

/// Every piece of an entry comes from a record, perhaps fetched from another clone: each is
/// escaped ([`safe`]) before it is styled, so no control sequence reaches the terminal.
fn oneline(entry: &Entry) -> String {
    let mut parts = vec![format!(
        "{} {}",
        output::paint(short(&entry.commit)).yellow(),
        entry.issue.map(|i| format!("#{i}")).unwrap_or_else(|| "#?".into())
    )];
    parts.push(safe(&entry.kind));
    if let Some(reason) = &entry.reason {
        parts.push(safe(reason));
    }
    parts.push(safe(&when(&entry.written_at)));
    let mut line = parts.join(" ");
    if let Some(seal) = &entry.seal {
        line.push_str(&format!(" · sealed {}", short(&seal.commit)));
    }
    if !entry.tags.is_empty() {
        line.push_str(&format!(" · {} tagged", entry.tags.len()));
    }
    if let Some(session) = &entry.session {
        line.push_str(&format!(" · session {session}"));
    }
    line
}

fn block(entry: &Entry, cap: usize, out: &mut impl Write) -> Result<()> {
    let issue = entry.issue.map(|i| format!("issue #{i}")).unwrap_or_else(|| "no issue".into());
    let title = format!("handoff {} ({issue}, {})", safe(&entry.commit), safe(&entry.kind));
    writeln!(out, "{}", output::paint(title).yellow())?;
    let mut field =
        |name: &str, value: &str| writeln!(out, "{:<9}{}", format!("{name}:"), safe(value));
    if let Some(reason) = &entry.reason {
        field("Reason", reason)?;
    }
    if let Some(started) = &entry.started_at {
        field("Started", &when(started))?;
    }
    field("Written", &when(&entry.written_at))?;
    if let Some(session) = &entry.session {
        field("Session", session)?;
    }
    if let Some(path) = &entry.note_path {
        field("Note", path)?;
    }
    if let Some(seal) = &entry.seal {
        let position = match seal.position {
            SealPosition::Above => "above the note",
            SealPosition::Below => "below the note",
        };
        let mut files: Vec<String> = seal.files.iter().take(cap).map(|f| safe(f)).collect();
        if seal.files.len() > cap {
            files.push(format!("+{} more", seal.files.len() - cap));
        }
        let sealed = format!("{} ({position}): {}", short(&seal.commit), files.join(", "));
        field("Sealed", &sealed)?;
    }
    if let Some(line) = &entry.digest_line {
        field("Digest", line)?;
    }
    if let Some(goal) = &entry.goal {
        field("Goal", goal)?;
    }
    let tagged = match entry.tags.len() {
        0 => "none".to_string(),
        1 => "1 claim".to_string(),
        n => format!("{n} claims"),
    };
    field("Tagged", &tagged)?;
    for tag in &entry.tags {
        writeln!(
            out,
            "    {} {}",
            safe(&tag.item),
            output::paint(format!("[unverified: {}]", safe(&tag.why))).yellow().bold()
        )?;
    }
    Ok(())
}

fn short(id: &str) -> String {
    safe(crate::util::text::short_id(id))
}

/// A one-line field as it may be shown: control characters escaped.
fn safe(field: &str) -> String {
    crate::util::text::escape_controls(field, false).into_owned()
}

/// `2026-11-30 04:10 UTC` from an RFC 3339 time, or the text as it is.
fn when(text: &str) -> String {
    match crate::util::time::parse(text) {
        Ok(ts) => ts.strftime("%Y-%m-%d %H:%M UTC").to_string(),
        Err(_) => text.to_string(),
    }
}
