//! One rule of [`super`]: a regex, the literals any of its matches holds, the groups that hold
//! the secret, and the check a match must pass (is the value a secret, or code that only looks
//! like one; is the credential word where a name's word begins).

use std::ops::Range;
use std::sync::OnceLock;

use regex::{Captures, Regex};

use super::value::{self, Form};

/// One secret found in a text: the bytes to hide and what they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub range: Range<usize>,
    pub kind: &'static str,
}

/// What a rule asks of a match before it counts.
#[derive(Clone, Copy)]
pub(super) enum Check {
    /// The pattern is specific enough.
    Always,
    /// The secret group must pass [`value::plausible`].
    Value,
    /// A header value: its last word (`Bearer abc`) must pass [`value::plausible`].
    Header,
    /// This group (the password of `user:password`) must pass [`value::plausible`].
    ValueOf(usize),
    /// A bearer token: at least 12 characters.
    Bearer,
    /// A bare `sk-` key: upper case, lower case and digits, as random keys have.
    Mixed,
}

/// Where a rule's kind comes from.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Fixed(&'static str),
    /// From the credential word in this group (`password`, `secret`, `token`, `api-key`).
    Word(usize),
}

pub(super) struct Rule {
    kind: Kind,
    pattern: &'static str,
    pub(super) hints: &'static [&'static str],
    /// The groups that may hold the secret, first participating wins; empty: the whole match.
    groups: &'static [usize],
    check: Check,
    compiled: OnceLock<Regex>,
}

impl Rule {
    pub(super) const fn new(
        kind: &'static str,
        hints: &'static [&'static str],
        pattern: &'static str,
    ) -> Rule {
        Rule {
            kind: Kind::Fixed(kind),
            pattern,
            hints,
            groups: &[],
            check: Check::Always,
            compiled: OnceLock::new(),
        }
    }

    pub(super) const fn secret(mut self, groups: &'static [usize], check: Check) -> Rule {
        self.groups = groups;
        self.check = check;
        self
    }

    pub(super) const fn word(mut self, group: usize) -> Rule {
        self.kind = Kind::Word(group);
        self
    }

    /// The compiled rule. Word boundaries are ASCII ones: a Unicode `\b` sends the regex engine
    /// to its slow path on any non-ASCII text, and seal scans binary files with these rules.
    pub(super) fn regex(&self) -> &Regex {
        self.compiled.get_or_init(|| {
            Regex::new(&self.pattern.replace(r"\b", r"(?-u:\b)")).expect("secret rules are valid")
        })
    }

    /// The secret this match holds, if it passes the rule's check.
    pub(super) fn judge(&self, caps: &Captures<'_>, text: &str) -> Option<Found> {
        let whole = caps.get(0)?;
        let group = match self.groups {
            [] => whole,
            groups => groups.iter().find_map(|&i| caps.get(i))?,
        };
        let secret = group.as_str();
        let ok = match self.check {
            Check::Always => true,
            Check::Bearer => secret.len() >= 12,
            Check::Mixed => {
                let body = secret.trim_start_matches("sk-");
                body.bytes().any(|b| b.is_ascii_uppercase())
                    && body.bytes().any(|b| b.is_ascii_lowercase())
                    && body.bytes().any(|b| b.is_ascii_digit())
            }
            Check::Value => value::plausible(secret, form_of(&text[whole.start()..group.start()])),
            Check::Header => value::plausible(last_word(secret), Form::Bare),
            Check::ValueOf(i) => {
                caps.get(i).is_some_and(|m| value::plausible(m.as_str(), Form::Bare))
            }
        };
        if let Kind::Word(i) = self.kind
            && (!caps.get(i).is_some_and(|word| {
                starts_a_word(text, word.start()) || glued_env_name(text, whole.start(), word)
            }) || not_an_assignment(text, whole.start(), caps.get(i).map_or(0, |w| w.end())))
        {
            return None;
        }
        let kind = match self.kind {
            Kind::Fixed(kind) => kind,
            Kind::Word(i) => word_kind(caps.get(i).map_or("", |m| m.as_str())),
        };
        ok.then(|| Found { range: group.range(), kind })
    }
}

/// The credential in a header value is its last word (`Bearer abc`, `Basic dXNlcg==`).
fn last_word(value: &str) -> &str {
    value.trim().rsplit([' ', '\t']).next().unwrap_or(value).trim_end_matches([',', ';'])
}

/// How a value was written, from the text of its match before it: quoted, right after `=`/`:`
/// or a flag, or after `= `/`: ` (code or YAML).
fn form_of(before: &str) -> Form {
    if before.ends_with(['"', '\'']) {
        Form::Quoted
    } else if before.ends_with([' ', '\t']) && before.trim_end().ends_with([':', '=']) {
        Form::Spaced
    } else {
        Form::Bare
    }
}

/// A credential word counts where a name's word begins: at the start of the name, after `_`,
/// `-` or `.`, or at a camelCase capital (`DB_PASSWORD`, `clientSecret`; not `compass`).
fn starts_a_word(text: &str, at: usize) -> bool {
    let Some(before) = text[..at].chars().next_back() else { return true };
    let first = text[at..].chars().next().unwrap_or(' ');
    !before.is_ascii_alphanumeric()
        || (before.is_ascii_lowercase() || before.is_ascii_digit()) && first.is_ascii_uppercase()
}

/// An environment name with the credential word glued on at its end (`PGPASSWORD`,
/// `REDISTOKEN`): all capitals, and a word long enough not to end ordinary names (`COMPASS`).
fn glued_env_name(text: &str, start: usize, word: regex::Match<'_>) -> bool {
    let name = &text[start..word.end()];
    let name = name.rsplit(['-', '.']).next().unwrap_or(name);
    word.len() >= 5
        && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && !text[word.end()..].starts_with(|c: char| c.is_ascii_alphanumeric())
}

/// A name and separator that only look like `key: value`: a path segment (`one/pass:far`), a
/// path in code (`Token::Any`: the value would start at the second colon), or the branch of a
/// conditional (`ok ? "PASS" : "FAIL"`).
fn not_an_assignment(text: &str, start: usize, word_end: usize) -> bool {
    let before = &text[..start];
    let separator =
        text[word_end..].trim_start_matches(['"', '\'']).trim_start_matches([' ', '\t']);
    before.ends_with('/')
        || separator.starts_with("::")
        || before.trim_end_matches(['"', '\'']).trim_end().ends_with('?')
            && separator.starts_with(':')
}

/// The kind named in the marker for a credential word.
fn word_kind(word: &str) -> &'static str {
    let word = word.to_ascii_lowercase();
    if word.starts_with("pass") || word.starts_with("pwd") {
        "password"
    } else if word.contains("secret") {
        "secret"
    } else if word.contains("token") {
        "token"
    } else if word.contains("key") {
        "api-key"
    } else {
        "credentials"
    }
}
