//! Paths as git prints them: `"a\tb\303\274"` style C quoting (`quote_c_style` in git), used
//! wherever git writes a path that holds a quote, a backslash, a control character, a space (in
//! `status --short`) or, under `core.quotePath`, a byte above 0x7f. Reading them back is kept for
//! the tests, which check that what is written here is what git reads.

/// `path` as `git status --short` prints it (`quote_path` with `QUOTE_PATH_QUOTE_SP` in git): in
/// double quotes with C escapes when it holds a control character, a quote, a backslash or (with
/// `quote_path_fully`, git's `core.quotePath`, on by default) a byte above 0x7f, and in double
/// quotes when it holds a space.
pub fn quote_status_path(path: &[u8], quote_path_fully: bool) -> Vec<u8> {
    let must_quote =
        |b: u8| b < 0x20 || b == 0x7f || b == b'"' || b == b'\\' || (b >= 0x80 && quote_path_fully);
    let quoted = path.iter().any(|&b| must_quote(b));
    if !quoted && !path.contains(&b' ') {
        return path.to_vec();
    }
    let mut out = Vec::with_capacity(path.len() + 8);
    out.push(b'"');
    for &b in path {
        if !must_quote(b) {
            out.push(b);
            continue;
        }
        out.push(b'\\');
        match b {
            0x07 => out.push(b'a'),
            0x08 => out.push(b'b'),
            b'\t' => out.push(b't'),
            b'\n' => out.push(b'n'),
            0x0b => out.push(b'v'),
            0x0c => out.push(b'f'),
            b'\r' => out.push(b'r'),
            b'"' | b'\\' => out.push(b),
            _ => out.extend_from_slice(&[b'0' + (b >> 6), b'0' + ((b >> 3) & 7), b'0' + (b & 7)]),
        }
    }
    out.push(b'"');
    out
}

/// The path in `text`: unquoted when it is in double quotes (gix-quote), else the bytes as they
/// are. `None` for a quoted path that does not end where it should or holds an escape git never
/// writes. The tests' check that what git-handoff quotes reads back as git reads it.
#[cfg(test)]
pub fn unquote(text: &[u8]) -> Option<Vec<u8>> {
    match unquote_prefix(text)? {
        (path, []) => Some(path),
        _ => None,
    }
}

/// The path at the start of `text`, unquoted when quoted, and the bytes after it.
#[cfg(test)]
pub fn unquote_prefix(text: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    use gix::bstr::ByteSlice;
    if !text.starts_with(b"\"") {
        return Some((text.to_vec(), &[]));
    }
    let (path, used) = gix::quote::ansi_c::undo(text.as_bstr()).ok()?;
    Some((path.to_vec(), &text[used..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_quoted_paths() {
        assert_eq!(unquote(b"src/a.rs").unwrap(), b"src/a.rs");
        assert_eq!(unquote(b"\"a b\"").unwrap(), b"a b");
        assert_eq!(unquote(b"\"tab\\there\\n\\\"q\\\"\\\\\"").unwrap(), b"tab\there\n\"q\"\\");
        assert_eq!(unquote(b"\"\\303\\274.txt\"").unwrap(), "ü.txt".as_bytes());
        assert_eq!(unquote(b"\"\\001\\177\"").unwrap(), b"\x01\x7f");
    }

    #[test]
    fn broken_quoting_is_none() {
        assert!(unquote(b"\"open").is_none());
        assert!(unquote(b"\"a\" tail").is_none());
        assert!(unquote(b"\"\\q\"").is_none());
        assert!(unquote(b"\"\\39\"").is_none());
        assert!(unquote(b"\"\\3").is_none());
    }

    #[test]
    fn status_quoting_round_trips() {
        assert_eq!(quote_status_path(b"src/a.rs", true), b"src/a.rs");
        assert_eq!(quote_status_path(b"a b", true), b"\"a b\"");
        assert_eq!(quote_status_path("ü x".as_bytes(), true), b"\"\\303\\274 x\"");
        assert_eq!(quote_status_path("ü".as_bytes(), false), "ü".as_bytes());
        assert_eq!(quote_status_path(b"t\tq\"\\\x01\x7f", true), b"\"t\\tq\\\"\\\\\\001\\177\"");
        for path in [&b"a b\tc"[..], "\u{e9}\n\"".as_bytes(), b"\x1b[m"] {
            assert_eq!(unquote(&quote_status_path(path, true)).unwrap(), path);
        }
    }

    #[test]
    fn prefix_leaves_the_rest() {
        let (path, rest) = unquote_prefix(b"\"a b\" -> \"c d\"").unwrap();
        assert_eq!(path, b"a b");
        assert_eq!(rest, b" -> \"c d\"");
    }
}
