//! `git handoff record`: one agent hook payload on stdin, one event appended to the log.
//!
//! This runs on every agent tool call, so its path is short: read stdin (bounded), parse, find the
//! repository without opening it, redact, and append one line under the log's lock. It prints
//! nothing on stdout (some hooks inject stdout into the agent's context); a payload it cannot read
//! is one line on stderr and exit 2, with the log unchanged.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use crate::agent::attempt::{Attempt, EVENTS_FILE, STATE_FILE};
use crate::agent::events::{self, Event, Kind};
use crate::agent::payload::{self, Runtime, SessionDirs};
use crate::agent::progress::PLAN_FILE;
use crate::cli::context::Ctx;
use crate::git::repo::{Location, Repo};
use crate::model::checks::Checks;
use crate::model::config::Config;
use crate::model::redact::Redactor;
use crate::ops::open;
use crate::util::time;

/// The most stdin `record` reads; a larger payload is refused, not cut.
pub const MAX_PAYLOAD: usize = 2 << 20;

/// Record one agent hook payload (JSON on stdin) in the attempt's event log.
///
/// Made for agent hooks: Claude Code (PreToolUse, PostToolUse, PostToolUseFailure, Stop,
/// StopFailure, SubagentStop, SessionStart, SessionEnd, PreCompact, UserPromptSubmit), Codex (the
/// same events; a shell call's exit code, missing from Codex's payload, is read from the tail of
/// the transcript its `transcript_path` names), Gemini CLI (BeforeTool, AfterTool, BeforeAgent,
/// AfterAgent, PreCompress, SessionStart, SessionEnd), GitHub Copilot CLI (preToolUse,
/// postToolUse, postToolUseFailure, errorOccurred, agentStop, subagentStart, subagentStop,
/// userPromptSubmitted, sessionStart, sessionEnd: camelCase payloads that do not name their event,
/// so its hooks pass --event), or a generic shape for other runtimes (opencode's plugin sends it):
///
///   {"event": "tool", "tool": "Bash", "command": "cargo test", "ok": false,
///    "exit_code": 101, "paths": ["src/a.rs"], "text": "...", "subagent": false,
///    "id": "call-1", "cwd": "/repo", "session_id": "s-1"}
///
/// with `event` one of tool_start, tool, stop, subagent_stop, session_start, session_end, compact,
/// prompt. The repository is the one at the payload's `cwd` (unless -C or GIT_DIR say otherwise).
/// Secrets are redacted and strings capped before anything is written; tool outputs are never
/// kept. With no attempt started, an implicit one is begun. Prints nothing on success (with
/// --json: {"recorded": <the event as written>, "log": <path>}); a payload that cannot be read
/// (over 2 MiB, not JSON, wrong field types) is exit 2 with the log unchanged.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Which runtime sent the payload [default: detected from the payload].
    #[arg(long, value_enum, value_name = "AGENT")]
    pub agent: Option<AgentArg>,

    /// The hook event that sent the payload, for payloads that do not name it (GitHub Copilot
    /// CLI's: preToolUse, postToolUse ...) [default: read off the payload's keys].
    #[arg(long, value_name = "EVENT")]
    pub event: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AgentArg {
    Claude,
    Codex,
    Gemini,
    Copilot,
    Generic,
}

/// `chdir_given`: `-C` was passed, so the payload's `cwd` does not choose the repository.
pub fn run(ctx: &Ctx, args: Args, chdir_given: bool, out: &mut impl Write) -> Result<()> {
    use crate::util::error::{Kind, kind_of, kinded};
    let (line, log) = record_stdin(args, chdir_given).map_err(|err| {
        // What is not the repository's, git's or the disk's is the payload's.
        let kind = match kind_of(&err) {
            Kind::Failed => Kind::Input,
            kind => kind,
        };
        kinded(kind, anyhow!("record: {err:#}; nothing was recorded"))
    })?;
    if ctx.json {
        // The event as it was written (redacted), for a runtime that asks; null when it was left
        // to the hooks of the agent that sent it.
        let event: serde_json::Value = match line.is_empty() {
            true => serde_json::Value::Null,
            false => serde_json::from_slice(&line)?,
        };
        let report = serde_json::json!({"recorded": event, "log": log});
        crate::cli::output::write_json(out, &report)?;
    }
    Ok(())
}

