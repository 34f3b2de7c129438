//! Claim checking: which statements in a handoff note the event log cannot support.
//!
//! Claims are tagged, never dropped: ` [unverified: <why>]` is appended to the claim. A claim is a
//! done item of Summary (a list item, or a prose line outside In progress, Decisions, Goal and
//! Next), a line of Evidence, or an entry of Files touched (a claim that the file was edited). The
//! four rules of seed 002, in the order they are tried (a claim gets at most one tag):
//! 1. a file named as touched that the log shows no edit to (the only rule for Files touched);
//! 3. no tool calls at all (the handoff's own calls are not counted): every done item, and a line
//!    of Evidence that claims success;
//! 2. a claim of success whose check failed or did not finish, naming the command;
//! 4. a claim that a test, build or lint passed with no readable run to support it.
//!
//! A claim of success is judged by the last run of each kind it names ("tests pass" by the last
//! test run, "it compiles" by the last build or type check, "clippy is clean" by the last lint),
//! and a claim that names no kind ("fixed", "all good") by the last check of any kind. A run whose
//! exit status is unreadable (`npm test | tail`) never overrides an earlier readable run of the
//! same kind: it is judged by only when no readable run came before. A build claim with no build
//! run is judged by the last check of any kind (tests and lints compile the code too).
//!
//! How a claim is read (success, negation, hedges, the kinds it names) is [`reading`]'s business,
//! its words [`vocab`]'s and [`words`]'s; how a Files touched entry names its files, [`files`]'s.
//! A claim that already carries a tag is left as it is.

use serde::{Deserialize, Serialize};

use crate::model::verdict::{CheckKind, CheckOutcome, Run};

mod failures;
mod files;
mod kinds;
mod reading;
mod vocab;
mod words;

pub use reading::{Reading, read};

/// A claim the event log cannot support.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    pub item: String,
    pub why: String,
}

/// The marker that starts a tag.
pub const TAG_PREFIX: &str = "[unverified:";

/// The facts a claim is checked against, taken from the digest.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    /// Repository-relative paths the log shows edits to.
    pub files_edited: Vec<String>,
    /// Tool calls of the session's work (the handoff's own calls left out).
    pub tool_calls: u64,
    /// The top of the work tree as absolute paths (as named, and with links resolved): a Files
    /// touched entry may name a file by its absolute path.
    pub tops: Vec<String>,
    /// The checks of any kind.
    pub any: Runs,
    /// The checks of each kind, in [`CheckKind::ALL`] order.
    pub of_kind: [Runs; 4],
}

/// The runs of one kind (or of any kind) that claims are judged by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Runs {
    /// The last run.
    pub last: Option<Run>,
    /// The last run with a readable result (passed or failed).
    pub readable: Option<Run>,
}

impl Runs {
    /// Records a run after the ones seen.
    pub fn add(&mut self, run: Run) {
        if matches!(run.outcome, CheckOutcome::Passed | CheckOutcome::Failed) {
            self.readable = Some(run.clone());
        }
        self.last = Some(run);
    }

    /// The run a claim is judged by: the last, unless its status is unreadable and a readable
    /// run came before it.
    pub fn judged(&self) -> Option<&Run> {
        match &self.last {
            Some(run) if run.outcome == CheckOutcome::Unreadable => {
                self.readable.as_ref().or(Some(run))
            }
            last => last.as_ref(),
        }
    }
}

impl Evidence {
    fn of(&self, kind: CheckKind) -> &Runs {
        let at = CheckKind::ALL.iter().position(|k| *k == kind).unwrap_or(0);
        &self.of_kind[at]
    }
}

/// Why a done item cannot be supported, if it cannot.
pub fn check_done(item: &str, evidence: &Evidence) -> Option<String> {
    if item.contains(TAG_PREFIX) || item.trim().is_empty() {
        return None;
    }
    if evidence.tool_calls == 0 {
        return Some("no tool calls recorded in this attempt".to_string());
    }
    check_success(&read(item), evidence)
}

