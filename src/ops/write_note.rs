//! Writing handoffs: the agent's checked note, the emergency note and the digest-only record.
//!
//! Each path gathers facts (attempt, digest, git), produces the note text, redacts it, commits the
//! note file alone ([`crate::git::note_commit`]), validates the result, and stores the record
//! ([`crate::ops::record_store`]). Nothing here prints: the command renders the [`Outcome`].

use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use serde::Serialize;

use crate::agent::digest::{self, Digest};
use crate::agent::progress::Store;
use crate::git::repo::Repo;
use crate::model::claims::{self, Evidence};
use crate::model::config::Config;
use crate::model::emergency::{self, CheckCall, Facts, ToolCall};
use crate::model::note::{self, Header, Note};
use crate::model::redact::Redactor;
use crate::ops::record_store::{self, Record, Summary, Tag};
use crate::ops::validate::{self, Range};
use crate::util::time;

/// What a handoff produced, in the shape of `note --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The note commit (or, for a digest-only record, the commit it is attached to); null when
    /// nothing was written.
    pub commit: Option<String>,
    pub path: Option<String>,
    /// `agent`, `emergency`, `digest`, or `none` when nothing was written.
    pub kind: String,
    pub tags: Vec<Tag>,
    pub digest_line: String,
    /// Why nothing was written, when nothing was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// Header fields git-handoff corrected in the agent's note.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<String>,
    /// Problems the validator found after committing (the command then exits 1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// The attempt as a handoff needs it.
pub struct Attempt {
    pub issue: u64,
    pub started_at: String,
    /// `None` when unknown (all history) or unborn.
    pub base: Option<ObjectId>,
}

