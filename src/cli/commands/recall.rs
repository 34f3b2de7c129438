//! `git handoff recall`: the last handoff for the next session, before its first turn.

use std::io::Write;

use anyhow::{Context, Result, bail};
use clap::ValueEnum;

use crate::agent::attempt::Attempt;
use crate::cli::context::{AttemptArgs, Ctx};
use crate::cli::output;
use crate::ops::{recall, start};

/// Print the last handoff for the next session, before its first turn.
///
/// At most ten lines after compact, resume, clear or fork; on a fresh start, the first of them
/// (`Last handoff (Nov 30, 4:10 AM UTC, session 49257167): issue #179 · ... · <digest>`) and where
/// the rest is; then the project rules as their own block. The spec pointer keeps the spec's
/// title (`Spec: SPEC.md (Money formatter)`).
///
/// The handoff is the latest note commit on the branch (of --issue N when given) with its record;
/// a note committed with plain git is recalled from its file, its tags as written. Recall says
/// when the work was sealed. Within the character budget (`[caps] recall_chars`, 1200) untagged
/// items are shortened or dropped first; an `[unverified: ...]` tag is cut last: past 200
/// characters, and the tags that do not fit are counted, with the command that lists them all.
///
/// A second line says what happened since the note: the last check since (a later failure is
/// never hidden behind the note's older "passed"), the commits since and the files changed.
///
/// With `--hook claude` (or codex, gemini, copilot) it reads the SessionStart payload on stdin and prints the
/// hook's JSON answer, so it can be installed as a SessionStart hook as it is; where git-handoff's
/// MCP server is registered for that agent, a fresh start's line names the `handoff_recall` tool.
/// A session that starts after its attempt's note is committed begins the next attempt (same
/// issue, based on HEAD), recorded in the notes ref so that its work above the note is no fault.
///
/// On a fresh start, when this attempt has no handoff yet, an agent ran tools in it (its event
/// log holds a tool call) and the work tree holds uncommitted work, recall says so and how to seal
/// it. The files `hooks install` writes (.claude/, .mcp.json, .codex/, .gemini/, the skill) are
/// not counted as work.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Lines of recall at most [default: caps.recall_lines, 10].
    #[arg(long, value_name = "N")]
    pub max_lines: Option<usize>,

    /// What started the session [default: resume, or the hook payload's source].
    #[arg(long, value_enum)]
    pub source: Option<SourceArg>,

    /// Read a SessionStart hook payload on stdin and answer in that agent's hook JSON.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub hook: Option<Hook>,

    #[command(flatten)]
    pub attempt: AttemptArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SourceArg {
    Startup,
    Resume,
    Clear,
    Compact,
    Fork,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Hook {
    Claude,
    Codex,
    Gemini,
    Copilot,
}

impl From<SourceArg> for recall::SessionSource {
    fn from(source: SourceArg) -> recall::SessionSource {
        match source {
            SourceArg::Startup => recall::SessionSource::Startup,
            SourceArg::Resume => recall::SessionSource::Resume,
            SourceArg::Clear => recall::SessionSource::Clear,
            SourceArg::Compact => recall::SessionSource::Compact,
            SourceArg::Fork => recall::SessionSource::Fork,
        }
    }
}

/// The most a hook payload may be.
const MAX_PAYLOAD: usize = 1 << 20;

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let payload = match args.hook {
        Some(_) => {
            use crate::util::error::{Kind, KindExt};
            read_payload().kind(Kind::Input)?
        }
        None => HookPayload::default(),
    };
    let source = args.source.or(payload.source).unwrap_or(SourceArg::Resume);
    // Recall reads; at a session start it must never fail on the repository's configuration.
    let (mut repo, config, _) = ctx.open_saving_quick()?;
    // Recall never moves HEAD (a session it begins starts from it): read once, for every step.
    repo.hold_head();
    let copilot_hooks =
        || repo.top().is_ok_and(|t| t.join(crate::agent::payload::copilot::HOOKS_PATH).is_file());
    if args.hook == Some(Hook::Claude) && payload.from_copilot && copilot_hooks() {
        // Copilot CLI runs Claude Code's hooks as well as its own: its own answer.
        return Ok(());
    }
    // The attempt as the session found it: whether it left work without a handoff is asked of
    // it, not of the next attempt the session may begin.
    let resolved = Attempt::resolve(&repo, &(&args.attempt).into())?;
    if let Some(hook) = args.hook {
        begin_session(ctx, &mut repo, &config, hook, source, payload.session_id);
    }
    let asked = recall::Asked {
        issue: args.attempt.issue,
        source: source.into(),
        max_lines: args.max_lines,
        tool: args.hook.is_some_and(|hook| agent_has_tool(&repo, hook)),
    };
    let recall = recall::for_session(&repo, &config, &resolved, &asked)?;
    for warning in &recall.warnings {
        output::warn(warning);
    }
    if ctx.json {
        return Ok(output::write_json(out, &recall)?);
    }
    // The lines go into an agent's context (or onto a terminal): control characters from a note
    // or a record, perhaps fetched from another clone, are shown escaped, never passed on.
    let mut text = crate::util::text::escape_controls(&recall.text(), true).into_owned();
    // The hooks' failures in this attempt: each let the agent go on, and someone should look.
    let failures = crate::hooks::hook_failures::read(&repo.git_dir);
    let since = resolved.started_at.map(crate::util::time::format);
    let recent: Vec<&String> =
        failures.iter().filter(|l| since.as_deref().is_none_or(|s| l.as_str() >= s)).collect();
    if let Some(last) = recent.last() {
        let last: String = last.chars().take(160).collect();
        let last = crate::util::text::escape_controls(&last, false);
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!(
            "Hook failures: {} in this attempt, the last: {last}; `git handoff hooks status`",
            recent.len()
        ));
    }
    if text.is_empty() {
        return Ok(());
    }
    match args.hook {
        // Copilot CLI takes the context at the top level of its sessionStart answer.
        Some(Hook::Copilot) => {
            let answer = serde_json::json!({"additionalContext": text});
            writeln!(out, "{}", crate::util::text::json_safe(answer.to_string()))?;
        }
        Some(_) => {
            let answer = serde_json::json!({
                "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
            });
            writeln!(out, "{}", crate::util::text::json_safe(answer.to_string()))?;
        }
        None => writeln!(out, "{text}")?,
    }
    Ok(())
}

