//! `git handoff note`: the agent's checked note, the emergency note, or a digest-only record.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

use anyhow::Result;

use crate::agent::attempt::Attempt as State;
use crate::cli::context::{AttemptArgs, Ctx};
use crate::cli::output;
use crate::model::emergency::Facts;
use crate::ops::note::{self, NoteOutcome, NoteSource};
use crate::store::handoff::place::NoteAttempt;
use crate::store::records::RecordKind;
use crate::util::error::NotPassed;
use crate::util::time;

/// Check the agent's handoff note against the event log, tag what it cannot support, commit it
/// alone, and store its record.
///
/// The note is the file at the note path (`.agent/handoff/<issue>.md`), a Markdown file given
/// with --from, or a TOML summary given with --summary (keys goal, done, in_progress, decisions,
/// next, files_touched). Claims the event log cannot support get ` [unverified: <why>]`; nothing
/// is dropped. Other uncommitted work stays in the work tree for `git handoff seal`.
///
/// Claims are the list items and prose lines of Summary (outside In progress, Decisions, Goal and
/// Next), the lines of Evidence that claim success, and the entries of Files touched (each claims
/// an edit: absolute, `./` and relative paths match the same file). A claim of success is judged
/// by the last run of its own kind (tests by the last test run, a build by the last build or type
/// check, a type check by the last type check, a lint by the last lint) and tagged "no <kind> ran"
/// when none ran; a claim naming no kind ("ready to merge") by the last check. A hedge does not
/// make a claim safe ("should be fixed now" claims the fix); a claim that admits a failure or
/// waits on a condition ("could not get the tests to pass", "should pass once ...") claims no
/// success, nor do questions and unticked boxes. The handoff's own calls are not counted as tool
/// calls. The reply reads `Handoff saved for the next session. From
/// the log: <digest>.`, then for each tag `Tagged [unverified]: "<claim>" (<why>). Correct it if
/// the log is right.`
///
/// Run again in the same attempt with the note commit at HEAD, it replaces that commit (same
/// parent, the new text checked again, the record replaced). With a seal above the note, or the
/// note commit already on a remote-tracking ref, it refuses and changes nothing (exit 1): `git
/// handoff start` begins a new attempt.
///
/// With --emergency, the runtime writes the note from the event log and --facts when the agent
/// wrote none (if a note for the attempt exists on the branch, plain-git notes included, nothing
/// changes); every list in it is capped at 50 lines with `+N more`. With --digest-only (for a
/// session-end hook), the digest is stored as a record on HEAD when the agent wrote no note.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Why the handoff happens [default: the note header's, else agent_request].
    #[arg(long, value_name = "REASON")]
    pub reason: Option<String>,

    /// Take the note from this Markdown file instead of the note path.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["summary", "emergency", "digest_only"])]
    pub from: Option<PathBuf>,

    /// Render the note from this TOML summary.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["emergency", "digest_only"])]
    pub summary: Option<PathBuf>,

    /// Write the emergency note (the agent wrote none); needs --reason.
    #[arg(long, requires = "reason", conflicts_with = "digest_only")]
    pub emergency: bool,

    /// Facts from the runtime for the emergency note (JSON: last_assistant_text,
    /// handoff_skill_invoked, budget {budget_tokens, max_budget_tokens, soft_threshold_crossed
    /// (true, false or where: "turn 41 at 750,112 tokens"), peak_main_context_tokens,
    /// cache_hit_rate, turns, elapsed_seconds}, archive_dir, session_id, baseline_check). Each
    /// fact stands alone: one of the wrong type is shown as given (or as not available) with a
    /// warning, and a file that cannot be read is a warning; the note is always written.
    #[arg(long, value_name = "FILE", requires = "emergency")]
    pub facts: Option<PathBuf>,

    /// Store this session's digest as a record on HEAD when it made tool calls and its attempt
    /// has no note (for SessionEnd hooks; one record per session, the payload's session_id).
    #[arg(long)]
    pub digest_only: bool,

    #[command(flatten)]
    pub attempt: AttemptArgs,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (mut repo, config, config_problems) = ctx.open_saving()?;
    let resolved = State::resolve(&repo, &(&args.attempt).into())?;
    let outcome = if args.digest_only {
        let asked = note::DigestSession {
            issue: resolved.issue,
            started_at: resolved.started_at.map(time::format),
            base: resolved.base.flatten(),
            session: drain_hook_payload(),
        };
        note::digest_only(&mut repo, &config, &asked)?
    } else {
        let attempt = NoteAttempt::from_resolved(&resolved)?;
        if args.emergency {
            // Facts degrade per field: the note is written whatever the file holds.
            let mut facts = match &args.facts {
                Some(path) => read_facts(ctx, path),
                None => Facts::default(),
            };
            facts.config_problems = config_problems;
            let reason = args.reason.as_deref().unwrap_or("agent_request");
            note::emergency_note(&mut repo, &config, &attempt, reason, facts)?
        } else {
            let source = match (&args.from, &args.summary) {
                (Some(path), _) => NoteSource::Markdown(path),
                (_, Some(path)) => NoteSource::Summary(path),
                _ => NoteSource::WorkTree,
            };
            note::agent_note(&mut repo, &config, &attempt, args.reason.as_deref(), source)?
        }
    };
    if ctx.json {
        output::write_json(out, &outcome)?;
    } else {
        render(&outcome, out)?;
    }
    out.flush()?;
    for warning in &outcome.warnings {
        ctx.warn(warning);
    }
    if outcome.problems.is_empty() { Ok(()) } else { Err(NotPassed.into()) }
}

