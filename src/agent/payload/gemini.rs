//! Gemini CLI's hook payloads (0.61): its events under their own names (`BeforeTool`,
//! `AfterTool`, `BeforeAgent`, `AfterAgent`, `PreCompress`, `SessionStart`, `SessionEnd`), read as
//! the matching Claude Code events, and a tool's outcome read from its `tool_response`
//! (`{"llmContent", "returnDisplay", "error"?}`): a failed call carries `error`, and a shell
//! command's text names its status on an `Exit Code: N` line, written only when it is not 0.

use serde_json::Value;

/// The Claude Code event a Gemini CLI event is read as; other names are left as they are.
pub(super) fn common_name(name: &str) -> &str {
    match name {
        "BeforeTool" => "PreToolUse",
        "AfterTool" => "PostToolUse",
        "BeforeAgent" => "UserPromptSubmit",
        "AfterAgent" => "Stop",
        "PreCompress" => "PreCompact",
        other => other,
    }
}

/// Whether an event name is one only Gemini CLI sends.
pub(super) fn is_gemini_event(name: &str) -> bool {
    common_name(name) != name
        || matches!(name, "BeforeModel" | "AfterModel" | "BeforeToolSelection" | "Notification")
}

/// A tool call's outcome: whether it succeeded, its exit code, and the first line of its error.
pub(super) struct Outcome {
    pub ok: bool,
    pub exit_code: Option<i64>,
    pub error: Option<String>,
}

/// The outcome of the call `tool_response` answers; `shell`: the tool ran a shell command.
pub(super) fn outcome(response: Option<&Value>, shell: bool) -> Outcome {
    let error = response.and_then(|r| r.get("error")).filter(|e| !e.is_null());
    let error_text = error.map(|e| match e {
        Value::String(text) => text.clone(),
        other => other.get("message").and_then(Value::as_str).unwrap_or("error").to_string(),
    });
    let text = response.and_then(|r| r.get("llmContent")).and_then(Value::as_str).unwrap_or("");
    let mut exit_code = text.lines().find_map(|line| {
        let rest = line.trim().trim_start_matches('[').strip_prefix("Exit Code: ")?;
        rest.trim_end_matches(']').trim().parse::<i64>().ok()
    });
    // Cancelled or moved to the background: the command did not finish here.
    let unfinished = text.contains("Command was cancelled")
        || text.contains("Command was automatically cancelled")
        || text.contains("Command moved to background");
    if shell && exit_code.is_none() && error.is_none() && !unfinished && response.is_some() {
        exit_code = Some(0);
    }
    let cancelled = unfinished && !text.contains("Command moved to background");
    let first = |t: &str| t.lines().next().unwrap_or("").trim().to_string();
    Outcome {
        ok: error.is_none() && !cancelled && exit_code.is_none_or(|c| c == 0),
        exit_code,
        error: match (error_text, cancelled) {
            (Some(text), _) => Some(first(&text)),
            (None, true) => Some("cancelled".to_string()),
            (None, false) => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shell_outcomes() {
        let failed = json!({"llmContent": "<untrusted_context>\nOutput: 1 failed\nExit Code: 101\nProcess Group PGID: 9\n</untrusted_context>", "returnDisplay": ""});
        let o = outcome(Some(&failed), true);
        assert_eq!((o.ok, o.exit_code), (false, Some(101)));
        let passed = json!({"llmContent": "<untrusted_context>\nOutput: ok\nProcess Group PGID: 9\n</untrusted_context>"});
        let o = outcome(Some(&passed), true);
        assert_eq!((o.ok, o.exit_code), (true, Some(0)));
        let cancelled = json!({"llmContent": "Command was cancelled by user before it could complete. There was no output before it was cancelled."});
        let o = outcome(Some(&cancelled), true);
        assert_eq!((o.ok, o.exit_code, o.error.as_deref()), (false, None, Some("cancelled")));
        let broken = json!({"llmContent": "x", "error": {"message": "spawn failed\nmore", "type": "shell_execute_error"}});
        let o = outcome(Some(&broken), true);
        assert_eq!((o.ok, o.error.as_deref()), (false, Some("spawn failed")));
        let wrote = json!({"llmContent": "Successfully wrote", "returnDisplay": ""});
        assert!(outcome(Some(&wrote), false).ok);
        assert_eq!(outcome(Some(&wrote), false).exit_code, None);
    }
}
