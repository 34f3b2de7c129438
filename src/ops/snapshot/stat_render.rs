//! `git diff --stat` put together from the outputs of two gits that each diffed part of the paths
//! (see [`diff_split`](super::diff_split)). Each part is asked for `--numstat -z` and for
//! `--stat` wide enough that nothing is cut or scaled: the numbers and the paths in git's order
//! come from the numstat, the names as git prints them (quoted, renames as `{old => new}`) and the
//! sizes of binary files from the stat. The lines are then laid out as git's `show_stats`
//! (`diff.c`, unchanged in this respect from 2.40 to 2.55) lays them out for the whole: the name
//! column as wide as the longest name or cut to fit the terminal's width with `...`, the count
//! column as wide as the largest count, the graph scaled to what is left.
//!
//! What this layout cannot repeat byte for byte makes the parse answer `None`, and the caller runs
//! the diff whole: a name that is not ASCII (git measures its display width with its own table,
//! and cut such names otherwise before 2.54), a name that ends in a space (it cannot be told from
//! the padding), a conflict, or output of another shape than expected.

/// One line of the stat: the path it sorts by, the name git prints, and the counts (for a binary
/// file, its sizes after and before).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FileStat {
    /// The path (for a rename, the new one) as bytes, in the order git lists them.
    pub key: Vec<u8>,
    /// The name as git prints it in the stat.
    pub name: Vec<u8>,
    pub added: u64,
    pub deleted: u64,
    pub binary: bool,
}

/// The width git gives the stat when its output is not a terminal: `COLUMNS` when it is a
/// positive number, else 80 (`term_columns` in git's `pager.c`). The number is read as glibc's
/// `atoi` reads it: a `long` from `strtol` (clamped), cut to an `int`.
pub(super) fn columns(value: Option<&[u8]>) -> i64 {
    let Some(value) = value else { return 80 };
    let start = value.iter().position(|b| !b" \t\n\x0b\x0c\r".contains(b)).unwrap_or(value.len());
    let rest = &value[start..];
    let (negative, digits) = match rest.first() {
        Some(b'-') => (true, &rest[1..]),
        Some(b'+') => (false, &rest[1..]),
        _ => (false, rest),
    };
    let mut n: u64 = 0;
    for &b in digits.iter().take_while(|b| b.is_ascii_digit()) {
        n = n.saturating_mul(10).saturating_add(u64::from(b - b'0'));
    }
    // strtol clamps to LONG_MIN and LONG_MAX.
    let long = match negative {
        true => 0i64.checked_sub_unsigned(n).unwrap_or(i64::MIN),
        false => i64::try_from(n).unwrap_or(i64::MAX),
    };
    let int = long as i32;
    if int > 0 { i64::from(int) } else { 80 }
}

/// Parses one part's `git diff --numstat -z --stat=<wide>` output. `None` when it is not in the
/// shape expected or holds a line the layout cannot repeat (see the module's docs).
pub(super) fn parse(out: &[u8]) -> Option<Vec<FileStat>> {
    let mut rest = out;
    let mut files = Vec::new();
    while rest.first().is_some_and(|b| b.is_ascii_digit() || *b == b'-') {
        let (added, after) = split_at_byte(rest, b'\t')?;
        let (deleted, after) = split_at_byte(after, b'\t')?;
        let (key, after) = if let Some(renamed) = after.strip_prefix(b"\0") {
            let (_from, after) = split_at_byte(renamed, 0)?;
            split_at_byte(after, 0)?
        } else {
            split_at_byte(after, 0)?
        };
        let binary = added == b"-" && deleted == b"-";
        let (added, deleted) = if binary { (0, 0) } else { (number(added)?, number(deleted)?) };
        if key.last() == Some(&b' ') {
            return None;
        }
        files.push(FileStat { key: key.to_vec(), name: Vec::new(), added, deleted, binary });
        rest = after;
    }
    // The stat: a line per file, then the summary.
    let text = rest.strip_suffix(b"\n").unwrap_or(rest);
    let mut lines =
        if text.is_empty() { Vec::new() } else { text.split(|&b| b == b'\n').collect() };
    if files.is_empty() {
        return lines.is_empty().then_some(files);
    }
    lines.pop()?;
    if lines.len() != files.len() {
        return None;
    }
    for (file, line) in files.iter_mut().zip(lines) {
        let line = line.strip_prefix(b" ")?;
        let bar = line.windows(3).rposition(|w| w == b" | ")?;
        let name = trim_end_spaces(&line[..bar]);
        if name.is_empty() || !name.is_ascii() {
            return None;
        }
        file.name = name.to_vec();
        let tail = trim_start_spaces(&line[bar + 3..]);
        if file.binary {
            let sizes = tail.strip_prefix(b"Bin")?;
            if !sizes.is_empty() {
                let sizes = sizes.strip_prefix(b" ")?.strip_suffix(b" bytes")?;
                let arrow = sizes.windows(4).position(|w| w == b" -> ")?;
                file.deleted = number(&sizes[..arrow])?;
                file.added = number(&sizes[arrow + 4..])?;
            }
        } else {
            let count = tail.iter().take_while(|b| b.is_ascii_digit()).count();
            if number(&tail[..count])? != file.added + file.deleted {
                return None;
            }
        }
    }
    Some(files)
}

