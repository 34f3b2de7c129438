//! Turning one agent hook payload into one event: the recorder behind `git handoff record`.
//!
//! Understands Claude Code's hooks (`PreToolUse`, `PostToolUse`, `PostToolUseFailure`, `Stop`,
//! `SubagentStop`, `SessionStart`, `SessionEnd`, `PreCompact`, `UserPromptSubmit`), Codex's (the
//! same names and snake_case fields, plus `turn_id`; a tool's failure is read from its exit code),
//! and a small generic shape for other runtimes:
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
//! JSON, its fields by type, caps and exit codes), [`paths`] (paths made repository-relative).

use anyhow::{Result, anyhow};
use serde_json::{Map, Value};

use crate::agent::events::{Event, FORMAT, Kind};
use crate::model::redact::Redactor;
use fields::{bool_field, exit_code_of_response, obj_field, str_field, wrong_type};
use paths::patch_paths;

mod fields;
mod paths;
mod runtime;

pub use fields::{capped, exit_code_in, parse_payload};
pub use paths::{Place, repo_relative};
pub use runtime::Runtime;

/// Caps, in characters.
const CAP_COMMAND: usize = 1000;
const CAP_TARGET: usize = 300;
const CAP_ERROR: usize = 300;
const CAP_TEXT: usize = 4000;
const CAP_PROMPT: usize = 500;
const CAP_NAME: usize = 100;
const CAP_PATH: usize = 500;
const MAX_PATHS: usize = 100;

/// Turns a payload into an event stamped `at`, redacting and capping every string.
pub fn normalize(
    payload: &Map<String, Value>,
    runtime: Runtime,
    place: &Place<'_>,
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
        Runtime::Claude | Runtime::Codex => {
            hook_event(payload, runtime, place, &clean, &mut event)?
        }
        Runtime::Generic => generic_event(payload, place, &clean, &mut event)?,
    }
    Ok(event)
}

