//! The recall a session gets, as `recall` prints it and the `handoff_recall` agent tool returns
//! it: the lines for how the session started, the unsealed-work warning on a fresh start, and the
//! project rules block.

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use crate::agent::attempt::Resolved;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::store::handoff::since::{self, Since};
use crate::store::handoff::{self, Query};
use crate::store::records::Record;

use super::lines::{Limits, fit, full, rules_block, startup};
use super::since_line::{dated, since_line};
use super::unsealed;

/// What started the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionSource {
    Startup,
    Resume,
    Clear,
    Compact,
    Fork,
}

/// The recall, in the shape of `recall --json`.
#[derive(Debug, Serialize)]
pub struct Recall {
    pub source: SessionSource,
    pub lines: Vec<String>,
    pub rules: Option<String>,
    pub record: Option<Record>,
    /// What happened since the handoff (commits, files, the last check), when anything did.
    pub since: Option<Since>,
    /// For the command to print (the rules file was cut, a note that is not a record skipped).
    #[serde(skip)]
    pub warnings: Vec<String>,
}

impl Recall {
    /// The lines, then the rules block after a blank line: what the session is given.
    pub fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        if let Some(rules) = &self.rules {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(rules);
        }
        text
    }
}

/// What the session asks for.
pub struct Asked {
    /// The issue named explicitly (`--issue N`), else the attempt's handoff.
    pub issue: Option<u64>,
    pub source: SessionSource,
    /// Lines at most [default: caps.recall_lines].
    pub max_lines: Option<usize>,
    /// The session can call the `handoff_recall` agent tool: a fresh start's line names it.
    pub tool: bool,
}

/// The recall for a session: the latest handoff on the branch, as `store::handoff` finds it.
pub fn for_session(
    repo: &Repo,
    config: &Config,
    resolved: &Resolved,
    asked: &Asked,
) -> Result<Recall> {
    let source = asked.source;
    let max_lines = asked.max_lines.unwrap_or(config.caps.recall_lines);
    if max_lines == 0 {
        bail!("--max-lines must be at least 1 (the default is 10)");
    }
    let max_chars = config.caps.recall_chars;
    let limits = Limits { prefix: &config.recall.prefix, max_lines, max_chars };

    let mut lines = Vec::new();
    let mut record = None;
    let mut since = None;
    let mut skipped = Vec::new();
    if config.recall.enabled {
        let head = repo.head()?;
        let query = Query {
            start: None,
            issue: asked.issue,
            attempt_issue: resolved.issue,
            branch: head.ref_name.as_deref(),
        };
        let latest = handoff::find(repo, config, &query)?;
        skipped = latest.warnings;
        since = match &latest.handoff {
            Some(found) => since_of(repo, config, found, &mut skipped),
            None => None,
        };
        record = latest.handoff.map(|h| h.record);
        if let Some(found) = &record {
            lines = with_since(found, since.as_ref(), source, &limits, asked.tool, || {
                pointers(repo, config, found)
            });
        }
        // Only a fresh session start asks whether the previous attempt left work behind: after
        // compact or resume the attempt is still going, and its dirty tree is work in progress.
        if source == SessionSource::Startup
            && let Some(warning) = unsealed_work(repo, resolved, record.as_ref())?
        {
            match lines.first_mut() {
                Some(line) => *line = format!("{line} {warning}"),
                None => lines.push(warning),
            }
        }
        lines = fit(lines, max_lines, max_chars);
    }
    let mut warnings = Vec::new();
    let rules = rules(repo, config, &mut warnings)?;
    warnings.extend(skipped);
    Ok(Recall { source, lines, rules, record, since, warnings })
}

/// What happened since the handoff, when anything did; a failure to tell is a warning, never
/// the end of the recall.
fn since_of(
    repo: &Repo,
    config: &Config,
    found: &handoff::Handoff,
    warnings: &mut Vec<String>,
) -> Option<Since> {
    match since::since(repo, config, found) {
        Ok(since) => Some(since).filter(|s| !s.is_empty()),
        Err(err) => {
            warnings.push(format!("{err:#}; recall leaves out what happened since the note"));
            None
        }
    }
}

/// The lines for the handoff, with the staleness line: second after the headline in a full
/// recall (the headline's own check marked as the note's), joined to the one line of a fresh
/// start.
fn with_since(
    found: &Record,
    since: Option<&Since>,
    source: SessionSource,
    limits: &Limits<'_>,
    tool: bool,
    pointers: impl FnOnce() -> Vec<String>,
) -> Vec<String> {
    let shown = match since {
        Some(since) => dated(found, since),
        None => found.clone(),
    };
    let mut lines = match source {
        SessionSource::Startup => vec![startup(&shown, limits.prefix, tool)],
        _ => full(&shown, limits, &pointers()),
    };
    if let Some(since) = since {
        let line = since_line(found, since);
        match source {
            SessionSource::Startup => lines[0] = format!("{} {line}.", lines[0]),
            _ => lines.insert(1.min(lines.len()), line),
        }
    }
    lines
}