fn render(outcome: &NoteOutcome, out: &mut impl Write) -> Result<()> {
    for fix in &outcome.fixes {
        output::warn(&format!("note header: {fix}"));
    }
    if let Some(why) = &outcome.skipped {
        writeln!(out, "Nothing written: {why}.")?;
        return Ok(());
    }
    let commit = outcome.commit.as_deref().map(crate::util::text::short_id).unwrap_or("");
    // The digest line quotes the agent's commands and the tags its note: control characters
    // escaped.
    let safe = |text: &str| crate::util::text::escape_controls(text, false).into_owned();
    let digest_line = safe(&outcome.digest_line);
    match outcome.kind {
        Some(RecordKind::Digest) => writeln!(out, "Digest stored on {commit}: {digest_line}.")?,
        Some(RecordKind::Emergency) => writeln!(
            out,
            "Emergency handoff note saved in {commit} ({}). From the log: {digest_line}.",
            outcome.path.as_deref().unwrap_or(""),
        )?,
        // In the words of seed 002, so the agent knows what to do with a tag.
        _ => {
            let unverified = output::paint("[unverified]").yellow().bold().to_string();
            for line in outcome.saved_reply(&unverified) {
                writeln!(out, "{}", safe(&line))?;
            }
        }
    }
    for problem in &outcome.problems {
        eprintln!("{}", crate::util::text::escape_controls(problem, true));
    }
    Ok(())
}

/// The most a facts file may hold: facts are a few fields, not logs.
const FACTS_LIMIT: u64 = 1 << 20;

/// Each field degrades on its own; a facts file that cannot be read (missing, a FIFO, not JSON)
/// is a warning: at the hard limit the emergency note is written from the log alone.
fn read_facts(ctx: &Ctx, path: &std::path::Path) -> Facts {
    let origin = path.display().to_string();
    let (facts, warnings) = match crate::util::fs::read_regular(path, FACTS_LIMIT, "the facts file")
    {
        Ok(bytes) => Facts::lenient(&bytes, &origin),
        Err(err) => (Facts::default(), vec![format!("{err:#}; no facts were used")]),
    };
    for warning in &warnings {
        ctx.warn(warning);
    }
    facts
}

/// A session-end hook sends its payload on stdin; read it (bounded) so the sender never blocks.
/// Returns the payload's `session_id` (Copilot CLI's `sessionId`), when it carries one.
fn drain_hook_payload() -> Option<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return None;
    }
    let mut bytes = Vec::new();
    let _ = stdin.lock().take(1 << 20).read_to_end(&mut bytes);
    let value: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let id = value.get("session_id").or_else(|| value.get("sessionId"))?.as_str()?;
    (!id.is_empty() && id.len() <= 256).then(|| id.to_string())
}
