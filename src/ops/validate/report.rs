//! What validation is asked to check ([`Range`]) and what it found ([`Report`], the shape of
//! `validate --json`, with each [`NoteReport`] and [`Problem`]).

use std::fmt;

use gix::ObjectId;
use serde::Serialize;

use crate::model::note::Kind;

/// Which commits to look at: reachable from `include`, and from none of `exclude` nor of the
/// remote-tracking refs of `exclude_remotes` (as `git rev-list <include> --not <exclude>
/// --remotes=<name>`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Range {
    pub include: Vec<ObjectId>,
    pub exclude: Vec<ObjectId>,
    pub exclude_remotes: Vec<String>,
}

/// One problem: `<location>:<line>: <what> — <mend>`. `location` is the note's path for problems
/// inside a note, else the commit's short id; `commit` is always the full id of the commit checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub location: String,
    pub line: Option<usize>,
    pub commit: Option<String>,
    pub what: String,
    pub mend: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {} — {}", self.location, self.what, self.mend),
            None => write!(f, "{}: {} — {}", self.location, self.what, self.mend),
        }
    }
}

/// One note commit that was checked.
#[derive(Debug, Clone, Serialize)]
pub struct NoteReport {
    pub commit: String,
    pub path: Option<String>,
    pub issue: Option<u64>,
    pub kind: Option<Kind>,
    /// The seal commit above the note, if any.
    pub seal: Option<String>,
    pub problems: usize,
}

/// The outcome of a validation.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub ok: bool,
    /// How many commits the range held.
    pub commits: usize,
    pub notes: Vec<NoteReport>,
    pub problems: Vec<Problem>,
}
