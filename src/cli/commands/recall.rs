//! `git handoff recall`: the last handoff for the next session, before its first turn.

use std::io::Write;

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use serde::Serialize;

use crate::agent::attempt::Attempt;
use crate::cli::AttemptArgs;
use crate::cli::commands::Ctx;
use crate::cli::output;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::ops::handoff::{self, Query};
use crate::ops::recall::{self, Limits};
use crate::ops::record_store::Record;

/// Print the last handoff for the next session, before its first turn.
///
/// At most ten lines after compact, resume, clear or fork; one line on a fresh start; then the
/// project rules as their own block.
///
/// The handoff is the latest note commit on the branch (of --issue N when given) with its record;
/// a note committed with plain git is recalled from its file, its tags as written. Recall says
/// when the work was sealed. Within the character budget (`[caps] recall_chars`, 1200) untagged
/// items are shortened or dropped first, and an `[unverified: ...]` tag is never cut.
///
/// With `--hook claude` (or codex) it reads the SessionStart payload on stdin and prints the
/// hook's JSON answer, so it can be installed as a SessionStart hook as it is.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Lines of recall at most [default: caps.recall_lines, 10].
    #[arg(long, value_name = "N")]
    pub max_lines: Option<usize>,

    /// What started the session [default: resume, or the hook payload's source].
    #[arg(long, value_enum)]
    pub source: Option<Source>,

    /// Read a SessionStart hook payload on stdin and answer in that agent's hook JSON.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub hook: Option<Hook>,

    #[command(flatten)]
    pub attempt: AttemptArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Startup,
    Resume,
    Clear,
    Compact,
    Fork,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Hook {
    Claude,
    Codex,
}

#[derive(Serialize)]
struct Report {
    source: Source,
    lines: Vec<String>,
    rules: Option<String>,
    record: Option<Record>,
}

/// The most a hook payload may be.
const MAX_PAYLOAD: usize = 1 << 20;

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let payload_source = match args.hook {
        Some(_) => read_payload_source()?,
        None => None,
    };
    let source = args.source.or(payload_source).unwrap_or(Source::Resume);
    let repo = Repo::discover()?;
    let config = Config::load(repo.top().ok())?;
    let max_lines = args.max_lines.unwrap_or(config.caps.recall_lines);
    if max_lines == 0 {
        bail!("--max-lines must be at least 1 (the default is 10)");
    }
    let resolved = Attempt::resolve(&repo, &(&args.attempt).into())?;
    let max_chars = config.caps.recall_chars;
    let limits = Limits { prefix: &config.recall.prefix, max_lines, max_chars };

    let mut lines = Vec::new();
    let mut record = None;
    if config.recall.enabled {
        record = find(&repo, &config, &args.attempt, &resolved)?;
        if let Some(found) = &record {
            lines = match source {
                Source::Startup => vec![recall::startup(found, limits.prefix)],
                _ => recall::full(found, &limits, &pointers(&repo, &config, found)),
            };
        }
        // Only a fresh session start asks whether the previous attempt left work behind: after
        // compact or resume the attempt is still going, and its dirty tree is work in progress.
        if source == Source::Startup
            && let Some(warning) = unsealed_work(&repo, &resolved, record.as_ref())?
        {
            match lines.first_mut() {
                Some(line) => *line = format!("{line} {warning}"),
                None => lines.push(warning),
            }
        }
        lines = recall::fit(lines, max_lines, max_chars);
    }
    let rules = rules(&repo, &config)?;

    if ctx.json {
        let report = Report { source, lines, rules, record };
        return Ok(output::write_json(out, &report)?);
    }
    let mut text = lines.join("\n");
    if let Some(rules) = &rules {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(rules);
    }
    if text.is_empty() {
        return Ok(());
    }
    match args.hook {
        Some(_) => {
            let answer = serde_json::json!({
                "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
            });
            writeln!(out, "{answer}")?;
        }
        None => writeln!(out, "{text}")?,
    }
    Ok(())
}

