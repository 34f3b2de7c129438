//! What a secret looks like: ONE rule set, used by redaction (which scrubs secrets from every text
//! git-handoff writes) and by seal's guard (which refuses to commit files holding them), so the
//! two can never disagree about what a secret is.
//!
//! The rules: private-key blocks ([`pem`]); credentials in URLs (`https://user:pass@`,
//! `redis://:pass@`); `Authorization:` headers and `Bearer` tokens; provider tokens, each anchored
//! on a provider's documented prefix or structure (AWS, GitHub, GitLab, Slack, Stripe, OpenAI and
//! Anthropic `sk-` keys, Google, npm, PyPI, Hugging Face, SendGrid, Mailgun, Discord, Twilio,
//! Telegram, DigitalOcean, Shopify, Vault, Databricks, age, JWTs, Azure keys and SAS signatures);
//! passwords on command lines (`curl -u user:pw`, `mysql -pPW`, `docker login -p`, `sshpass -p`,
//! `aws configure set ... KEY`, netrc `password X`); and `password=`/`secret:`/`API_KEY=` style
//! assignments and `--password X` flags. No entropy guessing: random data is ordinary content.
//!
//! A rule that matches a name and a value asks [`value::plausible`] whether the value is a secret
//! or code that only looks like one (`const token = getToken();`, `max_token=4096`), so look-alike
//! code is kept verbatim by both users of the rules.
//!
//! Cheap when there is nothing to find: each rule lists literals (lower case) one of which any
//! match holds; a rule whose literals are absent from the text never compiles or runs its regex.
//! Those literals are [`hints`]'.

mod hints;
mod pem;
mod rules;
mod value;

use std::ops::Range;
use std::sync::OnceLock;

use regex::{Captures, Regex};

use hints::Hints;
use rules::RULES;
use value::Form;

/// One secret found in a text: the bytes to hide and what they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub range: Range<usize>,
    pub kind: &'static str,
}

/// What a rule asks of a match before it counts.
#[derive(Clone, Copy)]
enum Check {
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
enum Kind {
    Fixed(&'static str),
    /// From the credential word in this group (`password`, `secret`, `token`, `api-key`).
    Word(usize),
}

struct Rule {
    kind: Kind,
    pattern: &'static str,
    hints: &'static [&'static str],
    /// The groups that may hold the secret, first participating wins; empty: the whole match.
    groups: &'static [usize],
    check: Check,
    compiled: OnceLock<Regex>,
}

impl Rule {
    const fn new(
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

    const fn secret(mut self, groups: &'static [usize], check: Check) -> Rule {
        self.groups = groups;
        self.check = check;
        self
    }

    const fn word(mut self, group: usize) -> Rule {
        self.kind = Kind::Word(group);
        self
    }

    /// The compiled rule. Word boundaries are ASCII ones: a Unicode `\b` sends the regex engine
    /// to its slow path on any non-ASCII text, and seal scans binary files with these rules.
    fn regex(&self) -> &Regex {
        self.compiled.get_or_init(|| {
            Regex::new(&self.pattern.replace(r"\b", r"(?-u:\b)")).expect("secret rules are valid")
        })
    }

    /// The secret this match holds, if it passes the rule's check.
    fn judge(&self, caps: &Captures<'_>, text: &str) -> Option<Found> {
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

/// The hints of [`RULES`], the PEM one first, found once.
fn hints() -> &'static Hints {
    static HINTS: OnceLock<Hints> = OnceLock::new();
    HINTS.get_or_init(|| Hints::new(pem::HINT, RULES.iter().map(|rule| rule.hints)))
}

/// Compiles every rule (about 10 ms in all), so that a scan that follows does not wait on it: seal
/// calls this while `git add` runs.
pub fn prepare() {
    hints().searcher();
    for rule in &RULES {
        rule.regex();
    }
}

/// Every secret in `text`, in order, overlapping finds merged into one.
pub fn find_all(text: &str) -> Vec<Found> {
    let hints = hints();
    let seen = hints.in_text(text);
    let mut found: Vec<Found> = Vec::new();
    if seen[hints.pem] {
        found.extend(
            pem::blocks(text).into_iter().map(|range| Found { range, kind: "private-key" }),
        );
    }
    for (rule, of_rule) in RULES.iter().zip(&hints.of_rule) {
        if !of_rule.iter().any(|&i| seen[i]) {
            continue;
        }
        for caps in rule.regex().captures_iter(text) {
            found.extend(rule.judge(&caps, text));
        }
    }
    merge(found)
}

/// The kind of the first secret in `text`, if any.
pub fn find_first(text: &str) -> Option<&'static str> {
    find_all(text).into_iter().next().map(|f| f.kind)
}

/// The kind of the first secret in `bytes`, if any (seal's guard scans file content with it).
/// In bytes that are not UTF-8 each valid run is scanned on its own (no rule matches across an
/// invalid byte), so binary files cost a validation pass and little more.
pub fn find_token(bytes: &[u8]) -> Option<&'static str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => find_first(text),
        Err(_) => bytes
            .utf8_chunks()
            .map(|chunk| chunk.valid())
            .filter(|text| text.len() >= MIN_SECRET_LEN)
            .find_map(find_first),
    }
}

/// No secret any rule matches is shorter than this.
const MIN_SECRET_LEN: usize = 8;

/// Sorts finds and merges overlapping ones (the earliest, then the longest, names the kind).
fn merge(mut found: Vec<Found>) -> Vec<Found> {
    found.sort_by(|a, b| a.range.start.cmp(&b.range.start).then(b.range.end.cmp(&a.range.end)));
    let mut out: Vec<Found> = Vec::with_capacity(found.len());
    for f in found {
        match out.last_mut() {
            Some(last) if f.range.start < last.range.end => {
                last.range.end = last.range.end.max(f.range.end);
            }
            _ => out.push(f),
        }
    }
    out
}

/// The longest token any pattern can match in practice, for scanning streams in overlapping
/// chunks: a token cut by a chunk boundary is seen whole in the overlap.
pub const MAX_TOKEN_LEN: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_finds_merge_and_only_the_secret_is_marked() {
        let text = "export GH_TOKEN=ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 && make";
        let found = find_all(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(&text[found[0].range.clone()], "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
    }

    #[test]
    fn tokens_in_binary_content_are_found() {
        let mut bytes: Vec<u8> =
            (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        assert_eq!(find_token(&bytes), None);
        bytes.extend_from_slice(b"\xff AKIAQ3EGRJ5MZ7XW4TPL \xfe");
        assert_eq!(find_token(&bytes), Some("aws-access-key"));
    }

    #[test]
    fn a_key_header_alone_is_not_a_secret() {
        assert_eq!(find_token(b"-----BEGIN RSA PRIVATE KEY-----"), None);
        assert_eq!(
            find_token(b"-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----"),
            None
        );
        let block = b"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg\n-----END EC PRIVATE KEY-----\n";
        assert_eq!(find_token(block), Some("private-key"));
    }
}