/// Whether git-handoff's MCP server is registered for the hook's agent, so the session can call
/// the `handoff_recall` tool.
fn agent_has_tool(repo: &crate::git::repo::Repo, hook: Hook) -> bool {
    use crate::hooks::agent_settings::Agent;
    let agent = match hook {
        // Copilot CLI's server is the one in `.mcp.json`, as Claude Code's.
        Hook::Claude | Hook::Copilot => Agent::Claude,
        Hook::Codex => Agent::Codex,
        Hook::Gemini => Agent::Gemini,
    };
    let Ok(top) = repo.top() else { return false };
    crate::hooks::mcp::status(top, agent).is_ok_and(|status| status.installed)
}

/// A session starts: the next attempt when the attempt's note is committed (see
/// [`crate::ops::start`]). A failure here never costs the session its recall: it is a warning.
fn begin_session(
    ctx: &Ctx,
    repo: &mut crate::git::repo::Repo,
    config: &crate::model::config::Config,
    hook: Hook,
    source: SourceArg,
    session: Option<String>,
) {
    let start = start::SessionStart {
        agent: match hook {
            Hook::Claude => "claude",
            Hook::Codex => "codex",
            Hook::Gemini => "gemini",
            Hook::Copilot => "copilot",
        }
        .to_string(),
        source: source.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default(),
        session,
        logged: false,
    };
    if let Err(err) = start::begin(repo, config, &start) {
        ctx.warn(&format!("{err:#}; the session continues the attempt as it was"));
    }
}

/// What recall reads of a SessionStart payload.
#[derive(Default)]
struct HookPayload {
    source: Option<SourceArg>,
    session_id: Option<String>,
    /// Sent by Copilot CLI running Claude Code's hooks.
    from_copilot: bool,
}

/// The `source` and `session_id` of a SessionStart payload on stdin (bounded read; a bad payload
/// is exit 2).
fn read_payload() -> Result<HookPayload> {
    let read = crate::agent::events::read_bounded(std::io::stdin(), MAX_PAYLOAD)
        .context("reading the hook payload on stdin")?;
    let Some(bytes) = read else {
        bail!(
            "the hook payload on stdin is over 1 MiB; a SessionStart payload is a small JSON object"
        );
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(HookPayload::default());
    }
    let value: serde_json::Value = serde_json::from_slice(&bytes).context(
        "the hook payload on stdin is not JSON; install the hook as `git-handoff recall --hook claude`",
    )?;
    let Some(object) = value.as_object() else {
        bail!("the hook payload on stdin is not a JSON object");
    };
    // Copilot CLI says `new` for a fresh start, and `sessionId`.
    let source = object
        .get("source")
        .and_then(|s| s.as_str())
        .map(|s| if s == "new" { "startup" } else { s })
        .and_then(|s| SourceArg::from_str(s, true).ok());
    let session_id = object
        .get("session_id")
        .or_else(|| object.get("sessionId"))
        .and_then(|s| s.as_str())
        .filter(|s| !s.is_empty() && s.len() <= 256)
        .map(str::to_string);
    let from_copilot = crate::agent::payload::is_copilot_in_claude_hooks(object);
    Ok(HookPayload { source, session_id, from_copilot })
}
