//! `git handoff seal`: commit an interrupted attempt's leftover work as the seal commit.

use std::io::Write;

use anyhow::Result;
use gix::bstr::ByteSlice;
use serde::Serialize;

use crate::agent::attempt::Attempt;
use crate::cli::context::{AttemptArgs, Ctx};
use crate::cli::output;
use crate::git::quote::quote_status_path;
use crate::ops::note::NoteOutcome;
use crate::ops::seal::{self, Request, Sealed};
use crate::store::handoff::place::NoteAttempt;
use crate::util::error::NotPassed;
use crate::util::time;

/// Commit all uncommitted work as one seal commit on top of HEAD, exactly as `git add -A` would
/// stage it (never ignored files), and print its id and files.
///
/// Works on a branch, a detached HEAD or an unborn branch. Runs no hooks at all (commit, index or
/// reference-transaction hooks), never signs, and needs no configured identity: without one the commit is authored by
/// `git-handoff <git-handoff@localhost>`. The message names the issue and ends with the trailer
/// `Handoff-Seal: <started_at>`. Atomic: the repository is either sealed or exactly as it was,
/// also when interrupted (Ctrl-C, SIGTERM, SIGHUP): no index.lock is left behind.
///
/// Files that look like secrets (`.env*`, private keys, credential files, or content that
/// redaction would hide: key blocks, provider tokens, URL credentials, Bearer headers, `API_KEY=`
/// assignments; `[secrets]` in .handoff.toml) are left out, untouched in the work tree, and
/// reported; their blobs are not kept in .git/objects; the exit status is then 1. Secrets in
/// --message are redacted. With nothing to seal, the index is still left as `git add -A` leaves it.
///
/// The seal never changes the attempt's note. A note file edited since its note commit is
/// committed as the note first (replacing the note commit, as `git handoff note` again would),
/// then the rest is sealed on top; when the note commit is on a remote-tracking ref already, or
/// the edited note does not pass its check, the change stays in the work tree, reported like a
/// skipped file (exit 1). A draft note (no note commit yet) that does not pass its check is kept
/// in the work tree for `note --emergency` and reported as a warning: the exit status says
/// whether the work is sealed, so it is 0 when everything else was. In an attempt that is sealed already (a seal above its note), seal
/// refuses while there is work to seal (exit 1, nothing changed): `start` begins a new attempt.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The commit subject (and body) instead of "Seal leftover work: issue #N"; the
    /// Handoff-Seal trailer is always added. Secrets in it are redacted.
    #[arg(long, short = 'm', value_name = "MESSAGE")]
    pub message: Option<String>,

    /// Seal secret-looking files too.
    #[arg(long)]
    pub allow_secrets: bool,

    #[command(flatten)]
    pub attempt: AttemptArgs,
}

/// `seal --json`: the seal, and the note commit written first when the note had changed.
#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    sealed: &'a Sealed,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a NoteOutcome>,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (mut repo, config, _) = ctx.open_saving()?;
    let resolved = Attempt::resolve(&repo, &(&args.attempt).into())?;
    let started_at = resolved.started_at.unwrap_or_else(time::now);
    let issue = resolved.require_issue()?;
    let req = Request {
        issue,
        started_at,
        message: args.message,
        allow_secrets: args.allow_secrets,
        hold: Vec::new(),
    };
    let attempt =
        NoteAttempt { issue, started_at: time::format(started_at), base: resolved.base.flatten() };
    let done = seal::seal_attempt(&mut repo, &config, &attempt, req)?;
    let (sealed, note) = (&done.sealed, done.note.as_ref());
    if ctx.json {
        output::write_json(out, &Report { sealed, note })?;
    } else {
        if let Some(note) = note {
            render_note(note, out)?;
        }
        render(sealed, config.caps.seal_files, out)?;
    }
    out.flush()?;
    let held_note = config.note_path(issue);
    if !sealed.skipped.iter().any(|s| s.path == held_note.as_bytes()) {
        for warning in &done.warnings {
            output::warn(warning);
        }
    }
    let note_problems = note.is_some_and(|n| !n.problems.is_empty());
    for problem in note.iter().flat_map(|n| &n.problems) {
        eprintln!("{problem}");
    }
    for skipped in &sealed.skipped {
        output::warn(&format!("left {} out of the seal: {}", display(&skipped.path), skipped.why));
    }
    if sealed
        .skipped
        .iter()
        .any(|s| s.path != held_note.as_bytes() && s.why.starts_with("looks like a secret"))
    {
        eprintln!(
            "hint: skipped files stay in the work tree, uncommitted; run `git handoff seal \
             --allow-secrets` to seal them anyway"
        );
    }
    // The exit status says whether the work is sealed: a draft note kept for the emergency note
    // is not work left behind.
    let draft = done.draft.as_deref().map(str::as_bytes);
    let unsealed = sealed.skipped.iter().any(|s| Some(s.path.as_slice()) != draft);
    if unsealed || note_problems { Err(NotPassed.into()) } else { Ok(()) }
}

/// The note commit that took the edited note before the seal.
fn render_note(note: &NoteOutcome, out: &mut impl Write) -> Result<()> {
    let commit = note.commit.as_deref().map(crate::util::text::short_id).unwrap_or("");
    let path = note.path.as_deref().unwrap_or("");
    writeln!(
        out,
        "{} {path} changed: committed as the note in {commit} first.",
        output::heading("Note:")
    )?;
    for tag in &note.tags {
        writeln!(
            out,
            "  {} {} — {}",
            output::paint("[unverified]").yellow().bold(),
            tag.item,
            tag.why
        )?;
    }
    Ok(())
}

fn render(sealed: &Sealed, cap: usize, out: &mut impl Write) -> Result<()> {
    match &sealed.commit {
        Some(commit) => writeln!(out, "{} {commit}", output::heading("Sealed:"))?,
        None if sealed.skipped.is_empty() => {
            writeln!(out, "Nothing to seal: the work tree matches HEAD.")?
        }
        None => writeln!(out, "Nothing sealed: every change was left out.")?,
    }
    if !sealed.files.is_empty() {
        writeln!(out, "\n{}", output::heading(&format!("Files ({}):", sealed.files.len())))?;
        for path in sealed.files.iter().take(cap) {
            writeln!(out, "  {}", display(path))?;
        }
        if sealed.files.len() > cap {
            writeln!(out, "  {}", output::dim(&format!("+{} more", sealed.files.len() - cap)))?;
        }
    }
    if !sealed.skipped.is_empty() {
        let title = format!("Skipped, left in the work tree ({}):", sealed.skipped.len());
        writeln!(out, "\n{}", output::heading(&title))?;
        for skipped in &sealed.skipped {
            writeln!(out, "  {}: {}", display(&skipped.path), skipped.why)?;
        }
    }
    Ok(())
}

/// A path as people read it: as is when it is printable UTF-8, else C-quoted as `git status`
/// quotes it (the one C-quoter of the crate, `git::quote`); a secret in the name redacted.
fn display(path: &[u8]) -> String {
    let shown = match path.to_str() {
        Ok(text) if !text.chars().any(char::is_control) && !text.starts_with('"') => text.into(),
        _ => String::from_utf8_lossy(&quote_status_path(path, true)).into_owned(),
    };
    crate::ops::seal::redact_path(&shown)
}
