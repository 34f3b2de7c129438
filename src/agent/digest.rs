//! The digest: facts recomputed from the event log every time, the ground truth a handoff note is
//! checked against. One streaming pass over the log with bounded memory (the last calls are kept in
//! a ring, the edited paths in a set of distinct paths).
//!
//! Definitions, so notes, recall and the emergency note read the same facts:
//! - **tool call**: a tool's result (PostToolUse, PostToolUseFailure, generic `tool`), or a start
//!   (PreToolUse) whose result never came; a start and its result (same id) are one call. The
//!   handoff's own calls are not the session's work and are not counted (nor their errors, edits
//!   or checks): its agent tools (`mcp__git-handoff__handoff_note` ...), a shell call that only
//!   runs `git handoff ...` (or commits the note with plain git), and edits of its own files.
//! - **error**: a tool result that failed.
//! - **files edited**: repository-relative paths of successful Edit/Write/MultiEdit/NotebookEdit
//!   (and Codex `apply_patch`) calls, sorted; the handoff's own files (notes under the note
//!   directory, the progress file) are not work and are left out.
//! - **last check**: the last shell call that runs a configured check ([`crate::model::checks`]), with
//!   its ok/exit code and whether that status is readable. A check that started but never reported
//!   is not readable and not ok: it "did not finish". The checks are also kept by kind (test, build,
//!   lint) and by command ([`checks`]).
//! - **session id**: the `session_id` the last main-thread payload carried.
//! - **handoff skill**: the Skill tool called with skill `handoff` on the main thread, or one of
//!   the handoff's agent tools (`mcp__git-handoff__handoff_note` ...).
//! - **turns**: stretches of main-thread activity, each begun by a prompt or by the first event after
//!   a Stop, and ended by Stop.
//! - **last assistant text**: the text of the last main-thread Stop that carried one.
//!
//! The checks the log saw are kept by its child [`checks`].

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::agent::attempt::{Attempt, EVENTS_FILE};
use crate::agent::events::{self, Event, Kind};
use crate::agent::payload::is_shell;
use crate::git::repo::Repo;
use crate::model::checks::{CheckRun, Checks};
use crate::model::claims::{Evidence, Judged};
use crate::model::config::Config;
use crate::model::markdown::count;
use crate::model::verdict::CheckKind;

mod checks;
mod ended;
mod own;

pub use checks::LastCheck;
pub use ended::EndedOnError;
pub use own::{INSTALLED, OwnFiles};
use own::{is_handoff_command, is_handoff_skill, is_handoff_tool};

/// How many recent tool calls the digest keeps.
pub const RECENT_CALLS: usize = 15;

/// Starts without a result are remembered this long (by id) to pair them with their result.
const PENDING_WINDOW: usize = 256;

/// Distinct shell commands whose check is remembered (the memory stays bounded).
const CHECK_CACHE: usize = 1024;

/// The digest, as `digest --json` prints it (the spec's keys first).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Digest {
    pub files_edited: Vec<String>,
    pub tool_calls: u64,
    pub errors: u64,
    pub last_check: Option<LastCheck>,
    pub last_assistant_text: Option<String>,
    pub handoff_skill: bool,
    pub turns: u64,
    pub first_event_at: Option<String>,
    pub last_event_at: Option<String>,
    /// The `session_id` of the runtime's session, from the hook payloads.
    pub session_id: Option<String>,
    /// The last run of each check command, least recently run first (the quality gates).
    pub checks: Vec<LastCheck>,
    /// The checks as claims are judged by them.
    #[serde(skip)]
    pub runs: Judged,
    /// The last [`RECENT_CALLS`] tool calls, oldest first.
    pub recent_calls: Vec<Call>,
    /// The shell call of the last check, in full.
    pub last_check_call: Option<Call>,
    /// True when `record` began the attempt because no `git handoff start` ran.
    pub implicit_attempt: bool,
    /// Torn or malformed lines that were skipped.
    pub skipped_lines: u64,
    /// The API error the session's last turn ended on (Claude Code's StopFailure), unless a turn
    /// ended normally after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_on_error: Option<EndedOnError>,
}

/// One tool call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Call {
    pub name: String,
    pub target: Option<String>,
    /// `None` while no result was recorded.
    pub ok: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub at: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub subagent: bool,
    #[serde(skip)]
    id: Option<String>,
}

impl Digest {
    /// The one-line digest: `1 file edited · last `cargo test` failed · 12 tool calls, 3 errors`.
    pub fn line(&self) -> String {
        format!(
            "{} edited · {} · {}, {}",
            count(self.files_edited.len() as u64, "file", "files"),
            self.check_phrase(),
            count(self.tool_calls, "tool call", "tool calls"),
            count(self.errors, "error", "errors")
        )
    }

