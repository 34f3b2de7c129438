//! The header of an agent's note: filled in where it is missing, and corrected where git-handoff
//! knows better than the agent.

use anyhow::Result;
use gix::ObjectId;

use crate::model::config::Config;
use crate::model::note::{Header, Note};
use crate::store::handoff::place::NoteAttempt;

/// Fills a missing header, and corrects the fields git-handoff knows better (issue, started_at,
/// last_work_commit; the reason when `--reason` is given). Returns what it changed.
pub(super) fn fill_header(
    note: &mut Note,
    attempt: &NoteAttempt,
    reason: Option<&str>,
    head: ObjectId,
    config: &Config,
) -> Result<Vec<String>> {
    if let Some(reason) = reason {
        config.check_reason(reason)?;
    }
    let mut fixes = Vec::new();
    let header = Header {
        issue: attempt.issue,
        started_at: attempt.started_at.clone(),
        reason: reason.unwrap_or("agent_request").to_string(),
        last_work_commit: head.to_string(),
    }
    .render();
    if note.title().is_none() && note.fields().is_empty() {
        let mut lines: Vec<&str> = header.lines().collect();
        lines.push("");
        note.insert_lines(1, &lines);
        fixes.push("the note had no header: filled it in".to_string());
        return Ok(fixes);
    }
    if let Some(title) = note.title().cloned()
        && note.fields().is_empty()
    {
        // The four field lines of the rendered header, after its title and blank line.
        let mut lines: Vec<&str> = header.lines().skip(2).collect();
        lines.push("");
        let after_title = title.line + 1;
        if note.line(after_title).is_some_and(|l| l.trim().is_empty()) {
            note.insert_lines(after_title + 1, &lines);
        } else {
            lines.insert(0, "");
            note.insert_lines(after_title, &lines);
        }
        fixes.push("the note had a title but no header fields: filled them in".to_string());
        return Ok(fixes);
    }
    let head_hex = head.to_string();
    let issue = attempt.issue.to_string();
    let wanted = [
        ("issue", Some(issue.as_str())),
        ("started_at", Some(attempt.started_at.as_str())),
        ("reason", reason),
        ("last_work_commit", Some(head_hex.as_str())),
    ];
    for (name, value) in wanted {
        let Some(value) = value else { continue };
        let current = note.field(name).map(|f| f.value.clone());
        if let Some(current) = current
            && current != value
            && note.set_field(name, value)
        {
            fixes.push(format!("{name} was {current:?}, set to {value}"));
        }
    }
    Ok(fixes)
}
