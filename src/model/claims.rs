//! Claim checking: which statements in a handoff note the event log cannot support.
//!
//! Claims are tagged, never dropped: ` [unverified: <why>]` is appended to the claim. A claim is a
//! done item of Summary (a list item, or a prose line outside In progress, Files touched, Decisions,
//! Goal and Next), or a line of Evidence. The rules, in the order they are tried (a claim gets at
//! most one tag, the first that applies):
//! 1. a file named as touched that the log shows no edit to;
//! 2. no tool calls at all: every done item (an Evidence line only when it claims success);
//! 3. a claim of success whose check failed or did not finish, naming the command. A claim is
//!    judged by the last run of the kind it names ("tests pass" by the last test run, "the build
//!    is green" by the last build, "clippy is clean" by the last lint), and a claim that names no
//!    kind by the last check of any kind;
//! 4. a claim that a test, build or lint passed with no readable run of that kind.
//!
//! Words are matched whole and case-insensitively, so "unverified" never reads as "verified",
//! "passage" never as "pass", and "working on it" is no claim of success. A claim that already
//! carries a tag is left as it is.

use serde::{Deserialize, Serialize};

use crate::model::verdict::{CheckKind, CheckOutcome, Named, Run};

/// A claim the event log cannot support.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    pub item: String,
    pub why: String,
}

/// Success words: a claim containing one claims success.
pub const SUCCESS_WORDS: [&str; 14] = [
    "pass",
    "passes",
    "passed",
    "passing",
    "green",
    "fixed",
    "works",
    "complete",
    "completed",
    "done",
    "resolved",
    "succeeded",
    "succeeds",
    "ok",
];

/// The marker that starts a tag.
pub const TAG_PREFIX: &str = "[unverified:";

/// The facts a claim is checked against, taken from the digest.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    /// Repository-relative paths the log shows edits to.
    pub files_edited: Vec<String>,
    pub tool_calls: u64,
    /// The last check of any kind.
    pub last_check: Option<Run>,
    /// The last check of each kind (test, build, lint), in [`CheckKind::ALL`] order.
    pub last_of_kind: [Option<Run>; 3],
}

impl Evidence {
    fn last_of(&self, kind: CheckKind) -> Option<&Run> {
        let at = CheckKind::ALL.iter().position(|k| *k == kind)?;
        self.last_of_kind[at].as_ref()
    }
}

