//! The emergency note: written from the event log and the runtime's facts when the agent wrote
//! none, and never over a note the agent did write.

use anyhow::{Result, bail};

use crate::agent::digest::{self};
use crate::agent::progress::Store;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::emergency::{self, CallEnd, CheckCall, Facts, ToolCall};
use crate::model::note::{self, Note};
use crate::model::redact::Redactor;
use crate::model::seal_message;
use crate::store::handoff::place::NoteAttempt;
use crate::store::records::{self, Record, RecordKind, Summary};
use crate::util::time;

use super::agent::agent_note;
use super::commit::{base_record, commit_note, existing_note, head_commit, validate_note};
use super::outcome::{NOT_COMMITTED, NoteOutcome, NoteSource};

/// The emergency note, unless the attempt already has a note.
pub fn emergency_note(
    repo: &mut Repo,
    config: &Config,
    attempt: &NoteAttempt,
    reason: &str,
    facts: Facts,
) -> Result<NoteOutcome> {
    config.check_reason(reason)?;
    let digest = digest::for_repo(repo, config)?;
    let rel = config.note_path(attempt.issue);
    let existing = existing_note(repo, attempt)?;
    // An emergency note committed by a run killed before its record: this run completes it, from
    // the commit the note went on.
    let resumed = existing.filter(|&commit| lacks_its_record(repo, config, commit, &rel));
    let head = match resumed.and_then(|commit| first_parent(repo, commit)) {
        Some(parent) => parent,
        None => head_commit(repo)?,
    };
    if let (Some(existing), None) = (existing, resumed) {
        return Ok(NoteOutcome {
            commit: Some(existing.to_string()),
            path: Some(rel),
            kind: None,
            tags: Vec::new(),
            digest_line: digest.line(),
            skipped: Some(format!(
                "a handoff note for issue #{} already exists in {existing}; nothing changed",
                attempt.issue
            )),
            fixes: Vec::new(),
            problems: Vec::new(),
            warnings: Vec::new(),
        });
    }
    let mut warnings = Vec::new();
    let draft = match agents_draft(repo, config, attempt, reason, &rel, &mut warnings)? {
        Draft::Committed(outcome) => return Ok(outcome),
        Draft::Kept(text) => Some(text),
        Draft::None => None,
    };

    let work = work_since_base(repo, attempt, head)?;
    let plan = Store::new(&repo.handoff_dir()).load().ok().flatten();
    let dirty: Vec<String> = uncommitted(repo)?.into_iter().filter(|p| *p != rel).collect();
    let (not_sealed, left_out) = match &work.seal {
        None => (dirty, Vec::new()),
        Some(_) => (Vec::new(), left_out(repo, dirty)),
    };
    let written_at = time::now();
    let elapsed_seconds = time::parse(&attempt.started_at)
        .ok()
        .map(|started| written_at.duration_since(started).as_secs_f64())
        .filter(|s| *s >= 0.0);
    // Something was recorded: the log can say whether the skill was invoked.
    let logged = digest.tool_calls > 0 || digest.first_event_at.is_some();
    let input = emergency::Input {
        issue: attempt.issue,
        started_at: attempt.started_at.clone(),
        reason: reason.to_string(),
        last_work_commit: head.to_string(),
        written_at: time::format(written_at),
        diff_stat: work.diff_stat,
        diff_range: work.diff_range,
        log: work.log,
        log_range: work.log_range,
        seal: work.seal,
        not_sealed,
        left_out,
        elapsed_seconds,
        files_edited: digest.files_edited.clone(),
        last_assistant_text: facts
            .last_assistant_text
            .clone()
            .or(digest.last_assistant_text.clone()),
        handoff_skill: facts.handoff_skill_invoked.or(logged.then_some(digest.handoff_skill)),
        tool_calls: digest
            .recent_calls
            .iter()
            .map(|c| ToolCall {
                name: c.name.clone(),
                target: c.target.clone(),
                end: CallEnd::of(c.ok),
            })
            .collect(),
        tool_call_total: digest.tool_calls,
        last_check: digest.last_check_call.as_ref().map(|c| CheckCall {
            command: c.target.clone().unwrap_or_default(),
            end: CallEnd::of(c.ok),
            exit_code: c.exit_code,
        }),
        session_id: digest.session_id.clone(),
        ended_on_error: digest.ended_on_error.as_ref().map(|e| match &e.message {
            Some(message) => format!("{} ({message}) at {}", e.kind, e.at),
            None => format!("{} at {}", e.kind, e.at),
        }),
        turns: (digest.turns > 0).then_some(digest.turns),
        log_dir: log_dir(repo),
        draft,
        plan_status: plan.as_ref().map(|p| format!("{} ({})", p.status_line(), p.counts())),
        plan_items: plan
            .as_ref()
            .map(|p| {
                p.items.iter().map(|i| format!("{} {}: {}", i.id, i.title, i.status)).collect()
            })
            .unwrap_or_default(),
        facts,
    };
    let redactor = Redactor::new(config)?;
    let text = redactor.redact(&emergency::render(&input)).into_owned();
    let (commit, problems) = match resumed {
        Some(commit) => {
            crate::git::note_commit::complete(repo, &rel, commit)?;
            (commit, validate_note(repo, config, commit, attempt.issue)?)
        }
        None => commit_note(repo, config, attempt.issue, &rel, &text, head)?,
    };
    let record = Record {
        kind: RecordKind::Emergency,
        seal_commit: input.seal.as_ref().map(|(c, _)| c.clone()),
        summary: Some(Summary {
            goal: None,
            done: Vec::new(),
            in_progress: plan
                .as_ref()
                .map(|p| p.unfinished().map(|i| format!("{} {} ({})", i.id, i.title, i.status)).collect())
                .unwrap_or_default(),
            decisions: Vec::new(),
            next: vec!["The runtime could not determine what remains; the issue's acceptance criteria are the reference.".into()],
            files_touched: digest.files_edited.clone(),
        }),
        ..base_record(repo, config, attempt, Some(reason.to_string()), commit, &rel, &digest)?
    };
    records::store(repo, &config.notes_ref, commit, &record)?;
    Ok(NoteOutcome {
        commit: Some(commit.to_string()),
        path: Some(rel),
        kind: Some(RecordKind::Emergency),
        tags: Vec::new(),
        digest_line: digest.line(),
        skipped: None,
        fixes: Vec::new(),
        problems,
        warnings,
    })
}

