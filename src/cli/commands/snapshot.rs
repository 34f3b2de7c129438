//! `git handoff snapshot`: the repository state rendered for a prompt.

use std::io::Write;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::agent::attempt::Attempt;
use crate::cli::context::{AttemptArgs, Ctx};
use crate::cli::output;
use crate::ops::snapshot::prompt::{self, Commit, Form};
use crate::ops::snapshot::{self, Request, Snapshot, markdown};

/// Print the repository state for a prompt, with a pre-filled note header.
///
/// The snapshot holds branch, base, HEAD, `git status --short`, `git log --oneline <base>..HEAD`
/// and `git diff --stat <base>` (each byte-identical to git's own, capped with a `+N more` line)
/// and a pre-filled handoff note header.
///
/// With --prompt, it prints the whole block a runtime injects when the token soft threshold is
/// crossed: the snapshot, the header (reason token_soft_threshold) and the five steps that finish
/// the handoff in one Write and one Bash call (no diagnostic commands; do not commit work, sealing
/// will; write the note with the header verbatim and Summary, Remaining work, Evidence; commit it
/// with `git handoff note`; stop). With --reason operator_request, turn_limit or time_limit the
/// steps keep the flow that commits the work first (`git add -A && git commit`), then writes and
/// commits the note. --followup gives the shorter form for the one follow-up prompt; --json
/// carries the block as `prompt`.
///
/// Without an attempt, the base is the merge-base with the upstream, else HEAD, and no header is
/// printed (--prompt then needs --issue).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Lines kept from each git output [default: caps.snapshot_lines, 40].
    #[arg(long, value_name = "N")]
    pub max_lines: Option<usize>,

    /// The reason written into the note header [default: token_soft_threshold with --prompt,
    /// else agent_request].
    #[arg(long, value_name = "REASON")]
    pub reason: Option<String>,

    /// Print the block a runtime injects at the token soft threshold: snapshot, header, steps.
    #[arg(long)]
    pub prompt: bool,

    /// The shorter form of the prompt, for the one follow-up.
    #[arg(long, requires = "prompt")]
    pub followup: bool,

    /// The agent has no git-handoff on its PATH: the prompt commits the note with plain git.
    #[arg(long, requires = "prompt")]
    pub plain_git: bool,

    #[command(flatten)]
    pub attempt: AttemptArgs,
}

/// `snapshot --json` with the prompt beside the snapshot's fields.
#[derive(Serialize)]
struct WithPrompt<'a> {
    #[serde(flatten)]
    snapshot: &'a Snapshot,
    prompt: &'a str,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (repo, config) = ctx.open()?;
    let default_reason = if args.prompt { "token_soft_threshold" } else { "agent_request" };
    let reason = args.reason.unwrap_or_else(|| default_reason.to_string());
    let resolved = Attempt::resolve(&repo, &(&args.attempt).into())?;
    let issue = if args.prompt { Some(resolved.require_issue()?) } else { resolved.issue };
    let mut req = Request::for_attempt(&config, resolved, reason, args.max_lines)?;
    req.issue = issue;
    let snap = snapshot::take(&repo, &req)?;
    if let Some(issue) = issue.filter(|_| args.prompt) {
        let note_path = config.note_path(issue);
        let form = if args.followup { Form::Followup } else { Form::First };
        let commit = if args.plain_git { Commit::PlainGit } else { Commit::Handoff };
        let reason = req.reason.as_str();
        let note_args = note_args(&repo, &args.attempt)?;
        let prompt = prompt::Request {
            issue,
            note_path: &note_path,
            reason,
            form,
            commit,
            note_args: &note_args,
        };
        let text = prompt::render(&snap, &prompt);
        if ctx.json {
            return Ok(output::write_json(out, &WithPrompt { snapshot: &snap, prompt: &text })?);
        }
        // For an agent's context: control characters in file names and commit subjects escaped.
        let text = crate::util::text::escape_controls(&text, true);
        return Ok(out.write_all(text.as_bytes())?);
    }
    if ctx.json {
        return Ok(output::write_json(out, &snap)?);
    }
    let mut snap = snap;
    terminal_safe(&mut snap);
    let mut text = Vec::new();
    markdown::write(&snap, &|h: &str| output::heading(h), &mut text);
    Ok(out.write_all(&text)?)
}

/// The attempt overrides given to `snapshot --prompt`, as arguments of the `git handoff note` it
/// hands out (each word quoted): a stateless runtime never ran `start`, and the note must find
/// the attempt the prompt was made for. The base goes as the commit it names now (`HEAD~3` would
/// name another once the agent commits).
fn note_args(
    repo: &crate::git::repo::Repo,
    attempt: &crate::cli::context::AttemptArgs,
) -> Result<String> {
    use crate::util::shell::quote;
    let mut words = String::new();
    if let Some(issue) = attempt.issue {
        words.push_str(&format!(" --issue {issue}"));
    }
    if let Some(base) = &attempt.base {
        words.push_str(&format!(" --base {}", repo.resolve_commit(base).context("--base")?));
    }
    if let Some(started) = &attempt.started_at {
        words.push_str(&format!(" --started-at {}", quote(started)));
    }
    Ok(words)
}

/// Escapes control characters in what git printed (file names, commit subjects, C1 controls that
/// git's quoting lets through), before the headings are styled.
fn terminal_safe(snap: &mut Snapshot) {
    let lines = snap.status.lines.iter_mut().chain(&mut snap.log.lines);
    for line in lines.chain(&mut snap.diff_stat.lines) {
        *line = crate::util::text::escape_controls_lossy(line, false).into_bytes();
    }
    if let Some(header) = &mut snap.header {
        *header = crate::util::text::escape_controls(header, true).into_owned();
    }
    // A branch name may hold a C1 control or a bidirectional override: git refuses neither.
    if let Some(branch) = &mut snap.branch {
        *branch = crate::util::text::escape_controls(branch, false).into_owned();
    }
}
