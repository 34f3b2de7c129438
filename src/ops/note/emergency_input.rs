//! What an emergency note says, gathered from git, the event log's digest, the progress plan and
//! the runtime's facts (see [`emergency_note`](super::emergency_note)).

use anyhow::Result;
use gix::ObjectId;

use crate::agent::digest::Digest;
use crate::agent::progress::{Plan, Store};
use crate::git::repo::Repo;
use crate::model::emergency::{self, CallEnd, CheckCall, Facts, ToolCall};
use crate::model::seal_message;
use crate::store::handoff::place::NoteAttempt;
use crate::util::time;

/// An emergency note being written: for which attempt, why, where it goes (`rel`), and the digest
/// of the attempt's event log.
pub(super) struct EmergencyNote<'a> {
    pub(super) attempt: &'a NoteAttempt,
    pub(super) reason: &'a str,
    pub(super) rel: String,
    pub(super) digest: Digest,
}

impl EmergencyNote<'_> {
    /// What the note is rendered from, with the last work commit `head`, the agent's `draft` kept
    /// verbatim, and the runtime's `facts`; and the progress plan, which the record lists too.
    pub(super) fn input(
        &self,
        repo: &Repo,
        head: ObjectId,
        draft: Option<String>,
        facts: Facts,
    ) -> Result<(emergency::Input, Option<Plan>)> {
        let (attempt, digest) = (self.attempt, &self.digest);
        let work = work_since_base(repo, attempt, head)?;
        let plan = Store::new(&repo.handoff_dir()).load().ok().flatten();
        let dirty: Vec<String> =
            uncommitted(repo)?.into_iter().filter(|p| *p != self.rel).collect();
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
            reason: self.reason.to_string(),
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
            tool_calls: tool_calls(digest),
            tool_call_total: digest.tool_calls,
            last_check: last_check(digest),
            session_id: digest.session_id.clone(),
            ended_on_error: ended_on_error(digest),
            turns: (digest.turns > 0).then_some(digest.turns),
            log_dir: log_dir(repo),
            draft,
            plan_status: plan.as_ref().map(|p| format!("{} ({})", p.status_line(), p.counts())),
            plan_items: plan_items(plan.as_ref()),
            facts,
        };
        Ok((input, plan))
    }
}

/// The digest's recent tool calls, as the note lists them.
fn tool_calls(digest: &Digest) -> Vec<ToolCall> {
    digest
        .recent_calls
        .iter()
        .map(|c| ToolCall {
            name: c.name.clone(),
            target: c.target.clone(),
            end: CallEnd::of(c.ok),
        })
        .collect()
}

/// The shell call of the last check.
fn last_check(digest: &Digest) -> Option<CheckCall> {
    digest.last_check_call.as_ref().map(|c| CheckCall {
        command: c.target.clone().unwrap_or_default(),
        end: CallEnd::of(c.ok),
        exit_code: c.exit_code,
    })
}

/// The API error the session's last turn ended on, and when.
fn ended_on_error(digest: &Digest) -> Option<String> {
    digest.ended_on_error.as_ref().map(|e| match &e.message {
        Some(message) => format!("{} ({message}) at {}", e.kind, e.at),
        None => format!("{} at {}", e.kind, e.at),
    })
}

/// The plan's items, one line each.
fn plan_items(plan: Option<&Plan>) -> Vec<String> {
    plan.map(|p| p.items.iter().map(|i| format!("{} {}: {}", i.id, i.title, i.status)).collect())
        .unwrap_or_default()
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
        .gix()
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
    // Seal's own list, read as a regular file of at most 1 MiB: a note at a session's end never
    // waits on what else stands at that path.
    let path = repo.handoff_dir().join(seal_message::LEFT_OUT_FILE);
    let listed = crate::util::fs::read_regular_if_any(&path, 1 << 20, "seal's left-out list");
    let listed: Vec<Skipped> = listed
        .ok()
        .flatten()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default();
    dirty
        .into_iter()
        .map(|path| match listed.iter().find(|s| s.path == path) {
            Some(skipped) => format!("{path} — {}", skipped.why),
            None => format!("{path} — changed after the seal"),
        })
        .collect()
}
