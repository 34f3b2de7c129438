//! The regexes a repository's `.handoff.toml` adds (`secrets.patterns`, `redact.patterns`). The
//! file is a stranger's, and `record` compiles them on every agent tool call, so what they may
//! cost is bounded before anything is compiled: at most [`MAX_PATTERNS`] patterns a key, each at
//! most [`MAX_PATTERN_CHARS`] characters, and each key's patterns compiled as one regex of at most
//! [`MAX_COMPILED`] bytes (the regex crate's size limit, checked while it compiles, so an
//! oversized set fails fast). A key's set is compiled once per process: a second load of the same
//! configuration (the MCP server reads it on every call) reuses it.
//!
//! One regex holds a key's patterns, each as its own alternative in its own group: the cost of a
//! compile is bounded by the compiled size whatever the number, and one pass over a text finds
//! the leftmost match of any of them. It matches bytes (seal's guard scans file content, which need
//! not be UTF-8); each pattern is parsed alone as a text regex, so none can match half a character.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use anyhow::{Result, anyhow};
use regex::bytes::{Regex, RegexBuilder};

/// The most patterns one key may hold.
pub const MAX_PATTERNS: usize = 64;
/// The longest pattern, in characters.
pub const MAX_PATTERN_CHARS: usize = 1000;
/// The most one key's patterns may take compiled, together (the regex crate's size limit).
pub const MAX_COMPILED: usize = 256 << 10;

/// One key's patterns, compiled together; empty when the key holds none.
#[derive(Debug, Clone, Default)]
pub struct Patterns {
    compiled: Option<Arc<Compiled>>,
}

#[derive(Debug)]
struct Compiled {
    regex: Regex,
    /// Each pattern's text and the index of the group around it in `regex`.
    sources: Vec<(String, usize)>,
}

/// The sets compiled in this process, by their patterns.
static COMPILED: Mutex<Option<HashMap<Vec<String>, Arc<Compiled>>>> = Mutex::new(None);

impl Patterns {
    /// Checks and compiles the patterns of `key` (`secrets.patterns`); `origin` names the file in
    /// errors.
    pub fn compile(key: &str, patterns: &[String], origin: &str) -> Result<Patterns> {
        if patterns.is_empty() {
            return Ok(Patterns::default());
        }
        let mend = "keep the patterns that matter, or merge several into one alternation";
        if patterns.len() > MAX_PATTERNS {
            return Err(anyhow!(
                "{origin}: {key} holds {} patterns, more than the {MAX_PATTERNS} git-handoff \
                 compiles (hooks run them on every tool call); {mend}",
                patterns.len()
            ));
        }
        let mut memo = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = memo.as_ref().and_then(|m| m.get(patterns)) {
            return Ok(Patterns { compiled: Some(found.clone()) });
        }
        let mut combined = String::new();
        let mut sources = Vec::with_capacity(patterns.len());
        let mut group = 1;
        for pattern in patterns {
            if pattern.chars().count() > MAX_PATTERN_CHARS {
                return Err(anyhow!(
                    "{origin}: {key}: a pattern of {} characters is longer than the \
                     {MAX_PATTERN_CHARS} git-handoff takes; shorten it",
                    pattern.chars().count()
                ));
            }
            // Parsed alone first: a pattern is one regex, never a fragment that closes the group
            // around it and opens another.
            let hir = regex_syntax::Parser::new().parse(pattern).map_err(|err| {
                anyhow!("{origin}: {key}: {pattern:?} is not a valid regular expression: {err}")
            })?;
            if !combined.is_empty() {
                combined.push('|');
            }
            combined.push_str(&format!("({pattern})"));
            sources.push((pattern.clone(), group));
            group += 1 + hir.properties().explicit_captures_len();
        }
        let regex = RegexBuilder::new(&combined).size_limit(MAX_COMPILED).build().map_err(|err| {
            let why = match err {
                regex::Error::CompiledTooBig(_) => format!(
                    "its patterns compile to more than {} KiB, the most git-handoff takes (hooks \
                     run them on every tool call); simplify them (a Unicode class such as `\\w` \
                     repeated many times is large: `[A-Za-z0-9_]` is small)",
                    MAX_COMPILED >> 10
                ),
                other => format!("its patterns cannot be used together: {other}"),
            };
            anyhow!("{origin}: {key}: {why}")
        })?;
        let compiled = Arc::new(Compiled { regex, sources });
        memo.get_or_insert_with(HashMap::new).insert(patterns.to_vec(), compiled.clone());
        Ok(Patterns { compiled: Some(compiled) })
    }

