//! The claims of a section: every list item (with its continuation lines) and every other line of
//! text outside fenced blocks, headings and HTML comments. A prose line of a Summary ("I fixed the
//! parser and all tests pass now.") claims as much as a list item does, so it is checked the same.

use super::{Item, Note, Section};
use crate::model::markdown::Fence;

impl Note {
    /// The list items and prose lines of `section`, in line order. A prose line is one item.
    pub fn claims(&self, section: &Section) -> Vec<Item> {
        let mut items = self.items(section).into_iter().peekable();
        let mut out = Vec::new();
        let mut fence = Fence::default();
        let mut n = section.body_start;
        while n < section.body_end {
            if let Some(item) = items.next_if(|item| item.line == n) {
                n = item.last_line + 1;
                out.push(item);
                continue;
            }
            let text = self.line(n).unwrap_or("");
            let line = n;
            n += 1;
            // Fence lines never belong to an item: `items` ends an item at a fence.
            if fence.feed(text) {
                continue;
            }
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') || text.starts_with("<!--") {
                continue;
            }
            out.push(Item { line, last_line: line, text: text.to_string() });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::model::note::Note;

    #[test]
    fn prose_lines_and_items_are_claims_fences_and_headings_are_not() {
        let text = "# Handoff note: issue #1\n\n## Summary\n\nI fixed the parser.\n\n- item one\n  \
                    continued\n- item two\n\n### In progress\n\n```\nnot a claim\n```\n\
                    <!-- a comment -->\nLast line\n\n## Evidence\n\ncargo test: all green\n";
        let note = Note::parse(text.as_bytes()).unwrap();
        let summary = note.section("Summary").unwrap().clone();
        let claims: Vec<(usize, String)> =
            note.claims(&summary).into_iter().map(|i| (i.line, i.text)).collect();
        assert_eq!(
            claims,
            [
                (5, "I fixed the parser.".to_string()),
                (7, "item one continued".to_string()),
                (9, "item two".to_string()),
                (17, "Last line".to_string()),
            ]
        );
        let evidence = note.section("Evidence").unwrap().clone();
        assert_eq!(note.claims(&evidence)[0].text, "cargo test: all green");
    }
}
