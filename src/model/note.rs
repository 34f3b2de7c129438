//! The handoff note: the one model that every reader and writer of notes uses.
//!
//! A note is Markdown: a title (`# Handoff note: issue #N`), one blank line, the four header fields
//! (`issue`, `started_at`, `reason`, `last_work_commit`) in that order, then `## ` sections.
//! [`Note::parse`] keeps every source line with its own line ending (and a leading UTF-8 BOM), so
//! [`Note::render`] gives back the exact bytes it was given; edits ([`Note::set_field`],
//! [`Note::append_to_line`], [`Note::insert_lines`]) touch only the lines they change. Nothing is
//! normalised: CRLF, mixed endings and a missing final newline all survive a round trip.
//!
//! Only content that is not text (a NUL byte, or bytes that are not UTF-8) fails to parse; every
//! other flaw is a [`Problem`] from [`Note::check`], with the line it is on and how to mend it.
//!
//! **Agent or emergency?** A note whose first `## ` section is `Provenance` is an emergency note
//! (git-handoff wrote it from reconstructed facts); any other note is an agent note. Sections not
//! in the required list are allowed anywhere; the required ones must each appear once, in order.
//! Headings inside fenced code blocks (```` ``` ```` or `~~~`) are not headings.
//!
//! This file holds the note's parts and its edits; its children: [`parse`] (bytes into a note),
//! [`check`] (a note's flaws) and [`prose`] (a section's claims).

use std::fmt;

use serde::Serialize;

mod check;
mod parse;
mod prose;

use crate::model::markdown::{Fence, list_item};

/// The four header fields, in the order a note must give them.
pub const HEADER_FIELDS: [&str; 4] = ["issue", "started_at", "reason", "last_work_commit"];

/// The sections of an agent-written note, in order.
pub const AGENT_SECTIONS: [&str; 3] = ["Summary", "Remaining work", "Evidence"];

/// The sections of an emergency note, in order.
pub const EMERGENCY_SECTIONS: [&str; 8] = [
    "Provenance",
    "Changes",
    "Last model intent",
    "Activity trail",
    "Check state",
    "Budget facts",
    "Pointers",
    "Remaining work",
];

/// The most a note may hold. A note is read by the next session in one go; far larger input is a
/// runaway file, refused with a clear error instead of minutes of work.
pub const MAX_BYTES: u64 = 4 << 20;

const TITLE_PREFIX: &str = "# Handoff note: issue #";
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Which kind of note this is, told by its first section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Agent,
    Emergency,
}

impl Kind {
    /// The sections this kind of note must have, in order.
    pub fn sections(self) -> &'static [&'static str] {
        match self {
            Kind::Agent => &AGENT_SECTIONS,
            Kind::Emergency => &EMERGENCY_SECTIONS,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Agent => "agent",
            Kind::Emergency => "emergency",
        }
    }
}

/// One flaw of a note: the 1-based line it is on, what is wrong, and how to mend it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub line: usize,
    pub what: String,
    pub mend: String,
}

impl Problem {
    fn new(line: usize, what: impl Into<String>, mend: impl Into<String>) -> Problem {
        Problem { line, what: what.into(), mend: mend.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} — {}", self.line, self.what, self.mend)
    }
}

/// The title line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Title {
    pub line: usize,
    pub text: String,
    /// The issue named by a well-formed title.
    pub issue: Option<u64>,
}

/// A `name: value` header line (one of [`HEADER_FIELDS`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub line: usize,
    pub name: String,
    /// The value with surrounding spaces removed.
    pub value: String,
}

/// A `## ` section: its heading line and the lines of its body (`body_start..body_end`, 1-based,
/// end exclusive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub line: usize,
    pub name: String,
    pub body_start: usize,
    pub body_end: usize,
}

/// A list item of a section (`- x`, `* x`, `+ x`, `1. x`, `1) x`), with its continuation lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The line of the list marker.
    pub line: usize,
    /// The last line of the item: where a tag is appended.
    pub last_line: usize,
    /// The item's text, continuation lines joined with a space, marker removed.
    pub text: String,
}

/// The typed header, for writing a new note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub issue: u64,
    pub started_at: String,
    pub reason: String,
    pub last_work_commit: String,
}

impl Header {
    /// The title, blank line and four header lines, LF-terminated.
    pub fn render(&self) -> String {
        format!(
            "{}\n\nissue: {}\nstarted_at: {}\nreason: {}\nlast_work_commit: {}\n",
            title_for(self.issue),
            self.issue,
            self.started_at,
            self.reason,
            self.last_work_commit
        )
    }
}

/// One source line: its text without the ending, and the ending as found (`\n`, `\r\n` or none).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    text: String,
    end: &'static str,
}

/// A parsed handoff note. Structure is recomputed after every edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    bom: bool,
    lines: Vec<Line>,
    title: Option<Title>,
    fields: Vec<Field>,
    sections: Vec<Section>,
}

/// The title line for an issue.
pub fn title_for(issue: u64) -> String {
    format!("{TITLE_PREFIX}{issue}")
}

/// The message of a note commit.
pub fn commit_message(issue: u64) -> String {
    format!("Handoff note: issue #{issue}")
}