/// What the agent left uncommitted at the note path.
enum Draft {
    /// Nothing, or what HEAD holds.
    None,
    /// Not a note that passes its check: kept verbatim inside the emergency note.
    Kept(String),
    /// The agent's own note, which passed its check and was committed as the agent's.
    Committed(NoteOutcome),
}

/// Whatever the agent left uncommitted at the note path is its word, never written over: a note
/// that passes its check is committed as the agent's note; anything else is kept verbatim inside
/// the emergency note.
fn agents_draft(
    repo: &mut Repo,
    config: &Config,
    attempt: &NoteAttempt,
    reason: &str,
    rel: &str,
    warnings: &mut Vec<String>,
) -> Result<Draft> {
    let path = repo.inside_work_tree(rel, "the note")?;
    // A note path holding something unreadable (a FIFO, a device, a file over the bound) is left
    // out with a warning: at the hard limit the emergency note is written all the same.
    let read = crate::util::fs::read_regular_if_any(&path, note::MAX_BYTES, "the note")
        .unwrap_or_else(|err| {
            warnings.push(format!("{err:#}; the emergency note is written without it"));
            None
        });
    let Some(bytes) = read.filter(|bytes| !same_as_head(repo, rel, bytes)) else {
        return Ok(Draft::None);
    };
    let Ok(parsed) = Note::parse(&bytes) else {
        bail!(
            "{rel} holds uncommitted content that is not a text note; run `git handoff seal` \
             first (it commits the file as it is), then the emergency note"
        );
    };
    if parsed.kind() == note::Kind::Agent {
        match agent_note(repo, config, attempt, Some(reason), NoteSource::WorkTree) {
            Err(err) if err.is::<crate::util::error::NotPassed>() => {
                let report = crate::util::error::not_passed_report(&err).join("\n");
                let problems: Vec<&str> = report.lines().filter(|l| *l != NOT_COMMITTED).collect();
                warnings.push(format!(
                    "the agent's draft {rel} does not pass its check ({}); it is kept \
                     verbatim in the emergency note, which was committed instead",
                    problems.join("; ")
                ));
            }
            done => return done.map(Draft::Committed),
        }
    }
    Ok(Draft::Kept(String::from_utf8_lossy(&bytes).into_owned()))
}

/// What git says of the attempt's work up to `head`: the seal on top of it and its files, the
/// diff stat and the log since the base.
struct Work {
    seal: Option<(String, Vec<String>)>,
    diff_stat: String,
    diff_range: String,
    log: String,
    log_range: String,
}

