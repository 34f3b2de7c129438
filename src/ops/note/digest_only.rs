//! The digest-only handoff: the digest stored as a record on HEAD when the agent wrote no note,
//! so the next session at least knows which files changed.

use anyhow::Result;
use gix::ObjectId;

use crate::agent::digest::{self, Digest};
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::store::records::{self, Record, RecordKind};
use crate::util::time;

use crate::store::handoff::{NoteOnBranch, branch};

use super::commit::{existing_note, plan_items};
use super::outcome::NoteOutcome;
use crate::store::handoff::place::NoteAttempt;

/// The digest stored as a record on HEAD, for a session that ended without a note.
pub fn digest_only(
    repo: &mut Repo,
    config: &Config,
    issue: Option<u64>,
    started_at: Option<String>,
    base: Option<ObjectId>,
) -> Result<NoteOutcome> {
    let digest = digest::for_repo(repo, config)?;
    let skip = |why: String, digest: &Digest| NoteOutcome {
        commit: None,
        path: None,
        kind: None,
        tags: Vec::new(),
        digest_line: digest.line(),
        skipped: Some(why),
        fixes: Vec::new(),
        problems: Vec::new(),
        warnings: Vec::new(),
    };
    if digest.tool_calls == 0 {
        return Ok(skip("no tool calls recorded in this session".into(), &digest));
    }
    let Some(head) = repo.head()?.id else {
        return Ok(skip("HEAD has no commit yet".into(), &digest));
    };
    let on_head = records::read_lenient(repo, std::slice::from_ref(&config.notes_ref), head)?;
    let warnings = on_head.warnings;
    if let Some(existing) = records::latest(on_head.records)
        && existing.kind != RecordKind::Digest
    {
        let kind = crate::model::markdown::with_article(existing.kind.as_str());
        let why = format!("HEAD already has {kind} record");
        return Ok(NoteOutcome { warnings, ..skip(why, &digest) });
    }
    if let Some(note) = handoff_at(repo, head)? {
        let why = format!(
            "HEAD holds the handoff of issue #{} (note commit {})",
            note.issue, note.commit
        );
        return Ok(NoteOutcome { warnings, ..skip(why, &digest) });
    }
    if let (Some(issue), Some(started)) = (issue, &started_at) {
        let attempt = NoteAttempt { issue, started_at: started.clone(), base };
        if let Some(existing) = existing_note(repo, &attempt)? {
            let why = format!("the agent's note for issue #{issue} is in {existing}");
            return Ok(NoteOutcome { warnings, ..skip(why, &digest) });
        }
    }
    let head_ref = repo.head()?.ref_name;
    let record = Record {
        version: 1,
        kind: RecordKind::Digest,
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
    records::store(repo, &config.notes_ref, head, &record)?;
    Ok(NoteOutcome {
        commit: Some(head.to_string()),
        path: None,
        kind: Some(RecordKind::Digest),
        tags: Vec::new(),
        digest_line: digest.line(),
        skipped: None,
        fixes: Vec::new(),
        problems: Vec::new(),
        warnings,
    })
}

/// The note commit HEAD is, or the one a seal at HEAD sits on: a handoff the agent (or git-handoff)
/// already wrote there, which a digest-only record must not shadow.
fn handoff_at(repo: &Repo, head: ObjectId) -> Result<Option<NoteOnBranch>> {
    let walk = branch::Walk { start: head, stop: None, limit: 2 };
    let walked = branch::notes(repo, walk, |_| true)?;
    Ok(walked.notes.into_iter().find(|n| n.depth == 0 || n.seal_above == Some(head)))
}
