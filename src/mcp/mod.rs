//! `git handoff mcp`: the handoff as agent tools, over the Model Context Protocol on stdio.
//!
//! An agent that speaks MCP hands off in one tool call (`handoff_note` takes the summary as JSON,
//! fills the header, checks the claims and commits) instead of writing a Markdown file and running
//! a command. This is a JSON-RPC loop on serde_json, one message a line, answered in order: the
//! official Rust SDK (rmcp, on tokio) would add minutes of CPU to a clean build for what fits in
//! these few files (the figures are in the commit that chose this). It speaks both lifecycles the
//! official SDKs speak: the `initialize` handshake (2024-11-05 to 2025-11-25) and the current
//! revision's per-request `_meta` envelope with `server/discover` (2026-07-28).
//!
//! Every tool call finds the repository afresh and runs the same operations as the commands, so
//! the server holds no state between calls that the repository does not hold. A failing call is a
//! tool result with `isError` and the command's message; nothing a client sends ends the server
//! but the end of its input.
//!
//! [`protocol`] answers each message (the envelope and lifecycle), [`tools`] and [`schema`] say
//! what is offered, [`calls`] runs a tool, [`rpc_error`] is the error both answer with.

mod calls;
mod protocol;
mod rpc_error;
mod schema;
mod tools;

use std::io::{self, BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;
use serde_json::Value;

/// The longest message read; a longer line is answered with an error and skipped.
const MAX_MESSAGE: usize = 16 << 20;

/// Serves requests read from `input` until it ends, answering on `out`.
pub fn serve(mut input: impl BufRead, mut out: impl Write) -> Result<()> {
    let (idle, signalled) = (Arc::new(AtomicBool::new(true)), Arc::new(AtomicBool::new(false)));
    end_on_signals(&idle, &signalled);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = input.by_ref().take(MAX_MESSAGE as u64 + 1).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(());
        }
        let reply = if line.len() > MAX_MESSAGE && line.last() != Some(&b'\n') {
            skip_line(&mut input)?;
            Some(protocol::too_long(MAX_MESSAGE))
        } else if line.iter().all(u8::is_ascii_whitespace) {
            None
        } else {
            idle.store(false, Ordering::SeqCst);
            let reply = protocol::handle(&line);
            idle.store(true, Ordering::SeqCst);
            reply
        };
        // A signal that came during the call ends the server once the call is answered.
        let stop = signalled.load(Ordering::SeqCst);
        if let Some(reply) = reply {
            match send(&mut out, &reply) {
                Ok(()) => {}
                // The client went away: nobody is left to answer.
                Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
                Err(err) => return Err(err.into()),
            }
        }
        if stop {
            return Ok(());
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP end the server as a client stopping it expects: at once between
/// calls, and after the answer during a call, which a note commit lets finish or fail cleanly
/// (`util::interrupt`, whose handlers stay for the rest of the process).
fn end_on_signals(idle: &Arc<AtomicBool>, signalled: &Arc<AtomicBool>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // Where registering fails, the signal keeps its default action: no worse.
        let _ = signal_hook::flag::register(signal, signalled.clone());
        let _ = signal_hook::flag::register_conditional_default(signal, idle.clone());
    }
}

/// Reads and drops the rest of an over-long line.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let len = buf.len();
                input.consume(len);
            }
        }
    }
}

/// One message a line: compact JSON escapes every newline inside strings.
fn send(out: &mut impl Write, message: &Value) -> io::Result<()> {
    let json = crate::util::text::json_safe(serde_json::to_string(message)?);
    out.write_all(json.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}
