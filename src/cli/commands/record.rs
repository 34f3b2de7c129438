//! `git handoff record`: one agent hook payload on stdin, one event appended to the log.
//!
//! This runs on every agent tool call, so its path is short: read stdin (bounded), parse, find the
//! repository without opening it, redact, and append one line under the log's lock. It prints
//! nothing on stdout (some hooks inject stdout into the agent's context); a payload it cannot read
//! is one line on stderr and exit 2, with the log unchanged.

use std::io::Write;

use anyhow::{Result, anyhow};

use crate::agent::payload::Runtime;
use crate::cli::context::Ctx;
use crate::cli::output;
use crate::ops::record::{self, Request};

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
    let agent = args.agent.map(|agent| match agent {
        AgentArg::Claude => Runtime::Claude,
        AgentArg::Codex => Runtime::Codex,
        AgentArg::Gemini => Runtime::Gemini,
        AgentArg::Copilot => Runtime::Copilot,
        AgentArg::Generic => Runtime::Generic,
    });
    let request = Request { agent, event: args.event, steered: chdir_given };
    let recorded = record::record(std::io::stdin().lock(), request).map_err(|err| {
        // What is not the repository's, git's or the disk's is the payload's.
        let kind = match kind_of(&err) {
            Kind::Failed => Kind::Input,
            kind => kind,
        };
        kinded(kind, anyhow!("record: {err:#}; nothing was recorded"))
    })?;
    recorded.warnings.iter().for_each(|warning| output::warn(warning));
    if ctx.json {
        // The event as it was written (redacted), for a runtime that asks; null when it was left
        // to the hooks of the agent that sent it.
        let event: serde_json::Value = match recorded.line.is_empty() {
            true => serde_json::Value::Null,
            false => serde_json::from_slice(&recorded.line)?,
        };
        let report = serde_json::json!({"recorded": event, "log": recorded.log});
        output::write_json(out, &report)?;
    }
    Ok(())
}
