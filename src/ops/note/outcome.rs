//! What a note is written from ([`NoteSource`]) and what writing it produced ([`NoteOutcome`], the shape
//! of `note --json`).

use std::path::Path;

use serde::Serialize;

use crate::store::records::{RecordKind, Summary, Tag};

/// What a handoff produced, in the shape of `note --json`.
#[derive(Debug, Clone, Serialize)]
pub struct NoteOutcome {
    /// The note commit (or, for a digest-only record, the commit it is attached to); null when
    /// nothing was written.
    pub commit: Option<String>,
    pub path: Option<String>,
    /// `agent`, `emergency`, `digest`, or `none` when nothing was written.
    #[serde(serialize_with = "kind_or_none")]
    pub kind: Option<RecordKind>,
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
    /// For the command to print after its output (a draft kept verbatim, a note that is not a
    /// record skipped); not part of `note --json`.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

impl NoteOutcome {
    /// The reply to an agent's handoff, in the words of seed 002, the same from the command and
    /// from the `handoff_note` tool: `Handoff saved for the next session. From the log: …`, then
    /// one line per tag, `Tagged [unverified]: "…" (…). Correct it if the log is right.`, then
    /// where the note is. `unverified` is the tag's word as the caller shows it (in colour on a
    /// terminal).
    pub fn saved_reply(&self, unverified: &str) -> Vec<String> {
        let mut lines = vec![format!(
            "Handoff saved for the next session. From the log: {}.",
            self.digest_line
        )];
        for tag in &self.tags {
            lines.push(format!(
                "Tagged {unverified}: \"{}\" ({}). Correct it if the log is right.",
                tag.item, tag.why
            ));
        }
        if let (Some(path), Some(commit)) = (&self.path, &self.commit) {
            lines.push(format!("Note: {path} in commit {commit}."));
        }
        lines
    }
}

/// The last line of a failed check's report: what happened and what to do.
pub const NOT_COMMITTED: &str =
    "The note was not committed: mend it and run `git handoff note` again.";

/// Where the agent's note comes from.
pub enum NoteSource<'a> {
    /// The note file at the note path in the work tree.
    WorkTree,
    /// A Markdown file elsewhere.
    Markdown(&'a Path),
    /// A TOML summary.
    Summary(&'a Path),
    /// A summary given as data (the `handoff_note` agent tool).
    Given(Summary),
}

fn kind_or_none<S: serde::Serializer>(kind: &Option<RecordKind>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.as_ref().map_or("none", RecordKind::as_str))
}
