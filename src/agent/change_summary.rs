//! The change summary: the progress plan written in the shape an orchestrator already parses
//! (seed 004), so a coder cut off at any moment leaves a structurally complete artifact.
//!
//! ```markdown
//! # Change summary — ticket #245
//!
//! ## Status
//!
//! In progress — task 1 of 3
//!
//! ## Per-task summary
//!
//! ### Task 0: Parse input — done
//! Files: src/parse.rs
//! Outcome: parser handles quoted fields
//!
//! ### Task 1: Check fields — in progress
//! ### Task 2: Emit report — pending
//!
//! ## Files changed
//!
//! ## Quality gates
//!
//! ## Deferred items
//! ```
//!
//! Review mode names findings (`### F1: off by one — FIXED` with an `Action:` line, `none given`
//! when the finding was set without a note). Sections with
//! nothing to say yet read `(pending)` until the plan is complete, as the seed's scaffold does.

use crate::agent::digest::Digest;
use crate::agent::progress::{Item, Mode, Plan, Status};
use crate::model::markdown::{code_span, inline};

/// What the summary says besides the plan.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// The ticket (issue) number, when the attempt knows it.
    pub ticket: Option<u64>,
    /// The attempt's files, the handoff's own files left out.
    pub files_changed: Vec<String>,
    /// One line per check the event log saw, the last run of each.
    pub quality_gates: Vec<String>,
}

/// The quality gates: each check the event log saw, the last run of each, in the order they last
/// ran: `` `cargo test` — failed (exit 101) ``.
pub fn quality_gates(digest: &Digest) -> Vec<String> {
    digest.checks.iter().map(|c| format!("{} — {}", code_span(&c.command), c.result())).collect()
}

/// The summary's Markdown.
pub fn render(plan: &Plan, facts: &Facts) -> String {
    let mut out = match facts.ticket {
        Some(ticket) => format!("# Change summary — ticket #{ticket}\n"),
        None => "# Change summary\n".to_string(),
    };
    out.push_str(&format!("\n## Status\n\n{}\n", plan.status_line()));
    let title = match plan.mode {
        Mode::Tasks => "Per-task summary",
        Mode::Findings => "Per-finding summary",
    };
    out.push_str(&format!("\n## {title}\n\n"));
    if plan.items.is_empty() {
        out.push_str("(pending)\n");
    }
    let mut open = false;
    for item in &plan.items {
        let details = details(plan.mode, item);
        if open {
            out.push('\n');
        }
        out.push_str(&format!("### {}\n", heading(plan.mode, item)));
        for line in &details {
            out.push_str(line);
            out.push('\n');
        }
        open = !details.is_empty();
    }
    let pending = !plan.is_complete();
    out.push_str("\n## Files changed\n\n");
    list(&mut out, &facts.files_changed, if pending { "(pending)" } else { "none" });
    out.push_str("\n## Quality gates\n\n");
    list(&mut out, &facts.quality_gates, if pending { "(pending)" } else { "none recorded" });
    out.push_str("\n## Deferred items\n\n");
    let deferred: Vec<String> = plan
        .items
        .iter()
        .filter(|i| i.status.is_deferred())
        .map(|i| match &i.note {
            Some(note) => format!("{}: {}", heading(plan.mode, i), inline(note)),
            None => heading(plan.mode, i),
        })
        .collect();
    list(&mut out, &deferred, if pending { "(pending)" } else { "none" });
    out
}

/// `Task 0: Parse input — done`, `F1: off by one — FIXED`.
fn heading(mode: Mode, item: &Item) -> String {
    match mode {
        Mode::Tasks => {
            format!("Task {}: {} — {}", item.id, inline(&item.title), item.status.words())
        }
        Mode::Findings => {
            let status = match item.status {
                Status::Pending => "pending".to_string(),
                other => other.as_str().to_ascii_uppercase(),
            };
            format!("{}: {} — {status}", item.id, inline(&item.title))
        }
    }
}

/// The lines under an item's heading: `Files:` and `Outcome:` for a task, `Files:` and `Action:`
/// for a finding.
fn details(mode: Mode, item: &Item) -> Vec<String> {
    let mut lines = Vec::new();
    if !item.files.is_empty() {
        let files: Vec<String> = item.files.iter().map(|f| inline(f)).collect();
        lines.push(format!("Files: {}", files.join(", ")));
    }
    match (mode, &item.note) {
        (Mode::Tasks, Some(note)) => lines.push(format!("Outcome: {}", inline(note))),
        (Mode::Tasks, None) => {}
        (Mode::Findings, note) => lines.extend(action(item.status, note.as_deref())),
    }
    lines
}

/// A finding's `Action:` line: the note, or, once the finding is addressed without one, that
/// none was given (the seed overwrites "that finding's Status and Action" together).
pub fn action(status: Status, note: Option<&str>) -> Option<String> {
    match (status, note) {
        (_, Some(note)) => Some(format!("Action: {}", inline(note))),
        (Status::Pending, None) => None,
        (_, None) => Some(format!("Action: {NO_ACTION}")),
    }
}

/// The Action of a finding set without `--note`.
pub const NO_ACTION: &str = "none given";

fn list(out: &mut String, items: &[String], empty: &str) {
    if items.is_empty() {
        out.push_str(empty);
        out.push('\n');
    }
    for item in items {
        out.push_str(&format!("- {item}\n"));
    }
}

/// What `set` did, for its reply: `Set F1 to FIXED. Action: none given (add one with --note
/// TEXT).`, `Set task 0 to done. Outcome: parser handles quotes.`; `note_hint` names the way to
/// give a note.
pub fn set_line(mode: Mode, item: &Item, note_hint: &str) -> String {
    match mode {
        Mode::Tasks => {
            let outcome = item.note.as_ref().map(|n| format!(" Outcome: {n}.")).unwrap_or_default();
            format!("Set task {} to {}.{outcome}", item.id, item.status.words())
        }
        Mode::Findings => {
            let status = item.status.as_str().to_ascii_uppercase();
            let action = match (action(item.status, item.note.as_deref()), &item.note) {
                (Some(action), Some(_)) => format!(" {action}."),
                (Some(action), None) => format!(" {action} (add one with {note_hint})."),
                (None, _) => String::new(),
            };
            format!("Set {} to {status}.{action}", item.id)
        }
    }
}
