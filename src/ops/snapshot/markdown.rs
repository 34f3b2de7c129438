//! The snapshot as Markdown text: headings, each git output in a fenced block its content cannot
//! close, `+N more` lines. `snapshot` prints it (headings bold on a terminal) and the soft-threshold
//! prompt embeds it (plain), so both say the same thing.

use crate::ops::snapshot::{Capped, Snapshot};

/// Writes the snapshot's Markdown into `out`; `heading` styles each heading line.
pub fn write(snap: &Snapshot, heading: &dyn Fn(&str) -> String, out: &mut Vec<u8>) {
    let title = match snap.issue {
        Some(issue) => format!("# Snapshot: issue #{issue}"),
        None => "# Snapshot".to_string(),
    };
    line(out, format!("{}\n", heading(&title)));
    line(out, format!("branch: {}", snap.branch.as_deref().unwrap_or("(detached HEAD)")));
    line(out, format!("base: {}", snap.base.as_deref().unwrap_or("(none: unborn branch)")));
    line(out, format!("head: {}", snap.head.as_deref().unwrap_or("(none: unborn branch)")));
    if let Some(started) = &snap.started_at {
        line(out, format!("started_at: {started}"));
    }
    line(out, format!("taken_at: {}", snap.taken_at));

    let base = snap.base.as_deref().map(short_id).unwrap_or("(root)");
    section(out, heading, "git status --short", &snap.status, "(clean)");
    section(out, heading, &format!("git log --oneline {base}..HEAD"), &snap.log, "(no commits)");
    let summary: &[u8] =
        if snap.diff_stat.summary.is_empty() { b"(no changes)" } else { &snap.diff_stat.summary };
    line(out, format!("\n{}\n", heading(&format!("## git diff --stat {base}"))));
    fenced(out, &snap.diff_stat.lines, Some(summary), snap.diff_stat.more);

    if let Some(header) = &snap.header {
        line(out, format!("\n{}\n", heading("## Handoff note header")));
        let lines: Vec<Vec<u8>> = header.lines().map(|l| l.as_bytes().to_vec()).collect();
        fenced(out, &lines, None, 0);
    }
}

fn line(out: &mut Vec<u8>, text: String) {
    out.extend_from_slice(text.as_bytes());
    out.push(b'\n');
}

fn section(
    out: &mut Vec<u8>,
    heading: &dyn Fn(&str) -> String,
    title: &str,
    part: &Capped,
    empty: &str,
) {
    line(out, format!("\n{}\n", heading(&format!("## {title}"))));
    if part.lines.is_empty() {
        line(out, empty.to_string());
    } else {
        fenced(out, &part.lines, None, part.more);
    }
}

/// A fenced block whose fence is longer than any backtick run inside, so names cannot close it.
fn fenced(out: &mut Vec<u8>, lines: &[Vec<u8>], last: Option<&[u8]>, more: usize) {
    let longest = lines.iter().map(Vec::as_slice).chain(last).map(backtick_run).max();
    let fence = "`".repeat(longest.unwrap_or(0).max(2) + 1);
    line(out, fence.clone());
    for text in lines {
        out.extend_from_slice(text);
        out.push(b'\n');
    }
    if more > 0 {
        line(out, format!("+{more} more"));
    }
    if let Some(last) = last {
        out.extend_from_slice(last);
        out.push(b'\n');
    }
    line(out, fence);
}

fn backtick_run(line: &[u8]) -> usize {
    line.split(|&b| b != b'`').map(<[u8]>::len).max().unwrap_or(0)
}

/// The first 12 characters of a commit id.
fn short_id(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}
