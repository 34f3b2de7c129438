//! The agent's note: read from the work tree, a Markdown file or a TOML summary, its header
//! filled in, its claims checked against the digest and tagged, then committed and recorded.

use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;

use crate::agent::digest::{self, Digest};
use crate::git::repo::Repo;
use crate::model::claims::{self, Evidence};
use crate::model::config::Config;
use crate::model::markdown::code_span;
use crate::model::note::{self, Header, Note};
use crate::model::redact::Redactor;
use crate::model::summary;
use crate::store::handoff::place::{self, NoteAttempt, Place};
use crate::store::records::{self, Record, RecordKind, Summary, Tag};
use crate::util::fs::read_regular;

use super::commit::{base_record, commit_note, evidence, head_commit};
use super::outcome::{NOT_COMMITTED, NoteOutcome, NoteSource};

/// The agent's note: checked, tagged, committed alone, validated, recorded.
pub fn agent_note(
    repo: &mut Repo,
    config: &Config,
    attempt: &NoteAttempt,
    reason: Option<&str>,
    source: NoteSource<'_>,
) -> Result<NoteOutcome> {
    if let Some(reason) = reason {
        config.check_reason(reason)?;
    }
    head_commit(repo)?;
    // The last work commit: HEAD, or the parent of this attempt's note commit that the new note
    // replaces. A sealed attempt takes no new note.
    let place = place::place(repo, config, attempt)?;
    // The note commit this one replaces: its record goes when the new one is stored.
    let replaced = match &place {
        Place::Replace { note, .. } => Some(*note),
        _ => None,
    };
    let head = match place {
        Place::Sealed { note, seal } => {
            return Err(place::sealed_refusal(attempt, note, seal, "a new note commit").into());
        }
        Place::Replace { note, published: Some(remote), .. } => {
            return Err(place::published_refusal(attempt, note, &remote).into());
        }
        Place::Replace { parent, .. } => parent,
        Place::OnTop { .. } => head_commit(repo)?,
    };
    let digest = digest::for_repo(repo, config)?;
    let evidence = evidence(&digest, repo);
    let redactor = Redactor::new(config)?;
    let rel = config.note_path(attempt.issue);
    let note_file = repo.inside_work_tree(&rel, "the note")?;

    // The summary route: the sections are rendered from the summary, the header filled in here.
    let from_summary = |mut summary: Summary| -> Result<_> {
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
        body.push_str(&crate::model::summary::render_sections(&summary, &evidence_lines(&digest)));
        Ok((body, tags, Some(summary), Vec::new()))
    };
    let (text, tags, summary, fixes) = match source {
        NoteSource::Summary(path) => {
            let text = read_text(path)?;
            from_summary(crate::model::summary::parse(&text, &path.display().to_string())?)?
        }
        NoteSource::Given(summary) => from_summary(summary)?,
        NoteSource::Markdown(_) | NoteSource::WorkTree => {
            let (bytes, origin) = match source {
                NoteSource::Markdown(path) => {
                    (read_regular(path, note::MAX_BYTES, "the note")?, path.display().to_string())
                }
                _ => {
                    if let Err(err) = std::fs::metadata(&note_file) {
                        bail!(
                            "{rel}: cannot read the note ({err}); write it first (the header is in \
                             `git handoff snapshot`), or pass --summary FILE or --from FILE"
                        );
                    }
                    (read_regular(&note_file, note::MAX_BYTES, "the note")?, rel.clone())
                }
            };
            // Redacted before anything is added to it: a tag appended to each line of a key
            // pasted as prose would break the block apart, and the key would pass.
            let bytes = match String::from_utf8(bytes) {
                Ok(text) => match redactor.hide_secrets(&text) {
                    std::borrow::Cow::Owned(clean) => clean.into_bytes(),
                    std::borrow::Cow::Borrowed(_) => text.into_bytes(),
                },
                Err(err) => err.into_bytes(),
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
    // And once more on the final text, headers and tags included.
    let text = redactor.redact(&text).into_owned();
    // Tags quote the claims as the agent wrote them; they go to `note --json`, `show` and the
    // record that `sync` pushes, so they are redacted like the note itself.
    let tags: Vec<Tag> = tags
        .into_iter()
        .map(|t| Tag { item: redactor.redact_string(t.item), why: redactor.redact_string(t.why) })
        .collect();
    // What is committed passes its check, whatever the fields held: a note that would fail is
    // refused before HEAD, the index or the work tree changes.
    let committed = Note::parse(text.as_bytes())
        .map_err(|problem| check_failure(&rel, vec![problem.to_string()]))?;
    let problems: Vec<String> =
        committed.check(config, Some(attempt.issue)).iter().map(|p| p.to_string()).collect();
    if !problems.is_empty() {
        return Err(check_failure(&rel, problems));
    }
    let summary = summary.unwrap_or_else(|| Summary::of_note(&committed));
    let (commit, problems) = commit_note(repo, config, attempt.issue, &rel, &text, head)?;
    let record = Record {
        kind: RecordKind::Agent,
        summary: Some(summary),
        tags: tags.clone(),
        ..base_record(repo, config, attempt, reason_of(&text), commit, &rel, &digest)?
    };
    records::store_replacing(repo, &config.notes_ref, commit, &record, replaced).with_context(
        || {
            format!(
                "the note is committed as {} (HEAD moved to it), but its record could not be \
                 stored; run `git handoff note` again to store it",
                &commit.to_string()[..12]
            )
        },
    )?;
    Ok(NoteOutcome {
        commit: Some(commit.to_string()),
        path: Some(rel),
        kind: Some(RecordKind::Agent),
        tags,
        digest_line: digest.line(),
        skipped: None,
        fixes,
        problems,
        warnings: Vec::new(),
    })
}

fn read_text(path: &Path) -> Result<String> {
    let bytes = read_regular(path, note::MAX_BYTES, "the summary")?;
    String::from_utf8(bytes).map_err(|err| {
        anyhow!(
            "{}: not UTF-8 (byte {}); save it as UTF-8 text",
            path.display(),
            err.utf8_error().valid_up_to()
        )
    })
}

/// The failed check as an error carrying its report (one `file:line: problem` a line), which the
/// command layer prints; nothing below it prints.
fn check_failure(origin: &str, problems: Vec<String>) -> anyhow::Error {
    let mut report: String = problems.iter().map(|p| format!("{origin}:{p}\n")).collect();
    report.push_str(NOT_COMMITTED);
    anyhow::Error::new(crate::util::error::NotPassed).context(report)
}

/// Fills a missing header, and corrects the fields git-handoff knows better (issue, started_at,
/// last_work_commit; the reason when `--reason` is given). Returns what it changed.
fn fill_header(
    note: &mut Note,
    attempt: &NoteAttempt,
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

/// Tags the note's claims in place. In Summary every list item and prose line is a done claim,
/// except under `### In progress`, `### Decisions`, `### Goal`, `### Next` (not claims of work
/// done) and the `Goal:` line; entries under `### Files touched` are checked as files. Every line
/// of Evidence that claims success is checked too.
pub fn tag_note(note: &mut Note, evidence: &Evidence) -> Vec<Tag> {
    let mut tags = Vec::new();
    let mut edits = Vec::new();
    if let Some(section) = note.section("Summary").cloned() {
        let headings = summary::subsections(note, &section);
        for item in note.claims(&section) {
            let sub = &headings[item.line - section.body_start];
            let why = match sub.as_deref() {
                Some("files touched" | "files") => claims::check_file(&item.text, evidence),
                Some("in progress" | "decisions" | "goal" | "next" | "next steps") => None,
                _ if item.text.starts_with("Goal:") => None,
                _ => claims::check_done(&item.text, evidence),
            };
            if let Some(why) = why {
                edits.push((item.last_line, item.text, why));
            }
        }
    }
    if let Some(section) = note.section("Evidence").cloned() {
        for item in note.claims(&section) {
            if let Some(why) = claims::check_evidence(&item.text, evidence) {
                edits.push((item.last_line, item.text, why));
            }
        }
    }
    // Appended in one batch: the note's structure is recomputed once, however many tags.
    let mut appends = Vec::with_capacity(edits.len());
    for (line, item, why) in edits {
        appends.push((line, format!(" {} {why}]", claims::TAG_PREFIX)));
        tags.push(Tag { item, why });
    }
    note.append_to_lines(&appends);
    tags
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
    if let Some(check) = &digest.last_check {
        lines.push(format!("Last check: {} — {}.", code_span(&check.command), check.result()));
    }
    lines
}

fn reason_of(text: &str) -> Option<String> {
    text.lines().find_map(|l| l.strip_prefix("reason:")).map(|r| r.trim().to_string())
}
