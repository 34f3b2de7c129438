//! The summary route of `note`: the agent writes a small TOML file (`goal`, `done`,
//! `in_progress`, `decisions`, `next`, `files_touched`) and git-handoff renders the agent note's
//! three sections from it, so the agent spends its last tokens on facts, not on formatting.

use anyhow::{Result, anyhow};
use serde::{Deserialize, Serialize};

use crate::model::markdown::inline as field;
use crate::model::note::{Note, Section};

/// What the agent said it did and what remains.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Summary {
    pub goal: Option<String>,
    pub done: Vec<String>,
    pub in_progress: Vec<String>,
    pub decisions: Vec<String>,
    pub next: Vec<String>,
    pub files_touched: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct File {
    goal: Option<String>,
    done: Vec<String>,
    in_progress: Vec<String>,
    decisions: Vec<String>,
    next: Vec<String>,
    files_touched: Vec<String>,
}

/// Parses a summary file; errors name `origin` and the line.
pub fn parse(text: &str, origin: &str) -> Result<Summary> {
    let file: File = toml::from_str(text).map_err(|err| {
        let line = crate::model::config::toml_error_line(text, &err);
        anyhow!(
            "{origin}:{line}: {}; a summary has the keys goal (a string) and done, in_progress, \
             decisions, next, files_touched (lists of strings), all optional",
            err.message().trim()
        )
    })?;
    Ok(Summary {
        goal: file.goal,
        done: file.done,
        in_progress: file.in_progress,
        decisions: file.decisions,
        next: file.next,
        files_touched: file.files_touched,
    })
}

/// The agent note's body below the header: Summary, Remaining work, Evidence.
pub fn render_sections(summary: &Summary, evidence: &[String]) -> String {
    let mut out = String::from("\n## Summary\n\n");
    if let Some(goal) = summary.goal.as_deref().filter(|g| !g.trim().is_empty()) {
        out.push_str(&format!("Goal: {}\n", field(goal)));
    }
    for (title, items) in [
        ("Done", &summary.done),
        ("In progress", &summary.in_progress),
        ("Decisions", &summary.decisions),
        ("Files touched", &summary.files_touched),
    ] {
        if items.is_empty() {
            continue;
        }
        out.push_str(&format!("\n### {title}\n\n"));
        for item in items {
            out.push_str(&format!("- {}\n", field(item)));
        }
    }
    if summary.goal.is_none() && summary.done.is_empty() && summary.in_progress.is_empty() {
        out.push_str("none recorded\n");
    }
    out.push_str("\n## Remaining work\n\n");
    if summary.next.is_empty() {
        out.push_str("none recorded\n");
    }
    for item in &summary.next {
        out.push_str(&format!("- {}\n", field(item)));
    }
    out.push_str("\n## Evidence\n\n");
    for line in evidence {
        out.push_str(&format!("{line}\n"));
    }
    out
}

/// For each line of `section` (from its body start), the `### ` heading it sits under,
/// lower-cased: one pass, however many items there are.
pub fn subsections(note: &Note, section: &Section) -> Vec<Option<String>> {
    let mut current = None;
    (section.body_start..section.body_end)
        .map(|n| {
            if let Some(heading) = note.line(n).and_then(|l| l.strip_prefix("### ")) {
                current = Some(heading.trim().to_ascii_lowercase());
            }
            current.clone()
        })
        .collect()
}

impl Summary {
    /// The summary a Markdown note gives: Summary items by sub-heading, Remaining work as next
    /// steps.
    pub fn of_note(note: &Note) -> Summary {
        let mut summary = Summary::default();
        if let Some(section) = note.section("Summary").cloned() {
            let headings = subsections(note, &section);
            for item in note.claims(&section) {
                let sub = &headings[item.line - section.body_start];
                if sub.is_none() && item.text.starts_with("Goal:") {
                    continue;
                }
                let list = match sub.as_deref() {
                    Some("files touched" | "files") => &mut summary.files_touched,
                    Some("in progress") => &mut summary.in_progress,
                    Some("decisions") => &mut summary.decisions,
                    Some("next" | "next steps") => &mut summary.next,
                    _ => &mut summary.done,
                };
                list.push(item.text);
            }
            summary.goal = (section.body_start..section.body_end)
                .filter_map(|n| note.line(n))
                .find_map(|l| l.strip_prefix("Goal:"))
                .map(|g| g.trim().to_string());
        }
        if let Some(section) = note.section("Remaining work").cloned() {
            let emergency = note.kind() == crate::model::note::Kind::Emergency;
            for item in note.items(&section) {
                // An emergency note lists the progress plan there (`0 Parse input: pending`):
                // what is unfinished is in progress, as its record says; what is finished is no
                // next step.
                match item.text.rsplit_once(": ").filter(|_| emergency) {
                    Some((task, status @ ("pending" | "in_progress"))) => {
                        summary.in_progress.push(format!("{task} ({status})"))
                    }
                    Some((
                        _,
                        "done" | "abandoned" | "fixed" | "not_fixed" | "already_resolved",
                    )) => {}
                    _ => summary.next.push(item.text),
                }
            }
        }
        summary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_renders_all_keys() {
        let text = "goal = \"Fix the parser\"\ndone = [\"All tests pass now\"]\n\
                    in_progress = [\"docs\"]\ndecisions = [\"keep the API\"]\nnext = [\"ship\"]\n\
                    files_touched = [\"src/lib.rs\"]\n";
        let summary = parse(text, "s.toml").unwrap();
        let body = render_sections(&summary, &["From the log: 1 files edited".into()]);
        assert!(body.starts_with(
            "\n## Summary\n\nGoal: Fix the parser\n\n### Done\n\n- All tests pass now\n"
        ));
        assert!(body.contains(
            "\n## Remaining work\n\n- ship\n\n## Evidence\n\nFrom the log: 1 files edited\n"
        ));
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let err = parse("goal = \"x\"\ndone = \"not a list\"\n", "s.toml").unwrap_err();
        assert!(err.to_string().starts_with("s.toml:2: "), "{err}");
        let err = parse("goal = \"x\"\nwhatever = 1\n", "s.toml").unwrap_err();
        assert!(err.to_string().contains("s.toml:2: unknown field `whatever`"), "{err}");
    }
}
