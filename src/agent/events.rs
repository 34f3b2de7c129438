//! The event log: `<git dir>/handoff/events.jsonl`, one normalized event per line.
//!
//! Writers append one whole line with a single `write` on a file opened for appending, while
//! holding an exclusive advisory lock on it, so concurrent hooks never interleave. A crash can
//! still leave a torn last line; the next append first ends it with a newline, so the next event
//! is never glued to the wreck, and readers skip any line that is not a whole event. Appending
//! never reads the log (only its last byte), so it costs the same at any size.
//!
//! Every string an event holds has been redacted ([`crate::model::redact`]) and capped by the recorder.

use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// The version of the line format, written as `v`.
pub const FORMAT: u32 = 1;

/// Lines longer than this are not events (ours are far shorter); readers skip them.
pub const MAX_LINE: usize = 1 << 20;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A tool is about to run (PreToolUse).
    ToolStart,
    /// A tool ran; `ok` says whether it succeeded (PostToolUse, PostToolUseFailure).
    ToolResult,
    /// The agent ended its turn (Stop); `text` holds its last message.
    Stop,
    /// A subagent finished (SubagentStop).
    SubagentStop,
    /// The turn ended on an API error (Claude Code's StopFailure): `error` holds its kind
    /// (`rate_limit`, `server_error` ...), `text` its message.
    StopFailure,
    SessionStart,
    SessionEnd,
    PreCompact,
    /// The user sent a prompt (UserPromptSubmit).
    Prompt,
    /// An event this version does not interpret; `event` names it.
    Other,
}

/// One line of the log. Field names are short but readable; absent fields are left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event<'a> {
    pub v: u32,
    /// RFC 3339 UTC, seconds.
    #[serde(borrow)]
    pub at: Cow<'a, str>,
    pub kind: Kind,
    /// `claude`, `codex` or `generic`.
    #[serde(borrow)]
    pub agent: Cow<'a, str>,
    /// The runtime's own event name (`PostToolUseFailure`).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub event: Option<Cow<'a, str>>,
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub tool: Option<Cow<'a, str>>,
    /// Short: a repository-relative path, the shell command, the skill name.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub target: Option<Cow<'a, str>>,
    /// The runtime's id of the tool call, to pair a start with its result.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub id: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    /// The first line of the error, for failed tools.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub error: Option<Cow<'a, str>>,
    /// Files the tool edits, relative to the top of the work tree.
    #[serde(default, borrow, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<Cow<'a, str>>,
    /// Assistant text (Stop), the prompt (UserPromptSubmit), the source or reason of a session event.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub text: Option<Cow<'a, str>>,
    /// True for events from a subagent (not the main thread).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sub: bool,
    /// The runtime's session id (`session_id` of the payload): the emergency note's pointer to
    /// the session's transcript.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub session: Option<Cow<'a, str>>,
}

impl Event<'_> {
    /// The event as one JSON line, newline included.
    pub fn to_line(&self) -> Result<Vec<u8>> {
        let mut line = serde_json::to_vec(self).context("serialising an event")?;
        line.push(b'\n');
        Ok(line)
    }
}

/// Appends one line to the log at `path` under an exclusive lock, creating the file if needed.
/// A torn last line (no final newline) is ended first, in the same write.
pub fn append(path: &Path, line: &[u8]) -> Result<()> {
    let file = open_locked(path)?;
    append_locked(&file, path, line)
}

