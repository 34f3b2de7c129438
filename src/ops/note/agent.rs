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
use super::header::fill_header;
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
    let (head, replaced) = last_work_commit(repo, config, attempt)?;
    let digest = digest::for_repo(repo, config)?;
    let evidence = evidence(&digest, repo);
    let redactor = Redactor::new(config)?;
    let rel = config.note_path(attempt.issue);
    let note_file = repo.inside_work_tree(&rel, "the note")?;
    let writing = AgentNote { config, attempt, reason, head, digest, evidence, redactor, rel };
    let drafted = match source {
        NoteSource::Summary(path) => {
            let text = read_text(path)?;
            writing
                .summary_draft(crate::model::summary::parse(&text, &path.display().to_string())?)?
        }
        NoteSource::Given(summary) => writing.summary_draft(summary)?,
        NoteSource::Markdown(path) => {
            let bytes = read_regular(path, note::MAX_BYTES, "the note")?;
            writing.markdown_draft(bytes, &path.display().to_string())?
        }
        NoteSource::WorkTree => {
            let bytes = read_work_tree_note(&note_file, &writing.rel)?;
            writing.markdown_draft(bytes, &writing.rel)?
        }
    };
    let (text, tags, committed) = writing.final_text(drafted.text, drafted.tags)?;
    let summary = drafted.summary.unwrap_or_else(|| Summary::of_note(&committed));
    let (commit, problems) = commit_note(repo, config, attempt.issue, &writing.rel, &text, head)?;
    writing.store_record(repo, commit, summary, &tags, &text, replaced)?;
    Ok(writing.outcome(commit, tags, drafted.fixes, problems))
}

/// The last work commit: HEAD, or the parent of this attempt's note commit that the new note
/// replaces; and that note commit, whose record goes when the new one is stored. A sealed attempt
/// takes no new note.
fn last_work_commit(
    repo: &Repo,
    config: &Config,
    attempt: &NoteAttempt,
) -> Result<(ObjectId, Option<ObjectId>)> {
    let place = place::place(repo, config, attempt)?;
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
    Ok((head, replaced))
}

/// The note file the agent wrote at the note path, `rel`.
fn read_work_tree_note(note_file: &Path, rel: &str) -> Result<Vec<u8>> {
    if let Err(err) = std::fs::metadata(note_file) {
        bail!(
            "{rel}: cannot read the note ({err}); write it first (the header is in \
             `git handoff snapshot`), or pass --summary FILE or --from FILE"
        );
    }
    read_regular(note_file, note::MAX_BYTES, "the note")
}

/// An agent's note being written: for which attempt, with which reason, on which last work commit
/// (`head`), what the event log says of it (its digest and the evidence claims are judged by),
/// and where it goes (`rel`).
struct AgentNote<'a> {
    config: &'a Config,
    attempt: &'a NoteAttempt,
    reason: Option<&'a str>,
    head: ObjectId,
    digest: Digest,
    evidence: Evidence,
    redactor: Redactor,
    rel: String,
}

/// The note's text before its last redaction and check, the tags on its claims, the summary it
/// was rendered from (if it was), and the header fields corrected.
struct Drafted {
    text: String,
    tags: Vec<Tag>,
    summary: Option<Summary>,
    fixes: Vec<String>,
}

