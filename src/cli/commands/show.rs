//! `git handoff show`: the human recovery view of a handoff.

use std::io::Write;

use anyhow::{Context, Result, anyhow};
use serde::Serialize;

use crate::agent::attempt::Attempt;
use crate::cli::context::{AttemptArgs, Ctx};
use crate::cli::output;
use crate::ops::recall;
use crate::store::handoff::since::{self, Since};
use crate::store::handoff::{self, Handoff, Query, ReadFrom, Seal, SealPosition};
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
    next: Vec<String>,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (repo, config) = ctx.open()?;
    let start = match &args.rev {
        Some(rev) => Some(repo.resolve_commit(rev).context("REV")?),
        None => None,
    };
    let resolved = Attempt::resolve(&repo, &(&args.attempt).into())?;
    let head = repo.head()?;
    let query = Query {
        start,
        issue: args.attempt.issue,
        attempt_issue: resolved.issue,
        branch: if start.is_none() { head.ref_name.as_deref() } else { None },
    };
    let latest = handoff::find(&repo, &config, &query)?;
    let shown = match &latest.handoff {
        Some(handoff) => {
            // Only up to HEAD: a handoff shown at REV is shown as it was.
            let since = match start {
                None => since::since(&repo, &config, handoff)
                    .map_err(|err| ctx.warn(&format!("{err:#}; what happened since is left out")))
                    .ok()
                    .filter(|s| !s.is_empty()),
                Some(_) => None,
            };
            show(ctx, handoff, since.as_ref(), config.caps.seal_files, out)
        }
        None => {
            let at = args.rev.as_deref().map(|r| format!(" at {r}")).unwrap_or_default();
            Err(anyhow!(
                "no handoff found{at} for this branch{}: no note commit on it and no record; \
                 `git handoff log` lists the branch's handoffs and `git notes --ref={} list` the \
                 records",
                query
                    .issue
                    .or(resolved.issue)
                    .map(|i| format!(" or issue #{i}"))
                    .unwrap_or_default(),
                crate::util::shell::quote(&config.notes_ref)
            ))
        }
    };
    // After the output, and before the error when there is no handoff: a skipped note may be why.
    for warning in &latest.warnings {
        ctx.warn(warning);
    }
    shown
}

fn show(
    ctx: &Ctx,
    handoff: &Handoff,
    since: Option<&Since>,
    cap: usize,
    out: &mut impl Write,
) -> Result<()> {
    let next = next_steps(handoff);
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
    render(handoff, since, &next, cap, out)
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

fn next_steps(handoff: &Handoff) -> Vec<String> {
    let record = &handoff.record;
    let mut steps = Vec::new();
    if let Some(issue) = record.issue {
        steps.push(format!(
            "git handoff start --issue {issue}    # continue the work in a new attempt"
        ));
    }
    if let Some(seal) = &handoff.seal {
        steps.push(format!(
            "git show --stat {}       # the sealed leftover work",
            crate::util::text::short_id(&seal.commit)
        ));
    }
    if !record.tags.is_empty() {
        steps.push("re-run the last check before trusting the tagged claims".to_string());
    }
    steps.push("git handoff recall --source resume  # the short form for an agent".to_string());
    steps
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
