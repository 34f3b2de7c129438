//! Reading a payload: its bytes as one JSON object, its fields by type with errors that name the
//! field, capping text, and finding a command's exit code in a tool response.

use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Value};

/// Caps, in characters.
pub(super) const CAP_COMMAND: usize = 1000;
pub(super) const CAP_TARGET: usize = 300;
pub(super) const CAP_ERROR: usize = 300;
pub(super) const CAP_TEXT: usize = 4000;
pub(super) const CAP_PROMPT: usize = 500;
pub(super) const CAP_NAME: usize = 100;
pub(super) const CAP_PATH: usize = 500;
pub(super) const MAX_PATHS: usize = 100;

/// Parses the payload bytes into a JSON object, with errors that say what is wrong.
pub fn parse_payload(bytes: &[u8]) -> Result<Map<String, Value>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        bail!("empty payload on stdin; a hook passes one JSON object");
    }
    let text = std::str::from_utf8(bytes).map_err(|err| {
        anyhow!(
            "the payload is not UTF-8 (bad byte at offset {}); send JSON text",
            err.valid_up_to()
        )
    })?;
    let value: Value = serde_json::from_str(text).map_err(|err| {
        anyhow!(
            "the payload is not valid JSON: {err} (line {}, column {}); send one JSON object",
            err.line(),
            err.column()
        )
    })?;
    match value {
        Value::Object(map) => Ok(map),
        other => {
            bail!("the payload is {}, not a JSON object; send one JSON object", type_name(&other))
        }
    }
}

/// `Exit code N` at the start of a tool error (Claude Code's Bash failures).
pub fn exit_code_in(text: &str) -> Option<i64> {
    let rest = text.trim_start().strip_prefix("Exit code")?;
    let rest = rest.trim_start_matches([':', ' ']);
    let digits: String =
        rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').take(12).collect();
    digits.parse().ok()
}

/// An exit code in a tool response: `exit_code`/`exitCode` (also under `metadata`), or a text
/// response that starts `Exit code: N` (Codex), or such an object encoded as a JSON string.
pub(super) fn exit_code_of_response(response: &Value) -> Option<i64> {
    match response {
        Value::Object(map) => ["exit_code", "exitCode", "returncode"]
            .iter()
            .find_map(|key| map.get(*key).and_then(Value::as_i64))
            .or_else(|| map.get("metadata").and_then(exit_code_of_response))
            // Copilot CLI's shell result: `resultType: "success"` whatever the command's status,
            // which is only in the text (`<shellId: 0 completed with exit code 1>`).
            .or_else(|| {
                ["text_result_for_llm", "textResultForLlm"]
                    .iter()
                    .find_map(|key| map.get(*key).and_then(Value::as_str))
                    .and_then(copilot_exit_code)
            }),
        Value::String(text) => {
            let trimmed = text.trim_start();
            let parsed = (trimmed.starts_with('{') && trimmed.len() < (1 << 20))
                .then(|| serde_json::from_str::<Value>(trimmed).ok())
                .flatten();
            if let Some(value) = parsed {
                return exit_code_of_response(&value);
            }
            exit_code_in(trimmed)
        }
        _ => None,
    }
}

/// The status in Copilot CLI's shell text: `<shellId: 0 completed with exit code 1>` (the last).
fn copilot_exit_code(text: &str) -> Option<i64> {
    let at = text.rfind("completed with exit code ")?;
    let digits: String =
        text[at + 25..].chars().take_while(|c| c.is_ascii_digit() || *c == '-').take(12).collect();
    digits.parse().ok()
}

/// Cuts `text` to at most `cap` characters, marking the cut with `…`.
pub fn capped(text: &str, cap: usize) -> String {
    match text.char_indices().nth(cap) {
        None => text.to_string(),
        Some((end, _)) => {
            let cut = text[..end].char_indices().nth(cap.saturating_sub(1)).map_or(end, |(i, _)| i);
            format!("{}…", &text[..cut])
        }
    }
}

pub(super) fn str_field<'a>(map: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(other) => Err(wrong_type(key, other, "a string")),
    }
}

pub(super) fn bool_field(map: &Map<String, Value>, key: &str) -> Result<Option<bool>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(wrong_type(key, other, "true or false")),
    }
}

pub(super) fn obj_field<'a>(
    map: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a Map<String, Value>>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(obj)) => Ok(Some(obj)),
        Some(other) => Err(wrong_type(key, other, "an object")),
    }
}

pub(super) fn wrong_type(key: &str, value: &Value, expected: &str) -> anyhow::Error {
    anyhow!("payload field `{key}` is {}, expected {expected}", type_name(value))
}

pub(super) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_on_character_boundaries() {
        assert_eq!(capped("héllo", 10), "héllo");
        assert_eq!(capped("héllo", 3), "hé…");
        assert_eq!(capped("日本語テキスト", 4), "日本語…");
        assert_eq!(capped("", 0), "");
    }

    #[test]
    fn exit_codes() {
        assert_eq!(exit_code_in("Exit code 101\nerror: test failed"), Some(101));
        assert_eq!(exit_code_in("Exit code: 2"), Some(2));
        assert_eq!(exit_code_in("File not found"), None);
        let response = serde_json::json!({"output": "x", "metadata": {"exit_code": 1}});
        assert_eq!(exit_code_of_response(&response), Some(1));
        let text = Value::String("{\"output\":\"\",\"metadata\":{\"exit_code\":3}}".into());
        assert_eq!(exit_code_of_response(&text), Some(3));
    }
}
