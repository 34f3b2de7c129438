//! GitHub Copilot CLI's own hook payloads (1.0): camelCase keys (`sessionId`, `toolName`,
//! `toolArgs`, `toolResult`), no call id, and no event name in most of them. The event is the one
//! the hook was installed under (`record --event preToolUse`, or `hookName` where Copilot sends
//! it), else read off the keys the payload carries.
//!
//! A shell command's result is `resultType: "success"` whatever its status, which is only in the
//! text (`<shellId: 0 completed with exit code 1>`); a tool that failed outright (a bad path)
//! arrives as `postToolUseFailure` with `error`. `errorOccurred` with `errorContext: "model_call"`
//! is the API-error end of a turn. No payload carries the model's words, and Copilot (1.0.102)
//! writes its session file (`transcriptPath`) only when it shuts down, after the last hook: a
//! Copilot session has no "last model intent".
//!
//! Copilot also runs Claude Code's hook files (`.claude/settings.json`) with snake_case payloads
//! ([`is_copilot_in_claude_hooks`]): those are read as Claude Code's, unless Copilot's own hooks
//! are installed too, when they are left to them (`record` asks).

/// Copilot CLI's hooks file that `hooks install --copilot` writes, relative to the top of the work
/// tree: where it exists, Copilot's calls are recorded by its own hooks, not by Claude Code's.
pub const HOOKS_PATH: &str = ".github/hooks/git-handoff.json";

use anyhow::{Result, anyhow};
use serde_json::{Map, Value};

use super::fields::{CAP_ERROR, CAP_NAME, CAP_TEXT, bool_field, exit_code_of_response, str_field};
use super::lifecycle::lifecycle_event;
use super::paths::SessionDirs;
use super::tools::describe_tool;
use crate::agent::events::{Event, Kind};

/// Whether a payload is one of Copilot CLI's camelCase ones (it has no `hook_event_name`).
pub(super) fn is_camel_case(payload: &Map<String, Value>) -> bool {
    !payload.contains_key("hook_event_name")
        && (payload.contains_key("sessionId") || payload.contains_key("toolName"))
}

/// Whether a snake_case payload came from Copilot CLI running Claude Code's hook files: Copilot
/// stamps each with a `timestamp` string, which Claude Code never sends, and names no transcript
/// but on its stop (which says `stop_reason`, Claude Code's does not).
pub fn is_copilot_in_claude_hooks(payload: &Map<String, Value>) -> bool {
    payload.get("timestamp").is_some_and(Value::is_string)
        && payload.contains_key("hook_event_name")
        && (!payload.contains_key("transcript_path") || payload.contains_key("stop_reason"))
}

/// The event a payload is for: as named, else as its keys tell.
fn event_name(payload: &Map<String, Value>) -> Result<String> {
    if let Some(name) = str_field(payload, "hookName")?.filter(|n| !n.is_empty()) {
        return Ok(name.to_string());
    }
    let has = |key: &str| payload.contains_key(key);
    let name = if has("toolResult") {
        "postToolUse"
    } else if has("toolName") && has("error") {
        "postToolUseFailure"
    } else if has("toolName") {
        "preToolUse"
    } else if has("errorContext") {
        "errorOccurred"
    } else if has("agentName") {
        if has("response") { "subagentStop" } else { "subagentStart" }
    } else if has("stopReason") {
        "agentStop"
    } else if has("reason") {
        "sessionEnd"
    } else if has("source") {
        "sessionStart"
    } else if has("prompt") {
        "userPromptSubmitted"
    } else {
        return Err(anyhow!(
            "the Copilot CLI payload names no event and its keys match none; install the hook as \
             `git-handoff record --agent copilot --event <event>`"
        ));
    };
    Ok(name.to_string())
}

/// Fills `event` from a camelCase Copilot CLI payload.
pub(super) fn copilot_event(
    payload: &Map<String, Value>,
    dirs: &SessionDirs<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let name = event_name(payload)?;
    event.event = Some(clean(&name, CAP_NAME).into());
    for key in ["transcriptPath", "agentType", "parentAgentId"] {
        str_field(payload, key)?;
    }
    let session = str_field(payload, "sessionId")?.map(str::trim).filter(|s| !s.is_empty());
    event.session = session.map(|id| clean(id, CAP_NAME).into());
    event.sub = str_field(payload, "agentId")?.is_some_and(|id| !id.is_empty());
    bool_field(payload, "stopHookActive")?;
    match name.as_str() {
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            tool_event(payload, &name, dirs, clean, event)?
        }
        "agentStop" => event.kind = Kind::Stop,
        "subagentStop" => {
            event.kind = Kind::SubagentStop;
            event.sub = true;
            event.text = str_field(payload, "response")?.map(|t| clean(t, CAP_TEXT).into());
        }
        "subagentStart" => {
            event.sub = true;
            event.target = str_field(payload, "agentName")?.map(|t| clean(t, CAP_NAME).into());
        }
        "errorOccurred" => {
            // Only a model call's error ends the turn; a tool's is its result, told already.
            let context = str_field(payload, "errorContext")?.unwrap_or("");
            let error = str_field(payload, "error")?.unwrap_or("");
            if context == "model_call" && bool_field(payload, "recoverable")? != Some(true) {
                event.kind = Kind::StopFailure;
                event.error = Some(clean(error_kind(error), CAP_NAME).into());
                let first = error.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
                event.text = (!first.is_empty()).then(|| clean(first, CAP_ERROR).into());
            } else {
                event.error = (!error.is_empty()).then(|| clean(error, CAP_ERROR).into());
            }
        }
        // Claude Code's names, and the same fields.
        "sessionStart" | "sessionEnd" | "userPromptSubmitted" => {
            let common = match name.as_str() {
                "sessionStart" => "SessionStart",
                "sessionEnd" => "SessionEnd",
                _ => "UserPromptSubmit",
            };
            lifecycle_event(common, payload, clean, event)?;
        }
        _ => event.kind = Kind::Other,
    }
    Ok(())
}

