//! Changing and reading the progress plan as `progress` and the `handoff_progress` agent tool do:
//! write the plan (refusing to drop progress unless forced), set an item, and the change summary
//! with the ticket, the files the attempt changed and the quality gates. After each change the
//! configured summary file (`[progress] write`) is rewritten whole, so an orchestrator always
//! finds a complete one.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Serialize;

use crate::agent::attempt::{Attempt, Overrides};
use crate::agent::change_summary;
use crate::agent::digest::{self, OwnFiles};
use crate::agent::progress::{Item, Mode, Plan, Status, Store};
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::redact::Redactor;
use crate::util::fs::{write_atomic, write_atomic_in};
use crate::util::time;

/// A change to the plan.
pub enum Change {
    /// Write the plan: one item per entry (findings given as "F1: title").
    Plan { mode: Mode, items: Vec<String>, force: bool },
    /// Set an item's status, with an optional note and the files it touched.
    Set { id: String, status: String, note: Option<String>, files: Vec<String> },
}

/// The plan in the shape of `progress --json`.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub mode: Mode,
    pub status_line: String,
    pub complete: bool,
    pub items: &'a [Item],
    pub files_changed: Vec<String>,
}

impl Report<'_> {
    pub fn of(plan: &Plan, files_changed: Vec<String>) -> Report<'_> {
        Report {
            mode: plan.mode,
            status_line: plan.status_line(),
            complete: plan.is_complete(),
            items: &plan.items,
            files_changed,
        }
    }
}

const NO_PLAN: &str =
    "there is no progress plan yet; write one with `git handoff progress plan ITEM...`";

/// Applies `change` under the plan's lock, then rewrites the change summary files.
pub fn change(repo: &Repo, config: &Config, change: Change) -> Result<Plan> {
    let store = Store::new(&repo.handoff_dir());
    // Item titles and notes go to the plan, the progress file and records: secrets never do.
    let redactor = Redactor::new(config)?;
    // The summary's path is checked before the plan changes, so a refusal changes nothing.
    if let Some(path) = &config.progress.write {
        summary_target(repo, path)?;
    }
    let plan = match change {
        Change::Plan { mode, items, force } => store.update(|old| {
            let items: Vec<String> = items.into_iter().map(|i| redactor.redact_string(i)).collect();
            if let Some(old) = old {
                let started = old.items.iter().any(|i| i.status != Status::Pending);
                if started && !force {
                    bail!(
                        "a plan with progress exists ({}); pass --force to replace it, or \
                         `git handoff progress set` to update it",
                        old.status_line()
                    );
                }
            }
            Plan::new(mode, &items, time::format(time::now()))
        })?,
        Change::Set { id, status, note, files } => store.update(|old| {
            let note = note.map(|n| redactor.redact_string(n));
            let files = files.into_iter().map(|f| redactor.redact_string(f)).collect();
            let Some(mut plan) = old else { bail!(NO_PLAN) };
            plan.set(&id, &status, note, files, time::format(time::now()))?;
            Ok(plan)
        })?,
    };
    write_summaries(repo, config, Write::Always)?;
    Ok(plan)
}

/// Rewrites the change summary files after the event log recorded something that changes what
/// they say (an edit, a check's result): only files that exist and are change summaries, and
/// only when their text changes. Returns a warning for a file it could not rewrite.
pub fn refresh(repo: &Repo, config: &Config) -> Result<Vec<String>> {
    write_summaries(repo, config, Write::WhenChanged)
}

/// When the summary files are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Write {
    /// After a change of the plan: the configured file is (re)created.
    Always,
    /// After a recorded event: existing summaries whose text changes.
    WhenChanged,
}

/// Writes the summary to the configured file (`[progress] write`) and to the files callers named
/// with `progress show --write`, under the plan's lock so a slower writer never puts back an
/// older plan. A named file that is no longer a change summary is left alone.
fn write_summaries(repo: &Repo, config: &Config, when: Write) -> Result<Vec<String>> {
    let store = Store::new(&repo.handoff_dir());
    let mut warnings = Vec::new();
    let mut targets = Vec::new();
    if let Some(path) = &config.progress.write {
        match summary_target(repo, path) {
            Ok(target) => targets.push((target, when == Write::Always)),
            Err(err) => warnings.push(format!("{err:#}; the change summary was not refreshed")),
        }
    }
    targets.extend(named_files(repo).into_iter().map(|path| (path, false)));
    if targets.is_empty() {
        return Ok(warnings);
    }
    store.locked(|plan| {
        let Some(plan) = plan else { return Ok(()) };
        // The stored attempt, with no overrides: a change names no attempt.
        let (summary, _) = summary(repo, config, &plan, &Overrides::default())?;
        for (target, create) in targets {
            let current = std::fs::read(&target).ok();
            let is_summary = current.as_ref().is_some_and(|t| t.starts_with(HEADING));
            if current.as_deref() == Some(summary.as_bytes()) || !(create || is_summary) {
                continue;
            }
            // The temporary copy goes to the git dir: a kill must not leave it in the work tree.
            match write_atomic_in(&target, summary.as_bytes(), &repo.handoff_dir()) {
                // After a change of the plan, a summary that cannot be written is an error.
                Err(err) if create => return Err(err),
                Err(err) => warnings.push(format!("{err:#}; the change summary there is stale")),
                Ok(()) => {}
            }
        }
        Ok(())
    })?;
    Ok(warnings)
}

/// The plan, or the scaffold a change summary shows before one is written.
pub fn load_or_scaffold(repo: &Repo) -> Result<Plan> {
    Ok(Store::new(&repo.handoff_dir()).load()?.unwrap_or_else(Plan::scaffold))
}