    /// The first pattern (in the configuration's order) with a match in `text`, if any.
    pub fn first_match(&self, text: &[u8]) -> Option<&str> {
        let compiled = self.compiled.as_ref()?;
        let caps = compiled.regex.captures(text)?;
        let (source, _) = compiled.sources.iter().find(|(_, group)| caps.get(*group).is_some())?;
        Some(source)
    }

    /// `text` with every match of any pattern replaced by `marker`; no copy when none matches.
    pub fn replace_all<'a>(&self, text: &'a str, marker: &str) -> Cow<'a, str> {
        let Some(compiled) = &self.compiled else { return Cow::Borrowed(text) };
        match compiled.regex.replace_all(text.as_bytes(), regex::bytes::NoExpand(marker.as_bytes()))
        {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            // Every pattern matches whole characters (see above): the result is UTF-8.
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
        }
    }

    /// True when some pattern matches somewhere in `text`.
    pub fn is_match(&self, text: &[u8]) -> bool {
        self.compiled.as_ref().is_some_and(|c| c.regex.is_match(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(patterns: &[&str]) -> Vec<String> {
        patterns.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn the_pattern_that_matched_is_named_whatever_groups_it_holds() {
        let set = list(&["(a)(b)c", "(?i)(?P<x>tok)en_[0-9]+", "CORP_[A-Z]{3}"]);
        let p = Patterns::compile("secrets.patterns", &set, "t").unwrap();
        assert_eq!(p.first_match(b"xx CORP_ABC"), Some("CORP_[A-Z]{3}"));
        assert_eq!(p.first_match(b"TOKEN_12"), Some("(?i)(?P<x>tok)en_[0-9]+"));
        assert_eq!(p.first_match(b"abc"), Some("(a)(b)c"));
        assert_eq!(p.first_match(b"\xff\xfe nothing"), None);
        assert_eq!(p.replace_all("a CORP_XYZ b", "[r]"), "a [r] b");
    }

    #[test]
    fn a_fragment_cannot_escape_its_group() {
        for bad in ["a)|(b", "(?-u:\\xff)"] {
            let err = Patterns::compile("redact.patterns", &list(&[bad]), "t").unwrap_err();
            assert!(err.to_string().contains("redact.patterns"), "{err}");
        }
    }

    #[test]
    fn the_caps_are_errors_naming_the_key() {
        let many: Vec<String> = (0..=MAX_PATTERNS).map(|i| format!("K{i}_[0-9]+")).collect();
        let err = Patterns::compile("secrets.patterns", &many, "t").unwrap_err().to_string();
        assert!(err.contains("secrets.patterns") && err.contains("65 patterns"), "{err}");
        let long = vec!["a".repeat(MAX_PATTERN_CHARS + 1)];
        let err = Patterns::compile("redact.patterns", &long, "t").unwrap_err().to_string();
        assert!(err.contains("redact.patterns") && err.contains("longer"), "{err}");
        let big = list(&[r"\w{50}", r"\pL{40}"]);
        let err = Patterns::compile("redact.patterns", &big, "t").unwrap_err().to_string();
        assert!(err.contains("redact.patterns") && err.contains("KiB"), "{err}");
    }

    #[test]
    fn a_set_is_compiled_once_per_process() {
        let set = list(&["once_[0-9]{4}", "twice_[a-z]{4}"]);
        let a = Patterns::compile("redact.patterns", &set, "t").unwrap();
        let b = Patterns::compile("secrets.patterns", &set, "t").unwrap();
        assert!(Arc::ptr_eq(a.compiled.as_ref().unwrap(), b.compiled.as_ref().unwrap()));
    }
}
