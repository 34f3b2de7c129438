//! `git handoff digest`: the facts of the event log, recomputed now.

use std::io::Write;

use anyhow::Result;

use crate::agent::digest;
use crate::cli::context::Ctx;
use crate::cli::output;

/// Print the digest of the attempt's event log: files edited, tool calls, errors and the last check.
///
/// The text form is one line, `1 file edited · last `cargo test` failed · 12 tool calls, 3 errors`
/// (a check that started and never reported "did not finish"; the note and progress files are not
/// counted). `--json` adds the last assistant text, whether the handoff skill ran on the main
/// thread, turns, first and last event times, the session id, the last run of each check command
/// (`checks`), the last 15 tool calls and the last check's full call.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(ctx: &Ctx, _args: Args, out: &mut impl Write) -> Result<()> {
    let (repo, config) = ctx.open()?;
    let digest = digest::for_repo(&repo, &config)?;
    if digest.skipped_lines > 0 {
        output::warn(&format!(
            "{}: skipped {} torn or malformed line(s)",
            repo.handoff_dir().join(crate::agent::attempt::EVENTS_FILE).display(),
            digest.skipped_lines
        ));
    }
    if ctx.json {
        return Ok(output::write_json(out, &digest)?);
    }
    // The line quotes the agent's commands, from hook payloads: control characters escaped.
    writeln!(out, "{}", crate::util::text::escape_controls(&digest.line(), false))?;
    if digest.implicit_attempt {
        writeln!(
            out,
            "{}",
            output::dim(
                "implicit attempt: `git handoff record` began it (issue unknown); \
                 run `git handoff start --issue N` to name the issue"
            )
        )?;
    }
    Ok(())
}
