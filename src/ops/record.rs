//! What `git handoff record` does: one agent hook payload, one event appended to the attempt's
//! log.
//!
//! This runs on every agent tool call, so its path is short: read the payload (bounded), parse,
//! find the repository without opening it, redact, and append one line under the log's lock. What
//! it cannot read is an error with the log unchanged; what goes wrong after the line is written (a
//! change summary not refreshed, a session not begun) is a warning returned with it.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::agent::attempt::{Attempt, EVENTS_FILE, STATE_FILE};
use crate::agent::events::{self, Event, Kind};
use crate::agent::payload::{self, Runtime, SessionDirs};
use crate::agent::progress::PLAN_FILE;
use crate::git::location::Location;
use crate::git::repo::Repo;
use crate::model::checks::Checks;
use crate::model::config::Config;
use crate::model::redact::Redactor;
use crate::ops::open;
use crate::util::time;

/// The most `record` reads of a payload; a larger payload is refused, not cut.
pub const MAX_PAYLOAD: usize = 2 << 20;

/// What is recorded, and how the payload is read.
pub struct Request {
    /// Which runtime sent the payload; `None`: detected from the payload.
    pub agent: Option<Runtime>,
    /// The hook event, for payloads that do not name it (GitHub Copilot CLI's).
    pub event: Option<String>,
    /// `-C` was passed (or `GIT_DIR` is set), so the payload's `cwd` does not choose the repository.
    pub steered: bool,
}

/// The line written (empty when the call was left to the hooks of the agent that sent it), the
/// log it went to, and what could not be done beside it.
pub struct Recorded {
    pub line: Vec<u8>,
    pub log: PathBuf,
    pub warnings: Vec<String>,
}

/// Reads, normalises and appends the payload read from `input` (a hook's stdin).
pub fn record(input: impl Read, request: Request) -> Result<Recorded> {
    let bytes =
        events::read_bounded(input, MAX_PAYLOAD).context("reading the payload from stdin")?;
    let Some(bytes) = bytes else {
        bail!("the payload on stdin is larger than {} MiB; hooks send far less", MAX_PAYLOAD >> 20);
    };
    let mut payload = payload::parse_payload(&bytes)?;
    if let Some(name) = request.event.filter(|name| !name.is_empty()) {
        // Where Copilot CLI names the event itself.
        payload.entry("hookName").or_insert(serde_json::Value::String(name));
    }
    let agent = match request.agent {
        Some(agent) => agent,
        None => Runtime::detect(&payload)?,
    };
    let session_cwd = match payload.get("cwd") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(dir)) => Some(PathBuf::from(dir)),
        Some(_) => bail!("payload field `cwd` is not a string; it names the session's directory"),
    };
    let steered = request.steered || std::env::var_os("GIT_DIR").is_some();
    if let Some(dir) = session_cwd.as_ref().filter(|d| !steered && d.is_dir()) {
        std::env::set_current_dir(dir)
            .with_context(|| format!("changing to the session's directory {}", dir.display()))?;
    }
    let cwd = std::env::current_dir().context("reading the current directory")?;
    let (git_dir, top) = locate(&cwd)?;
    if agent == Runtime::Claude
        && payload::is_copilot_in_claude_hooks(&payload)
        && top.join(crate::agent::payload::copilot::HOOKS_PATH).is_file()
    {
        // Copilot CLI runs Claude Code's hooks as well as its own: its own record the call.
        let log = git_dir.join("handoff").join(EVENTS_FILE);
        return Ok(Recorded { line: Vec::new(), log, warnings: Vec::new() });
    }
    // A configuration that cannot be taken whole never stops the record: the defaults stand in.
    let (config, mut warnings) = Config::load_for_saving(Some(&top));
    let redactor = Redactor::new(&config)?;
    // Relative paths in the payload are the session's, wherever the repository was found.
    let session_dir = session_cwd.filter(|d| d.is_dir()).unwrap_or_else(|| cwd.clone());
    let dirs = SessionDirs { cwd: &session_dir, top: &top };
    let event = payload::normalize(&payload, agent, &dirs, &redactor, time::format(time::now()))?;
    let line = event.to_line()?;
    if event.kind == events::Kind::SessionStart && !event.sub {
        warnings.extend(begin_session(&event));
    }
    let dir = git_dir.join("handoff");
    let log = dir.join(EVENTS_FILE);
    if dir.join(STATE_FILE).is_file() {
        events::append(&log, &line)?;
        warnings.extend(refresh_summary(&dir, &event, &config));
        return Ok(Recorded { line, log, warnings });
    }
    // No attempt yet: begin an implicit one, under the log's lock so concurrent hooks agree.
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let file = events::open_locked(&log)?;
    if !dir.join(STATE_FILE).is_file() {
        begin_implicit()?;
    }
    events::append_locked(&file, &log, &line)?;
    Ok(Recorded { line, log, warnings })
}

/// After an edit or a check's result, rewrites the change summary files of a progress plan, so
/// the file an orchestrator reads never claims more than the log. Any other event, or no plan,
/// costs one comparison or one `stat`. The event is recorded whatever happens here: a summary
/// that cannot be rewritten is a warning.
fn refresh_summary(dir: &Path, event: &Event<'_>, config: &Config) -> Vec<String> {
    if event.kind != Kind::ToolResult || !dir.join(PLAN_FILE).is_file() {
        return Vec::new();
    }
    let edit = !event.paths.is_empty();
    let check = || {
        event.tool.as_deref().is_some_and(payload::is_shell)
            && event.target.as_deref().is_some_and(|c| Checks::new(config).find(c).is_some())
    };
    if !edit && !check() {
        return Vec::new();
    }
    let warnings = open::repo().and_then(|repo| crate::ops::progress::refresh(&repo, config));
    warnings.unwrap_or_else(|err| vec![format!("{err:#}; the change summary is stale")])
}

/// The git dir and the top of the work tree, cheaply when git's environment does not steer.
fn locate(cwd: &Path) -> Result<(PathBuf, PathBuf)> {
    if let Some(found) = Location::find(cwd) {
        return Ok((found.git_dir, found.work_tree));
    }
    let repo = Repo::discover()?;
    let top = repo.top()?.to_path_buf();
    Ok((repo.git_dir, top))
}

/// A session starts (a SessionStart payload): the next attempt when the attempt's note is
/// committed (see [`crate::ops::start`]). Rare, so it may open the repository; a failure is a
/// warning and the event is still recorded.
fn begin_session(event: &events::Event<'_>) -> Option<String> {
    let begin = || -> Result<()> {
        let open::Opened { mut repo, config, .. } = open::open(open::Configuration::Saving)?;
        let start = crate::ops::start::SessionStart {
            agent: event.agent.to_string(),
            source: event.text.as_deref().unwrap_or("startup").to_string(),
            session: event.session.as_deref().map(str::to_string),
            logged: true,
        };
        crate::ops::start::begin(&mut repo, &config, &start)?;
        Ok(())
    };
    let err = begin().err()?;
    Some(format!("record: {err:#}; the session continues the attempt as it was"))
}

/// Saves an implicit attempt: issue unknown, base HEAD, started now.
fn begin_implicit() -> Result<()> {
    let repo = open::repo()?;
    let head = repo.head().ok();
    let attempt = Attempt {
        issue: None,
        base: head.as_ref().and_then(|h| h.id),
        started_at: time::now(),
        branch: head.and_then(|h| h.branch),
    };
    attempt.save(&repo)
}
