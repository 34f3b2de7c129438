//! A shell call's exit code read from the agent's own transcript, for the runtimes whose
//! `PostToolUse` payload carries the command's output but not its status (Codex 0.171: the
//! payload's `tool_response` is the output text, while the rollout file named by
//! `transcript_path` already holds the finished call by the time the hook runs).
//!
//! `record` runs on every tool call, so only the file's tail is read: the last [`TAIL`] bytes, and
//! when the call is not in their whole lines, the line they start inside, read back to its start
//! (a finished call's line carries up to about 64 KiB of the command's output, escaped), never
//! more than [`WIDE_TAIL`] bytes in all. Lines are searched from the end, and only a line naming
//! the call's id is parsed. Codex writes the finished call as
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
/// The most that is read back from the end.
pub const WIDE_TAIL: u64 = 512 << 10;

/// The exit code the transcript at `path` records for the call `call_id` (or, without an id, for
/// the last call it records finished); `None` when the tail holds none, or the file cannot be read.
pub fn exit_code(path: &Path, call_id: Option<&str>) -> Option<i64> {
    // Only a regular file, checked on the opened descriptor: a FIFO or device named by a
    // payload must not stall the hook.
    let mut file = crate::util::fs::open_regular(path, "the transcript").ok()?;
    let len = file.metadata().ok()?.len();
    let start = len.saturating_sub(TAIL);
    let tail = read_range(&mut file, start, len)?;
    if start == 0 {
        return exit_code_in_lines(&tail, call_id);
    }
    // The window starts inside a line: the whole lines after it first.
    let cut = memchr::memchr(b'\n', &tail).unwrap_or(tail.len());
    if let Some(code) = tail.get(cut + 1..).and_then(|rest| exit_code_in_lines(rest, call_id)) {
        return Some(code);
    }
    // Then that line, read back to its start: a finished call's line carries up to about 64 KiB
    // of the command's output, and it is usually the one the window cut.
    let mut line = tail[..cut].to_vec();
    let mut pos = start;
    loop {
        if pos == 0 {
            break;
        }
        if len - pos >= WIDE_TAIL {
            return None;
        }
        let from = pos.saturating_sub(TAIL);
        let chunk = read_range(&mut file, from, pos)?;
        let (head, found) = match memchr::memrchr(b'\n', &chunk) {
            Some(at) => (&chunk[at + 1..], true),
            None => (&chunk[..], false),
        };
        line.splice(0..0, head.iter().copied());
        pos = from;
        if found {
            break;
        }
    }
    exit_code_in_lines(&line, call_id)
}

/// The bytes of `file` from `start` to `end`.
fn read_range(file: &mut std::fs::File, start: u64, end: u64) -> Option<Vec<u8>> {
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::with_capacity((end - start) as usize);
    file.take(end - start).read_to_end(&mut bytes).ok()?;
    Some(bytes)
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

    /// A file of short lines, then the call's line with `output` bytes of output in it, then a
    /// short line.
    fn transcript(output: usize) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let short =
            r#"{"type":"response_item","payload":{"type":"function_call","call_id":"call_1"}}"#;
        let mut text = format!("{short}\n").repeat(3000);
        text.push_str(&format!(
            r#"{{"type":"event_msg","payload":{{"type":"item_completed","item":{{"type":"CommandExecution","id":"call_1","aggregated_output":"{}","exit_code":101}}}}}}"#,
            "x".repeat(output)
        ));
        text.push_str("\n{\"type\":\"token_count\"}\n");
        std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
        file
    }

    #[test]
    fn a_long_line_is_read_back_to_its_start_within_the_bound() {
        for output in [10, 70_000, 200_000, 400_000] {
            let file = transcript(output);
            assert_eq!(exit_code(file.path(), Some("call_1")), Some(101), "{output}");
            assert_eq!(exit_code(file.path(), Some("call_2")), None);
        }
        let file = transcript(WIDE_TAIL as usize);
        assert_eq!(exit_code(file.path(), Some("call_1")), None, "beyond the bound");
        assert_eq!(exit_code(Path::new("/nonexistent/rollout.jsonl"), None), None);
        assert_eq!(exit_code(Path::new("/dev/null"), None), None);
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
