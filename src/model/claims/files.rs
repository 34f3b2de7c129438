//! Rule 1: a Files touched entry claims an edit, and the log must show one. The entry is read as
//! agents write it: `` `src/a.rs` `` or `src/a.rs — added the parser`, several names in one entry
//! (`src/a.rs, src/b.rs`), a status word before (`Modified: src/a.rs`), a line range after
//! (`src/a.rs:10-20`), a name with spaces (`docs/My Notes.md`, never cut at the space), a
//! directory (`src/`) or a glob (`src/*.rs`). A name is matched as the log holds it: relative to
//! the top of the work tree, after `./` and `a/../b` are resolved; an absolute name inside the
//! work tree is made relative; a name given from a subdirectory the session worked in (`app.ts`
//! for `web/src/app.ts`... as long as it ends the path) matches too. An absolute name outside the
//! work tree is named as such.

/// Entries that name no file.
const NO_FILES: [&str; 9] =
    ["none", "n/a", "na", "nothing", "-", "(none)", "no files", "no changes", "—"];

/// Status words agents put before a name (`Modified: src/a.rs`, `M src/a.rs`).
const STATUS: [&str; 12] = [
    "modified", "added", "new", "created", "edited", "updated", "changed", "deleted", "removed",
    "renamed", "touched", "wrote",
];

/// Why a Files touched entry cannot be supported by `files_edited` (repository-relative), if it
/// cannot; `tops` are the absolute paths of the top of the work tree.
pub fn unsupported(entry: &str, files_edited: &[String], tops: &[String]) -> Option<String> {
    let mut outside = Vec::new();
    let mut unedited = Vec::new();
    for name in names(entry) {
        match resolve(&name, tops) {
            Resolved::Outside => outside.push(name),
            Resolved::Inside(candidates) => {
                if !candidates.iter().any(|c| edited(c, files_edited)) {
                    unedited.push(shown(&candidates[0]));
                }
            }
        }
    }
    if !outside.is_empty() {
        let verb = if outside.len() == 1 { "is" } else { "are" };
        return Some(format!("{} {verb} outside the work tree", outside.join(", ")));
    }
    (!unedited.is_empty()).then(|| format!("no edit to {} in the event log", unedited.join(", ")))
}

/// The names an entry gives, as written.
fn names(entry: &str) -> Vec<String> {
    let mut text = entry.trim().trim_start_matches(['*', '+']).trim();
    if NO_FILES.iter().any(|n| text.eq_ignore_ascii_case(n)) || text.starts_with('(') {
        return Vec::new();
    }
    // `Modified: src/a.rs`, `M src/a.rs`.
    if let Some((first, rest)) = text.split_once([':', ' '])
        && (STATUS.iter().any(|s| first.eq_ignore_ascii_case(s))
            || matches!(first, "M" | "A" | "D" | "R" | "??"))
    {
        text = rest.trim();
    }
    // Names in code spans: those before the description.
    if text.starts_with('`') {
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(after) = rest.strip_prefix('`') {
            let Some((span, tail)) = after.split_once('`') else { break };
            out.push(clean(span));
            rest = tail.trim_start();
            match rest.strip_prefix(',').or_else(|| rest.strip_prefix("and ")) {
                Some(more) => rest = more.trim_start(),
                None => break,
            }
        }
        out.retain(|n| !n.is_empty());
        return out;
    }
    // `[src/a.rs](src/a.rs)`: the link's text.
    if let Some(inner) = text.strip_prefix('[')
        && let Some((label, _)) = inner.split_once("](")
    {
        return vec![clean(label)];
    }
    let cut = [" — ", " – ", " - ", " -- ", ": ", " (", "\t", " # "]
        .iter()
        .filter_map(|sep| text.find(sep))
        .min()
        .unwrap_or(text.len());
    let text = &text[..cut];
    let parts: Vec<&str> = text.split(", ").collect();
    let names: Vec<String> = if parts.len() > 1 && parts.iter().all(|p| looks_like_path(p)) {
        parts.iter().map(|p| clean(p)).collect()
    } else {
        vec![clean(text)]
    };
    // Prose that names no file ("the parser module") is no claim of an edit.
    names
        .into_iter()
        .filter(|n| !n.is_empty() && (looks_like_path(n) || !n.contains(' ')))
        .collect()
}