/// Why a line of Evidence cannot be supported, if it cannot: only claims of success are judged
/// (a line that says what failed, or that nothing ran, claims nothing).
pub fn check_evidence(line: &str, evidence: &Evidence) -> Option<String> {
    if line.contains(TAG_PREFIX) {
        return None;
    }
    let reading = read(line);
    if !reading.success {
        return None;
    }
    if evidence.tool_calls == 0 {
        return Some("no tool calls recorded in this attempt".to_string());
    }
    check_success(&reading, evidence)
}

/// Rules 2 and 4: the runs a claim of success is judged by.
fn check_success(reading: &Reading, evidence: &Evidence) -> Option<String> {
    if !reading.success {
        return None;
    }
    // The runs the claim is judged by, with the kind each stands for (None: any kind).
    let mut judged: Vec<(Option<CheckKind>, Option<&Run>)> = Vec::new();
    for kind in &reading.kinds {
        let own = evidence.of(*kind).judged();
        // A build claim with no build run: tests and lints compile the code too.
        let run = match (kind, own) {
            (CheckKind::Build, None) => evidence.any.judged(),
            _ => own,
        };
        judged.push((Some(*kind), run));
    }
    if reading.kinds.is_empty() {
        judged.push((None, evidence.any.judged()));
    }
    for (_, run) in &judged {
        match run {
            Some(Run { command, outcome: CheckOutcome::Failed }) => {
                return Some(format!("last `{}` failed", one_line(command)));
            }
            Some(Run { command, outcome: CheckOutcome::Unfinished }) => {
                return Some(format!("last `{}` did not finish", one_line(command)));
            }
            _ => {}
        }
    }
    // Rule 4 only for claims about a check; a plain "Parser fixed" needs no check run.
    if !reading.about_checks {
        return None;
    }
    for (kind, run) in judged {
        match run {
            Some(Run { command, outcome: CheckOutcome::Unreadable }) => {
                return Some(format!("`{}` ran without a readable exit status", one_line(command)));
            }
            None => {
                return Some(match kind {
                    Some(kind) => format!("no {} run recorded", kind.noun()),
                    None => "no test, build or lint run recorded".to_string(),
                });
            }
            _ => {}
        }
    }
    None
}

/// Rule 1: why a Files touched entry cannot be supported, if it cannot (see [`files`]).
pub fn check_file(entry: &str, evidence: &Evidence) -> Option<String> {
    if entry.contains(TAG_PREFIX) {
        return None;
    }
    files::unsupported(entry, &evidence.files_edited, &evidence.tops)
}

/// Appends the tag for `why` to `item`.
pub fn tag(item: &str, why: &str) -> String {
    format!("{} {TAG_PREFIX} {why}]", item.trim_end())
}

/// Checks a list of done items in place, returning the tags added.
pub fn tag_done(items: &mut [String], evidence: &Evidence) -> Vec<Tag> {
    tag_each(items, |item| check_done(item, evidence))
}

/// Checks a list of touched files in place, returning the tags added.
pub fn tag_files(items: &mut [String], evidence: &Evidence) -> Vec<Tag> {
    tag_each(items, |item| check_file(item, evidence))
}

fn tag_each(items: &mut [String], why: impl Fn(&str) -> Option<String>) -> Vec<Tag> {
    let mut tags = Vec::new();
    for item in items.iter_mut() {
        if let Some(why) = why(item) {
            tags.push(Tag { item: item.trim().to_string(), why: why.clone() });
            *item = tag(item, &why);
        }
    }
    tags
}

fn one_line(command: &str) -> String {
    let line = command.lines().next().unwrap_or("").trim();
    if line.chars().count() > 80 {
        let cut: String = line.chars().take(77).collect();
        format!("{cut}...")
    } else {
        line.to_string()
    }
}

#[cfg(test)]
mod tests;
