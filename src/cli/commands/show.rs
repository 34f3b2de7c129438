//! `git handoff show`: the human recovery view of the handoff [`crate::ops::show`] finds.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use crate::cli::context::{AttemptArgs, Ctx};
use crate::cli::output;
use crate::ops::{recall, show};
use crate::store::handoff::since::Since;
use crate::store::handoff::{Handoff, ReadFrom, Seal, SealPosition};
use crate::store::records::{Record, RecordKind};
use crate::util::text;

/// Show the latest handoff on the branch (or at or below REV) for a person picking up the work.
///
/// The handoff is the newest note commit on the first-parent line (of --issue N when given), with
/// the record stored on it; a note committed with plain git is read from its file. Prints the
/// note with its unverified claims highlighted, the record's digest, the progress plan as a
/// checklist, the seal of the attempt (its id and files, capped with `+N more`), what happened
/// since the handoff (the last check since, the commits above it with their subjects, the files
/// changed), and what to run next. When the branch holds no note, the latest record for the
/// branch or issue is shown.
///
/// --json prints {"record", "source": "record"|"note_file"|"record_only", "note", "seal":
/// {"commit", "files", "position": "above"|"below"}|null, "since": {"from", "commits",
/// "subjects", "files", "check": {"command", "ok", "result", "at"}|null}|null, "next"}.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to look for the handoff [default: HEAD].
    #[arg(value_name = "REV")]
    pub rev: Option<String>,

    #[command(flatten)]
    pub attempt: AttemptArgs,
}

/// File names a digest-only handoff shows before `+N more`.
const SHOW_FILES: usize = 50;

#[derive(Serialize)]
struct Report<'a> {
    record: &'a Record,
    source: ReadFrom,
    note: Option<&'a str>,
    seal: Option<&'a Seal>,
    /// What happened since the handoff: commits, files, the last check.
    since: Option<&'a Since>,
    next: &'a [String],
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (repo, config) = ctx.open()?;
    let request = show::Request { rev: args.rev.as_deref(), attempt: (&args.attempt).into() };
    let found = show::show(&repo, &config, &request)?;
    let shown = match &found.handoff {
        Some(handoff) => {
            print(ctx, handoff, found.since.as_ref(), &found.next, config.caps.seal_files, out)
        }
        None => Ok(()),
    };
    // After the output, and before the error when there is no handoff: a skipped note may be why.
    for warning in &found.warnings {
        ctx.warn(warning);
    }
    shown?;
    found.missing.map_or(Ok(()), Err)
}

fn print(
    ctx: &Ctx,
    handoff: &Handoff,
    since: Option<&Since>,
    next: &[String],
    cap: usize,
    out: &mut impl Write,
) -> Result<()> {
    if ctx.json {
        let report = Report {
            record: &handoff.record,
            source: handoff.source,
            note: handoff.note.as_deref(),
            seal: handoff.seal.as_ref(),
            since,
            next,
        };
        return Ok(output::write_json(out, &report)?);
    }
    render(handoff, since, next, cap, out)
}