/// Reads, normalises and appends the payload; returns the line written and the log's path.
fn record_stdin(args: Args, chdir_given: bool) -> Result<(Vec<u8>, PathBuf)> {
    let bytes = events::read_bounded(std::io::stdin().lock(), MAX_PAYLOAD)
        .context("reading the payload from stdin")?;
    let Some(bytes) = bytes else {
        bail!("the payload on stdin is larger than {} MiB; hooks send far less", MAX_PAYLOAD >> 20);
    };
    let mut payload = payload::parse_payload(&bytes)?;
    if let Some(name) = args.event.filter(|name| !name.is_empty()) {
        // Where Copilot CLI names the event itself.
        payload.entry("hookName").or_insert(serde_json::Value::String(name));
    }
    let agent = match args.agent {
        Some(AgentArg::Claude) => Runtime::Claude,
        Some(AgentArg::Codex) => Runtime::Codex,
        Some(AgentArg::Gemini) => Runtime::Gemini,
        Some(AgentArg::Copilot) => Runtime::Copilot,
        Some(AgentArg::Generic) => Runtime::Generic,
        None => Runtime::detect(&payload)?,
    };
    let session_cwd = match payload.get("cwd") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(dir)) => Some(PathBuf::from(dir)),
        Some(_) => bail!("payload field `cwd` is not a string; it names the session's directory"),
    };
    let steered = chdir_given || std::env::var_os("GIT_DIR").is_some();
    if let Some(dir) = session_cwd.as_ref().filter(|d| !steered && d.is_dir()) {
        std::env::set_current_dir(dir)
            .with_context(|| format!("changing to the session's directory {}", dir.display()))?;
    }
    let cwd = std::env::current_dir().context("reading the current directory")?;
    let (git_dir, top) = locate(&cwd)?;
    if agent == Runtime::Claude
        && payload::is_copilot_in_claude_hooks(&payload)
        && top.join(crate::hooks::copilot::HOOKS_PATH).is_file()
    {
        // Copilot CLI runs Claude Code's hooks as well as its own: its own record the call.
        return Ok((Vec::new(), git_dir.join("handoff").join(EVENTS_FILE)));
    }
    // A configuration that cannot be taken whole never stops the record: the defaults stand in.
    let (config, problems) = Config::load_for_saving(Some(&top));
    for problem in &problems {
        crate::cli::output::warn(problem);
    }
    let redactor = Redactor::new(&config)?;
    // Relative paths in the payload are the session's, wherever the repository was found.
    let session_dir = session_cwd.filter(|d| d.is_dir()).unwrap_or_else(|| cwd.clone());
    let dirs = SessionDirs { cwd: &session_dir, top: &top };
    let event = payload::normalize(&payload, agent, &dirs, &redactor, time::format(time::now()))?;
    let line = event.to_line()?;
    if event.kind == events::Kind::SessionStart && !event.sub {
        begin_session(&event);
    }
    let dir = git_dir.join("handoff");
    let log = dir.join(EVENTS_FILE);
    if dir.join(STATE_FILE).is_file() {
        events::append(&log, &line)?;
        refresh_summary(&dir, &event, &config);
        return Ok((line, log));
    }
    // No attempt yet: begin an implicit one, under the log's lock so concurrent hooks agree.
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let file = events::open_locked(&log)?;
    if !dir.join(STATE_FILE).is_file() {
        begin_implicit()?;
    }
    events::append_locked(&file, &log, &line)?;
    Ok((line, log))
}

/// After an edit or a check's result, rewrites the change summary files of a progress plan, so
/// the file an orchestrator reads never claims more than the log. Any other event, or no plan,
/// costs one comparison or one `stat`. The event is recorded whatever happens here: a summary
/// that cannot be rewritten is a warning.
fn refresh_summary(dir: &Path, event: &Event<'_>, config: &Config) {
    if event.kind != Kind::ToolResult || !dir.join(PLAN_FILE).is_file() {
        return;
    }
    let edit = !event.paths.is_empty();
    let check = || {
        event.tool.as_deref().is_some_and(payload::is_shell)
            && event.target.as_deref().is_some_and(|c| Checks::new(config).find(c).is_some())
    };
    if !edit && !check() {
        return;
    }
    let warnings = open::repo().and_then(|repo| crate::ops::progress::refresh(&repo, config));
    match warnings {
        Ok(warnings) => warnings.iter().for_each(|w| crate::cli::output::warn(w)),
        Err(err) => crate::cli::output::warn(&format!("{err:#}; the change summary is stale")),
    }
}

/// The git dir and the top of the work tree, cheaply when git's environment does not steer.
fn locate(cwd: &Path) -> Result<(PathBuf, PathBuf)> {
    if let Some(found) = Location::find(cwd) {
        return Ok((found.git_dir, found.work_tree));
    }
    let repo = Repo::discover()?;
    let top = repo.top()?.to_path_buf();
    Ok((repo.git_dir, top))
}

/// A session starts (a SessionStart payload): the next attempt when the attempt's note is
/// committed (see [`crate::ops::start`]). Rare, so it may open the repository; a failure is a
/// warning and the event is still recorded.
fn begin_session(event: &events::Event<'_>) {
    let begin = || -> Result<()> {
        let open::Opened { mut repo, config, .. } = open::open(open::Configuration::Saving)?;
        let start = crate::ops::start::SessionStart {
            agent: event.agent.to_string(),
            source: event.text.as_deref().unwrap_or("startup").to_string(),
            session: event.session.as_deref().map(str::to_string),
            logged: true,
        };
        crate::ops::start::begin(&mut repo, &config, &start)?;
        Ok(())
    };
    if let Err(err) = begin() {
        eprintln!("warning: record: {err:#}; the session continues the attempt as it was");
    }
}

/// Saves an implicit attempt: issue unknown, base HEAD, started now.
fn begin_implicit() -> Result<()> {
    let repo = open::repo()?;
    let head = repo.head().ok();
    let attempt = Attempt {
        issue: None,
        base: head.as_ref().and_then(|h| h.id),
        started_at: time::now(),
        branch: head.and_then(|h| h.branch),
    };
    attempt.save(&repo)
}
