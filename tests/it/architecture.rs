//! The source tree's shape, read from the code as rustc would resolve it: every path a file names
//! (`use` trees with braces and aliases, `crate::`, `super::`, `self::`, a child module's name)
//! becomes an arrow to the file that defines it. Arrows point down the layers only (commands ->
//! the MCP server -> operations and hook installs -> the store of handoffs -> agent events -> the
//! handoff model -> git access -> utilities), no files form a cycle, and no file grows past one
//! idea.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level folder of `src/` and its layer; a file may import only from lower layers and
/// from its own folder. `ops` (what a command does) and `hooks` (what `hooks` writes) share a
/// layer and never import each other; `mcp` is a second front end over `ops`, below the cli that
/// starts it.
const LAYERS: [(&str, u8); 9] = [
    ("util", 0),
    ("git", 1),
    ("model", 2),
    ("agent", 3),
    ("store", 4),
    ("ops", 5),
    ("hooks", 5),
    ("mcp", 6),
    ("cli", 7),
];

/// The most lines a source file may have, unit tests included.
const MAX_LINES: usize = 400;

/// The most arrows between two different folders (or files) directly under `src/ops/`: each
/// operation stands on the layers below, not on its siblings. Lower it when one goes. Not counted:
/// `open`, the one way every command opens the repository, and the operations an agent's event
/// sets off from `record` (a session's start begins the next attempt: `start`; an edit or a
/// check's result rewrites the change summary: `progress`).
const MAX_OPS_SIDEWAYS: usize = 2;
const OPS_SHARED: &str = "open";
const RECORD_TRIGGERS: [&str; 2] = ["start", "progress"];

/// One source file: its module path (`ops::seal::stage`) and its code without comments, string
/// literals or unit tests.
struct File {
    rel: String,
    module: Vec<String>,
    code: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every file of the library crate (`main.rs` is the binary: it only calls the library).
fn files() -> Vec<File> {
    let src = src();
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    let mut files: Vec<File> = paths
        .iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(&src).unwrap().to_str().unwrap().to_string();
            if rel == "main.rs" {
                return None;
            }
            let mut module: Vec<String> =
                rel.trim_end_matches(".rs").split('/').map(String::from).collect();
            if module.last().is_some_and(|m| m == "mod" || m == "lib") {
                module.pop();
            }
            let code = strip(&std::fs::read_to_string(path).unwrap());
            Some(File { rel, module, code })
        })
        .collect();
    // A file declared `#[cfg(test)] mod name;` is a unit test: it may reach anywhere.
    let tests: BTreeSet<Vec<String>> = files
        .iter()
        .flat_map(|f| {
            test_modules(&std::fs::read_to_string(src.join(&f.rel)).unwrap())
                .into_iter()
                .map(|name| f.module.iter().cloned().chain([name]).collect::<Vec<_>>())
        })
        .collect();
    files.retain(|f| !tests.contains(&f.module));
    files
}

/// The names of `#[cfg(test)] mod name;` declarations.
fn test_modules(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + 12..];
        let item = rest.trim_start();
        if let Some(decl) = item.strip_prefix("mod ") {
            let name: String = decl.chars().take_while(|c| is_ident(*c)).collect();
            if decl[name.len()..].trim_start().starts_with(';') {
                names.push(name);
            }
        }
    }
    names
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The code without comments, string and character literals (each becomes a space), and without
/// `#[cfg(test)]` blocks.
fn strip(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !prev_ident(&chars, i) {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push(' ');
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F}'), else a lifetime.
            let close = if next == Some('\\') {
                (i + 3..chars.len().min(i + 12)).find(|&j| chars[j] == '\'')
            } else {
                (chars.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            match close {
                Some(end) => {
                    i = end + 1;
                    out.push(' ');
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    without_test_blocks(&out)
}

fn prev_ident(chars: &[char], i: usize) -> bool {
    i > 0 && is_ident(chars[i - 1])
}

/// The code without `#[cfg(test)]` items that have a body (`mod tests { ... }`).
fn without_test_blocks(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = &rest[at + 12..];
        let body = rest.find(['{', ';']).unwrap_or(rest.len());
        if rest[body..].starts_with('{') {
            let mut depth = 0;
            for (j, c) in rest[body..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            rest = &rest[body + j + 1..];
                            break;
                        }
                    }
                    _ => {}
                }
            }
        } else {
            rest = &rest[(body + 1).min(rest.len())..];
        }
    }
    out.push_str(rest);
    out
}

