//! What the emergency note is written from: the facts the caller gathered from git, the event log
//! and the runtime ([`Input`]), and how each tool call ended.

use super::facts::Facts;

/// How a tool call ended, as far as the log knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallEnd {
    Ok,
    Error,
    /// It started (PreToolUse) and no result came: it was running when the session ended.
    DidNotFinish,
}

impl CallEnd {
    pub fn of(ok: Option<bool>) -> CallEnd {
        match ok {
            Some(true) => CallEnd::Ok,
            Some(false) => CallEnd::Error,
            None => CallEnd::DidNotFinish,
        }
    }
}

/// One tool call of the activity trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    pub name: String,
    pub target: Option<String>,
    pub end: CallEnd,
}

/// The last check-command call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckCall {
    pub command: String,
    pub end: CallEnd,
    pub exit_code: Option<i64>,
}

/// Everything the emergency note is rendered from.
#[derive(Debug, Clone, Default)]
pub struct Input {
    pub issue: u64,
    pub started_at: String,
    pub reason: String,
    pub last_work_commit: String,
    pub written_at: String,
    /// `git diff --stat <base>..<seal or HEAD>` as git printed it, and the range.
    pub diff_stat: String,
    pub diff_range: String,
    /// `git log --oneline <base>..HEAD` as git printed it, and the range.
    pub log: String,
    pub log_range: String,
    /// The seal commit and the files it committed.
    pub seal: Option<(String, Vec<String>)>,
    /// With no seal yet: the uncommitted files a seal would commit.
    pub not_sealed: Vec<String>,
    /// Files a seal left out (`path — why`), still uncommitted.
    pub left_out: Vec<String>,
    /// Seconds from started_at to the note, when the runtime gave no elapsed time.
    pub elapsed_seconds: Option<f64>,
    pub files_edited: Vec<String>,
    pub last_assistant_text: Option<String>,
    pub handoff_skill: Option<bool>,
    /// The last tool calls (at most [`super::MAX_CALLS`] are shown), and how many the log holds.
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_total: u64,
    pub last_check: Option<CheckCall>,
    pub turns: Option<u64>,
    /// The API error the last turn ended on (`rate_limit: 429: ...`), from the event log.
    pub ended_on_error: Option<String>,
    /// The session id the hook payloads carried, when the facts name none.
    pub session_id: Option<String>,
    pub facts: Facts,
    /// Where the attempt's event log will stay: the archive the next `start` moves it to.
    pub log_dir: Option<String>,
    /// The note the agent began and left uncommitted, kept verbatim.
    pub draft: Option<String>,
    /// The progress plan's status line and every item with its status, if a plan exists.
    pub plan_status: Option<String>,
    pub plan_items: Vec<String>,
}
