//! Turning one agent hook payload into one event: the recorder behind `git handoff record`.
//!
//! Understands Claude Code's hooks (`PreToolUse`, `PostToolUse`, `PostToolUseFailure`, `Stop`,
//! `SubagentStop`, `SessionStart`, `SessionEnd`, `PreCompact`, `UserPromptSubmit`), Codex's (the
//! same names and snake_case fields, plus `turn_id`; a shell call's exit code is read from its
//! transcript), Gemini CLI's (`BeforeTool`, `AfterTool`, ... read as their Claude Code
//! counterparts, see [`gemini`]), GitHub Copilot CLI's camelCase ones (see [`copilot`]), and a
//! small generic shape for other runtimes:
//!
//! ```json
//! {"event": "tool", "tool": "Bash", "command": "cargo test", "ok": false, "exit_code": 101,
//!  "paths": ["src/a.rs"], "text": "...", "subagent": false, "id": "call-1", "cwd": "/repo",
//!  "session_id": "s-1"}
//! ```
//!
//! where `event` is one of `tool_start`, `tool`, `stop`, `subagent_stop`, `session_start`,
//! `session_end`, `compact`, `prompt`; every other key is optional (`ok` defaults to
//! `exit_code == 0`, else true; `target` may replace `command`/`paths` as the short target).
//!
//! An event keeps only short facts: no tool output, every string redacted and capped. The
//! session id every payload carries is kept, so the emergency note can point at the session.
//!
//! Its children: [`runtime`] (which runtime sent the payload), [`fields`] (the payload read as
//! JSON, its fields by type, caps and exit codes), [`paths`] (paths made repository-relative),
//! [`tools`] (what a tool call was about), [`transcript`] (a Codex shell call's exit code, from
//! the tail of its transcript).

use anyhow::{Result, anyhow};
use serde_json::{Map, Value};

use crate::agent::events::{Event, FORMAT, Kind};
use crate::model::redact::Redactor;
use fields::{bool_field, exit_code_of_response, obj_field, str_field, wrong_type};

pub mod copilot;
mod fields;
mod gemini;
mod lifecycle;
mod paths;
mod runtime;
mod tools;
mod transcript;

pub use copilot::is_copilot_in_claude_hooks;
pub use fields::{capped, exit_code_in, parse_payload};
pub use paths::{SessionDirs, relative_clean};
pub use runtime::Runtime;
use tools::describe_tool;
pub use tools::is_shell;

use fields::{CAP_COMMAND, CAP_ERROR, CAP_NAME, CAP_PATH, CAP_TARGET, CAP_TEXT, MAX_PATHS};

/// Turns a payload into an event stamped `at`, redacting and capping every string.
pub fn normalize(
    payload: &Map<String, Value>,
    runtime: Runtime,
    dirs: &SessionDirs<'_>,
    redactor: &Redactor,
    at: String,
) -> Result<Event<'static>> {
    let mut event = Event {
        v: FORMAT,
        at: at.into(),
        kind: Kind::Other,
        agent: runtime.name().into(),
        event: None,
        tool: None,
        target: None,
        id: None,
        ok: None,
        exit_code: None,
        error: None,
        paths: Vec::new(),
        text: None,
        sub: false,
        session: None,
    };
    let clean = |text: &str, cap: usize| -> String { capped(&redactor.redact(text), cap) };
    match runtime {
        Runtime::Claude | Runtime::Codex | Runtime::Gemini => {
            hook_event(payload, runtime, dirs, &clean, &mut event)?
        }
        // Its hooks under PascalCase names get Claude Code's snake_case payloads.
        Runtime::Copilot if payload.contains_key("hook_event_name") => {
            hook_event(payload, runtime, dirs, &clean, &mut event)?
        }
        Runtime::Copilot => copilot::copilot_event(payload, dirs, &clean, &mut event)?,
        Runtime::Generic => generic_event(payload, dirs, &clean, &mut event)?,
    }
    Ok(event)
}

