//! Claim checking: which statements in a handoff note the event log cannot support.
//!
//! Claims are tagged, never dropped: ` [unverified: <why>]` is appended to the item. The rules,
//! in the order they are tried (an item gets at most one tag, the first that applies):
//! 1. a file named as touched that the log shows no edit to;
//! 2. no tool calls at all: every done item;
//! 3. the last check failed: a done item claiming success, naming the failing command;
//! 4. no check ran with a readable result: a done item claiming a test, build or lint passed.
//!
//! Words are matched whole and case-insensitively, so "unverified" never reads as "verified" and
//! "passage" never as "pass". An item that already carries a tag is left as it is.

use serde::{Deserialize, Serialize};

/// A claim the event log cannot support.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    pub item: String,
    pub why: String,
}

/// Success words: a done item containing one claims success.
pub const SUCCESS_WORDS: [&str; 15] = [
    "pass",
    "passes",
    "passed",
    "passing",
    "green",
    "fixed",
    "works",
    "working",
    "complete",
    "completed",
    "done",
    "resolved",
    "succeeded",
    "ok",
    "succeeds",
];

/// Words that make a success claim a claim about a check (test, build or lint).
pub const CHECK_WORDS: [&str; 18] = [
    "test",
    "tests",
    "testing",
    "build",
    "builds",
    "built",
    "lint",
    "lints",
    "linter",
    "clippy",
    "check",
    "checks",
    "ci",
    "suite",
    "compile",
    "compiles",
    "typecheck",
    "fmt",
];

/// The marker that starts a tag.
pub const TAG_PREFIX: &str = "[unverified:";

/// The facts a claim is checked against, taken from the digest.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    /// Repository-relative paths the log shows edits to.
    pub files_edited: Vec<String>,
    pub tool_calls: u64,
    /// The last check command: (command, ok, readable).
    pub last_check: Option<(String, bool, bool)>,
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

/// True when `text` claims a test, build or lint passed.
pub fn claims_check_passed(text: &str) -> bool {
    let words = words(text);
    words.iter().any(|w| CHECK_WORDS.contains(&w.as_str()))
        && words.iter().any(|w| SUCCESS_WORDS.contains(&w.as_str()))
}

/// Why a done item cannot be supported, if it cannot.
pub fn check_done(item: &str, evidence: &Evidence) -> Option<String> {
    if item.contains(TAG_PREFIX) {
        return None;
    }
    if evidence.tool_calls == 0 {
        return Some("no tool calls recorded in this attempt".to_string());
    }
    match &evidence.last_check {
        Some((command, false, _)) if claims_success(item) => {
            Some(format!("last `{}` failed", one_line(command)))
        }
        Some((_, true, true)) => None,
        _ if claims_check_passed(item) => match &evidence.last_check {
            Some((command, _, false)) => {
                Some(format!("`{}` ran without a readable exit status", one_line(command)))
            }
            _ => Some("no test, build or lint run recorded".to_string()),
        },
        _ => None,
    }
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

    fn evidence(check: Option<(&str, bool, bool)>) -> Evidence {
        Evidence {
            files_edited: vec!["src/lib.rs".into(), "tests/a.rs".into()],
            tool_calls: 12,
            last_check: check.map(|(c, ok, r)| (c.to_string(), ok, r)),
        }
    }

    #[test]
    fn failing_check_tags_success_claims_with_the_command() {
        let ev = evidence(Some(("npm test", false, true)));
        assert_eq!(check_done("All tests pass now", &ev).unwrap(), "last `npm test` failed");
        assert_eq!(check_done("Parser FIXED", &ev).unwrap(), "last `npm test` failed");
        assert_eq!(check_done("Wrote the parser", &ev), None);
        assert_eq!(check_done("Investigated the passage of time", &ev), None);
        assert_eq!(check_done("bypass the cache", &ev), None);
    }

    #[test]
    fn unverified_is_not_verified_and_tags_are_not_doubled() {
        let ev = evidence(Some(("npm test", false, true)));
        let tagged = tag("Tests pass", "last `npm test` failed");
        assert_eq!(tagged, "Tests pass [unverified: last `npm test` failed]");
        assert_eq!(check_done(&tagged, &ev), None);
        assert!(!claims_success("claims are unverified"));
    }

    #[test]
    fn unreadable_or_missing_checks_tag_check_claims_only() {
        let piped = evidence(Some(("cargo test | tail", true, false)));
        assert_eq!(
            check_done("cargo tests are green", &piped).unwrap(),
            "`cargo test | tail` ran without a readable exit status"
        );
        assert_eq!(check_done("Refactor done", &piped), None);
        let none = evidence(None);
        assert_eq!(
            check_done("build passes", &none).unwrap(),
            "no test, build or lint run recorded"
        );
        let ok = evidence(Some(("cargo test", true, true)));
        assert_eq!(check_done("All tests pass", &ok), None);
    }

    #[test]
    fn no_tool_calls_tags_every_done_item() {
        let ev = Evidence::default();
        assert!(check_done("Wrote docs", &ev).is_some());
    }

    #[test]
    fn files_touched_need_an_edit() {
        let ev = evidence(None);
        assert_eq!(check_file("src/lib.rs", &ev), None);
        assert_eq!(check_file("`tests/a.rs` (new test)", &ev), None);
        assert_eq!(check_file("src/", &ev), None);
        assert_eq!(
            check_file("src/main.rs", &ev).unwrap(),
            "no edit to src/main.rs in the event log"
        );
    }
}
