//! Parsing: note bytes into lines that keep their own endings (and a leading BOM), then the title,
//! header fields and sections indexed from them. Headings inside fenced code blocks are not
//! headings.

use super::{
    BOM, Field, HEADER_FIELDS, Line, MAX_BYTES, Note, Problem, Section, TITLE_PREFIX, Title,
    parse_issue,
};
use crate::model::markdown::Fence;

impl Note {
    /// Parses note bytes. Fails only on content that is not text: a NUL byte (binary) or bytes that
    /// are not UTF-8; the problem says on which line.
    pub fn parse(bytes: &[u8]) -> Result<Note, Problem> {
        let (bom, body) = match bytes.strip_prefix(BOM) {
            Some(rest) => (true, rest),
            None => (false, bytes),
        };
        if bytes.len() as u64 > MAX_BYTES {
            return Err(Problem::new(
                1,
                format!(
                    "the note is {} bytes, more than the {} a handoff note may hold",
                    bytes.len(),
                    crate::util::paths::size(MAX_BYTES)
                ),
                "shorten it: the next session reads the whole note",
            ));
        }
        let line_of = |offset: usize| body[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
        if let Some(nul) = body.iter().position(|&b| b == 0) {
            return Err(Problem::new(
                line_of(nul),
                "the note is binary (it holds a NUL byte), not Markdown text",
                "rewrite the note as UTF-8 Markdown text",
            ));
        }
        let text = std::str::from_utf8(body).map_err(|err| {
            let at = err.valid_up_to();
            Problem::new(
                line_of(at),
                format!("the note is not UTF-8 (invalid byte at offset {})", at + bom as usize * 3),
                "save the note as UTF-8 text",
            )
        })?;
        let lines = text
            .split_inclusive('\n')
            .map(|raw| match raw.strip_suffix("\r\n") {
                Some(text) => Line { text: text.to_string(), end: "\r\n" },
                None => match raw.strip_suffix('\n') {
                    Some(text) => Line { text: text.to_string(), end: "\n" },
                    None => Line { text: raw.to_string(), end: "" },
                },
            })
            .collect();
        let mut note = Note { bom, lines, title: None, fields: Vec::new(), sections: Vec::new() };
        note.reindex();
        Ok(note)
    }

    /// Recomputes title, header fields and sections from the lines.
    pub(super) fn reindex(&mut self) {
        self.title = self.lines.first().filter(|l| is_h1(&l.text)).map(|l| Title {
            line: 1,
            text: l.text.clone(),
            issue: l.text.trim_end().strip_prefix(TITLE_PREFIX).and_then(parse_issue),
        });
        self.fields.clear();
        self.sections.clear();
        let mut fence = Fence::default();
        let first = if self.title.is_some() { 2 } else { 1 };
        for n in first..=self.lines.len() {
            let text = self.lines[n - 1].text.as_str();
            if fence.feed(text) {
                continue;
            }
            if let Some(name) = text.strip_prefix("## ") {
                if let Some(last) = self.sections.last_mut() {
                    last.body_end = n;
                }
                let name = name.trim().trim_end_matches('#').trim_end().to_string();
                self.sections.push(Section { line: n, name, body_start: n + 1, body_end: n + 1 });
                continue;
            }
            if !self.sections.is_empty() {
                continue;
            }
            if let Some((name, value)) = text.split_once(':')
                && HEADER_FIELDS.contains(&name)
            {
                self.fields.push(Field {
                    line: n,
                    name: name.to_string(),
                    value: value.trim().into(),
                });
            }
        }
        if let Some(last) = self.sections.last_mut() {
            last.body_end = self.lines.len() + 1;
        }
    }
}

fn is_h1(text: &str) -> bool {
    text.starts_with("# ") || text == "#"
}