/// [`append`], unless the log's last event is `line`'s event again (`same` judges it): a hook
/// retried after a kill, which had already written it, writes it once. True when appended.
pub fn append_once(path: &Path, line: &[u8], same: impl Fn(&Event<'_>) -> bool) -> Result<bool> {
    let file = open_locked(path)?;
    if last_event_is(&file, same) {
        return Ok(false);
    }
    append_locked(&file, path, line)?;
    Ok(true)
}

/// Whether the last complete line of the log `file` is an event `same` accepts (read from the
/// file's last 64 KiB).
fn last_event_is(file: &File, same: impl Fn(&Event<'_>) -> bool) -> bool {
    const TAIL: u64 = 64 << 10;
    let Ok(len) = file.metadata().map(|m| m.len()) else { return false };
    let from = len.saturating_sub(TAIL);
    let mut tail = vec![0; (len - from) as usize];
    if file.read_exact_at(&mut tail, from).is_err() {
        return false;
    }
    let Some(body) = tail.strip_suffix(b"\n") else { return false };
    let last = match body.iter().rposition(|&b| b == b'\n') {
        Some(at) => &body[at + 1..],
        None if from == 0 => body,
        None => return false,
    };
    serde_json::from_slice::<Event<'_>>(last).is_ok_and(|event| same(&event))
}

/// Opens the log for appending and takes its exclusive lock (released when the file is dropped).
/// `start` archives a log by renaming it under this same lock: a writer that opened the old file
/// just before sees, once it holds the lock, that the path names another file, and starts over
/// on the new log, so its event lands in the attempt it belongs to.
pub fn open_locked(path: &Path) -> Result<File> {
    use std::os::unix::fs::MetadataExt;
    loop {
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .with_context(|| format!("{}: cannot open the event log", path.display()))?;
        file.lock().with_context(|| format!("{}: cannot lock the event log", path.display()))?;
        let held = file.metadata().with_context(|| format!("{}: cannot stat", path.display()))?;
        match std::fs::metadata(path) {
            Ok(now) if now.ino() == held.ino() && now.dev() == held.dev() => return Ok(file),
            _ => continue,
        }
    }
}

/// Appends `line` to a log opened by [`open_locked`].
pub fn append_locked(mut file: &File, path: &Path, line: &[u8]) -> Result<()> {
    let len = file.metadata().with_context(|| format!("{}: cannot stat", path.display()))?.len();
    let mut last = [b'\n'];
    if len > 0 {
        file.read_exact_at(&mut last, len - 1)
            .with_context(|| format!("{}: cannot read its last byte", path.display()))?;
    }
    let whole: Cow<'_, [u8]> = if last[0] == b'\n' {
        Cow::Borrowed(line)
    } else {
        let mut fixed = Vec::with_capacity(line.len() + 1);
        fixed.push(b'\n');
        fixed.extend_from_slice(line);
        Cow::Owned(fixed)
    };
    file.write_all(&whole).with_context(|| format!("{}: cannot append an event", path.display()))
}

/// Reads the log line by line with bounded memory, handing each well-formed event to `each`.
/// Returns how many lines were skipped as torn or malformed. A missing log holds no events.
pub fn for_each(path: &Path, mut each: impl FnMut(Event<'_>)) -> Result<u64> {
    // Read as a stream, each line capped: a log of any length costs time in proportion, never
    // more memory than a line. A FIFO or a device in its place is refused at once.
    let Some(file) = crate::util::fs::open_regular_if_any(path, "the event log")? else {
        return Ok(0);
    };
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut line = Vec::with_capacity(1024);
    let mut skipped = 0;
    loop {
        line.clear();
        let (read, complete) = read_line_capped(&mut reader, &mut line)
            .with_context(|| format!("{}: cannot read the event log", path.display()))?;
        if read == 0 {
            break;
        }
        let body = line.strip_suffix(b"\n").unwrap_or(&line);
        if body.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if !complete {
            skipped += 1;
            continue;
        }
        match serde_json::from_slice::<Event<'_>>(body) {
            Ok(event) => each(event),
            Err(_) => skipped += 1,
        }
    }
    Ok(skipped)
}

/// Reads one line into `buf`, keeping at most [`MAX_LINE`] bytes of it. Returns the bytes read and
/// whether the line was kept whole (false when it was cut; the rest of it is skipped).
fn read_line_capped(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<(usize, bool)> {
    let read = reader.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if read <= MAX_LINE || buf.ends_with(b"\n") {
        return Ok((read, true));
    }
    let rest = reader.skip_until(b'\n')?;
    Ok((read + rest, false))
}

/// Reads at most `limit` bytes of `input`; `None` when there was more.
pub fn read_bounded(input: impl Read, limit: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::new();
    input.take(limit as u64 + 1).read_to_end(&mut buf)?;
    Ok(if buf.len() > limit { None } else { Some(buf) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(target: &str) -> Event<'static> {
        Event {
            v: FORMAT,
            at: "2026-11-30T03:48:52Z".into(),
            kind: Kind::ToolResult,
            agent: "claude".into(),
            event: None,
            tool: Some("Bash".into()),
            target: Some(target.to_string().into()),
            id: None,
            ok: Some(true),
            exit_code: None,
            error: None,
            paths: Vec::new(),
            text: None,
            sub: false,
            session: None,
        }
    }

    #[test]
    fn torn_lines_are_ended_and_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        append(&path, &event("a").to_line().unwrap()).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"v\":1,\"at\":\"2026")
            .unwrap();
        append(&path, &event("b").to_line().unwrap()).unwrap();
        let mut seen = Vec::new();
        let skipped = for_each(&path, |e| seen.push(e.target.unwrap().into_owned())).unwrap();
        assert_eq!(seen, ["a", "b"]);
        assert_eq!(skipped, 1);
    }

    #[test]
    fn overlong_lines_are_skipped_with_bounded_memory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let mut bytes = vec![b'x'; 3 * MAX_LINE];
        bytes.push(b'\n');
        bytes.extend(event("after").to_line().unwrap());
        std::fs::write(&path, bytes).unwrap();
        let mut seen = Vec::new();
        let skipped = for_each(&path, |e| seen.push(e.target.unwrap().into_owned())).unwrap();
        assert_eq!(seen, ["after"]);
        assert_eq!(skipped, 1);
    }

    #[test]
    fn round_trips_escaped_text() {
        let e = event("echo \"quoted\" \\ ünï\ttab");
        let line = e.to_line().unwrap();
        let back: Event<'_> = serde_json::from_slice(&line).unwrap();
        assert_eq!(back, e);
    }
}