/// A tool call's start or end: the tool, what it was about, and how it ended.
fn tool_event(
    payload: &Map<String, Value>,
    name: &str,
    dirs: &SessionDirs<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let tool = str_field(payload, "toolName")?
        .ok_or_else(|| anyhow!("{name} payload has no `toolName`"))?;
    event.tool = Some(clean(tool, CAP_NAME).into());
    // `toolArgs` is an object, or that object as JSON text in some versions.
    let parsed;
    let args = match payload.get("toolArgs") {
        Some(Value::Object(map)) => Some(map),
        Some(Value::String(text)) => {
            parsed = serde_json::from_str::<Value>(text).ok();
            parsed.as_ref().and_then(Value::as_object)
        }
        _ => None,
    };
    describe_tool(tool, args, dirs, clean, event)?;
    event.kind = if name == "preToolUse" { Kind::ToolStart } else { Kind::ToolResult };
    if name == "postToolUseFailure" {
        let error = str_field(payload, "error")?.unwrap_or("");
        event.ok = Some(false);
        let first = error.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
        if !first.is_empty() {
            event.error = Some(clean(first, CAP_ERROR).into());
        }
    } else if name == "postToolUse" {
        let result = payload.get("toolResult");
        let kind =
            result.and_then(|r| r.get("resultType")).and_then(Value::as_str).unwrap_or("success");
        let code = result.and_then(exit_code_of_response);
        let failed = matches!(kind, "failure" | "denied" | "rejected");
        event.exit_code = code;
        event.ok = Some(!failed && code.is_none_or(|c| c == 0));
        if failed {
            event.error = Some(clean(kind, CAP_ERROR).into());
        }
    }
    Ok(())
}

/// The kind of an API error from its text, in the words Claude Code's StopFailure uses.
fn error_kind(error: &str) -> &'static str {
    let lower = error.to_ascii_lowercase();
    if lower.contains("rate limit") || lower.contains("429") || lower.contains("quota") {
        "rate_limit"
    } else if lower.contains("401") || lower.contains("403") || lower.contains("auth") {
        "authentication_failed"
    } else if lower.contains("overloaded") || lower.contains("529") || lower.contains("503") {
        "overloaded"
    } else if lower.contains("context") && lower.contains("length") {
        "max_output_tokens"
    } else if lower.contains("500") || lower.contains("502") || lower.contains("server") {
        "server_error"
    } else {
        "unknown"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn name_of(value: Value) -> String {
        event_name(value.as_object().unwrap()).unwrap()
    }

    #[test]
    fn events_are_known_by_their_keys() {
        let common = |extra: Value| {
            let mut map = json!({"sessionId": "s", "timestamp": 1, "cwd": "/r"});
            map.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            map
        };
        let pre = common(json!({"toolName": "bash", "toolArgs": {"command": "ls"}}));
        assert_eq!(name_of(pre), "preToolUse");
        let post = common(json!({"toolName": "bash", "toolArgs": {}, "toolResult": {}}));
        assert_eq!(name_of(post), "postToolUse");
        let failed = common(json!({"toolName": "create", "toolArgs": {}, "error": "no dir"}));
        assert_eq!(name_of(failed), "postToolUseFailure");
        assert_eq!(name_of(common(json!({"source": "new"}))), "sessionStart");
        assert_eq!(name_of(common(json!({"reason": "complete"}))), "sessionEnd");
        assert_eq!(name_of(common(json!({"prompt": "hi"}))), "userPromptSubmitted");
        assert_eq!(name_of(common(json!({"stopReason": "end_turn"}))), "agentStop");
        let error = common(json!({"error": "429", "errorContext": "model_call"}));
        assert_eq!(name_of(error), "errorOccurred");
        let named = common(json!({"hookName": "permissionRequest", "toolName": "bash"}));
        assert_eq!(name_of(named), "permissionRequest");
        assert!(event_name(common(json!({})).as_object().unwrap()).is_err());
    }

    #[test]
    fn copilot_in_claude_hooks() {
        let copilot = json!({"hook_event_name": "PreToolUse", "session_id": "s",
            "timestamp": "2026-12-07T00:30:39.119Z", "cwd": "/r", "tool_name": "Write"});
        assert!(is_copilot_in_claude_hooks(copilot.as_object().unwrap()));
        let claude = json!({"hook_event_name": "PreToolUse", "session_id": "s",
            "transcript_path": "/t.jsonl", "cwd": "/r", "tool_name": "Write"});
        assert!(!is_copilot_in_claude_hooks(claude.as_object().unwrap()));
        let stop = json!({"hook_event_name": "Stop", "timestamp": "2026-12-07T00:30:39Z",
            "transcript_path": "/t", "stop_reason": "end_turn"});
        assert!(is_copilot_in_claude_hooks(stop.as_object().unwrap()));
    }
}