impl AgentNote<'_> {
    /// The summary route: the sections are rendered from the summary, the header filled in here.
    fn summary_draft(&self, mut summary: Summary) -> Result<Drafted> {
        redact_summary(&self.redactor, &mut summary);
        let mut tags = claims::tag_done(&mut summary.done, &self.evidence);
        tags.extend(claims::tag_files(&mut summary.files_touched, &self.evidence));
        let reason = self.reason.unwrap_or("agent_request");
        self.config.check_reason(reason)?;
        let header = Header {
            issue: self.attempt.issue,
            started_at: self.attempt.started_at.clone(),
            reason: reason.to_string(),
            last_work_commit: self.head.to_string(),
        };
        let mut text = header.render();
        text.push_str(&crate::model::summary::render_sections(
            &summary,
            &evidence_lines(&self.digest),
        ));
        Ok(Drafted { text, tags, summary: Some(summary), fixes: Vec::new() })
    }

    /// The Markdown route: the note read from `origin` is redacted, its header filled in, its
    /// claims tagged, and it must pass its check.
    fn markdown_draft(&self, bytes: Vec<u8>, origin: &str) -> Result<Drafted> {
        // Redacted before anything is added to it: a tag appended to each line of a key
        // pasted as prose would break the block apart, and the key would pass.
        let bytes = match String::from_utf8(bytes) {
            Ok(text) => match self.redactor.hide_secrets(&text) {
                std::borrow::Cow::Owned(clean) => clean.into_bytes(),
                std::borrow::Cow::Borrowed(_) => text.into_bytes(),
            },
            Err(err) => err.into_bytes(),
        };
        let mut note = match Note::parse(&bytes) {
            Ok(note) => note,
            Err(problem) => return Err(check_failure(origin, vec![problem.to_string()])),
        };
        let (attempt, config) = (self.attempt, self.config);
        let fixes = fill_header(&mut note, attempt, self.reason, self.head, config)?;
        let tags = tag_note(&mut note, &self.evidence);
        let problems: Vec<String> =
            note.check(config, Some(attempt.issue)).iter().map(|p| p.to_string()).collect();
        if !problems.is_empty() {
            return Err(check_failure(origin, problems));
        }
        let text = String::from_utf8(note.render()).context("the note is UTF-8")?;
        Ok(Drafted { text, tags, summary: None, fixes })
    }

    /// The text to commit, redacted once more, headers and tags included; the tags, redacted as
    /// well; and the note the text parses to, which passes its check.
    fn final_text(&self, text: String, tags: Vec<Tag>) -> Result<(String, Vec<Tag>, Note)> {
        let redactor = &self.redactor;
        let text = redactor.redact(&text).into_owned();
        // Tags quote the claims as the agent wrote them; they go to `note --json`, `show` and the
        // record that `sync` pushes, so they are redacted like the note itself.
        let tags: Vec<Tag> = tags
            .into_iter()
            .map(|t| Tag {
                item: redactor.redact_string(t.item),
                why: redactor.redact_string(t.why),
            })
            .collect();
        // What is committed passes its check, whatever the fields held: a note that would fail is
        // refused before HEAD, the index or the work tree changes.
        let committed = Note::parse(text.as_bytes())
            .map_err(|problem| check_failure(&self.rel, vec![problem.to_string()]))?;
        let problems: Vec<String> = committed
            .check(self.config, Some(self.attempt.issue))
            .iter()
            .map(|p| p.to_string())
            .collect();
        if !problems.is_empty() {
            return Err(check_failure(&self.rel, problems));
        }
        Ok((text, tags, committed))
    }

    /// The agent record of the note commit `commit` (its note `text`), stored in place of the
    /// record of the note commit it `replaced`.
    fn store_record(
        &self,
        repo: &mut Repo,
        commit: ObjectId,
        summary: Summary,
        tags: &[Tag],
        text: &str,
        replaced: Option<ObjectId>,
    ) -> Result<()> {
        let (config, rel) = (self.config, &self.rel);
        let record = Record {
            kind: RecordKind::Agent,
            summary: Some(summary),
            tags: tags.to_vec(),
            ..base_record(repo, config, self.attempt, reason_of(text), commit, rel, &self.digest)?
        };
        records::store_replacing(repo, &config.notes_ref, commit, &record, replaced).with_context(
            || {
                format!(
                    "the note is committed as {} (HEAD moved to it), but its record could not be \
                     stored; run `git handoff note` again to store it",
                    &commit.to_string()[..12]
                )
            },
        )
    }

    /// What writing the note at `commit` produced.
    fn outcome(
        self,
        commit: ObjectId,
        tags: Vec<Tag>,
        fixes: Vec<String>,
        problems: Vec<String>,
    ) -> NoteOutcome {
        NoteOutcome {
            commit: Some(commit.to_string()),
            path: Some(self.rel),
            kind: Some(RecordKind::Agent),
            tags,
            digest_line: self.digest.line(),
            skipped: None,
            fixes,
            problems,
            warnings: Vec::new(),
        }
    }
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
