//! Recall's staleness line: what happened since the handoff (the last check, the commits and
//! the files), in one line, so a later failing check is never hidden behind the note's older
//! "passed"; and the headline's own check marked as the note's.

use crate::model::markdown::{capped, count};
use crate::store::handoff::since::{SUBJECTS, Since};
use crate::store::records::Record;

/// How many file names the line gives.
const FILES: usize = 5;

/// `Since the note: last `cargo test` failed (exit 101); 2 commits: more work, fix (+1 more);
/// 3 files changed: a.rs, b.rs, c.rs`. The check comes first: it is what the next session must
/// not miss when the line is shortened.
pub fn since_line(record: &Record, since: &Since) -> String {
    let what = if record.note_path.is_some() { "the note" } else { "the handoff" };
    let mut items = Vec::new();
    if let Some(check) = &since.check {
        items.push(format!("last `{}` {}", check.command, check.result));
    }
    match since.commits {
        Some(0) | None => {}
        Some(n) => {
            let (kept, _) = capped(&since.subjects, SUBJECTS);
            let more = n.saturating_sub(kept.len());
            let more = if more > 0 { format!(" (+{more} more)") } else { String::new() };
            items.push(format!(
                "{}: {}{more}",
                count(n as u64, "commit", "commits"),
                kept.join(", ")
            ));
        }
    }
    if !since.files.is_empty() {
        let (kept, more) = capped(&since.files, FILES);
        let more = more.map(|m| format!(" ({m})")).unwrap_or_default();
        items.push(format!(
            "{} changed: {}{more}",
            count(since.files.len() as u64, "file", "files"),
            kept.join(", ")
        ));
    }
    if items.is_empty() {
        items.push("nothing changed".to_string());
    }
    format!("Since {what}: {}", items.join("; "))
}

/// The record as the headline shows it when a check ran since: its own check phrase marked as
/// the note's (`at the note: last `cargo test` passed`), so it never reads as the current state.
pub fn dated(record: &Record, since: &Since) -> Record {
    let mut shown = record.clone();
    if since.check.is_some()
        && let Some(line) = &mut shown.digest_line
        && let Some(at) = line.find("last `")
    {
        line.insert_str(at, "at the note: ");
    }
    shown
}