fn hook_event(
    payload: &Map<String, Value>,
    runtime: Runtime,
    dirs: &SessionDirs<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let name = str_field(payload, "hook_event_name")?.ok_or_else(|| {
        anyhow!(
            "the payload has no `hook_event_name`; is this a Claude Code, Codex or Gemini CLI hook \
             payload?"
        )
    })?;
    event.event = Some(clean(name, CAP_NAME).into());
    // Fields not kept are still checked, so a payload of the wrong shape is refused whole.
    for key in ["transcript_path", "permission_mode", "agent_type", "model", "turn_id"] {
        str_field(payload, key)?;
    }
    event.session = session_of(payload, "session_id", clean)?;
    bool_field(payload, "stop_hook_active")?;
    event.sub = str_field(payload, "agent_id")?.is_some_and(|id| !id.is_empty());
    let name = if runtime == Runtime::Gemini { gemini::common_name(name) } else { name };
    match name {
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" => {
            tool_event(payload, runtime, name, dirs, clean, event)?
        }
        "Stop" | "SubagentStop" => {
            event.kind = if name == "Stop" { Kind::Stop } else { Kind::SubagentStop };
            event.sub |= name == "SubagentStop";
            let text = match str_field(payload, "last_assistant_message")? {
                Some(text) => Some(text),
                None => str_field(payload, "prompt_response")?, // Gemini CLI's AfterAgent
            };
            event.text = text.map(|text| clean(text, CAP_TEXT).into());
        }
        "StopFailure" => {
            event.kind = Kind::StopFailure;
            let kind = str_field(payload, "error_type")?.unwrap_or("unknown");
            event.error = Some(clean(kind, CAP_NAME).into());
            let code = str_field(payload, "error")?.filter(|c| !c.is_empty() && *c != kind);
            let message = str_field(payload, "error_message")?.unwrap_or("");
            let text = match code {
                Some(code) if !message.is_empty() => format!("{code}: {message}"),
                Some(code) => code.to_string(),
                None => message.to_string(),
            };
            event.text = (!text.is_empty()).then(|| clean(&text, CAP_ERROR).into());
        }
        _ if lifecycle::lifecycle_event(name, payload, clean, event)? => {}
        _ => event.kind = Kind::Other,
    }
    Ok(())
}

/// A tool call's start or end (Claude Code, Codex, Gemini CLI, and Copilot CLI through Claude
/// Code's hook files): the tool, what it was about, and how it ended.
fn tool_event(
    payload: &Map<String, Value>,
    runtime: Runtime,
    name: &str,
    dirs: &SessionDirs<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let tool = str_field(payload, "tool_name")?
        .ok_or_else(|| anyhow!("{name} payload has no `tool_name`"))?;
    let input = obj_field(payload, "tool_input")?;
    event.tool = Some(clean(tool, CAP_NAME).into());
    event.id = str_field(payload, "tool_use_id")?.map(|id| clean(id, CAP_NAME).into());
    describe_tool(tool, input, dirs, clean, event)?;
    event.kind = if name == "PreToolUse" { Kind::ToolStart } else { Kind::ToolResult };
    // The edited paths count only once the call succeeded, and its result carries them;
    // a start keeps them so that the note's own write is known as such from its start.
    if name == "PostToolUseFailure" {
        let error = str_field(payload, "error")?.unwrap_or("");
        event.ok = Some(false);
        event.exit_code = exit_code_in(error);
        let first = error.lines().next().unwrap_or("").trim();
        if !first.is_empty() {
            event.error = Some(clean(first, CAP_ERROR).into());
        }
    } else if name == "PostToolUse" && runtime == Runtime::Gemini {
        let outcome = gemini::outcome(payload.get("tool_response"), is_shell(tool));
        event.ok = Some(outcome.ok);
        event.exit_code = outcome.exit_code;
        event.error = outcome.error.map(|e| clean(&e, CAP_ERROR).into());
    } else if name == "PostToolUse" {
        // Copilot CLI, running Claude Code's hook files, names it `tool_result`.
        let response = payload.get("tool_response").or_else(|| payload.get("tool_result"));
        // An interrupted command did not finish: no exit status, and no success.
        let interrupted =
            response.and_then(|r| r.get("interrupted")).and_then(Value::as_bool).unwrap_or(false);
        let code = match response {
            // Codex's shell response is the command's output: its status is in the
            // transcript, and the text only when the transcript says nothing.
            Some(Value::String(_)) if runtime == Runtime::Codex && is_shell(tool) => {
                codex_exit_code(payload, str_field(payload, "tool_use_id")?)?
                    .or_else(|| response.and_then(exit_code_of_response))
            }
            _ => response.and_then(exit_code_of_response),
        };
        let implied = runtime == Runtime::Claude && is_shell(tool) && !interrupted;
        let code = code.or(implied.then_some(0));
        event.exit_code = code;
        event.ok = Some(!interrupted && code.is_none_or(|c| c == 0));
        if interrupted {
            event.error = Some("interrupted".into());
        }
    }
    Ok(())
}

