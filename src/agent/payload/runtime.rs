//! Which runtime sent a payload: Claude Code, Codex, or another one speaking the generic shape.

use anyhow::{Result, bail};
use serde_json::{Map, Value};

/// Which runtime sent the payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    Claude,
    Codex,
    Gemini,
    Copilot,
    Generic,
}

impl Runtime {
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Claude => "claude",
            Runtime::Codex => "codex",
            Runtime::Gemini => "gemini",
            Runtime::Copilot => "copilot",
            Runtime::Generic => "generic",
        }
    }

    /// Guesses the runtime: Gemini CLI's payloads carry its own event names or a `timestamp`,
    /// Codex's a `turn_id`, Claude Code's a `hook_event_name` without either, GitHub Copilot CLI's
    /// camelCase ones a `sessionId` or `toolName`, the generic shape an `event`.
    pub fn detect(payload: &Map<String, Value>) -> Result<Runtime> {
        if let Some(name) = payload.get("hook_event_name") {
            let gemini = name.as_str().is_some_and(super::gemini::is_gemini_event);
            if gemini || payload.contains_key("timestamp") && !payload.contains_key("turn_id") {
                return Ok(Runtime::Gemini);
            }
            if payload.contains_key("turn_id") {
                return Ok(Runtime::Codex);
            }
            return Ok(Runtime::Claude);
        }
        if payload.contains_key("event") {
            return Ok(Runtime::Generic);
        }
        if super::copilot::is_camel_case(payload) {
            return Ok(Runtime::Copilot);
        }
        bail!(
            "the payload has neither `hook_event_name` (Claude Code, Codex, Gemini CLI), `sessionId` \
             (GitHub Copilot CLI) nor `event` (generic shape); pass a hook payload, or see `git \
             handoff record --help` for the generic shape"
        )
    }
}