fn hook_event(
    payload: &Map<String, Value>,
    runtime: Runtime,
    place: &Place<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let name = str_field(payload, "hook_event_name")?.ok_or_else(|| {
        anyhow!(
            "the payload has no `hook_event_name`; is this a Claude Code or Codex hook payload?"
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
    match name {
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" => {
            let tool = str_field(payload, "tool_name")?
                .ok_or_else(|| anyhow!("{name} payload has no `tool_name`"))?;
            let input = obj_field(payload, "tool_input")?;
            event.tool = Some(clean(tool, CAP_NAME).into());
            event.id = str_field(payload, "tool_use_id")?.map(|id| clean(id, CAP_NAME).into());
            describe_tool(tool, input, place, clean, event)?;
            event.kind = if name == "PreToolUse" { Kind::ToolStart } else { Kind::ToolResult };
            // PreToolUse runs before every call: its line stays short. The edited paths count
            // only once the call succeeded, and its result carries them.
            if event.kind == Kind::ToolStart {
                event.paths.clear();
            }
            if name == "PostToolUseFailure" {
                let error = str_field(payload, "error")?.unwrap_or("");
                event.ok = Some(false);
                event.exit_code = exit_code_in(error);
                let first = error.lines().next().unwrap_or("").trim();
                if !first.is_empty() {
                    event.error = Some(clean(first, CAP_ERROR).into());
                }
            } else if name == "PostToolUse" {
                let response = payload.get("tool_response");
                // An interrupted command did not finish: no exit status, and no success.
                let interrupted = response
                    .and_then(|r| r.get("interrupted"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                let code = response.and_then(exit_code_of_response);
                let implied = runtime == Runtime::Claude && is_shell(tool) && !interrupted;
                let code = code.or(implied.then_some(0));
                event.exit_code = code;
                event.ok = Some(!interrupted && code.is_none_or(|c| c == 0));
                if interrupted {
                    event.error = Some("interrupted".into());
                }
            }
        }
        "Stop" | "SubagentStop" => {
            event.kind = if name == "Stop" { Kind::Stop } else { Kind::SubagentStop };
            event.sub |= name == "SubagentStop";
            event.text = str_field(payload, "last_assistant_message")?
                .map(|text| clean(text, CAP_TEXT).into());
        }
        "SessionStart" => {
            event.kind = Kind::SessionStart;
            event.text = str_field(payload, "source")?.map(|s| clean(s, CAP_NAME).into());
        }
        "SessionEnd" => {
            event.kind = Kind::SessionEnd;
            event.text = str_field(payload, "reason")?.map(|s| clean(s, CAP_NAME).into());
        }
        "PreCompact" => {
            event.kind = Kind::PreCompact;
            event.text = str_field(payload, "trigger")?.map(|s| clean(s, CAP_NAME).into());
        }
        "UserPromptSubmit" => {
            event.kind = Kind::Prompt;
            event.text = str_field(payload, "prompt")?.map(|s| clean(s, CAP_PROMPT).into());
        }
        _ => event.kind = Kind::Other,
    }
    Ok(())
}

fn generic_event(
    payload: &Map<String, Value>,
    place: &Place<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let name = str_field(payload, "event")?.unwrap_or("");
    event.event = Some(clean(name, CAP_NAME).into());
    event.kind = match name {
        "tool_start" => Kind::ToolStart,
        "tool" | "tool_result" => Kind::ToolResult,
        "stop" => Kind::Stop,
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
        paths.iter().filter_map(|p| relative_clean(p, place, clean)).collect();
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

/// A payload path made repository-relative, redacted BEFORE it is normalized: normalizing
/// collapses `//`, and `postgres://u:PW@host` would no longer read as a URL with credentials.
fn relative_clean(
    raw: &str,
    place: &Place<'_>,
    clean: &dyn Fn(&str, usize) -> String,
) -> Option<String> {
    repo_relative(&clean(raw, usize::MAX), place)
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

/// Fills the target and edited paths of a tool call from its input.
fn describe_tool(
    tool: &str,
    input: Option<&Map<String, Value>>,
    place: &Place<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let Some(input) = input else { return Ok(()) };
    let text_of = |key: &str| str_field(input, key);
    if is_shell(tool) {
        if let Some(command) = command_text(input)? {
            event.target = Some(clean(&command, CAP_COMMAND).into());
        }
        return Ok(());
    }
    match tool {
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "Read" => {
            let key = if tool == "NotebookEdit" { "notebook_path" } else { "file_path" };
            let Some(path) = text_of(key)?.or(text_of("path")?) else { return Ok(()) };
            match relative_clean(path, place, clean) {
                Some(rel) => {
                    event.target = Some(clean(&rel, CAP_TARGET).into());
                    if tool != "Read" {
                        event.paths = vec![clean(&rel, CAP_PATH).into()];
                    }
                }
                None => event.target = Some(clean(path, CAP_TARGET).into()),
            }
        }
        "apply_patch" => {
            let patch = match command_text(input)? {
                Some(text) => Some(text),
                None => text_of("input")?.or(text_of("patch")?).map(str::to_string),
            };
            let files: Vec<String> = patch
                .as_deref()
                .map(patch_paths)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|p| relative_clean(&p, place, clean))
                .collect();
            if let Some(first) = files.first() {
                let more = if files.len() > 1 {
                    format!(" (+{} more)", files.len() - 1)
                } else {
                    String::new()
                };
                event.target = Some(clean(&format!("{first}{more}"), CAP_TARGET).into());
            }
            event.paths = files.iter().take(MAX_PATHS).map(|p| clean(p, CAP_PATH).into()).collect();
        }
        _ => {
            let key = match tool {
                "Skill" => "skill",
                "Grep" | "Glob" => "pattern",
                "Task" | "Agent" => "description",
                "WebFetch" => "url",
                "WebSearch" => "query",
                _ => "",
            };
            let found = if key.is_empty() { None } else { text_of(key)? };
            let found = match (found, tool) {
                (None, "Task" | "Agent") => text_of("subagent_type")?,
                (found, _) => found,
            };
            if let Some(text) = found {
                event.target = Some(clean(text, CAP_TARGET).into());
            }
        }
    }
    Ok(())
}

/// Tools that run a shell command.
pub fn is_shell(tool: &str) -> bool {
    matches!(
        tool,
        "Bash" | "shell" | "local_shell" | "exec_command" | "unified_exec" | "container.exec"
    )
}

/// A shell tool's command: a string, or an argv whose last element is the script (`bash -lc ...`).
fn command_text(input: &Map<String, Value>) -> Result<Option<String>> {
    for key in ["command", "cmd"] {
        match input.get(key) {
            None | Some(Value::Null) => continue,
            Some(Value::String(text)) => return Ok(Some(text.clone())),
            Some(Value::Array(items)) => {
                let words: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                let script = match words.as_slice() {
                    [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => {
                        (*script).to_string()
                    }
                    _ => words.join(" "),
                };
                return Ok(Some(script));
            }
            Some(other) => return Err(wrong_type(&format!("tool_input.{key}"), other, "a string")),
        }
    }
    Ok(None)
}