    /// `last `cargo test` failed`, `... passed`, `... unreadable (exit status masked)`,
    /// `... did not finish`, or `no check run`.
    pub fn check_phrase(&self) -> String {
        match &self.last_check {
            None => "no check run".to_string(),
            Some(check) => format!("last `{}` {}", check.command, check.outcome().phrase()),
        }
    }
}

impl Digest {
    /// The evidence claims are checked against (the work tree's tops left for the caller).
    pub fn evidence(&self) -> Evidence {
        Evidence {
            files_edited: self.files_edited.clone(),
            tool_calls: self.tool_calls,
            tops: Vec::new(),
            runs: self.runs.clone(),
        }
    }
}

/// The digest of this worktree's attempt: its event log and whether the attempt is implicit.
pub fn for_repo(repo: &Repo, config: &Config) -> Result<Digest> {
    let dir = repo.handoff_dir();
    let mut digest = compute(&dir.join(EVENTS_FILE), config)?;
    // A broken attempt state does not stop the digest; commands that need the attempt say so.
    digest.implicit_attempt = Attempt::load(repo).ok().flatten().is_some_and(|a| a.implicit());
    Ok(digest)
}

/// The digest of the log at `path` (a missing log is an empty one).
pub fn compute(path: &Path, config: &Config) -> Result<Digest> {
    let mut builder = Builder::new(Checks::new(config)).ignoring(OwnFiles::of(config));
    let skipped = events::for_each(path, |event| builder.add(&event))?;
    let mut digest = builder.finish();
    digest.skipped_lines = skipped;
    Ok(digest)
}

/// Folds events into a digest, one at a time.
pub struct Builder {
    checks: Checks,
    seen: checks::Seen,
    /// The handoff's own files, which are not work: the note directory and the progress file.
    own_files: OwnFiles,
    digest: Digest,
    files: BTreeSet<String>,
    recent: VecDeque<Call>,
    pending: VecDeque<String>,
    in_turn: bool,
    last_at: String,
    check_cache: HashMap<String, Option<CheckRun>>,
    spare: Option<Call>,
}

impl Builder {
    pub fn new(checks: Checks) -> Builder {
        Builder {
            checks,
            seen: checks::Seen::default(),
            own_files: OwnFiles::default(),
            digest: Digest::default(),
            files: BTreeSet::new(),
            recent: VecDeque::with_capacity(RECENT_CALLS + 1),
            pending: VecDeque::new(),
            in_turn: false,
            last_at: String::new(),
            check_cache: HashMap::new(),
            spare: None,
        }
    }

    /// Leaves the handoff's own files (see [`OwnFiles`]) out of the files edited.
    pub fn ignoring(mut self, own_files: OwnFiles) -> Builder {
        self.own_files = own_files;
        self
    }

    pub fn add(&mut self, event: &Event<'_>) {
        if self.digest.first_event_at.is_none() {
            self.digest.first_event_at = Some(event.at.to_string());
        }
        if !event.sub
            && let Some(session) = event.session.as_deref().filter(|s| !s.is_empty())
            && self.digest.session_id.as_deref() != Some(session)
        {
            self.digest.session_id = Some(session.to_string());
        }
        self.last_at.clear();
        self.last_at.push_str(&event.at);
        match event.kind {
            Kind::ToolStart | Kind::ToolResult => self.tool(event),
            Kind::Stop if !event.sub => {
                if !self.in_turn {
                    self.digest.turns += 1;
                }
                self.in_turn = false;
                self.digest.ended_on_error = None;
                if let Some(text) = &event.text {
                    self.digest.last_assistant_text = Some(text.to_string());
                }
            }
            // The abrupt end: the end reason's fact, never a tool failure.
            Kind::StopFailure if !event.sub => {
                self.in_turn = false;
                self.digest.ended_on_error = Some(EndedOnError {
                    kind: event.error.as_deref().unwrap_or("unknown").to_string(),
                    message: event.text.as_deref().map(str::to_string),
                    at: event.at.to_string(),
                });
            }
            Kind::Prompt if !event.sub => {
                self.digest.turns += 1;
                self.in_turn = true;
            }
            Kind::SessionStart | Kind::SessionEnd => self.in_turn = false,
            _ => {}
        }
    }

