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
//! 4. a claim that a test, build, type check or lint passed with no readable run of its kind to
//!    support it ("no type check ran").
//!
//! Which runs judge a claim is [`judged`]'s business. How a claim is read (success, negation,
//! hedges, the kinds it names) is [`reading`]'s, its words [`vocab`]'s and [`words`]'s; how a
//! Files touched entry names its files, [`files`]'s. A claim that already carries a tag is left
//! as it is, and a line that claims nothing whatever the log says (an unticked box `[ ] Build
//! verified`, a table's rule `|---|`, a bare label `**Changes:**`) is never tagged.

use serde::{Deserialize, Serialize};

mod failures;
mod files;
mod judged;
mod kinds;
mod reading;
mod vocab;
mod words;

pub use judged::Judged;
pub use reading::{claims_nothing, read};

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
    /// The checks, as claims are judged by them.
    pub runs: Judged,
}

/// Why a done item cannot be supported, if it cannot.
pub fn check_done(item: &str, evidence: &Evidence) -> Option<String> {
    if item.contains(TAG_PREFIX) || item.trim().is_empty() || claims_nothing(item) {
        return None;
    }
    if evidence.tool_calls == 0 {
        return Some("no tool calls recorded in this attempt".to_string());
    }
    judged::unsupported(&read(item), &evidence.runs)
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
    judged::unsupported(&reading, &evidence.runs)
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

#[cfg(test)]
mod tests;
