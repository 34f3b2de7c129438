//! The digest: facts recomputed from the event log every time, the ground truth a handoff note is
//! checked against. One streaming pass over the log with bounded memory (the last calls are kept in
//! a ring, the edited paths in a set of distinct paths).
//!
//! Definitions, so notes, recall and the emergency note read the same facts:
//! - **tool call**: a tool's result (PostToolUse, PostToolUseFailure, generic `tool`), or a start
//!   (PreToolUse) whose result never came; a start and its result (same id) are one call.
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
use crate::model::config::Config;
use crate::model::markdown::count;
use crate::model::verdict::CheckKind;

mod checks;

pub use checks::LastCheck;

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
    /// The last check of each kind, in [`CheckKind::ALL`] order: what a claim is judged by.
    #[serde(skip)]
    pub last_of_kind: [Option<LastCheck>; 3],
    /// The last [`RECENT_CALLS`] tool calls, oldest first.
    pub recent_calls: Vec<Call>,
    /// The shell call of the last check, in full.
    pub last_check_call: Option<Call>,
    /// True when `record` began the attempt because no `git handoff start` ran.
    pub implicit_attempt: bool,
    /// Torn or malformed lines that were skipped.
    pub skipped_lines: u64,
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
                if let Some(text) = &event.text {
                    self.digest.last_assistant_text = Some(text.to_string());
                }
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
        // The call that just left the ring lends its buffers: no allocation per event.
        let mut call = self.spare.take().unwrap_or_default();
        set(&mut call.name, name);
        set_opt(&mut call.target, target);
        call.ok = if is_result { Some(event.ok.unwrap_or(true)) } else { None };
        call.exit_code = event.exit_code;
        set_opt(&mut call.error, event.error.as_deref());
        set(&mut call.at, &event.at);
        call.subagent = event.sub;
        set_opt(&mut call.id, event.id.as_deref());
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
        match self.recent.iter_mut().rev().find(|c| c.id.is_some() && c.id == call.id) {
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
        self.digest.last_of_kind = std::mem::take(&mut self.seen.last_of_kind);
        self.digest.checks = self.seen.by_command();
        self.digest
    }
}

/// The handoff's own files: the note directory and the progress file. The agent writes them to
/// hand off, so they are not the work a digest counts ("3 files edited" for 2).
#[derive(Debug, Clone, Default)]
pub struct OwnFiles {
    /// The note directory with a final `/`.
    note_dir: Option<String>,
    progress_file: Option<String>,
}

impl OwnFiles {
    pub fn of(config: &Config) -> OwnFiles {
        let clean = |path: &str| path.trim_start_matches("./").trim_end_matches('/').to_string();
        let note_dir = clean(&config.note_dir());
        OwnFiles {
            note_dir: (!note_dir.is_empty()).then(|| format!("{note_dir}/")),
            progress_file: config.progress.write.as_deref().map(clean),
        }
    }

    /// True for a repository-relative path that is one of the handoff's own files.
    pub fn holds(&self, path: &str) -> bool {
        self.note_dir.as_deref().is_some_and(|dir| path.starts_with(dir))
            || self.progress_file.as_deref() == Some(path)
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

fn is_handoff_skill(skill: &str) -> bool {
    let skill = skill.trim();
    skill == "handoff" || skill.ends_with(":handoff")
}

/// A call of the handoff's agent tools (`git handoff mcp`), as Claude Code names MCP tools:
/// `mcp__git-handoff__handoff_note`. Using them is using the handoff skill.
fn is_handoff_tool(name: &str) -> bool {
    name.strip_prefix("mcp__git-handoff__").is_some_and(|tool| tool.starts_with("handoff_"))
}

#[cfg(test)]
mod tests;
