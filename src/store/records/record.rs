//! One handoff record and the note blob that holds a list of them: the record's fields and kind,
//! the TOML array of tables (`[[record]]`) a note blob is, and the merge of two lists that `sync`
//! writes when two machines annotated the same object.

use anyhow::{Context, Result, anyhow};
use serde::{Deserialize, Serialize};

use crate::agent::progress::ProgressItem;
use crate::model::claims::Tag;
use crate::model::summary::Summary;

/// What wrote a record. Stored as its name; a kind this version does not know (a record from a
/// newer git-handoff) is kept as written, so rewriting a record list never changes it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum RecordKind {
    /// The agent's checked note.
    #[default]
    Agent,
    /// The note git-handoff wrote because the agent wrote none.
    Emergency,
    /// The digest alone, on HEAD, when the agent wrote no note.
    Digest,
    /// An attempt began on a commit (a later session, or `start`, above an earlier note): kept
    /// on the commit's attempt key, so `validate` anywhere tells its work from a fault.
    Attempt,
    Other(String),
}

impl RecordKind {
    pub fn as_str(&self) -> &str {
        match self {
            RecordKind::Agent => "agent",
            RecordKind::Emergency => "emergency",
            RecordKind::Digest => "digest",
            RecordKind::Attempt => "attempt",
            RecordKind::Other(name) => name,
        }
    }
}

impl From<String> for RecordKind {
    fn from(name: String) -> Self {
        match name.as_str() {
            "agent" => RecordKind::Agent,
            "emergency" => RecordKind::Emergency,
            "digest" => RecordKind::Digest,
            "attempt" => RecordKind::Attempt,
            _ => RecordKind::Other(name),
        }
    }
}

impl From<RecordKind> for String {
    fn from(kind: RecordKind) -> Self {
        kind.as_str().to_string()
    }
}

impl From<crate::model::note::Kind> for RecordKind {
    fn from(kind: crate::model::note::Kind) -> Self {
        match kind {
            crate::model::note::Kind::Agent => RecordKind::Agent,
            crate::model::note::Kind::Emergency => RecordKind::Emergency,
        }
    }
}

impl std::fmt::Display for RecordKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One handoff record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Record {
    pub version: u32,
    pub kind: RecordKind,
    pub issue: Option<u64>,
    pub branch: Option<String>,
    pub started_at: Option<String>,
    pub reason: Option<String>,
    pub written_at: String,
    /// The commit the record describes (the note commit, or HEAD for a digest-only record).
    pub commit: String,
    pub note_path: Option<String>,
    pub seal_commit: Option<String>,
    pub digest_line: Option<String>,
    /// The digest as computed when the record was written.
    pub digest: Option<toml::Table>,
    pub summary: Option<Summary>,
    pub tags: Vec<Tag>,
    pub progress: Vec<ProgressItem>,
    /// The runtime's session id of the session that wrote it (a digest-only record is one per
    /// session), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

/// The blob format: every record of one annotated object.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Blob {
    #[serde(default)]
    record: Vec<Record>,
}

/// Renders records as a note blob.
pub fn render(records: &[Record]) -> Result<String> {
    toml::to_string(&Blob { record: records.to_vec() }).context("serialising a record")
}

/// Parses a note blob; `origin` names it in errors.
pub fn parse(bytes: &[u8], origin: &str) -> Result<Vec<Record>> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| anyhow!("{origin}: the record is not UTF-8 text"))?;
    let blob: Blob = toml::from_str(text)
        .map_err(|err| anyhow!("{origin}: not a git-handoff record: {}", err.message()))?;
    Ok(blob.record)
}

/// Merges two record lists: every record kept once, oldest first (ties in a fixed order, so both
/// machines of a sync write the same blob).
pub fn merge(mut ours: Vec<Record>, theirs: Vec<Record>) -> Vec<Record> {
    for record in theirs {
        if !ours.contains(&record) {
            ours.push(record);
        }
    }
    ours.sort_by(|a, b| {
        (&a.written_at, &a.commit, a.kind.as_str(), &a.started_at).cmp(&(
            &b.written_at,
            &b.commit,
            b.kind.as_str(),
            &b.started_at,
        ))
    });
    ours
}