/// A name without quotes, markup, a line range or a trailing stop.
fn clean(name: &str) -> String {
    let name = name.trim().trim_matches(|c| matches!(c, '`' | '"' | '\'' | '*' | '_'));
    let name = name.trim_end_matches([',', ';', ':']);
    // `src/a.rs:10`, `src/a.rs:10-20`, `src/a.rs#L10`.
    let name = match name.rsplit_once(':') {
        Some((path, range)) if range.chars().all(|c| c.is_ascii_digit() || c == '-') => path,
        _ => name,
    };
    let name = name.split_once("#L").map_or(name, |(path, _)| path);
    let name = if name.ends_with('.') && name.trim_end_matches('.').contains('.') {
        name.trim_end_matches('.')
    } else {
        name
    };
    name.trim().to_string()
}

/// True for text that looks like a path: a `/`, or a file extension.
fn looks_like_path(text: &str) -> bool {
    let text = text.trim().trim_matches('`');
    text.contains('/')
        || text
            .rsplit_once('.')
            .is_some_and(|(name, ext)| !name.is_empty() && !ext.is_empty() && !ext.contains(' '))
}

enum Resolved {
    /// Absolute and outside the work tree.
    Outside,
    /// Inside: the relative forms to try, longest first (a name with spaces whole, then cut at
    /// its spaces, in case a description followed it without a separator).
    Inside(Vec<String>),
}

/// Where `name` points, from the tops the work tree is known by.
fn resolve(name: &str, tops: &[String]) -> Resolved {
    let absolute = name.starts_with('/') || name.starts_with('~');
    let rel = if absolute {
        let path = lexical(name);
        let inside = tops.iter().find_map(|top| {
            let top = lexical(top);
            if path == top {
                Some(String::new())
            } else {
                path.strip_prefix(&format!("{}/", top.trim_end_matches('/'))).map(str::to_string)
            }
        });
        match inside {
            Some(rel) => rel,
            // With no top known, the name is matched by its tail.
            None if tops.is_empty() && !name.starts_with('~') => {
                path.trim_start_matches('/').to_string()
            }
            None => return Resolved::Outside,
        }
    } else {
        lexical(name)
    };
    let mut candidates = vec![rel.clone()];
    let mut cut = rel.as_str();
    while let Some((head, _)) = cut.rsplit_once(' ') {
        candidates.push(head.to_string());
        cut = head;
    }
    Resolved::Inside(candidates)
}

/// `a/./b/../c` -> `a/c`, leading `./` and `../` dropped, no trailing `/`.
fn lexical(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if rooted { format!("/{joined}") } else { joined }
}

/// True when the log shows an edit to `rel` (a file, a directory, a glob), given relative to the
/// top or to a subdirectory the session worked in.
fn edited(rel: &str, files: &[String]) -> bool {
    if rel.is_empty() {
        return !files.is_empty();
    }
    if rel.contains('*') {
        return files
            .iter()
            .any(|f| glob(rel, f) || f.rsplit_once('/').is_some_and(|_| tail_glob(rel, f)));
    }
    files.iter().any(|f| {
        f == rel
            || f.strip_suffix(rel).is_some_and(|head| head.ends_with('/'))
            || f.strip_prefix(rel).is_some_and(|rest| rest.starts_with('/'))
            || f.contains(&format!("/{rel}/"))
    })
}

/// The name shown in a tag: as written, up to its last word that looks like a path (so a name
/// with spaces stays whole, and words after it without a separator are left out).
fn shown(name: &str) -> String {
    let words: Vec<&str> = name.split(' ').collect();
    match words.iter().rposition(|w| looks_like_path(w)) {
        Some(last) => words[..=last].join(" "),
        None => name.to_string(),
    }
}

/// Whether `path` matches `pattern` as git matches a pathspec glob (gix's `wildmatch`): `*` and
/// `?` within a path segment, `**` across segments, `[...]` classes.
fn glob(pattern: &str, path: &str) -> bool {
    use gix::bstr::ByteSlice;
    let mode = gix::glob::wildmatch::Mode::NO_MATCH_SLASH_LITERAL;
    gix::glob::wildmatch(pattern.as_bytes().as_bstr(), path.as_bytes().as_bstr(), mode)
}

/// A glob given from a subdirectory: it matches the end of the path.
fn tail_glob(pattern: &str, path: &str) -> bool {
    path.match_indices('/').any(|(at, _)| glob(pattern, &path[at + 1..]))
}