fn generic_event(
    payload: &Map<String, Value>,
    dirs: &SessionDirs<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let name = str_field(payload, "event")?.unwrap_or("");
    event.event = Some(clean(name, CAP_NAME).into());
    event.kind = match name {
        "tool_start" => Kind::ToolStart,
        "tool" | "tool_result" => Kind::ToolResult,
        "stop" => Kind::Stop,
        "stop_failure" | "api_error" => Kind::StopFailure,
        "subagent_stop" => Kind::SubagentStop,
        "session_start" => Kind::SessionStart,
        "session_end" => Kind::SessionEnd,
        "compact" | "pre_compact" => Kind::PreCompact,
        "prompt" => Kind::Prompt,
        _ => Kind::Other,
    };
    event.sub =
        bool_field(payload, "subagent")?.unwrap_or(false) || event.kind == Kind::SubagentStop;
    event.id = str_field(payload, "id")?.map(|id| clean(id, CAP_NAME).into());
    event.session = session_of(payload, "session_id", clean)?;
    if let Some(tool) = str_field(payload, "tool")? {
        event.tool = Some(clean(tool, CAP_NAME).into());
    }
    if let Some(command) = str_field(payload, "command")? {
        event.target = Some(clean(command, CAP_COMMAND).into());
    }
    let mut paths = Vec::new();
    if let Some(path) = str_field(payload, "path")? {
        paths.push(path);
    }
    if let Some(list) = payload.get("paths").filter(|v| !v.is_null()) {
        let list =
            list.as_array().ok_or_else(|| wrong_type("paths", list, "an array of strings"))?;
        for item in list {
            paths.push(item.as_str().ok_or_else(|| wrong_type("paths[]", item, "a string"))?);
        }
    }
    let relative: Vec<String> =
        paths.iter().filter_map(|p| relative_clean(p, dirs, clean)).collect();
    if event.target.is_none() {
        event.target = relative.first().map(|p| clean(p, CAP_TARGET).into());
    }
    if matches!(event.kind, Kind::ToolStart | Kind::ToolResult) {
        event.paths = relative.iter().take(MAX_PATHS).map(|p| clean(p, CAP_PATH).into()).collect();
    }
    if let Some(target) = str_field(payload, "target")? {
        event.target = Some(clean(target, CAP_COMMAND).into());
    }
    let exit_code = match payload.get("exit_code").filter(|v| !v.is_null()) {
        Some(v) => Some(v.as_i64().ok_or_else(|| wrong_type("exit_code", v, "an integer"))?),
        None => None,
    };
    if event.kind == Kind::ToolResult {
        event.exit_code = exit_code;
        event.ok = Some(bool_field(payload, "ok")?.unwrap_or(exit_code.is_none_or(|c| c == 0)));
    }
    if let Some(error) = str_field(payload, "error")? {
        event.error = Some(clean(error.lines().next().unwrap_or(""), CAP_ERROR).into());
    }
    if let Some(text) = str_field(payload, "text")? {
        event.text = Some(clean(text, CAP_TEXT).into());
    }
    Ok(())
}

/// The exit code the transcript named by the payload records for this call (see [`transcript`]).
fn codex_exit_code(payload: &Map<String, Value>, call_id: Option<&str>) -> Result<Option<i64>> {
    let Some(path) = str_field(payload, "transcript_path")?.filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    Ok(transcript::exit_code(std::path::Path::new(path), call_id))
}

/// The session id a payload carries under `key`, redacted and capped; none when empty.
fn session_of(
    payload: &Map<String, Value>,
    key: &str,
    clean: &dyn Fn(&str, usize) -> String,
) -> Result<Option<std::borrow::Cow<'static, str>>> {
    let id = str_field(payload, key)?.map(str::trim).filter(|id| !id.is_empty());
    Ok(id.map(|id| clean(id, CAP_NAME).into()))
}