/// The issue of a note commit message (`Handoff note: issue #N` as its first line).
pub fn issue_of_commit_message(message: &str) -> Option<u64> {
    const PREFIX: &str = "Handoff note: issue #";
    // Asked of every commit of a push: a message whose first line does not start that way is
    // told at once, without finding where that line ends.
    let start = message.trim_start_matches(|c: char| c != '\n' && c.is_whitespace());
    if !start.starts_with(PREFIX) {
        return None;
    }
    let subject = message.lines().next()?.trim();
    parse_issue(subject.strip_prefix(PREFIX)?)
}

/// The issue named by a note file name, `<issue>.md`.
pub fn issue_of_file_name(name: &str) -> Option<u64> {
    parse_issue(name.strip_suffix(".md")?)
}

/// A plain decimal issue number (no sign, no spaces, no leading `+`).
fn parse_issue(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl Note {
    /// The exact bytes of the note: parse then render returns the input unchanged.
    pub fn render(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.lines.iter().map(|l| l.text.len() + 2).sum());
        if self.bom {
            out.extend_from_slice(BOM);
        }
        for line in &self.lines {
            out.extend_from_slice(line.text.as_bytes());
            out.extend_from_slice(line.end.as_bytes());
        }
        out
    }

    pub fn title(&self) -> Option<&Title> {
        self.title.as_ref()
    }

    /// The header fields found, in line order (duplicates and misplaced ones included).
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The first occurrence of a header field.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The `issue` field as a number, if well-formed.
    pub fn issue(&self) -> Option<u64> {
        self.field("issue").and_then(|f| parse_issue(&f.value))
    }

    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The first section with this exact name.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// Agent or emergency, from the first section.
    pub fn kind(&self) -> Kind {
        match self.sections.first() {
            Some(s) if s.name == EMERGENCY_SECTIONS[0] => Kind::Emergency,
            _ => Kind::Agent,
        }
    }

    /// The number of lines.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// The text of a 1-based line, without its ending.
    pub fn line(&self, line: usize) -> Option<&str> {
        self.lines.get(line.checked_sub(1)?).map(|l| l.text.as_str())
    }

    /// The body text of a section (line endings as LF).
    pub fn section_text(&self, section: &Section) -> String {
        let mut text = String::new();
        for n in section.body_start..section.body_end {
            if let Some(line) = self.line(n) {
                text.push_str(line);
                text.push('\n');
            }
        }
        text
    }

    /// The list items of a section, outside fenced code blocks.
    pub fn items(&self, section: &Section) -> Vec<Item> {
        let mut items: Vec<Item> = Vec::new();
        let mut open = false;
        let mut fence = Fence::default();
        for n in section.body_start..section.body_end {
            let text = self.line(n).unwrap_or("");
            if fence.feed(text) {
                open = false;
                continue;
            }
            if let Some(content) = list_item(text) {
                items.push(Item { line: n, last_line: n, text: content.trim().to_string() });
                open = true;
            } else if open && !text.trim().is_empty() && text.starts_with([' ', '\t']) {
                if let Some(item) = items.last_mut() {
                    item.last_line = n;
                    item.text.push(' ');
                    item.text.push_str(text.trim());
                }
            } else {
                open = false;
            }
        }
        items
    }

    /// The ending most lines use, for lines this model adds (`\n` when none).
    pub fn line_ending(&self) -> &'static str {
        let crlf = self.lines.iter().filter(|l| l.end == "\r\n").count();
        let lf = self.lines.iter().filter(|l| l.end == "\n").count();
        if crlf > lf { "\r\n" } else { "\n" }
    }

    /// Replaces the value of the first `name:` header line; false when there is none.
    pub fn set_field(&mut self, name: &str, value: &str) -> bool {
        let Some(line) = self.field(name).map(|f| f.line) else { return false };
        self.lines[line - 1].text = format!("{name}: {value}");
        self.reindex();
        true
    }

    /// Appends text to the end of a 1-based line (before its ending), e.g. an `[unverified: ...]`
    /// tag on an item's `last_line`. False when there is no such line.
    pub fn append_to_line(&mut self, line: usize, suffix: &str) -> bool {
        let Some(entry) = line.checked_sub(1).and_then(|i| self.lines.get_mut(i)) else {
            return false;
        };
        entry.text.push_str(suffix);
        self.reindex();
        true
    }

    /// Appends each `(line, suffix)` like [`Note::append_to_line`], recomputing the structure once:
    /// tagging thousands of items stays linear.
    pub fn append_to_lines(&mut self, edits: &[(usize, String)]) {
        for (line, suffix) in edits {
            if let Some(entry) = line.checked_sub(1).and_then(|i| self.lines.get_mut(i)) {
                entry.text.push_str(suffix);
            }
        }
        self.reindex();
    }

    /// Inserts lines before the 1-based line `at` (`line_count() + 1` appends), with the note's
    /// dominant line ending. A last line without an ending gets one first.
    pub fn insert_lines(&mut self, at: usize, texts: &[&str]) {
        let end = self.line_ending();
        let at = at.clamp(1, self.lines.len() + 1) - 1;
        if at == self.lines.len()
            && let Some(last) = self.lines.last_mut()
            && last.end.is_empty()
        {
            last.end = end;
        }
        let new = texts.iter().map(|t| Line { text: t.to_string(), end });
        self.lines.splice(at..at, new);
        self.reindex();
    }
}

/// A full commit id: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits.
pub fn is_full_hex(text: &str) -> bool {
    (text.len() == 40 || text.len() == 64)
        && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Text quoted in a message, cut to a readable length on a character boundary.
fn cut(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
