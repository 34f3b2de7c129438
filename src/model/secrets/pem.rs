//! Private-key blocks, found by hand rather than by one regex: a block is a BEGIN marker, optional
//! `Name: value` header lines, base64 lines, and the END marker. Only that is a key. A marker
//! mentioned in prose (`files starting with -----BEGIN RSA PRIVATE KEY----- are rejected`) is not,
//! so redaction never eats the text after it.
//!
//! One case is hidden without an END marker: base64 lines that run on a new line to the end of the
//! text (a key cut short by a cap), or that hold a line as long as a real key's (40 or more
//! base64 characters), where only the marker and those lines go.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

/// The literal (lower case) any BEGIN marker holds, for a cheap test before the regex runs.
pub const HINT: &str = "private key";

/// A base64 run this long on its own is key material, even without an END marker.
const KEY_LINE: usize = 40;

fn begin() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----").expect("valid")
    })
}

/// The byte ranges of the private-key blocks in `text`.
pub fn blocks(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(m) = begin().find_at(text, from) {
        match block_end(text, m.end()) {
            Some(end) => {
                out.push(m.start()..end);
                from = end;
            }
            None => from = m.end(),
        }
    }
    out
}

/// Where the block whose BEGIN marker ends at `pos` ends, if it is a block.
fn block_end(text: &str, mut pos: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut body, mut longest, mut spaced, mut end) = (0usize, 0usize, false, pos);
    loop {
        let (next, newline, space) = skip_separators(bytes, pos);
        pos = next;
        if text[pos..].starts_with("-----END ") {
            let close = text[pos + 9..].find("-----")?;
            let marker = &text[pos + 9..pos + 9 + close];
            if !marker.ends_with("PRIVATE KEY") && !marker.ends_with("PRIVATE KEY BLOCK") {
                return None;
            }
            // Words between two markers on one line are prose; a key's lines are long.
            return (body > 0 && (!spaced || longest >= KEY_LINE)).then_some(pos + 9 + close + 5);
        }
        if body == 0
            && newline
            && let Some(after) = header_line(text, pos)
        {
            end = after;
            pos = after;
            continue;
        }
        let run = bytes[pos..].iter().take_while(|b| is_base64(**b)).count();
        if run == 0 {
            break;
        }
        // Words after a marker on the same line are prose, unless an END marker closes them.
        spaced |= space && !newline;
        body += run;
        longest = longest.max(run);
        pos += run;
        end = pos;
    }
    if body == 0 || spaced {
        return None;
    }
    let to_the_end = skip_separators(bytes, end).0 == bytes.len();
    (to_the_end || longest >= KEY_LINE).then_some(end)
}

/// Skips spaces, tabs, line breaks and escaped line breaks (`\n` in JSON or a shell string), and
/// a Markdown list or quote marker opening a line (`- `, `* `, `> `: a key pasted as list items).
/// Returns the new position, whether a line break was crossed, and whether a space was.
fn skip_separators(bytes: &[u8], mut pos: usize) -> (usize, bool, bool) {
    let (mut newline, mut space) = (false, false);
    while pos < bytes.len() {
        match bytes[pos] {
            b'\n' | b'\r' => newline = true,
            b'-' | b'*' | b'>' if newline && matches!(bytes.get(pos + 1), Some(b' ' | b'\t')) => {}
            b' ' | b'\t' => space = true,
            b'\\' if matches!(bytes.get(pos + 1), Some(b'n' | b'r')) => {
                newline = true;
                pos += 1;
            }
            _ => break,
        }
        pos += 1;
    }
    (pos, newline, space)
}

/// A `Proc-Type: 4,ENCRYPTED` style header line at `pos`: where it ends.
fn header_line(text: &str, pos: usize) -> Option<usize> {
    let rest = &text[pos..];
    let name = rest.bytes().take_while(|b| b.is_ascii_alphabetic() || *b == b'-').count();
    if name == 0 || !rest[name..].starts_with(": ") {
        return None;
    }
    let line = rest.find(['\n', '\r']).unwrap_or(rest.len());
    let escaped = rest.find("\\n").unwrap_or(rest.len());
    Some(pos + line.min(escaped))
}

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun";

    fn found(text: &str) -> Vec<&str> {
        blocks(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn a_whole_block_is_one_range() {
        let block = format!(
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,AB\n\n{BODY}\nxyz=\n-----END RSA PRIVATE KEY-----"
        );
        assert_eq!(found(&format!("a\n{block}\nb")), [block.as_str()]);
        let escaped =
            format!("\"-----BEGIN PRIVATE KEY-----\\n{BODY}\\n-----END PRIVATE KEY-----\\n\"");
        assert_eq!(found(&escaped).len(), 1);
        let spaced = format!(
            "K=-----BEGIN OPENSSH PRIVATE KEY----- {BODY} -----END OPENSSH PRIVATE KEY-----"
        );
        assert_eq!(found(&spaced).len(), 1);
    }

    #[test]
    fn a_mention_is_not_a_block() {
        for text in [
            "- Loader rejects files starting with -----BEGIN RSA PRIVATE KEY----- when encrypted\n## Next\n",
            "-----BEGIN RSA PRIVATE KEY-----",
            "x -----BEGIN RSA PRIVATE KEY----- and -----END RSA PRIVATE KEY----- y",
            "-----BEGIN RSA PRIVATE KEY-----\n- a list item\n-----END RSA PRIVATE KEY-----",
            "-----BEGIN EC PRIVATE KEY-----\nshort\n\nprose follows here\n",
        ] {
            assert_eq!(found(text), Vec::<&str>::new(), "{text}");
        }
    }

    #[test]
    fn a_block_cut_short_is_hidden_to_its_last_base64_line() {
        assert_eq!(
            found("x -----BEGIN PRIVATE KEY-----\nMIIE"),
            ["-----BEGIN PRIVATE KEY-----\nMIIE"]
        );
        let text = format!("-----BEGIN PRIVATE KEY-----\n{BODY}\n\n## Evidence\n");
        assert_eq!(found(&text), [format!("-----BEGIN PRIVATE KEY-----\n{BODY}")]);
    }
}