/// Whether git's stat line for `path` is one [`parse`] reads, so one the layout repeats: a name
/// git prints in ASCII (quoted, where `core.quotePath` is on, when it is not ASCII), which does
/// not end in a space.
pub(super) fn lays_out(path: &[u8], quote_path_fully: bool) -> bool {
    !path.ends_with(b" ") && (quote_path_fully || path.is_ascii())
}

fn split_at_byte(bytes: &[u8], at: u8) -> Option<(&[u8], &[u8])> {
    let i = bytes.iter().position(|&b| b == at)?;
    Some((&bytes[..i], &bytes[i + 1..]))
}

fn number(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(bytes).ok()?.parse().ok()
}

fn trim_end_spaces(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    &bytes[..end]
}

fn trim_start_spaces(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| b != b' ').unwrap_or(bytes.len());
    &bytes[start..]
}

/// The digits of `n` (`decimal_width` in git).
fn digits(n: u64) -> i64 {
    n.checked_ilog10().map_or(1, |log| i64::from(log) + 1)
}

/// `scale_linear` in git's `diff.c`, in its `int` arithmetic.
fn scale_linear(it: i32, width: i32, max_change: i32) -> i32 {
    if it == 0 {
        return 0;
    }
    1i32.wrapping_add(it.wrapping_mul(width - 1) / max_change)
}

/// `git diff --stat`'s output for `files`, in git's order, at `width` columns (see [`columns`]),
/// with `diff.statNameWidth` and `diff.statGraphWidth` unset.
pub(super) fn render(files: &[FileStat], width: i64) -> Vec<u8> {
    let mut out = Vec::new();
    if files.is_empty() {
        return out;
    }
    let layout = Layout::of(files, width);
    let (mut adds, mut dels) = (0u64, 0u64);
    for file in files {
        out.push(b' ');
        name_cell(&mut out, &file.name, layout.name_width);
        out.extend_from_slice(b" | ");
        if file.binary {
            binary_cell(&mut out, file, layout.number_width);
            continue;
        }
        adds += file.added;
        dels += file.deleted;
        graph_cell(&mut out, file, &layout);
    }
    summary(&mut out, files.len(), adds, dels);
    out
}

/// The columns of a stat: the names', the counts', the graph's, and the largest change, which
/// the graph is scaled by (git's `show_stats`).
struct Layout {
    name_width: i64,
    number_width: usize,
    graph_width: i64,
    max_change: u64,
}

impl Layout {
    fn of(files: &[FileStat], width: i64) -> Layout {
        let (mut max_change, mut max_len, mut bin_width, mut number_width) =
            (0u64, 0i64, 0i64, 0i64);
        for file in files {
            max_len = max_len.max(file.name.len() as i64);
            if file.binary {
                bin_width = bin_width.max(14 + digits(file.added) + digits(file.deleted));
                number_width = 3;
                continue;
            }
            max_change = max_change.max(file.added + file.deleted);
        }
        number_width = number_width.max(digits(max_change));
        let width = width.max(16 + 6 + number_width);
        let mut graph_width =
            if max_change + 4 > bin_width as u64 { max_change as i64 } else { bin_width - 4 };
        let mut name_width = max_len;
        if name_width + number_width + 6 + graph_width > width {
            if graph_width > width * 3 / 8 - number_width - 6 {
                graph_width = (width * 3 / 8 - number_width - 6).max(6);
            }
            if name_width > width - number_width - 6 - graph_width {
                name_width = width - number_width - 6 - graph_width;
            } else {
                graph_width = width - number_width - 6 - name_width;
            }
        }
        Layout { name_width, number_width: number_width as usize, graph_width, max_change }
    }
}

/// The name, cut from the left to `...` and a whole directory when it is wider than `width`,
/// padded to it.
fn name_cell(out: &mut Vec<u8>, full: &[u8], width: i64) {
    let mut name = full;
    let mut len = width;
    let mut prefix: &[u8] = b"";
    if width < name.len() as i64 {
        prefix = b"...";
        len = (len - 3).max(0);
        name = &name[name.len() - len as usize..];
        if let Some(slash) = name.iter().position(|&b| b == b'/') {
            name = &name[slash..];
        }
    }
    let padding = (len - name.len() as i64).max(0) as usize;
    out.extend_from_slice(prefix);
    out.extend_from_slice(name);
    out.resize(out.len() + padding, b' ');
}