/// The latest handoff on the branch (of `--issue N` when given), as a record: see `ops::handoff`.
fn find(
    repo: &Repo,
    config: &Config,
    args: &AttemptArgs,
    resolved: &crate::agent::attempt::Resolved,
) -> Result<Option<Record>> {
    let head = repo.head()?;
    let query = Query {
        start: None,
        issue: args.issue,
        attempt_issue: resolved.issue,
        branch: head.ref_name.as_deref(),
    };
    Ok(handoff::find(repo, config, &query)?.map(|h| h.record))
}

/// The `source` of a SessionStart payload on stdin (bounded read; a bad payload is exit 2).
fn read_payload_source() -> Result<Option<Source>> {
    let read = crate::agent::events::read_bounded(std::io::stdin(), MAX_PAYLOAD)
        .context("reading the hook payload on stdin")?;
    let Some(bytes) = read else {
        bail!(
            "the hook payload on stdin is over 1 MiB; a SessionStart payload is a small JSON object"
        );
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value: serde_json::Value = serde_json::from_slice(&bytes).context(
        "the hook payload on stdin is not JSON; install the hook as `git handoff recall --hook claude`",
    )?;
    let Some(object) = value.as_object() else {
        bail!("the hook payload on stdin is not a JSON object");
    };
    Ok(object.get("source").and_then(|s| s.as_str()).and_then(|s| Source::from_str(s, true).ok()))
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
        parts.push(format!("Spec: {spec}"));
    }
    let rules = &config.recall.rules_file;
    if !rules.is_empty() && top.is_some_and(|t| t.join(rules).is_file()) {
        parts.push(format!("Rules: {rules}"));
    }
    vec![format!("{} · details: `git handoff show`", parts.join(" · "))]
}

/// When the attempt of this worktree has no handoff yet and the work tree is dirty, the next
/// session must know: Stop and SessionEnd often never fire.
fn unsealed_work(
    repo: &Repo,
    resolved: &crate::agent::attempt::Resolved,
    record: Option<&Record>,
) -> Result<Option<String>> {
    let (Some(issue), Some(started)) = (resolved.issue, resolved.started_at) else {
        return Ok(None);
    };
    let started = crate::util::time::format(started);
    let handed_off = record.is_some_and(|r| {
        r.issue == Some(issue) && r.started_at.as_deref() == Some(started.as_str())
    });
    if handed_off || repo.top().is_err() {
        return Ok(None);
    }
    let status = repo.git().output(["status", "--porcelain", "--untracked-files=normal"])?;
    if status.is_empty() {
        return Ok(None);
    }
    let count = status.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
    Ok(Some(format!(
        "Unsealed: the previous attempt (issue #{issue}, started {started}) left {count} \
         uncommitted paths and no handoff note; run `git handoff seal` then \
         `git handoff note --emergency --reason time_limit` (or commit the work yourself)."
    )))
}

/// How much of the rules file recall reads.
const RULES_READ: u64 = 256 << 10;

/// The rules block, when the rules file exists inside the work tree. It goes into the agent's
/// context, so it is redacted like every text git-handoff passes on, and a link out of the work
/// tree is not followed (recall still prints the rest, with a warning).
fn rules(repo: &Repo, config: &Config) -> Result<Option<String>> {
    use std::io::Read;
    let name = &config.recall.rules_file;
    let Ok(top) = repo.top() else { return Ok(None) };
    if name.is_empty() {
        return Ok(None);
    }
    let path = match crate::util::paths::inside(top, name, "the rules file") {
        Ok(path) => path,
        Err(err) => {
            output::warn(&format!("{err:#}; the rules are left out"));
            return Ok(None);
        }
    };
    // The block holds at most a few thousand characters: a prefix of the file is all it needs.
    let mut bytes = Vec::new();
    match std::fs::File::open(&path) {
        Ok(file) => file.take(RULES_READ).read_to_end(&mut bytes),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => Err(err),
    }
    .map_err(|err| anyhow::anyhow!("{}: cannot read the rules file: {err}", path.display()))?;
    let redactor = crate::model::redact::Redactor::new(config)?;
    let text = String::from_utf8_lossy(&bytes);
    let text = redactor.redact(&text);
    let (block, warning) =
        recall::rules_block(name, &text, config.caps.rules_lines, config.caps.rules_chars);
    if let Some(warning) = warning {
        output::warn(&warning);
    }
    Ok(Some(block))
}
