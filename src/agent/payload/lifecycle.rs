//! The events of a session's life that every hook runtime sends with the same fields: its start
//! (`source`), its end (`reason`), a compaction (`trigger`) and a prompt (`prompt`), whatever the
//! runtime calls them.

use anyhow::Result;
use serde_json::{Map, Value};

use super::fields::{CAP_NAME, CAP_PROMPT, str_field};
use crate::agent::events::{Event, Kind};

/// Fills `event` for the lifecycle event `name` (by Claude Code's names); false for another event.
pub(super) fn lifecycle_event(
    name: &str,
    payload: &Map<String, Value>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<bool> {
    let (kind, key, cap) = match name {
        "SessionStart" => (Kind::SessionStart, "source", CAP_NAME),
        "SessionEnd" => (Kind::SessionEnd, "reason", CAP_NAME),
        "PreCompact" => (Kind::PreCompact, "trigger", CAP_NAME),
        "UserPromptSubmit" => (Kind::Prompt, "prompt", CAP_PROMPT),
        _ => return Ok(false),
    };
    event.kind = kind;
    event.text = str_field(payload, key)?.map(|s| clean(s, cap).into());
    Ok(true)
}