/// Where the agent's note comes from.
pub enum Source<'a> {
    /// The note file at the note path in the work tree.
    WorkTree,
    /// A Markdown file elsewhere.
    Markdown(&'a Path),
    /// A TOML summary.
    Summary(&'a Path),
}

/// The note path for an issue, relative to the top of the work tree.
pub fn note_path(config: &Config, issue: u64) -> String {
    format!("{}/{issue}.md", config.note_dir())
}

/// The evidence claims are checked against.
pub fn evidence(digest: &Digest) -> Evidence {
    Evidence {
        files_edited: digest.files_edited.clone(),
        tool_calls: digest.tool_calls,
        last_check: digest
            .last_check
            .as_ref()
            .map(|c| (c.command.clone(), c.finished && c.ok, c.finished && c.readable)),
    }
}

/// The agent's note: checked, tagged, committed alone, validated, recorded.
pub fn agent_note(
    repo: &mut Repo,
    config: &Config,
    attempt: &Attempt,
    reason: Option<&str>,
    source: Source<'_>,
) -> Result<Outcome> {
    if let Some(reason) = reason {
        config.check_reason(reason)?;
    }
    let head = head_commit(repo)?;
    let digest = digest::for_repo(repo, config)?;
    let evidence = evidence(&digest);
    let redactor = Redactor::new(config)?;
    let rel = note_path(config, attempt.issue);
    let top = repo.top()?.to_path_buf();

    let (text, tags, summary, fixes) = match source {
        Source::Summary(path) => {
            let text = read_text(path)?;
            let mut summary = crate::model::summary::parse(&text, &path.display().to_string())?;
            redact_summary(&redactor, &mut summary);
            let mut tags = claims::tag_done(&mut summary.done, &evidence);
            tags.extend(claims::tag_files(&mut summary.files_touched, &evidence));
            let reason = reason.unwrap_or("agent_request");
            config.check_reason(reason)?;
            let header = Header {
                issue: attempt.issue,
                started_at: attempt.started_at.clone(),
                reason: reason.to_string(),
                last_work_commit: head.to_string(),
            };
            let mut body = header.render();
            body.push_str(&crate::model::summary::render_sections(
                &summary,
                &evidence_lines(&digest),
            ));
            (body, tags, Some(summary), Vec::new())
        }
        Source::Markdown(_) | Source::WorkTree => {
            let (bytes, origin) = match source {
                Source::Markdown(path) => (
                    std::fs::read(path).with_context(|| format!("reading {}", path.display()))?,
                    path.display().to_string(),
                ),
                _ => {
                    let path = top.join(&rel);
                    let bytes = std::fs::read(&path).map_err(|err| {
                        anyhow!(
                            "{rel}: cannot read the note ({err}); write it first (the header is in \
                             `git handoff snapshot`), or pass --summary FILE or --from FILE"
                        )
                    })?;
                    (bytes, rel.clone())
                }
            };
            let mut note = match Note::parse(&bytes) {
                Ok(note) => note,
                Err(problem) => return Err(check_failure(&origin, vec![problem.to_string()])),
            };
            let fixes = fill_header(&mut note, attempt, reason, head, config)?;
            let tags = tag_note(&mut note, &evidence);
            let problems: Vec<String> =
                note.check(config, Some(attempt.issue)).iter().map(|p| p.to_string()).collect();
            if !problems.is_empty() {
                return Err(check_failure(&origin, problems));
            }
            let text = String::from_utf8(note.render()).context("the note is UTF-8")?;
            (text, tags, None, fixes)
        }
    };
    let text = redactor.redact(&text).into_owned();
    let summary = match summary {
        Some(summary) => summary,
        None => summary_of(&Note::parse(text.as_bytes()).map_err(|p| anyhow!("{p}"))?),
    };
    let (commit, problems) = commit_note(repo, config, attempt.issue, &rel, &text)?;
    let record = Record {
        kind: "agent".into(),
        summary: Some(summary),
        tags: tags.clone(),
        ..base_record(repo, config, attempt, reason_of(&text), commit, &rel, &digest)?
    };
    record_store::store(repo, &config.notes_ref, commit, &record)?;
    Ok(Outcome {
        commit: Some(commit.to_string()),
        path: Some(rel),
        kind: "agent".into(),
        tags,
        digest_line: digest.line(),
        skipped: None,
        fixes,
        problems,
    })
}

/// The emergency note, unless the attempt already has a note.
pub fn emergency_note(
    repo: &mut Repo,
    config: &Config,
    attempt: &Attempt,
    reason: &str,
    facts: Facts,
) -> Result<Outcome> {
    config.check_reason(reason)?;
    let head = head_commit(repo)?;
    let digest = digest::for_repo(repo, config)?;
    let rel = note_path(config, attempt.issue);
    if let Some(existing) = existing_note(repo, config, attempt, head)? {
        return Ok(Outcome {
            commit: Some(existing.to_string()),
            path: Some(rel),
            kind: "none".into(),
            tags: Vec::new(),
            digest_line: digest.line(),
            skipped: Some(format!(
                "a handoff note for issue #{} already exists in {existing}; nothing changed",
                attempt.issue
            )),
            fixes: Vec::new(),
            problems: Vec::new(),
        });
    }
    // Whatever the agent left uncommitted at the note path is its word, never written over: a
    // note that passes its check is committed as the agent's note; anything else is kept verbatim
    // inside the emergency note.
    let top = repo.top()?.to_path_buf();
    let mut draft = None;
    if let Ok(bytes) = std::fs::read(top.join(&rel))
        && !same_as_head(repo, &rel, &bytes)
    {
        let Ok(parsed) = Note::parse(&bytes) else {
            bail!(
                "{rel} holds uncommitted content that is not a text note; run `git handoff seal` \
                 first (it commits the file as it is), then the emergency note"
            );
        };
        if parsed.kind() == note::Kind::Agent {
            match agent_note(repo, config, attempt, Some(reason), Source::WorkTree) {
                Err(err) if err.is::<crate::util::error::CheckFailed>() => {
                    crate::cli::output::warn(&format!(
                        "the agent's draft {rel} does not pass its check; it is kept verbatim in \
                         the emergency note"
                    ));
                }
                done => return done,
            }
        }
        draft = Some(String::from_utf8_lossy(&bytes).into_owned());
    }

    let git = repo.git();
    let head_message = repo
        .gix
        .find_commit(head)
        .ok()
        .and_then(|c| c.message_raw().ok().map(|m| m.to_string()))
        .unwrap_or_default();
    let seal = if validate::is_seal_message(&head_message) {
        let files =
            git.text(["diff-tree", "-r", "--root", "--name-only", "--no-commit-id", "HEAD"])?;
        Some((head.to_string(), files.lines().map(str::to_string).collect()))
    } else {
        None
    };
    let base = attempt.base.map(|b| b.to_string()).unwrap_or_else(|| repo.empty_tree().to_string());
    let diff_range = format!(
        "{}..{}",
        crate::cli::output::short_id(&base),
        crate::cli::output::short_id(&head.to_string())
    );
    let diff_stat = git.text(["diff", "--stat", &base, &head.to_string(), "--"])?;
    let (log, log_range) = match attempt.base {
        Some(b) => (
            git.text(["log", "--oneline", &format!("{b}..HEAD")])?,
            format!("{}..HEAD", crate::cli::output::short_id(&b.to_string())),
        ),
        None => (git.text(["log", "--oneline", "HEAD"])?, "HEAD".to_string()),
    };
    let plan = Store::new(&repo.handoff_dir()).load().ok().flatten();
    let input = emergency::Input {
        issue: attempt.issue,
        started_at: attempt.started_at.clone(),
        reason: reason.to_string(),
        last_work_commit: head.to_string(),
        written_at: time::format(time::now()),
        diff_stat,
        diff_range,
        log,
        log_range,
        seal,
        files_edited: digest.files_edited.clone(),
        last_assistant_text: facts
            .last_assistant_text
            .clone()
            .or(digest.last_assistant_text.clone()),
        handoff_skill: Some(facts.handoff_skill_invoked.unwrap_or(digest.handoff_skill)),
        tool_calls: digest
            .recent_calls
            .iter()
            .map(|c| ToolCall {
                name: c.name.clone(),
                target: c.target.clone(),
                ok: c.ok.unwrap_or(false),
            })
            .collect(),
        last_check: digest.last_check_call.as_ref().map(|c| CheckCall {
            command: c.target.clone().unwrap_or_default(),
            ok: c.ok.unwrap_or(false),
            exit_code: c.exit_code,
        }),
        turns: (digest.turns > 0).then_some(digest.turns),
        log_dir: Some(repo.handoff_dir().display().to_string()),
        draft,
        plan_status: plan.as_ref().map(|p| p.status_line()),
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
    let (commit, problems) = commit_note(repo, config, attempt.issue, &rel, &text)?;
    let record = Record {
        kind: "emergency".into(),
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
    record_store::store(repo, &config.notes_ref, commit, &record)?;
    Ok(Outcome {
        commit: Some(commit.to_string()),
        path: Some(rel),
        kind: "emergency".into(),
        tags: Vec::new(),
        digest_line: digest.line(),
        skipped: None,
        fixes: Vec::new(),
        problems,
    })
}

/// The digest stored as a record on HEAD, for a session that ended without a note.
pub fn digest_only(
    repo: &mut Repo,
    config: &Config,
    issue: Option<u64>,
    started_at: Option<String>,
    base: Option<ObjectId>,
) -> Result<Outcome> {
    let digest = digest::for_repo(repo, config)?;
    let skip = |why: String, digest: &Digest| Outcome {
        commit: None,
        path: None,
        kind: "none".into(),
        tags: Vec::new(),
        digest_line: digest.line(),
        skipped: Some(why),
        fixes: Vec::new(),
        problems: Vec::new(),
    };
    if digest.tool_calls == 0 {
        return Ok(skip("no tool calls recorded in this session".into(), &digest));
    }
    let Some(head) = repo.head()?.id else {
        return Ok(skip("HEAD has no commit yet".into(), &digest));
    };
    if let Some(existing) = record_store::latest(repo, &config.notes_ref, head)?
        && existing.kind != "digest"
    {
        return Ok(skip(format!("HEAD already has a {} record", existing.kind), &digest));
    }
    if let (Some(issue), Some(started)) = (issue, &started_at) {
        let attempt = Attempt { issue, started_at: started.clone(), base };
        if let Some(existing) = existing_note(repo, config, &attempt, head)? {
            return Ok(skip(
                format!("the agent's note for issue #{issue} is in {existing}"),
                &digest,
            ));
        }
    }
    let head_ref = repo.head()?.ref_name;
    let record = Record {
        version: 1,
        kind: "digest".into(),
        issue,
        branch: head_ref,
        started_at,
        reason: None,
        written_at: time::format(time::now()),
        commit: head.to_string(),
        digest_line: Some(digest.line()),
        digest: toml::Table::try_from(&digest).ok(),
        progress: plan_items(repo),
        ..Record::default()
    };
    record_store::store(repo, &config.notes_ref, head, &record)?;
    Ok(Outcome {
        commit: Some(head.to_string()),
        path: None,
        kind: "digest".into(),
        tags: Vec::new(),
        digest_line: digest.line(),
        skipped: None,
        fixes: Vec::new(),
        problems: Vec::new(),
    })
}

fn head_commit(repo: &Repo) -> Result<ObjectId> {
    repo.head()?.id.ok_or_else(|| {
        anyhow!(
            "HEAD has no commit yet, so a note commit has no last work commit; commit the work \
             (or run `git handoff seal`) first"
        )
    })
}

fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    String::from_utf8(bytes).map_err(|err| {
        anyhow!(
            "{}: not UTF-8 (byte {}); save it as UTF-8 text",
            path.display(),
            err.utf8_error().valid_up_to()
        )
    })
}

fn check_failure(origin: &str, problems: Vec<String>) -> anyhow::Error {
    for problem in &problems {
        eprintln!("{origin}:{problem}");
    }
    eprintln!("The note was not committed: mend it and run `git handoff note` again.");
    anyhow::Error::new(crate::util::error::CheckFailed)
}

/// Fills a missing header, and corrects the fields git-handoff knows better (issue, started_at,
/// last_work_commit; the reason when `--reason` is given). Returns what it changed.
fn fill_header(
    note: &mut Note,
    attempt: &Attempt,
    reason: Option<&str>,
    head: ObjectId,
    config: &Config,
) -> Result<Vec<String>> {
    if let Some(reason) = reason {
        config.check_reason(reason)?;
    }
    let mut fixes = Vec::new();
    let header = Header {
        issue: attempt.issue,
        started_at: attempt.started_at.clone(),
        reason: reason.unwrap_or("agent_request").to_string(),
        last_work_commit: head.to_string(),
    }
    .render();
    if note.title().is_none() && note.fields().is_empty() {
        let mut lines: Vec<&str> = header.lines().collect();
        lines.push("");
        note.insert_lines(1, &lines);
        fixes.push("the note had no header: filled it in".to_string());
        return Ok(fixes);
    }
    if let Some(title) = note.title().cloned()
        && note.fields().is_empty()
    {
        // The four field lines of the rendered header, after its title and blank line.
        let mut lines: Vec<&str> = header.lines().skip(2).collect();
        lines.push("");
        let after_title = title.line + 1;
        if note.line(after_title).is_some_and(|l| l.trim().is_empty()) {
            note.insert_lines(after_title + 1, &lines);
        } else {
            lines.insert(0, "");
            note.insert_lines(after_title, &lines);
        }
        fixes.push("the note had a title but no header fields: filled them in".to_string());
        return Ok(fixes);
    }
    let head_hex = head.to_string();
    let issue = attempt.issue.to_string();
    let wanted = [
        ("issue", Some(issue.as_str())),
        ("started_at", Some(attempt.started_at.as_str())),
        ("reason", reason),
        ("last_work_commit", Some(head_hex.as_str())),
    ];
    for (name, value) in wanted {
        let Some(value) = value else { continue };
        let current = note.field(name).map(|f| f.value.clone());
        if let Some(current) = current
            && current != value
            && note.set_field(name, value)
        {
            fixes.push(format!("{name} was {current:?}, set to {value}"));
        }
    }
    Ok(fixes)
}

/// Tags the note's claims in place: Summary items are done items, except under `### In progress`,
/// `### Decisions`, `### Goal`, `### Next` (not claims of work done) and `### Files touched`
/// (checked as files).
fn tag_note(note: &mut Note, evidence: &Evidence) -> Vec<Tag> {
    let Some(section) = note.section("Summary").cloned() else { return Vec::new() };
    let mut tags = Vec::new();
    let mut edits = Vec::new();
    for item in note.items(&section) {
        let sub = subsection(note, &section, item.line);
        let why = match sub.as_deref() {
            Some("files touched" | "files") => claims::check_file(&item.text, evidence),
            Some("in progress" | "decisions" | "goal" | "next" | "next steps") => None,
            _ => claims::check_done(&item.text, evidence),
        };
        if let Some(why) = why {
            tags.push(Tag { item: item.text.clone(), why: why.clone() });
            edits.push((item.last_line, format!(" {} {why}]", claims::TAG_PREFIX)));
        }
    }
    for (line, suffix) in edits {
        note.append_to_line(line, &suffix);
    }
    tags
}

/// The `### ` heading an item of `section` sits under, lower-cased.
fn subsection(note: &Note, section: &crate::model::note::Section, line: usize) -> Option<String> {
    (section.body_start..line)
        .rev()
        .filter_map(|n| note.line(n))
        .find_map(|l| l.strip_prefix("### "))
        .map(|s| s.trim().to_ascii_lowercase())
}

/// The summary a Markdown note gives: Summary items by sub-heading, Remaining work as next steps.
fn summary_of(note: &Note) -> Summary {
    let mut summary = Summary::default();
    if let Some(section) = note.section("Summary").cloned() {
        for item in note.items(&section) {
            let sub = subsection(note, &section, item.line);
            let list = match sub.as_deref() {
                Some("files touched" | "files") => &mut summary.files_touched,
                Some("in progress") => &mut summary.in_progress,
                Some("decisions") => &mut summary.decisions,
                Some("next" | "next steps") => &mut summary.next,
                _ => &mut summary.done,
            };
            list.push(item.text);
        }
        summary.goal = (section.body_start..section.body_end)
            .filter_map(|n| note.line(n))
            .find_map(|l| l.strip_prefix("Goal:"))
            .map(|g| g.trim().to_string());
    }
    if let Some(section) = note.section("Remaining work").cloned() {
        summary.next.extend(note.items(&section).into_iter().map(|i| i.text));
    }
    summary
}

fn redact_summary(redactor: &Redactor, summary: &mut Summary) {
    if let Some(goal) = &mut summary.goal {
        *goal = redactor.redact(goal).into_owned();
    }
    for list in [
        &mut summary.done,
        &mut summary.in_progress,
        &mut summary.decisions,
        &mut summary.next,
        &mut summary.files_touched,
    ] {
        for item in list.iter_mut() {
            *item = redactor.redact(item).into_owned();
        }
    }
}

/// The Evidence section's lines for a note rendered from a summary.
fn evidence_lines(digest: &Digest) -> Vec<String> {
    let mut lines = vec![format!("From the event log: {}.", digest.line())];
    if let Some(call) = &digest.last_check_call {
        let status = match (call.ok, call.exit_code) {
            (Some(true), _) => "ok".to_string(),
            (Some(false), Some(code)) => format!("failed (exit {code})"),
            (Some(false), None) => "failed".to_string(),
            (None, _) => "did not finish".to_string(),
        };
        lines.push(format!("Last check: `{}` — {status}.", call.target.as_deref().unwrap_or("?")));
    }
    lines
}

fn reason_of(text: &str) -> Option<String> {
    text.lines().find_map(|l| l.strip_prefix("reason:")).map(|r| r.trim().to_string())
}

/// A note commit for this attempt's issue between the attempt's base and HEAD, if any.
fn existing_note(
    repo: &Repo,
    config: &Config,
    attempt: &Attempt,
    head: ObjectId,
) -> Result<Option<ObjectId>> {
    let range = Range {
        include: vec![head],
        exclude: attempt.base.into_iter().collect(),
        exclude_remotes: Vec::new(),
    };
    let found = validate::find_note_commits(repo, config, &range)?;
    let rel = note_path(config, attempt.issue);
    Ok(found
        .iter()
        .rev()
        .find(|n| {
            n.message_issue == Some(attempt.issue)
                || (n.message_issue.is_none() && touches(repo, n.id, &rel))
        })
        .map(|n| n.id))
}

fn touches(repo: &Repo, commit: ObjectId, rel: &str) -> bool {
    repo.git()
        .text(["diff-tree", "-r", "--root", "--name-only", "--no-commit-id", &commit.to_string()])
        .is_ok_and(|files| files.lines().any(|f| f == rel))
}

fn same_as_head(repo: &Repo, rel: &str, bytes: &[u8]) -> bool {
    let spec = format!("HEAD:{rel}");
    repo.gix
        .rev_parse_single(spec.as_str())
        .ok()
        .and_then(|id| id.object().ok())
        .is_some_and(|blob| blob.data == bytes)
}

/// Commits the note file alone and validates the result; returns the commit and the problems.
fn commit_note(
    repo: &Repo,
    config: &Config,
    issue: u64,
    rel: &str,
    text: &str,
) -> Result<(ObjectId, Vec<String>)> {
    let message = note::commit_message(issue);
    let commit = crate::git::note_commit::commit_file(repo, rel, text.as_bytes(), &message)?;
    Ok((commit, validate_note(repo, config, commit, issue)?))
}

/// Validates the note commit just made; returns the problems as text.
fn validate_note(
    repo: &Repo,
    config: &Config,
    commit: ObjectId,
    issue: u64,
) -> Result<Vec<String>> {
    let parent = repo
        .gix
        .find_commit(commit)
        .context("reading the note commit")?
        .parent_ids()
        .next()
        .map(|p| p.detach());
    let range = Range {
        include: vec![commit],
        exclude: parent.into_iter().collect(),
        exclude_remotes: Vec::new(),
    };
    let report = validate::validate(repo, config, &range, Some(issue))?;
    Ok(report.problems.iter().map(|p| p.to_string()).collect())
}

fn plan_items(repo: &Repo) -> Vec<record_store::ProgressItem> {
    Store::new(&repo.handoff_dir())
        .load()
        .ok()
        .flatten()
        .map(|p| p.record_items())
        .unwrap_or_default()
}

fn base_record(
    repo: &Repo,
    _config: &Config,
    attempt: &Attempt,
    reason: Option<String>,
    commit: ObjectId,
    rel: &str,
    digest: &Digest,
) -> Result<Record> {
    Ok(Record {
        version: 1,
        kind: String::new(),
        issue: Some(attempt.issue),
        branch: repo.head()?.ref_name,
        started_at: Some(attempt.started_at.clone()),
        reason,
        written_at: time::format(time::now()),
        commit: commit.to_string(),
        note_path: Some(rel.to_string()),
        seal_commit: None,
        digest_line: Some(digest.line()),
        digest: toml::Table::try_from(digest).ok(),
        summary: None,
        tags: Vec::new(),
        progress: plan_items(repo),
    })
}
