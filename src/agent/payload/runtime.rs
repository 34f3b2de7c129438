//! Which runtime sent a payload: Claude Code, Codex, or another one speaking the generic shape.

use anyhow::{Result, bail};
use serde_json::{Map, Value};

/// Which runtime sent the payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    Claude,
    Codex,
    Generic,
}

impl Runtime {
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Claude => "claude",
            Runtime::Codex => "codex",
            Runtime::Generic => "generic",
        }
    }

    /// Guesses the runtime: Codex payloads carry `turn_id`, Claude Code's a `hook_event_name`
    /// without it, the generic shape an `event`.
    pub fn detect(payload: &Map<String, Value>) -> Result<Runtime> {
        if payload.contains_key("hook_event_name") {
            if payload.contains_key("turn_id") {
                return Ok(Runtime::Codex);
            }
            return Ok(Runtime::Claude);
        }
        if payload.contains_key("event") {
            return Ok(Runtime::Generic);
        }
        bail!(
            "the payload has neither `hook_event_name` (Claude Code, Codex) nor `event` (generic \
             shape); pass a hook payload, or see `git handoff record --help` for the generic shape"
        )
    }
}