/// `Bin`, and the sizes when they changed.
fn binary_cell(out: &mut Vec<u8>, file: &FileStat, number_width: usize) {
    out.extend_from_slice(format!("{:>number_width$}", "Bin").as_bytes());
    if file.added != 0 || file.deleted != 0 {
        out.extend_from_slice(format!(" {} -> {} bytes", file.deleted, file.added).as_bytes());
    }
    out.push(b'\n');
}

/// The count and the `+`/`-` graph, scaled as git scales it when the largest change is wider
/// than the graph.
fn graph_cell(out: &mut Vec<u8>, file: &FileStat, layout: &Layout) {
    let (mut add, mut del) = (file.added as i32, file.deleted as i32);
    if layout.graph_width as u64 <= layout.max_change {
        let (graph, max) = (layout.graph_width as i32, layout.max_change as i32);
        let mut total = scale_linear(add.wrapping_add(del), graph, max);
        if total < 2 && add != 0 && del != 0 {
            total = 2;
        }
        if add < del {
            add = scale_linear(add, graph, max);
            del = total - add;
        } else {
            del = scale_linear(del, graph, max);
            add = total - del;
        }
    }
    let count = file.added + file.deleted;
    let number_width = layout.number_width;
    out.extend_from_slice(format!("{count:>number_width$}").as_bytes());
    if count != 0 {
        out.push(b' ');
    }
    out.resize(out.len() + add.max(0) as usize, b'+');
    out.resize(out.len() + del.max(0) as usize, b'-');
    out.push(b'\n');
}

/// ` 2 files changed, 3 insertions(+), 1 deletion(-)` (`print_stat_summary_inserts_deletes`).
fn summary(out: &mut Vec<u8>, files: usize, adds: u64, dels: u64) {
    let plural =
        |n: u64, one: &str, many: &str| if n == 1 { one.to_string() } else { many.to_string() };
    out.extend_from_slice(
        format!(" {files} {}", plural(files as u64, "file changed", "files changed")).as_bytes(),
    );
    if adds != 0 || dels == 0 {
        out.extend_from_slice(
            format!(", {adds} {}", plural(adds, "insertion(+)", "insertions(+)")).as_bytes(),
        );
    }
    if dels != 0 || adds == 0 {
        out.extend_from_slice(
            format!(", {dels} {}", plural(dels, "deletion(-)", "deletions(-)")).as_bytes(),
        );
    }
    out.push(b'\n');
}

/// The two parts' lines as one list in git's order: by path, byte for byte (the order of git's
/// index, which a rename takes from its new path). `None` if a path is in both.
pub(super) fn merge(a: Vec<FileStat>, b: Vec<FileStat>) -> Option<Vec<FileStat>> {
    let mut merged = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (None, None) => return Some(merged),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(x), Some(y)) if x.key == y.key => return None,
            (Some(x), Some(y)) => x.key < y.key,
        };
        merged.push(if take_a { a.next() } else { b.next() }?);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_read_as_git_reads_them() {
        for (value, want) in [
            (None, 80),
            (Some("120"), 120),
            (Some("  7"), 7),
            (Some("+9"), 9),
            (Some("90x"), 90),
            (Some("x90"), 80),
            (Some("0"), 80),
            (Some("-5"), 80),
            (Some(""), 80),
            (Some("99999999999"), 1_215_752_191),
            (Some("4294967296"), 80),
            (Some("-99999999999999999999"), 80),
            (Some("-4294967295"), 1),
        ] {
            assert_eq!(columns(value.map(str::as_bytes)), want, "{value:?}");
        }
    }

    #[test]
    fn parts_of_another_shape_are_refused() {
        let file =
            b"1\t2\ta.txt\0 a.txt | 3 +--\n 1 file changed, 1 insertion(+), 2 deletions(-)\n";
        let parsed = parse(file).expect("a part's output");
        assert_eq!(
            (parsed[0].key.as_slice(), parsed[0].added, parsed[0].deleted),
            (&b"a.txt"[..], 1, 2)
        );
        assert_eq!(parse(b"1\t2\ta.txt\0 a.txt | 4 +--\n 1 file changed\n"), None, "count");
        assert_eq!(parse(b"1\t2\ta \0 a  | 3 +--\n 1 file changed\n"), None, "a trailing space");
        assert_eq!(parse(b"1\t2\ta.txt\0"), None, "no stat");
        assert_eq!(parse(b""), Some(Vec::new()));
    }
}