/// Where to read more: the note and its commit, the spec and the rules.
fn pointers(repo: &Repo, config: &Config, record: &Record) -> Vec<String> {
    let mut parts = Vec::new();
    let commit = crate::util::text::short_id(&record.commit);
    match &record.note_path {
        Some(path) => parts.push(format!("Note: {path} at {commit}")),
        None => parts.push(format!("Record on {commit}")),
    }
    let top = repo.top().ok();
    if let Some(spec) = &config.recall.spec_file {
        match spec_title(repo, config, spec) {
            Some(title) => parts.push(format!("Spec: {spec} ({title})")),
            None => parts.push(format!("Spec: {spec}")),
        }
    }
    let rules = &config.recall.rules_file;
    if !rules.is_empty() && top.is_some_and(|t| t.join(rules).is_file()) {
        parts.push(format!("Rules: {rules}"));
    }
    vec![format!("{} · details: `git handoff show`", parts.join(" · "))]
}

/// How much of the spec file recall reads for its title.
const SPEC_READ: u64 = 4 << 10;

/// The spec's title, its first `# ` heading (seed 002: `Spec: .orstrum/spec.md (Money
/// formatter)`), read from the start of the file inside the work tree, redacted, on one line.
fn spec_title(repo: &Repo, config: &Config, spec: &str) -> Option<String> {
    use std::io::Read;
    let path = repo.inside_work_tree(spec, "the spec file").ok()?;
    if !std::fs::symlink_metadata(&path).ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    crate::util::fs::open_regular(&path, "the spec file")
        .ok()?
        .take(SPEC_READ)
        .read_to_end(&mut bytes)
        .ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let mut fence = crate::model::markdown::Fence::default();
    let title = text
        .lines()
        .filter(|line| !fence.feed(line))
        .find_map(|line| line.strip_prefix("# "))?
        .trim()
        .trim_end_matches('#')
        .trim();
    let title: String = title.chars().filter(|c| !c.is_control()).take(80).collect();
    let redactor = crate::model::redact::Redactor::new(config).ok()?;
    (!title.is_empty()).then(|| redactor.redact(&title).into_owned())
}

/// When the attempt of this worktree has no handoff yet, an agent worked in it and the work tree
/// holds work, the next session must know: Stop and SessionEnd often never fire. A fresh attempt
/// (no tool call in its log) and the files `hooks install` wrote are no unsealed work.
fn unsealed_work(
    repo: &Repo,
    resolved: &Resolved,
    record: Option<&Record>,
) -> Result<Option<String>> {
    let (Some(issue), Some(started)) = (resolved.issue, resolved.started_at) else {
        return Ok(None);
    };
    let started = crate::util::time::format(started);
    let handed_off = record.is_some_and(|r| {
        r.issue == Some(issue) && r.started_at.as_deref() == Some(started.as_str())
    });
    let Ok(top) = repo.top() else { return Ok(None) };
    if handed_off || !unsealed::agent_worked(repo) {
        return Ok(None);
    }
    let status = repo.git().output(["status", "--porcelain", "--untracked-files=normal"])?;
    let count = unsealed::work_count(top, &status);
    if count == 0 {
        return Ok(None);
    }
    let paths =
        crate::model::markdown::count(count as u64, "uncommitted path", "uncommitted paths");
    Ok(Some(format!(
        "Unsealed: the previous attempt (issue #{issue}, started {started}) left {paths} and no \
         handoff note; run `git handoff seal` then \
         `git handoff note --emergency --reason time_limit` (or commit the work yourself)."
    )))
}

/// How much of the rules file recall reads.
const RULES_READ: u64 = 256 << 10;

/// The rules block, when the rules file exists inside the work tree. It goes into the agent's
/// context, so it is redacted like every text git-handoff passes on, and a link out of the work
/// tree is not followed (recall still gives the rest, with a warning).
fn rules(repo: &Repo, config: &Config, warnings: &mut Vec<String>) -> Result<Option<String>> {
    let name = &config.recall.rules_file;
    if repo.top().is_err() {
        return Ok(None);
    }
    if name.is_empty() {
        return Ok(None);
    }
    let path = match repo.inside_work_tree(name, "the rules file") {
        Ok(path) => path,
        Err(err) => {
            warnings.push(format!("{err:#}; the rules are left out"));
            return Ok(None);
        }
    };
    // The block holds at most a few thousand characters: a prefix of the file is all it needs.
    // A FIFO or a device there is left out with a warning, like a link: recall runs at every
    // session start and gives the rest.
    let bytes = match crate::util::fs::read_prefix(&path, RULES_READ, "the rules file") {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(err) => {
            warnings.push(format!("{err:#}; the rules are left out"));
            return Ok(None);
        }
    };
    let redactor = crate::model::redact::Redactor::new(config)?;
    let text = String::from_utf8_lossy(&bytes);
    let text = redactor.redact(&text);
    let (block, warning) =
        rules_block(name, &text, config.caps.rules_lines, config.caps.rules_chars);
    warnings.extend(warning);
    Ok(Some(block))
}
