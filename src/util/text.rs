//! Small text helpers shared by every layer, and the one sanitizer of text shown on a terminal
//! or given to a model ([`escape_controls`]).

/// The first 12 characters of a commit id, for people (safe on any text: records can come from
/// other machines).
pub fn short_id(id: &str) -> &str {
    match id.char_indices().nth(12) {
        Some((end, _)) => &id[..end],
        None => id,
    }
}

/// `text` as it may be shown on a terminal or put in a model's context: every control character
/// a terminal (or a reader) would act on instead of showing is written out as an escape, so a
/// note, a record fetched from another clone, a hook payload or a file name can never clear the
/// screen, retitle the window, ring the bell or hide text. Escaped: C0 controls but the line
/// break and the tab when `keep_lines` (ESC is `\x1b`, so `ESC]0;title BEL` shows as
/// `\x1b]0;title\x07`), DEL (`\x7f`), the C1 controls (U+0080 to U+009F, `\u{9b}`, which some
/// terminals take as CSI) and the bidirectional overrides and isolates (U+202A to U+202E, U+2066
/// to U+2069), which reorder what is shown. Without `keep_lines` a line break and a tab are
/// escaped too (`\n`, `\t`), for one-line fields. No copy when nothing needs escaping. JSON output
/// does not go through this: serde escapes control characters itself.
pub fn escape_controls(text: &str, keep_lines: bool) -> std::borrow::Cow<'_, str> {
    let escaped = |c: char| match c {
        '\n' | '\t' => !keep_lines,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    };
    if !text.chars().any(escaped) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            _ if !escaped(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\u{0}'..='\u{1f}' | '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
            _ => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// JSON text with the characters serde passes through raw that a terminal or a model must not get
/// raw (DEL, the C1 controls, the bidirectional overrides and isolates) written as `\uXXXX`
/// escapes: the same JSON value, only spelled safely. They can stand only inside JSON strings, so
/// the replacement never touches the structure.
pub fn json_safe(json: String) -> String {
    let unsafe_char = |c: char| matches!(c, '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !json.chars().any(unsafe_char) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// [`escape_controls`] for bytes that may not be UTF-8 (git's output): invalid sequences become
/// U+FFFD first.
pub fn escape_controls_lossy(bytes: &[u8], keep_lines: bool) -> String {
    escape_controls(&String::from_utf8_lossy(bytes), keep_lines).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_not_acted_on() {
        let hostile = "a\x1b]0;pwned\x07b\x1b[2Jc\r\u{9b}31m\u{202e}d\x7f";
        let shown = escape_controls(hostile, true);
        assert_eq!(shown, "a\\x1b]0;pwned\\x07b\\x1b[2Jc\\x0d\\u{9b}31m\\u{202e}d\\x7f");
        assert!(!shown.chars().any(|c| c.is_control()));
        assert_eq!(escape_controls("line\n\tindented é 日本", true), "line\n\tindented é 日本");
        assert_eq!(escape_controls("a\nb\tc", false), "a\\nb\\tc");
        assert!(matches!(escape_controls("plain", true), std::borrow::Cow::Borrowed(_)));
        assert_eq!(escape_controls_lossy(b"\xff\x1b[m", true), "\u{fffd}\\x1b[m");
    }

    #[test]
    fn json_is_spelled_safely_and_means_the_same() {
        let value = serde_json::json!({"branch": "a\u{9b}31m\u{202e}b\u{7f}", "plain": "é"});
        let json = json_safe(serde_json::to_string(&value).unwrap());
        assert_eq!(json, r#"{"branch":"a\u009b31m\u202eb\u007f","plain":"é"}"#);
        assert_eq!(serde_json::from_str::<serde_json::Value>(&json).unwrap(), value);
    }
}