/// The plan, or the error that says how to write one.
pub fn load(repo: &Repo) -> Result<Plan> {
    match Store::new(&repo.handoff_dir()).load()? {
        Some(plan) => Ok(plan),
        None => bail!(NO_PLAN),
    }
}

/// The change summary of `plan` for the attempt, and the files it lists as changed, redacted.
pub fn summary(
    repo: &Repo,
    config: &Config,
    plan: &Plan,
    overrides: &Overrides,
) -> Result<(String, Vec<String>)> {
    let facts = summary_facts(repo, config, plan, overrides)?;
    // One pass over the final text: file names (a file may be named after a token), the plan
    // written before redaction covered it, the quality gates.
    let redactor = Redactor::new(config)?;
    let text = redactor.redact_string(change_summary::render(plan, &facts));
    let files = facts.files_changed.into_iter().map(|f| redactor.redact_string(f)).collect();
    Ok((text, files))
}

/// What the change summary says besides the plan: the ticket, the files, the quality gates.
fn summary_facts(
    repo: &Repo,
    config: &Config,
    plan: &Plan,
    overrides: &Overrides,
) -> Result<change_summary::Facts> {
    let resolved = Attempt::resolve(repo, overrides)?;
    let own = OwnFiles::of(config);
    let mut files = files_changed(repo, plan, resolved.base)?;
    let digest = digest::for_repo(repo, config)?;
    // Neither the handoff's own files nor what `hooks install` wrote (settings, MCP registrations,
    // the skill) are the agent's work, unless the agent edited them itself.
    let installed = |f: &String| {
        crate::agent::digest::INSTALLED.contains(&f.as_str()) && !digest.files_edited.contains(f)
    };
    files.retain(|f| !own.holds(f) && !installed(f));
    Ok(change_summary::Facts {
        ticket: resolved.issue,
        files_changed: files,
        quality_gates: change_summary::quality_gates(&digest),
    })
}

/// The files the items name, then what changed since the attempt's base (tracked and untracked).
fn files_changed(
    repo: &Repo,
    plan: &Plan,
    base: Option<Option<gix::ObjectId>>,
) -> Result<Vec<String>> {
    let mut files: Vec<String> = Vec::new();
    for item in &plan.items {
        for file in &item.files {
            if !files.contains(file) {
                files.push(file.clone());
            }
        }
    }
    if let (Some(Some(base)), Ok(_)) = (base, repo.top()) {
        let git = repo.git();
        let base = base.to_string();
        let tracked = git.text(["diff", "--name-only", "--no-renames", base.as_str(), "--"])?;
        let untracked = git.text(["ls-files", "--others", "--exclude-standard"])?;
        for line in tracked.lines().chain(untracked.lines()) {
            if !line.is_empty() && !files.iter().any(|f| f == line) {
                files.push(line.to_string());
            }
        }
    }
    Ok(files)
}

/// Where the summary goes for `path` (relative to the work tree top). A file already there is
/// replaced only when it is a change summary, one git-handoff wrote: the path comes from a
/// committed `.handoff.toml`, which must not be able to overwrite the user's own files.
fn summary_target(repo: &Repo, path: &str) -> Result<PathBuf> {
    let target = repo.inside_work_tree(path, "the progress file")?;
    match std::fs::symlink_metadata(&target) {
        Ok(meta) if !meta.is_file() || !is_change_summary(&target) => bail!(
            "{path} exists and is not a change summary that git-handoff wrote, so `[progress] \
             write` would replace it; move it away, or set `write` in {} to a new path",
            crate::model::config::FILE_NAME
        ),
        _ => {}
    }
    Ok(target)
}

/// Writes the summary to a file the caller named on the command line: any path they choose (an
/// orchestrator's artifact store), relative to the current directory. The path is remembered
/// with the attempt, so every later change of the plan and every recorded edit or check result
/// rewrites it too: the file never claims more than the log.
pub fn write_summary(repo: &Repo, path: &Path, summary: &str) -> Result<()> {
    write_atomic(path, summary.as_bytes())?;
    let absolute = std::path::absolute(path)
        .with_context(|| format!("{}: cannot make the path absolute", path.display()))?;
    let mut named = named_files(repo);
    if named.contains(&absolute) {
        return Ok(());
    }
    let Some(line) = absolute.to_str().filter(|p| !p.contains('\n')) else {
        // A name the list cannot hold is written this once.
        return Ok(());
    };
    named.push(PathBuf::from(line));
    let text: String = named.iter().filter_map(|p| p.to_str()).map(|p| format!("{p}\n")).collect();
    write_atomic(&repo.handoff_dir().join(NAMED_FILES), text.as_bytes())
}

/// The files callers named with `progress show --write` in this attempt, one absolute path a line.
fn named_files(repo: &Repo) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(repo.handoff_dir().join(NAMED_FILES)).unwrap_or_default();
    text.lines().filter(|l| !l.is_empty()).map(PathBuf::from).collect()
}

/// Where the attempt remembers the summary files named on the command line; `start` archives it
/// with the plan.
const NAMED_FILES: &str = "summary-files";

/// How a change summary opens.
const HEADING: &[u8] = b"# Change summary";

/// True when the file opens as a change summary does (`# Change summary`).
fn is_change_summary(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; HEADING.len()];
    let file = crate::util::fs::open_regular_if_any(path, "the progress file");
    file.is_ok_and(|file| {
        file.is_some_and(|mut file| file.read_exact(&mut head).is_ok() && head == *HEADING)
    })
}
