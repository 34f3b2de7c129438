//! Small Markdown and English pieces that notes, summaries and prompts share: code spans and
//! fences that the text inside cannot close, lists capped with a `+N more` line, and counts that
//! read as English ("1 file", "2 files"); and for reading, fenced code blocks and list items as
//! a note's lines hold them.
//!
//! Commands and file names come from the agent and may hold backticks of any length; a span or
//! fence one backtick longer than the longest run inside keeps the Markdown around it whole.

/// A field (a goal, an item, a title, an outcome) as inline text Markdown cannot read as
/// structure: inner newlines become spaces, so no heading, section or header line can start, and
/// fence markers are escaped, so no code block opens and swallows what follows.
pub fn inline(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    line.replace("```", "\\`\\`\\`").replace("~~~", "\\~\\~\\~")
}

/// `text` as an inline code span: delimited by one backtick more than its longest backtick run,
/// padded with a space where it starts or ends with a backtick (CommonMark strips one each side).
pub fn code_span(text: &str) -> String {
    let ticks = "`".repeat(longest_backtick_run(text) + 1);
    if text.starts_with('`') || text.ends_with('`') {
        format!("{ticks} {text} {ticks}")
    } else {
        format!("{ticks}{text}{ticks}")
    }
}

/// The fence for a block holding `text`: at least three backticks, longer than any run inside.
pub fn fence_for(text: &str) -> String {
    "`".repeat(longest_backtick_run(text).max(2) + 1)
}

/// `text` in a fenced block (a final newline added), or `empty` on its own line when blank.
pub fn fenced_block(out: &mut String, text: &str, empty: &str) {
    let text = text.trim_end_matches('\n');
    if text.is_empty() {
        out.push_str(empty);
        out.push('\n');
        return;
    }
    let fence = fence_for(text);
    out.push_str(&format!("{fence}\n{text}\n{fence}\n"));
}

/// The longest run of backticks in `text`.
pub fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// The first `max` items, then `+N more` for the rest.
pub fn capped<T: AsRef<str>>(items: &[T], max: usize) -> (Vec<&str>, Option<String>) {
    let kept = items.iter().take(max).map(AsRef::as_ref).collect();
    let more = (items.len() > max).then(|| format!("+{} more", items.len() - max));
    (kept, more)
}

/// `1 file`, `2 files`, `0 files`: a count and its noun in the right number.
pub fn count(n: u64, singular: &str, plural: &str) -> String {
    if n == 1 { format!("1 {singular}") } else { format!("{n} {plural}") }
}

/// Tracks fenced code blocks: `feed` returns true for lines inside a fence or that open/close one.
#[derive(Default)]
pub struct Fence {
    open: Option<(char, usize)>,
}

impl Fence {
    pub fn feed(&mut self, line: &str) -> bool {
        let trimmed = line.trim_start_matches(' ');
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |c| trimmed.chars().take_while(|x| *x == c).count());
        match (self.open, marker) {
            (Some((c, len)), Some(m))
                if m == c && run >= len && trimmed[run..].trim().is_empty() =>
            {
                self.open = None;
                true
            }
            (Some(_), _) => true,
            (None, Some(m)) if run >= 3 && line.len() - trimmed.len() < 4 => {
                self.open = Some((m, run));
                true
            }
            (None, _) => false,
        }
    }
}

/// The content of a list item line, without indentation and marker.
pub fn list_item(text: &str) -> Option<&str> {
    let rest = text.trim_start();
    if let Some(after) = rest.strip_prefix(['-', '*', '+']) {
        return (after.starts_with([' ', '\t'])).then_some(after);
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let after = rest[digits..].strip_prefix(['.', ')'])?;
    after.starts_with([' ', '\t']).then_some(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_fences_the_content_cannot_close() {
        assert_eq!(code_span("cargo test"), "`cargo test`");
        assert_eq!(code_span("echo `date`"), "`` echo `date` ``");
        assert_eq!(code_span("a ``b`` c"), "```a ``b`` c```");
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("x\n````\ny"), "`````");
    }

    #[test]
    fn english_counts_and_caps() {
        assert_eq!(count(1, "file", "files"), "1 file");
        assert_eq!(count(0, "file", "files"), "0 files");
        assert_eq!(count(3, "error", "errors"), "3 errors");
        let items: Vec<String> = (0..5).map(|i| i.to_string()).collect();
        assert_eq!(capped(&items, 3), (vec!["0", "1", "2"], Some("+2 more".to_string())));
        assert_eq!(capped(&items, 5).1, None);
    }
}