/// The words of `text` (letters and digits), lower-cased, with existing tags left out.
fn words(text: &str) -> Vec<String> {
    let text = match text.find(TAG_PREFIX) {
        Some(at) => &text[..at],
        None => text,
    };
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// True when `text` claims success (a success word, whole, any case).
pub fn claims_success(text: &str) -> bool {
    words(text).iter().any(|w| SUCCESS_WORDS.contains(&w.as_str()))
}

/// What checks a claim names: kinds, and whether it names a check of any kind.
fn named(words: &[String]) -> (Vec<CheckKind>, bool) {
    let mut kinds = Vec::new();
    let mut any = false;
    for word in words {
        match Named::by_word(word) {
            Some(Named::Kind(kind)) if !kinds.contains(&kind) => kinds.push(kind),
            Some(Named::Any) => any = true,
            _ => {}
        }
    }
    (kinds, any)
}

/// Why a done item cannot be supported, if it cannot.
pub fn check_done(item: &str, evidence: &Evidence) -> Option<String> {
    if item.contains(TAG_PREFIX) {
        return None;
    }
    if evidence.tool_calls == 0 {
        return Some("no tool calls recorded in this attempt".to_string());
    }
    check_success(item, evidence)
}

/// Why a line of Evidence cannot be supported, if it cannot: only claims of success are judged
/// (a line that says what failed, or that nothing ran, claims nothing).
pub fn check_evidence(line: &str, evidence: &Evidence) -> Option<String> {
    if line.contains(TAG_PREFIX) || !claims_success(line) {
        return None;
    }
    if evidence.tool_calls == 0 {
        return Some("no tool calls recorded in this attempt".to_string());
    }
    check_success(line, evidence)
}

/// Rules 3 and 4: the runs a claim of success is judged by.
fn check_success(item: &str, evidence: &Evidence) -> Option<String> {
    let words = words(item);
    if !words.iter().any(|w| SUCCESS_WORDS.contains(&w.as_str())) {
        return None;
    }
    let (kinds, any) = named(&words);
    // The runs the claim is judged by, with the kind each stands for (None: any kind).
    let mut judged: Vec<(Option<CheckKind>, Option<&Run>)> =
        kinds.iter().map(|k| (Some(*k), evidence.last_of(*k))).collect();
    if kinds.is_empty() {
        judged.push((None, evidence.last_check.as_ref()));
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
    if kinds.is_empty() && !any {
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

/// Why a "files touched" entry cannot be supported, if it cannot.
pub fn check_file(entry: &str, evidence: &Evidence) -> Option<String> {
    if entry.contains(TAG_PREFIX) {
        return None;
    }
    let path = entry.trim().trim_matches('`').trim_start_matches("./");
    let path = path.split_whitespace().next().unwrap_or(path).trim_matches('`');
    if path.is_empty() {
        return None;
    }
    let edited =
        evidence.files_edited.iter().any(|f| f == path || f.ends_with(&format!("/{path}")));
    let under = evidence
        .files_edited
        .iter()
        .any(|f| f.starts_with(&format!("{}/", path.trim_end_matches('/'))));
    if edited || under { None } else { Some(format!("no edit to {path} in the event log")) }
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
mod tests {
    use super::*;

    fn run(command: &str, outcome: CheckOutcome) -> Run {
        Run { command: command.to_string(), outcome }
    }

    /// Evidence whose checks ran in the order given.
    fn evidence(runs: &[Run]) -> Evidence {
        let mut ev = Evidence {
            files_edited: vec!["src/lib.rs".into(), "tests/a.rs".into()],
            tool_calls: 12,
            ..Evidence::default()
        };
        for r in runs {
            let kind = CheckKind::of_command(&r.command);
            let at = CheckKind::ALL.iter().position(|k| *k == kind).unwrap();
            ev.last_of_kind[at] = Some(r.clone());
            ev.last_check = Some(r.clone());
        }
        ev
    }

    #[test]
    fn failing_check_tags_success_claims_with_the_command() {
        let ev = evidence(&[run("npm test", CheckOutcome::Failed)]);
        assert_eq!(check_done("All tests pass now", &ev).unwrap(), "last `npm test` failed");
        assert_eq!(check_done("Parser FIXED", &ev).unwrap(), "last `npm test` failed");
        assert_eq!(check_done("Wrote the parser", &ev), None);
        assert_eq!(check_done("Investigated the passage of time", &ev), None);
        assert_eq!(check_done("bypass the cache", &ev), None);
        assert_eq!(check_done("working on the fix", &ev), None, "working is no success");
    }

    #[test]
    fn a_claim_is_judged_by_its_own_kind() {
        let ev = evidence(&[
            run("cargo test", CheckOutcome::Failed),
            run("cargo build", CheckOutcome::Passed),
        ]);
        assert_eq!(check_done("All tests pass", &ev).unwrap(), "last `cargo test` failed");
        assert_eq!(check_done("The build passes", &ev), None);
        assert_eq!(check_done("Parser fixed", &ev), None, "judged by the last check: the build");
        assert_eq!(check_done("clippy is green", &ev).unwrap(), "no lint run recorded");
        assert_eq!(check_done("all checks pass", &ev), None);
        let ev = evidence(&[
            run("cargo build", CheckOutcome::Passed),
            run("cargo test", CheckOutcome::Passed),
        ]);
        assert_eq!(check_done("build and tests pass", &ev), None);
    }

    #[test]
    fn an_unfinished_check_did_not_finish() {
        let ev = evidence(&[run("cargo test", CheckOutcome::Unfinished)]);
        assert_eq!(check_done("Tests pass", &ev).unwrap(), "last `cargo test` did not finish");
    }

    #[test]
    fn unverified_is_not_verified_and_tags_are_not_doubled() {
        let ev = evidence(&[run("npm test", CheckOutcome::Failed)]);
        let tagged = tag("Tests pass", "last `npm test` failed");
        assert_eq!(tagged, "Tests pass [unverified: last `npm test` failed]");
        assert_eq!(check_done(&tagged, &ev), None);
        assert!(!claims_success("claims are unverified"));
    }

    #[test]
    fn unreadable_or_missing_checks_tag_check_claims_only() {
        let piped = evidence(&[run("cargo test | tail", CheckOutcome::Unreadable)]);
        assert_eq!(
            check_done("cargo tests are green", &piped).unwrap(),
            "`cargo test | tail` ran without a readable exit status"
        );
        assert_eq!(check_done("Refactor done", &piped), None);
        let none = evidence(&[]);
        assert_eq!(check_done("build passes", &none).unwrap(), "no build run recorded");
        assert_eq!(
            check_done("CI is green", &none).unwrap(),
            "no test, build or lint run recorded"
        );
        let ok = evidence(&[run("cargo test", CheckOutcome::Passed)]);
        assert_eq!(check_done("All tests pass", &ok), None);
    }

    #[test]
    fn evidence_lines_claim_only_when_they_claim_success() {
        let ev = evidence(&[run("cargo test", CheckOutcome::Failed)]);
        assert_eq!(
            check_evidence("cargo test: all green", &ev).unwrap(),
            "last `cargo test` failed"
        );
        assert_eq!(check_evidence("cargo test failed (exit 101)", &ev), None);
        assert_eq!(check_evidence("no check run", &Evidence::default()), None);
    }

    #[test]
    fn no_tool_calls_tags_every_done_item() {
        let ev = Evidence::default();
        assert!(check_done("Wrote docs", &ev).is_some());
    }

    #[test]
    fn files_touched_need_an_edit() {
        let ev = evidence(&[]);
        assert_eq!(check_file("src/lib.rs", &ev), None);
        assert_eq!(check_file("`tests/a.rs` (new test)", &ev), None);
        assert_eq!(check_file("src/", &ev), None);
        assert_eq!(
            check_file("src/main.rs", &ev).unwrap(),
            "no edit to src/main.rs in the event log"
        );
    }
}
