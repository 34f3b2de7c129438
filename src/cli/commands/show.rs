//! `git handoff show`: the human recovery view of a handoff.

use std::io::Write;

use anyhow::{Context, Result, bail};
use serde::Serialize;

use crate::agent::attempt::Attempt;
use crate::cli::AttemptArgs;
use crate::cli::commands::Ctx;
use crate::cli::output;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::ops::recall;
use crate::ops::record_store::{self, Record};

/// Show the latest handoff (or the one on REV) for a person picking up the branch.
///
/// Prints the note with its unverified claims highlighted, the record's digest, the progress plan
/// as a checklist, the seal's files, and what to run next.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A commit whose handoff record to show [default: the latest for this branch or issue].
    #[arg(value_name = "REV")]
    pub rev: Option<String>,

    #[command(flatten)]
    pub attempt: AttemptArgs,
}

#[derive(Serialize)]
struct Report<'a> {
    record: &'a Record,
    note: Option<String>,
    next: Vec<String>,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let repo = Repo::discover()?;
    let config = Config::load(repo.top().ok())?;
    let record = match &args.rev {
        Some(rev) => {
            let commit = repo.resolve_commit(rev)?;
            let refs = record_store::readable_refs(&repo, &config.notes_ref)?;
            record_store::latest_in(&repo, &refs, commit)?.with_context(|| {
                format!("{rev} ({commit}) has no handoff record in {}", config.notes_ref)
            })?
        }
        None => {
            let resolved = Attempt::resolve(&repo, &args.attempt)?;
            match recall::find_for_head(&repo, &config.notes_ref, resolved.issue)? {
                Some(record) => record,
                None => bail!(
                    "no handoff found for this branch{}; `git handoff recall` and \
                     `git notes --ref={} list` show what there is",
                    resolved.issue.map(|i| format!(" or issue #{i}")).unwrap_or_default(),
                    config.notes_ref.trim_start_matches("refs/notes/")
                ),
            }
        }
    };
    let note = note_text(&repo, &record);
    let next = next_steps(&record);
    if ctx.json {
        return Ok(output::write_json(out, &Report { record: &record, note, next })?);
    }

    writeln!(out, "{}", output::heading(&format!("Handoff: {}", recall::headline(&record))))?;
    let commit = &record.commit;
    if let Some(path) = &record.note_path {
        writeln!(out, "{}", output::dim(&format!("note {path} in commit {commit}")))?;
    }
    if let Some(seal) = &record.seal_commit {
        writeln!(out, "{}", output::dim(&format!("sealed leftover work in {seal}")))?;
    }
    if !record.tags.is_empty() {
        writeln!(out, "\n{}", output::heading("Unverified claims"))?;
        for tag in &record.tags {
            writeln!(
                out,
                "  {} {} — {}",
                console::style("!").red().bold(),
                tag.item,
                console::style(&tag.why).yellow()
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
            let note = item.note.as_deref().map(|n| format!(" — {n}")).unwrap_or_default();
            writeln!(out, "  {mark} {} {} ({}){note}", item.id, item.title, item.status)?;
        }
    }
    if let Some(note) = &note {
        writeln!(out, "\n{}", output::heading("Note"))?;
        for line in note.lines() {
            writeln!(out, "{}", paint_line(line))?;
        }
    }
    writeln!(out, "\n{}", output::heading("Next"))?;
    for step in &next {
        writeln!(out, "  {step}")?;
    }
    Ok(())
}

/// The note file as committed with the record, if the record names one.
fn note_text(repo: &Repo, record: &Record) -> Option<String> {
    let path = record.note_path.as_ref()?;
    let spec = format!("{}:{path}", record.commit);
    let id = repo.gix.rev_parse_single(spec.as_str()).ok()?;
    let blob = id.object().ok()?;
    Some(String::from_utf8_lossy(&blob.data).into_owned())
}

fn next_steps(record: &Record) -> Vec<String> {
    let mut steps = Vec::new();
    if let Some(issue) = record.issue {
        steps.push(format!(
            "git handoff start --issue {issue}    # continue the work in a new attempt"
        ));
    }
    if record.seal_commit.is_some() {
        steps.push("git show --stat HEAD                # the sealed leftover work".to_string());
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
        return console::style(line).bold().cyan().to_string();
    }
    match line.find("[unverified:") {
        Some(at) => format!("{}{}", &line[..at], console::style(&line[at..]).yellow().bold()),
        None => line.to_string(),
    }
}