/// The paths of a `use` tree (the text between `use` and `;`), each with the name it binds.
fn use_paths(tree: &str) -> Vec<(Vec<String>, Option<String>)> {
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, Option<String>)>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        if let Some(open) = tree.find('{') {
            let head: Vec<String> = tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let full: Vec<String> = prefix.iter().cloned().chain(head).collect();
            for part in split_top(inner) {
                walk(&full, part, out);
            }
            return;
        }
        let (path, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path, Some(alias.trim().to_string())),
            None => (tree, None),
        };
        let mut full: Vec<String> = prefix.to_vec();
        full.extend(path.split("::").map(str::trim).filter(|s| !s.is_empty()).map(String::from));
        let bound = match (&alias, full.last()) {
            (Some(alias), _) => Some(alias.clone()),
            (None, Some(last)) if last == "self" => {
                full.pop();
                full.last().cloned()
            }
            (None, Some(last)) if last == "*" => None,
            (None, last) => last.cloned(),
        };
        if full.last().is_some_and(|l| l == "*") {
            full.pop();
        }
        out.push((full, bound));
    }
    let mut out = Vec::new();
    walk(&[], tree, &mut out);
    out
}

/// Splits at the commas that are not inside braces.
fn split_top(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The file-level import graph: for each file, the files its paths resolve to.
fn graph(files: &[File]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<&[String], &str> =
        files.iter().map(|f| (f.module.as_slice(), f.rel.as_str())).collect();
    let mut graph = BTreeMap::new();
    for file in files {
        let module = &file.module;
        // A path's first segment, read from where this file stands.
        let absolute = |path: &[String],
                        names: &BTreeMap<String, Vec<String>>|
         -> Option<Vec<String>> {
            let first = path.first()?;
            let mut base: Vec<String> = match first.as_str() {
                "crate" => Vec::new(),
                "self" => module.clone(),
                "super" => module.clone(),
                _ => {
                    let child: Vec<String> =
                        module.iter().cloned().chain([first.clone()]).collect();
                    if modules.contains_key(child.as_slice()) {
                        return Some(child.into_iter().chain(path[1..].iter().cloned()).collect());
                    }
                    let bound = names.get(first)?;
                    return Some(bound.iter().cloned().chain(path[1..].iter().cloned()).collect());
                }
            };
            let mut rest = &path[1..];
            if first == "super" {
                base.pop()?;
            }
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        };
        let resolve = |path: &[String]| -> Option<&str> {
            (1..=path.len()).rev().find_map(|n| modules.get(&path[..n]).copied())
        };
        let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut targets = BTreeSet::new();
        let code = &file.code;
        // `use` trees first: the names they bind resolve the plain paths below.
        let mut rest = code.as_str();
        while let Some(at) = find_word(rest, "use") {
            let tail = &rest[at + 3..];
            let end = tail.find(';').unwrap_or(tail.len());
            for (path, bound) in use_paths(&tail[..end]) {
                if let Some(abs) = absolute(&path, &names) {
                    if let Some(target) = resolve(&abs) {
                        targets.insert(target.to_string());
                    }
                    if let Some(bound) = bound {
                        names.insert(bound, abs);
                    }
                }
            }
            rest = &tail[end..];
        }
        // Every other path: `crate::x`, `super::x`, `self::x`, `child::x`, `imported::x`.
        let chars: Vec<(usize, char)> = code.char_indices().collect();
        for (n, &(at, c)) in chars.iter().enumerate() {
            if !is_ident(c) || (n > 0 && is_ident(chars[n - 1].1)) {
                continue;
            }
            if n > 1 && chars[n - 1].1 == ':' && chars[n - 2].1 == ':' {
                continue;
            }
            let path = path_at(&code[at..]);
            if path.len() < 2 {
                continue;
            }
            if let Some(target) = absolute(&path, &names).as_deref().and_then(resolve) {
                targets.insert(target.to_string());
            }
        }
        targets.remove(&file.rel);
        targets.remove("lib.rs");
        graph.insert(file.rel.clone(), targets);
    }
    graph
}

/// The position of `word` standing alone in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find(word).map(|a| a + from) {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(is_ident) && after.is_some_and(char::is_whitespace) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The `a::b::c` path that starts at the beginning of `text`.
fn path_at(text: &str) -> Vec<String> {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        if name.is_empty() {
            break;
        }
        rest = &rest[name.len()..];
        segments.push(name);
        match rest.trim_start().strip_prefix("::") {
            Some(more) => rest = more.trim_start(),
            None => break,
        }
    }
    segments
}