fn work_since_base(repo: &Repo, attempt: &NoteAttempt, head: gix::ObjectId) -> Result<Work> {
    let git = repo.git();
    let head_message = repo
        .gix
        .find_commit(head)
        .ok()
        .and_then(|c| c.message_raw().ok().map(|m| m.to_string()))
        .unwrap_or_default();
    let seal = if seal_message::is_seal_message(&head_message) {
        let at = head.to_string();
        let files =
            git.text(["diff-tree", "-r", "--root", "--name-only", "--no-commit-id", &at])?;
        Some((head.to_string(), files.lines().map(str::to_string).collect()))
    } else {
        None
    };
    let base = attempt.base.map(|b| b.to_string()).unwrap_or_else(|| repo.empty_tree().to_string());
    let diff_range = format!(
        "{}..{}",
        crate::util::text::short_id(&base),
        crate::util::text::short_id(&head.to_string())
    );
    let diff_stat = git.text(["diff", "--stat", &base, &head.to_string(), "--"])?;
    let (log, log_range) = match attempt.base {
        Some(b) => (
            git.text(["log", "--oneline", &format!("{b}..{head}")])?,
            format!("{}..HEAD", crate::util::text::short_id(&b.to_string())),
        ),
        None => (git.text(["log", "--oneline", &head.to_string()])?, "HEAD".to_string()),
    };
    Ok(Work { seal, diff_stat, diff_range, log, log_range })
}

/// Where the attempt's event log will stay: the archive the next `start` moves it to.
fn log_dir(repo: &Repo) -> Option<String> {
    let stored = crate::agent::attempt::Attempt::load(repo).ok().flatten()?;
    let dir = repo.handoff_dir();
    let target = crate::agent::attempt::archive_target(&dir, stored.started_at);
    Some(format!(
        "{} (where the next `git handoff start` archives this attempt's log, now {})",
        target.display(),
        dir.join(crate::agent::attempt::EVENTS_FILE).display()
    ))
}

/// The paths `git status` lists as uncommitted (untracked files included, ignored ones not).
fn uncommitted(repo: &Repo) -> Result<Vec<String>> {
    if repo.top().is_err() {
        return Ok(Vec::new());
    }
    let out = repo.git().output(["status", "--porcelain", "-z", "--untracked-files=all"])?;
    let mut paths = Vec::new();
    let mut entries = out.split(|&b| b == 0).filter(|e| e.len() > 3);
    while let Some(entry) = entries.next() {
        paths.push(String::from_utf8_lossy(&entry[3..]).into_owned());
        // A rename or copy names its source next.
        if matches!(entry[0], b'R' | b'C') {
            entries.next();
        }
    }
    Ok(paths)
}

/// The files still uncommitted after the seal, each with why the seal left it out (as seal
/// listed it), or that it changed after the seal.
fn left_out(repo: &Repo, dirty: Vec<String>) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Skipped {
        path: String,
        why: String,
    }
    let listed = std::fs::read(repo.handoff_dir().join(seal_message::LEFT_OUT_FILE)).ok();
    let listed: Vec<Skipped> =
        listed.and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default();
    dirty
        .into_iter()
        .map(|path| match listed.iter().find(|s| s.path == path) {
            Some(skipped) => format!("{path} — {}", skipped.why),
            None => format!("{path} — changed after the seal"),
        })
        .collect()
}

fn first_parent(repo: &Repo, commit: gix::ObjectId) -> Option<gix::ObjectId> {
    let commit = repo.gix.find_commit(commit).ok()?;
    commit.parent_ids().next().map(|id| id.detach())
}

/// Whether `commit` holds an emergency note at `rel` and no emergency record is attached to it: a
/// run was killed between the note commit and its record.
fn lacks_its_record(repo: &Repo, config: &Config, commit: gix::ObjectId, rel: &str) -> bool {
    let spec = format!("{commit}:{rel}");
    let Some(blob) = repo.gix.rev_parse_single(spec.as_str()).ok().and_then(|id| id.object().ok())
    else {
        return false;
    };
    let emergency = Note::parse(&blob.data).is_ok_and(|n| n.kind() == note::Kind::Emergency);
    let refs = [config.notes_ref.clone()];
    emergency
        && records::read_lenient(repo, &refs, commit)
            .is_ok_and(|attached| !attached.records.iter().any(|r| r.kind == RecordKind::Emergency))
}

fn same_as_head(repo: &Repo, rel: &str, bytes: &[u8]) -> bool {
    let spec = format!("HEAD:{rel}");
    repo.gix
        .rev_parse_single(spec.as_str())
        .ok()
        .and_then(|id| id.object().ok())
        .is_some_and(|blob| blob.data == bytes)
}