    fn tool(&mut self, event: &Event<'_>) {
        if !event.sub && !self.in_turn {
            self.digest.turns += 1;
            self.in_turn = true;
        }
        let name = event.tool.as_deref().unwrap_or("unknown");
        let target = event.target.as_deref();
        let is_result = event.kind == Kind::ToolResult;
        let skill = name == "Skill" && target.is_some_and(is_handoff_skill);
        if !event.sub && (skill || is_handoff_tool(name)) {
            self.digest.handoff_skill = true;
        }
        let check = match target {
            Some(command) if is_shell(name) => self.find_check(command),
            _ => None,
        };
        // The handoff's own calls (its agent tools, `git handoff ...`, the note's Write) are not
        // the session's work: no tool call, edit or check.
        if is_handoff_tool(name)
            || (check.is_none() && is_shell(name) && target.is_some_and(is_handoff_command))
            || (!event.paths.is_empty() && event.paths.iter().all(|p| self.own_files.holds(p)))
        {
            return;
        }
        // The call that just left the ring lends its buffers: no allocation per event.
        let mut call = self.spare.take().unwrap_or_default();
        set(&mut call.name, name);
        set_opt(&mut call.target, target);
        call.ok = if is_result { Some(event.ok.unwrap_or(true)) } else { None };
        call.exit_code = event.exit_code;
        set_opt(&mut call.error, event.error.as_deref());
        set(&mut call.at, &event.at);
        call.subagent = event.sub;
        // A start and its result are one call: paired by the call id where the agent sends one,
        // else (Gemini CLI) by session, tool and arguments, the oldest start first.
        match event.id.as_deref() {
            Some(id) => set_opt(&mut call.id, Some(id)),
            None => {
                let session = event.session.as_deref().unwrap_or_default();
                let key = format!("\u{1}{session}\u{1}{name}\u{1}{}", target.unwrap_or_default());
                call.id = Some(key);
            }
        }
        if let Some(run) = check {
            let ok = is_result && call.ok == Some(true);
            // A failure of `cargo build && cargo test` may be the build's: it is the chain's.
            let command = match run.chain {
                Some(chain) if is_result && !ok => chain,
                _ => run.command.clone(),
            };
            let kind = CheckKind::of_command(&run.command);
            let check = LastCheck {
                command,
                ok,
                exit_code: if is_result { call.exit_code } else { None },
                readable: is_result && run.readable,
                kind,
                finished: is_result,
            };
            self.seen.add(&run.command, check);
            self.digest.last_check_call = Some(call.clone());
        }
        if is_result {
            self.result(call, event);
        } else {
            self.digest.tool_calls += 1;
            if let Some(id) = &call.id {
                self.pending.push_back(id.clone());
                if self.pending.len() > PENDING_WINDOW {
                    self.pending.pop_front();
                }
            }
            self.push_recent(call);
        }
    }

    /// The check a shell command runs, remembered: sessions repeat the same commands.
    fn find_check(&mut self, command: &str) -> Option<CheckRun> {
        if let Some(known) = self.check_cache.get(command) {
            return known.clone();
        }
        let found = self.checks.find(command);
        if self.check_cache.len() >= CHECK_CACHE {
            self.check_cache.clear();
        }
        self.check_cache.insert(command.to_string(), found.clone());
        found
    }

    fn result(&mut self, call: Call, event: &Event<'_>) {
        if call.ok == Some(false) {
            self.digest.errors += 1;
        } else {
            for path in &event.paths {
                if !self.files.contains(path.as_ref()) && !self.own_files.holds(path) {
                    self.files.insert(path.to_string());
                }
            }
        }
        let started = call
            .id
            .as_ref()
            .and_then(|id| self.pending.iter().position(|p| p == id))
            .map(|at| self.pending.remove(at));
        if started.is_none() {
            self.digest.tool_calls += 1;
            self.push_recent(call);
            return;
        }
        match self.recent.iter_mut().find(|c| c.ok.is_none() && c.id.is_some() && c.id == call.id) {
            Some(entry) => *entry = call,
            None => self.push_recent(call),
        }
    }

    fn push_recent(&mut self, call: Call) {
        self.recent.push_back(call);
        if self.recent.len() > RECENT_CALLS {
            self.spare = self.recent.pop_front();
        }
    }

    pub fn finish(mut self) -> Digest {
        if self.digest.first_event_at.is_some() {
            self.digest.last_event_at = Some(self.last_at);
        }
        self.digest.files_edited = self.files.into_iter().collect();
        self.digest.recent_calls = self.recent.into_iter().collect();
        self.digest.last_check = self.seen.last.take();
        self.digest.runs = std::mem::take(&mut self.seen.runs);
        self.digest.checks = self.seen.by_command();
        self.digest
    }
}

fn set(buffer: &mut String, text: &str) {
    buffer.clear();
    buffer.push_str(text);
}

fn set_opt(buffer: &mut Option<String>, text: Option<&str>) {
    match (buffer.as_mut(), text) {
        (Some(existing), Some(text)) => set(existing, text),
        (_, text) => *buffer = text.map(str::to_string),
    }
}

#[cfg(test)]
mod tests;
