//! `git handoff mcp`: the handoff as agent tools, over the Model Context Protocol on stdio.

use std::io::Write;

use anyhow::Result;

use crate::cli::context::Ctx;

/// Serve the handoff as agent tools (an MCP server on stdin/stdout).
///
/// An agent that speaks the Model Context Protocol (Claude Code, Codex, Gemini CLI, Cursor) then
/// hands off in one tool call instead of writing a note file and running `git handoff note`:
///
///   handoff_note      {goal, done[], in_progress[], decisions[], next[], files_touched[],
///                     reason?, issue?}: the summary route of `note`, checked against the event
///                     log, tagged, committed alone and recorded
///   handoff_recall    {source?, max_lines?}: the recall, as `recall` prints it
///   handoff_snapshot  {max_lines?, reason?}: the snapshot, as `snapshot --json` gives it
///   handoff_progress  {plan[], findings?, force?} or {set: {id, status, note?, files?}}, or
///                     nothing to read the change summary
///
/// A failing call answers with the message the command would print, as a tool error; the server
/// keeps no state between calls and ends when its input ends. It speaks the `initialize`
/// handshake (2024-11-05 to 2025-11-25) and the per-request envelope with `server/discover`
/// (2026-07-28). `hooks install --claude` registers it in `.mcp.json`, `--codex` in
/// `.codex/config.toml`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_ctx: &Ctx, _args: Args, out: &mut impl Write) -> Result<()> {
    crate::mcp::serve(std::io::stdin().lock(), out)
}