fn layer(rel: &str) -> Option<(&str, u8)> {
    let folder = rel.split('/').next()?;
    LAYERS.iter().find(|(name, _)| *name == folder).copied()
}

#[test]
fn imports_point_down_the_layers_only() {
    let graph = graph(&files());
    let mut wrong = Vec::new();
    for (from, targets) in &graph {
        let Some((own, rank)) = layer(from) else { continue };
        for to in targets {
            let Some((folder, to_rank)) = layer(to) else {
                wrong.push(format!("{from} -> {to} (above every layer)"));
                continue;
            };
            if folder != own && to_rank >= rank {
                wrong.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(wrong.is_empty(), "imports that point up or across a layer:\n{}", wrong.join("\n"));
}

/// Tarjan's strongly connected components: every group of files that import each other.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, node: &'a str) {
        let n = s.index.len();
        s.index.insert(node, n);
        s.low.insert(node, n);
        s.stack.push(node);
        s.on_stack.insert(node);
        for next in s.graph.get(node).into_iter().flatten() {
            let next = next.as_str();
            if !s.graph.contains_key(next) {
                continue;
            }
            if !s.index.contains_key(next) {
                visit(s, next);
                let low = s.low[node].min(s.low[next]);
                s.low.insert(node, low);
            } else if s.on_stack.contains(next) {
                let low = s.low[node].min(s.index[next]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let mut group = Vec::new();
            while let Some(top) = s.stack.pop() {
                s.on_stack.remove(top);
                group.push(top.to_string());
                if top == node {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}

#[test]
fn no_files_import_each_other() {
    let graph = graph(&files());
    let found: Vec<String> = cycles(&graph)
        .iter()
        .map(|group| {
            let arrows: Vec<String> = group
                .iter()
                .flat_map(|from| {
                    graph[from]
                        .iter()
                        .filter(|to| group.contains(to))
                        .map(move |to| format!("{from} -> {to}"))
                })
                .collect();
            arrows.join(", ")
        })
        .collect();
    assert!(
        found.is_empty(),
        "files that import each other (move what they share into a leaf of its own):\n{}",
        found.join("\n")
    );
}

#[test]
fn operations_stand_on_the_layers_below_not_on_each_other() {
    let graph = graph(&files());
    let part = |rel: &str| -> Option<String> {
        let rest = rel.strip_prefix("ops/")?;
        Some(rest.split('/').next()?.trim_end_matches(".rs").to_string())
    };
    let sideways: Vec<String> = graph
        .iter()
        .flat_map(|(from, targets)| targets.iter().map(move |to| (from, to)))
        .filter(|(from, to)| matches!((part(from), part(to)), (Some(a), Some(b)) if a != b && a != "mod" && b != "mod"))
        .filter(|(_, to)| part(to).as_deref() != Some(OPS_SHARED))
        .filter(|(from, to)| {
            let (a, b) = (part(from), part(to));
            !(a.as_deref() == Some("record") && b.is_some_and(|b| RECORD_TRIGGERS.contains(&b.as_str())))
        })
        .map(|(from, to)| format!("{from} -> {to}"))
        .collect();
    assert!(
        sideways.len() <= MAX_OPS_SIDEWAYS,
        "{} arrows between operations (at most {MAX_OPS_SIDEWAYS}); move what they share below:\n{}",
        sideways.len(),
        sideways.join("\n")
    );
}

#[test]
fn every_source_file_stays_under_the_line_cap() {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .map(|f| (f, std::fs::read_to_string(f).unwrap().lines().count()))
        .filter(|(_, lines)| *lines > MAX_LINES)
        .map(|(f, lines)| format!("{} ({lines} lines)", f.strip_prefix(&src).unwrap().display()))
        .collect();
    assert!(
        long.is_empty(),
        "split these by idea (at most {MAX_LINES} lines): {}",
        long.join(", ")
    );
}

#[test]
fn the_reader_sees_what_rustc_sees() {
    // The parser itself, on the forms that slipped past the old textual guard.
    let paths = use_paths("crate::{ops::{self, seal::stage as st}, util::*}");
    let want: Vec<(Vec<String>, Option<String>)> = vec![
        (vec!["crate".into(), "ops".into()], Some("ops".into())),
        (vec!["crate".into(), "ops".into(), "seal".into(), "stage".into()], Some("st".into())),
        (vec!["crate".into(), "util".into()], None),
    ];
    assert_eq!(paths, want);
    assert_eq!(strip("let s = \"crate::ops\"; // crate::cli\nx"), "let s =  ; \nx");
    assert_eq!(strip("fn f<'a>(c: char) { c == '\\'' }"), "fn f<'a>(c: char) { c ==   }");
    assert_eq!(
        path_at("super::super::git::repo::Repo(1)"),
        ["super", "super", "git", "repo", "Repo"]
    );
}

/// The most lines a function of `src/` may have, from `fn` to its closing brace, unit tests aside:
/// a longer flow is split into named steps that read top to bottom.
const MAX_FN_LINES: usize = 80;

/// The functions allowed past [`MAX_FN_LINES`], each with why: a table (which may be long), or a
/// flow still to split. None today. The list may only shrink: a function that is no longer long, or no longer
/// there, fails the test until its line goes.
const LONG_FNS: [(&str, &str, &str); 0] = [];

/// The functions of `text` (a source file) outside `#[cfg(test)]` items, each with the lines from
/// its `fn` to its closing brace.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let code: Vec<char> = mask(text).chars().collect();
    let line_at = |at: usize| code[..at].iter().filter(|&&c| c == '\n').count();
    let tests = test_items(&code);
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = find_chars(&code, i, "fn ") {
        i = at + 3;
        if (at > 0 && is_ident(code[at - 1])) || tests.iter().any(|r| r.contains(&at)) {
            continue;
        }
        let name: String = code[i..]
            .iter()
            .skip_while(|c| c.is_whitespace())
            .take_while(|c| is_ident(**c))
            .collect();
        let body = item_body(&code, i);
        let (false, Some(body)) = (name.is_empty(), body) else { continue };
        if code[body] == ';' {
            continue; // a declaration in a trait, no body
        }
        let end = closing_brace(&code, body);
        out.push((name, line_at(end) - line_at(at) + 1));
    }
    out
}

/// Where the item whose header starts at `from` opens its body (`{`) or ends (`;`), outside
/// brackets: `[u8; 4]` in a signature ends nothing.
fn item_body(code: &[char], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (j, &c) in code.iter().enumerate().skip(from) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' | ';' if depth == 0 => return Some(j),
            _ => {}
        }
    }
    None
}

/// `text` with comments, strings and character literals blanked out, line breaks kept, so each
/// character stays on its line.
fn mask(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = chars.clone();
    let mut i = 0;
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut out[from..to.min(chars.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    while i < chars.len() {
        let (c, next) = (chars[i], chars.get(i + 1).copied());
        let end = if c == '/' && next == Some('/') {
            (i..chars.len()).find(|&j| chars[j] == '\n').unwrap_or(chars.len())
        } else if c == '/' && next == Some('*') {
            find_chars(&chars, i + 2, "*/").map_or(chars.len(), |j| j + 2)
        } else if c == '"'
            || (c == 'r' && matches!(next, Some('"' | '#')) && !prev_ident(&chars, i))
        {
            string_end(&chars, i)
        } else if c == '\'' && next == Some('\\') {
            (i + 3..chars.len().min(i + 12)).find(|&j| chars[j] == '\'').map_or(i + 1, |j| j + 1)
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i + 3
        } else {
            i + 1
        };
        if end > i + 1 {
            blank(&mut out, i, end);
        }
        i = end;
    }
    out.into_iter().collect()
}

/// The index past the string literal (plain or raw) that starts at `i`.
fn string_end(chars: &[char], i: usize) -> usize {
    if chars[i] == '"' {
        let mut j = i + 1;
        while j < chars.len() && chars[j] != '"' {
            j += if chars[j] == '\\' { 2 } else { 1 };
        }
        return j + 1;
    }
    let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
    if chars.get(i + 1 + hashes) != Some(&'"') {
        return i + 1; // an identifier starting with r
    }
    let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
    find_chars(chars, i + 2 + hashes, &close).map_or(chars.len(), |j| j + close.len())
}

/// Where `needle` next occurs in `chars` at or after `from`.
fn find_chars(chars: &[char], from: usize, needle: &str) -> Option<usize> {
    let needle: Vec<char> = needle.chars().collect();
    (from..chars.len().saturating_sub(needle.len() - 1))
        .find(|&j| chars[j..j + needle.len()] == needle[..])
}

/// The index of the `}` that closes the `{` at `open`.
fn closing_brace(code: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (j, &c) in code.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    code.len() - 1
}

/// Where the `#[cfg(test)]` items of `code` (masked) stand.
fn test_items(code: &[char]) -> Vec<std::ops::Range<usize>> {
    let mut items = Vec::new();
    let mut from = 0;
    while let Some(at) = find_chars(code, from, "#[cfg(test)]") {
        let body = item_body(code, at + 12).unwrap_or(code.len() - 1);
        let end = if code[body] == '{' { closing_brace(code, body) } else { body };
        items.push(at..end + 1);
        from = end + 1;
    }
    items
}

#[test]
fn every_function_stays_under_the_line_cap() {
    let src = src();
    let mut long = Vec::new();
    for file in files() {
        let text = std::fs::read_to_string(src.join(&file.rel)).unwrap();
        for (name, lines) in function_lengths(&text) {
            let allowed = LONG_FNS.iter().any(|(rel, f, _)| *rel == file.rel && *f == name);
            if lines > MAX_FN_LINES && !allowed {
                long.push(format!("{}: {name} ({lines} lines)", file.rel));
            }
        }
    }
    assert!(
        long.is_empty(),
        "split these into named steps that read top to bottom (at most {MAX_FN_LINES} lines): {}",
        long.join(", ")
    );
}

#[test]
fn the_long_functions_allowed_are_still_long() {
    let src = src();
    let stale: Vec<String> = LONG_FNS
        .iter()
        .filter(|(rel, name, _)| {
            let text = std::fs::read_to_string(src.join(rel)).unwrap_or_default();
            !function_lengths(&text).iter().any(|(f, lines)| f == name && *lines > MAX_FN_LINES)
        })
        .map(|(rel, name, _)| format!("{rel}: {name}"))
        .collect();
    assert!(
        stale.is_empty(),
        "no longer long (or gone): take them off LONG_FNS: {}",
        stale.join(", ")
    );
}

#[test]
fn function_lengths_are_read_as_rustc_sees_the_code() {
    let text = "fn a() {\n    let s = \"}\";\n    // }\n}\n\nfn b(x: fn(u8) -> u8) -> [u8; 1] {\n    ['}' as u8]\n}\n\
                #[cfg(test)]\nmod tests {\n    fn c() {\n    }\n}\ntrait T {\n    fn d(&self);\n}\n";
    assert_eq!(function_lengths(text), [("a".to_string(), 4), ("b".to_string(), 3)]);
}
