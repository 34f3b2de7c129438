//! The file the first part's lines are kept in between snapshots (see
//! [`worktree_cache`](super::worktree_cache)): a line per path, under its key, after the context
//! every line shares; replaced whole, ending in a checksum, as the second part's
//! ([`stat_cache`](super::stat_cache)). One that cannot be read, is cut short or torn, or holds
//! another context is ignored.

use std::collections::HashMap;
use std::path::Path;

use gix::ObjectId;

use super::stat_cache;
use super::stat_render::FileStat;

pub(super) const MAGIC: &[u8] = b"git-handoff snapshot-worktree 1\n";
/// The most bytes kept (a first part of that many changed files is rare).
const MAX_BYTES: usize = 16 << 20;

/// What is kept for one path: the raw record's letter (none where git printed no record) and the
/// stat line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Line {
    pub path: Vec<u8>,
    pub letter: Option<u8>,
    pub stat: Option<FileStat>,
}

/// The lines kept under `context` in `file`, by key; `None` if there are none.
pub(super) fn read(file: &Path, context: &str) -> Option<HashMap<ObjectId, Line>> {
    let limit = MAX_BYTES as u64 + 4096;
    let data =
        crate::util::fs::read_regular_if_any(file, limit, "the snapshot's kept lines").ok()??;
    let body = stat_cache::verified(&data)?;
    let rest = body.strip_prefix(MAGIC)?.strip_prefix(context.as_bytes())?;
    let mut rest = rest.strip_prefix(b"\n")?;
    let mut lines = HashMap::new();
    while !rest.is_empty() {
        let (key, line, after) = decode(rest)?;
        lines.insert(key, line);
        rest = after;
    }
    Some(lines)
}

/// Keeps `lines` under `context` in `file`, replacing what was kept; failing, keeps nothing.
pub(super) fn write(file: &Path, context: &str, lines: &[(ObjectId, Line)]) {
    let mut data = Vec::new();
    data.extend_from_slice(MAGIC);
    data.extend_from_slice(context.as_bytes());
    data.push(b'\n');
    for (key, line) in lines {
        encode(&mut data, key, line);
        if data.len() > MAX_BYTES {
            return;
        }
    }
    let sum = stat_cache::checksum(&data);
    data.extend_from_slice(sum.as_bytes());
    let _ = crate::util::fs::replace_unsynced(file, &data);
}

/// One line as `<key> <letter or -> <n|s|b> <added> <deleted>\0<name>\0<path>\0`.
fn encode(out: &mut Vec<u8>, key: &ObjectId, line: &Line) {
    let letter = line.letter.unwrap_or(b'-');
    let (kind, added, deleted, name) = match &line.stat {
        None => (b'n', 0, 0, &[][..]),
        Some(stat) => {
            (if stat.binary { b'b' } else { b's' }, stat.added, stat.deleted, &stat.name[..])
        }
    };
    out.extend_from_slice(format!("{key} ").as_bytes());
    out.extend_from_slice(&[letter, b' ', kind]);
    out.extend_from_slice(format!(" {added} {deleted}").as_bytes());
    out.push(0);
    out.extend_from_slice(name);
    out.push(0);
    out.extend_from_slice(&line.path);
    out.push(0);
}

/// The line at the start of `data`, and what follows it.
fn decode(data: &[u8]) -> Option<(ObjectId, Line, &[u8])> {
    let mut fields = data.splitn(4, |&b| b == 0);
    let head = std::str::from_utf8(fields.next()?).ok()?;
    let name = fields.next()?;
    let path = fields.next()?;
    let rest = fields.next()?;
    let mut words = head.split(' ');
    let key = ObjectId::from_hex(words.next()?.as_bytes()).ok()?;
    let letter = match words.next()?.as_bytes() {
        b"-" => None,
        &[letter] => Some(letter),
        _ => return None,
    };
    let kind = words.next()?;
    let added = words.next()?.parse().ok()?;
    let deleted = words.next()?.parse().ok()?;
    if words.next().is_some() || path.is_empty() {
        return None;
    }
    let stat =
        |binary| FileStat { key: path.to_vec(), name: name.to_vec(), added, deleted, binary };
    let stat = match kind {
        "n" => None,
        "s" => Some(stat(false)),
        "b" => Some(stat(true)),
        _ => return None,
    };
    Some((key, Line { path: path.to_vec(), letter, stat }, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(path: &str, letter: Option<u8>, stat: Option<(u64, u64, bool)>) -> Line {
        let stat = stat.map(|(added, deleted, binary)| FileStat {
            key: path.as_bytes().to_vec(),
            name: format!("\"{path}\"").into_bytes(),
            added,
            deleted,
            binary,
        });
        Line { path: path.as_bytes().to_vec(), letter, stat }
    }

    #[test]
    fn kept_lines_come_back_as_written_and_only_under_their_context() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("kept");
        let key = |n: u8| ObjectId::from_bytes_or_panic(&[n; 20]);
        let lines = vec![
            (key(1), line("a b.txt", Some(b'M'), Some((2, 1, false)))),
            (key(2), line("bin", Some(b'M'), Some((12, 10, true)))),
            (key(3), line("gone", Some(b'D'), Some((0, 3, false)))),
            (key(4), line("touched", None, None)),
        ];
        write(&file, "c1", &lines);
        let read_back = read(&file, "c1").unwrap();
        assert_eq!(read_back.len(), 4);
        for (key, line) in &lines {
            assert_eq!(read_back.get(key), Some(line));
        }
        assert!(read(&file, "c2").is_none(), "another context");
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&file, &bytes[..bytes.len() - 3]).unwrap();
        assert!(read(&file, "c1").is_none(), "cut short");
    }

    #[test]
    fn a_line_of_another_shape_is_not_read() {
        let id = "01".repeat(20);
        for bad in [
            format!("{id} M s 1\0n\0p\0"),
            format!("{id} MM s 1 2\0n\0p\0"),
            format!("{id} M x 1 2\0n\0p\0"),
            format!("{id} M s 1 2\0n\0\0"),
            format!("{id} M s 1 2\0n\0p"),
            "zz M s 1 2\0n\0p\0".to_string(),
        ] {
            assert!(decode(bad.as_bytes()).is_none(), "{bad:?}");
        }
        let good = format!("{id} M s 1 2\0n\0p\0");
        assert!(decode(good.as_bytes()).is_some());
    }
}
