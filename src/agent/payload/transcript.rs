//! A shell call's exit code read from the agent's own transcript, for the runtimes whose
//! `PostToolUse` payload carries the command's output but not its status (Codex 0.171: the
//! payload's `tool_response` is the output text, while the rollout file named by
//! `transcript_path` already holds the finished call by the time the hook runs).
//!
//! `record` runs on every tool call, so only the file's tail is read: the last [`TAIL`] bytes,
//! and once more the last [`WIDE_TAIL`] when the call's line did not fit (a line carries up to
//! about 64 KiB of the command's output, escaped). Lines are searched from the end, and only a
//! line naming the call's id is parsed. Codex writes the finished call as
//!
//! ```json
//! {"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution",
//!  "id":"call_0","status":"failed","exit_code":3,...}}}
//! ```
//!
//! and earlier versions as an `exec_command_end` event (`call_id`, `exit_code`) or only in the
//! `function_call_output` text (`Process exited with code N`, `Exit code: N`); all are understood.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

use super::fields::exit_code_of_response;

/// How much of the transcript's end is read first.
pub const TAIL: u64 = 64 << 10;
/// How much is read when the first read did not hold the call's whole line.
pub const WIDE_TAIL: u64 = 512 << 10;

/// The exit code the transcript at `path` records for the call `call_id` (or, without an id, for
/// the last call it records finished); `None` when the tail holds none, or the file cannot be read.
pub fn exit_code(path: &Path, call_id: Option<&str>) -> Option<i64> {
    // Only a regular file: a FIFO or device named by a payload must not stall the hook.
    let len = std::fs::metadata(path).ok().filter(|m| m.is_file())?.len();
    let mut file = std::fs::File::open(path).ok()?;
    for window in [TAIL, WIDE_TAIL] {
        let start = len.saturating_sub(window);
        let tail = read_from(&mut file, start)?;
        // A window that starts inside a line holds that line only in part: it is skipped.
        let whole = if start == 0 { &tail[..] } else { after_first_newline(&tail) };
        if let Some(code) = exit_code_in_lines(whole, call_id) {
            return Some(code);
        }
        if start == 0 {
            break;
        }
    }
    None
}

fn read_from(file: &mut std::fs::File, start: u64) -> Option<Vec<u8>> {
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    file.take(WIDE_TAIL).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

fn after_first_newline(bytes: &[u8]) -> &[u8] {
    match memchr::memchr(b'\n', bytes) {
        Some(at) => &bytes[at + 1..],
        None => &[],
    }
}

/// The exit code of the call in the last line that records one, searching from the end.
fn exit_code_in_lines(bytes: &[u8], call_id: Option<&str>) -> Option<i64> {
    let quoted = call_id.map(|id| serde_json::to_string(id).unwrap_or_default());
    for line in bytes.rsplit(|&b| b == b'\n') {
        let mentions = match &quoted {
            Some(id) => memchr::memmem::find(line, id.as_bytes()).is_some(),
            None => memchr::memmem::find(line, b"exit_code").is_some(),
        };
        if !mentions {
            continue;
        }
        let Ok(value) = serde_json::from_slice::<Value>(line) else { continue };
        if let Some(code) = find(&value, call_id, 0) {
            return Some(code);
        }
    }
    None
}

/// The exit code in the object for the call (by `id` or `call_id`) somewhere inside `value`.
fn find(value: &Value, call_id: Option<&str>, depth: usize) -> Option<i64> {
    if depth > 8 {
        return None;
    }
    match value {
        Value::Object(map) => {
            let id = ["call_id", "id"].iter().find_map(|k| map.get(*k).and_then(Value::as_str));
            if call_id.is_none_or(|want| id == Some(want)) {
                if let Some(code) = map.get("exit_code").and_then(Value::as_i64) {
                    return Some(code);
                }
                let output = map.get("output").filter(|_| {
                    map.get("type").and_then(Value::as_str) == Some("function_call_output")
                });
                if let Some(code) = output.and_then(exit_code_of_output) {
                    return Some(code);
                }
            }
            map.values().find_map(|v| find(v, call_id, depth + 1))
        }
        Value::Array(items) => items.iter().find_map(|v| find(v, call_id, depth + 1)),
        _ => None,
    }
}

/// The status in a shell call's output text: `Process exited with code N` in its header, or
/// what [`exit_code_of_response`] finds (an `Exit code: N` start, JSON with `exit_code`).
fn exit_code_of_output(output: &Value) -> Option<i64> {
    if let Some(text) = output.as_str() {
        let header = text.lines().take(8);
        for line in header {
            if let Some(rest) = line.trim().strip_prefix("Process exited with code ") {
                return rest.trim().parse().ok();
            }
        }
    }
    exit_code_of_response(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Option<i64> {
        exit_code_in_lines(text.as_bytes(), Some("call_1"))
    }

    #[test]
    fn finds_the_call_by_its_id_from_the_end() {
        let item = |id: &str, code: i64| {
            format!(
                r#"{{"type":"event_msg","payload":{{"type":"item_completed","item":{{"type":"CommandExecution","id":"{id}","exit_code":{code}}}}}}}"#
            )
        };
        let text = [item("call_1", 101), item("call_2", 0)].join("\n");
        assert_eq!(lines(&text), Some(101));
        assert_eq!(exit_code_in_lines(text.as_bytes(), None), Some(0));
        assert_eq!(lines(&item("call_11", 4)), None, "another call whose id starts the same");
        let started = r#"{"item":{"id":"call_1","exit_code":null,"status":"in_progress"}}"#;
        assert_eq!(lines(started), None);
        let end = r#"{"type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_1","exit_code":2}}"#;
        assert_eq!(lines(end), Some(2));
        let output = r#"{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 7\nOutput:\n"}}"#;
        assert_eq!(lines(output), Some(7));
        let old = r#"{"payload":{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"\",\"metadata\":{\"exit_code\":5}}"}}"#;
        assert_eq!(lines(old), Some(5));
        assert_eq!(lines("not json \"call_1\" exit_code"), None);
    }
}
