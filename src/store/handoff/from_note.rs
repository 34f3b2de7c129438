//! A record made from a note file, for a note commit the notes ref holds nothing on (one committed
//! with plain git, or rewritten by a rebase): the header's fields, the Summary's items and the
//! `[unverified: ...]` tags as written.

use crate::git::repo::Repo;
use crate::model::claims::TAG_PREFIX;
use crate::model::note::Note;
use crate::model::summary::Summary;
use crate::store::handoff::branch::NoteOnBranch;
use crate::store::records::{Record, RecordKind, Tag};
use crate::util::time;

/// The record a note commit would carry, read from its file (`text`, when the commit has it).
pub fn record(repo: &Repo, found: &NoteOnBranch, path: &str, text: Option<&str>) -> Record {
    let parsed = text.and_then(|t| Note::parse(t.as_bytes()).ok());
    let field = |name: &str| {
        parsed.as_ref().and_then(|n| n.field(name)).map(|f| f.value.trim().to_string())
    };
    let summary = parsed.as_ref().map(Summary::of_note);
    let tags = summary
        .iter()
        .flat_map(|s| s.done.iter().chain(&s.files_touched).chain(&s.in_progress).chain(&s.next))
        .filter_map(|item| split_tag(item))
        .collect();
    let written_at = jiff::Timestamp::from_second(found.time).map(time::format).unwrap_or_default();
    Record {
        version: 1,
        kind: parsed.as_ref().map_or(RecordKind::Agent, |n| n.kind().into()),
        issue: Some(found.issue),
        branch: repo.head().ok().and_then(|h| h.ref_name),
        started_at: field("started_at"),
        reason: field("reason"),
        written_at,
        commit: found.commit.to_string(),
        note_path: Some(path.to_string()),
        summary,
        tags,
        ..Record::default()
    }
}

/// The claim and the reason of an item that carries an `[unverified: <why>]` tag.
pub fn split_tag(item: &str) -> Option<Tag> {
    let at = item.find(TAG_PREFIX)?;
    let rest = &item[at + TAG_PREFIX.len()..];
    let why = rest.rfind(']').map_or(rest, |end| &rest[..end]);
    Some(Tag { item: item[..at].trim_end().to_string(), why: why.trim().to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_splits_into_claim_and_reason() {
        let tag = split_tag("All tests pass now [unverified: last `npm test` failed]").unwrap();
        assert_eq!(tag.item, "All tests pass now");
        assert_eq!(tag.why, "last `npm test` failed");
        assert!(split_tag("Rewrote the parser").is_none());
    }
}