fn render(
    handoff: &Handoff,
    since: Option<&Since>,
    next: &[String],
    cap: usize,
    out: &mut impl Write,
) -> Result<()> {
    let record = &handoff.record;
    // Everything shown comes from a record or a note, perhaps fetched from another clone: each
    // piece is escaped (`safe`) before it is styled, so no control sequence reaches the terminal.
    // A check since the note: the headline's check is the note's, and says so.
    let shown = since.map(|s| recall::dated(record, s));
    let headline = recall::headline(shown.as_ref().unwrap_or(record));
    writeln!(out, "{}", output::heading(&format!("Handoff: {}", safe(&headline))))?;
    if let Some(path) = &record.note_path {
        let from = match handoff.source {
            ReadFrom::NoteFile => " (committed with plain git: read from the file)",
            _ => "",
        };
        writeln!(
            out,
            "{}",
            output::dim(&format!("note {} in commit {}{from}", safe(path), safe(&record.commit)))
        )?;
    }
    if let Some(seal) = &handoff.seal {
        render_seal(seal, cap, out)?;
    }
    if let Some(since) = since {
        render_since(record, since, cap, out)?;
    }
    if !record.tags.is_empty() {
        writeln!(out, "\n{}", output::heading("Unverified claims"))?;
        for tag in &record.tags {
            writeln!(
                out,
                "  {} {} — {}",
                output::paint("!").red().bold(),
                safe(&tag.item),
                output::paint(safe(&tag.why)).yellow()
            )?;
        }
    }
    if !record.progress.is_empty() {
        writeln!(out, "\n{}", output::heading("Progress plan"))?;
        for item in &record.progress {
            let mark = match item.status.as_str() {
                "done" | "fixed" | "already_resolved" => "[x]",
                "in_progress" => "[~]",
                "abandoned" | "not_fixed" => "[-]",
                _ => "[ ]",
            };
            let note = item.note.as_deref().map(|n| format!(" — {}", safe(n))).unwrap_or_default();
            let (id, title, status) = (safe(&item.id), safe(&item.title), safe(&item.status));
            writeln!(out, "  {mark} {id} {title} ({status}){note}")?;
        }
    }
    let files = recall::digest_files(record);
    if record.kind == RecordKind::Digest && !files.is_empty() {
        writeln!(out, "\n{}", output::heading("Files edited (digest)"))?;
        let (kept, more) = crate::model::markdown::capped(&files, SHOW_FILES);
        for file in kept {
            writeln!(out, "  {}", safe(file))?;
        }
        if let Some(more) = more {
            writeln!(out, "  {}", output::dim(&more))?;
        }
    }
    if let Some(note) = &handoff.note {
        writeln!(out, "\n{}", output::heading("Note"))?;
        for line in note.lines() {
            writeln!(out, "{}", paint_line(&text::escape_controls(line, true)))?;
        }
    }
    writeln!(out, "\n{}", output::heading("Next"))?;
    for step in next {
        writeln!(out, "  {}", safe(step))?;
    }
    Ok(())
}

/// A one-line field as it may be shown: control characters escaped.
fn safe(field: &str) -> std::borrow::Cow<'_, str> {
    text::escape_controls(field, false)
}

/// The seal: its id, where it sits, and its files (capped).
fn render_seal(seal: &Seal, cap: usize, out: &mut impl Write) -> Result<()> {
    let position = match seal.position {
        SealPosition::Above => "above the note",
        SealPosition::Below => "below the note",
    };
    let files = crate::model::markdown::count(seal.files.len() as u64, "file", "files");
    let title = format!("Sealed leftover work: {} ({position}, {files})", safe(&seal.commit));
    writeln!(out, "\n{}", output::heading(&title))?;
    for path in seal.files.iter().take(cap) {
        writeln!(out, "  {}", safe(path))?;
    }
    if seal.files.len() > cap {
        writeln!(out, "  {}", output::dim(&format!("+{} more", seal.files.len() - cap)))?;
    }
    Ok(())
}

/// What happened since the handoff: the last check first, then the commits (subjects capped)
/// and the files changed (capped).
fn render_since(record: &Record, since: &Since, cap: usize, out: &mut impl Write) -> Result<()> {
    let what = if record.note_path.is_some() { "the note" } else { "the handoff" };
    writeln!(out, "\n{}", output::heading(&format!("Since {what}")))?;
    if let Some(check) = &since.check {
        let result = if check.ok {
            output::paint(&check.result).green().to_string()
        } else {
            output::paint(&check.result).red().bold().to_string()
        };
        writeln!(out, "  last `{}` {result}", check.command)?;
    }
    if let Some(n) = since.commits.filter(|n| *n > 0) {
        let commits = crate::model::markdown::count(n as u64, "commit", "commits");
        writeln!(out, "  {commits}:")?;
        for subject in &since.subjects {
            writeln!(out, "    {subject}")?;
        }
        if n > since.subjects.len() {
            writeln!(out, "    {}", output::dim(&format!("+{} more", n - since.subjects.len())))?;
        }
    }
    if !since.files.is_empty() {
        let files = crate::model::markdown::count(since.files.len() as u64, "file", "files");
        writeln!(out, "  {files} changed:")?;
        for path in since.files.iter().take(cap) {
            writeln!(out, "    {path}")?;
        }
        if since.files.len() > cap {
            writeln!(out, "    {}", output::dim(&format!("+{} more", since.files.len() - cap)))?;
        }
    }
    Ok(())
}

/// Headings bold, unverified tags highlighted.
fn paint_line(line: &str) -> String {
    if line.starts_with('#') {
        return output::paint(line).bold().cyan().to_string();
    }
    match line.find("[unverified:") {
        Some(at) => format!("{}{}", &line[..at], output::paint(&line[at..]).yellow().bold()),
        None => line.to_string(),
    }
}
