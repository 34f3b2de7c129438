//! Redaction: the one place that scrubs secrets from text before git-handoff writes it anywhere
//! (the event log, and later notes and records). A secret becomes `[redacted:<kind>]`.
//!
//! What is scrubbed, in this order: whole PEM private-key blocks; credentials in URLs
//! (`https://user:pass@host`); `Authorization:` headers and `Bearer` tokens; the provider tokens of
//! [`crate::model::secrets`] (one list shared with seal's guard); `password=`/`secret=`/`token=`/`api_key=`
//! style assignments (also `key: value`, JSON `"key": "value"` and `--password value`); and the
//! regexes of `redact.patterns` in `.handoff.toml`. There is no switch to turn it off.
//!
//! Redaction errs on the side of hiding: a value that merely looks like a credential assignment is
//! hidden, the key name is kept so the text still reads.

use std::borrow::Cow;
use std::sync::OnceLock;

use anyhow::{Context, Result};
use regex::{Captures, Regex};

use crate::model::config::Config;
use crate::model::secrets;

/// The marker that replaces a secret.
pub fn marker(kind: &str) -> String {
    format!("[redacted:{kind}]")
}

/// One rule: a regex compiled on first need, and literals (ASCII lower case) of which at least one
/// appears in any text the regex matches. Most text holds none of them, so most calls compile and
/// run no regex at all: `record` runs on every tool call and must stay fast.
struct Rule {
    pattern: &'static str,
    hints: &'static [&'static str],
    compiled: OnceLock<Regex>,
}

impl Rule {
    const fn new(pattern: &'static str, hints: &'static [&'static str]) -> Rule {
        Rule { pattern, hints, compiled: OnceLock::new() }
    }

    /// The regex, when `lower` (the text in ASCII lower case) may hold a match.
    fn applies(&self, lower: &str) -> Option<&Regex> {
        if !self.hints.is_empty() && !self.hints.iter().any(|hint| lower.contains(hint)) {
            return None;
        }
        Some(
            self.compiled
                .get_or_init(|| Regex::new(self.pattern).expect("redaction rules are valid")),
        )
    }
}

// A block cut short (a capped string) is hidden up to the end of the text.
static PEM_BLOCK: Rule = Rule::new(
    r"(?s)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)",
    &["private key"],
);
static URL_CREDENTIALS: Rule =
    Rule::new(r"\b([A-Za-z][A-Za-z0-9+.-]*://)[^\s/@:]+:[^\s/@]+@", &["://"]);
static AUTHORIZATION: Rule = Rule::new(
    r#"(?i)\b((?:proxy-)?authorization)(["']?\s*[:=]\s*)(?:"[^"\r\n]*"|'[^'\r\n]*'|[^\r\n"']+)"#,
    &["authorization"],
);
// A bearer token has a digit; prose ("bearer authentication") has none.
static BEARER: Rule =
    Rule::new(r"(?i)\b(bearer)\s+([A-Za-z0-9._~+/=-]*[0-9][A-Za-z0-9._~+/=-]*)", &["bearer"]);
const CREDENTIAL_WORDS: &[&str] = &["pass", "secret", "token", "key", "credential"];
static ASSIGNMENT: Rule = Rule::new(
    r#"(?i)\b([A-Za-z0-9_.-]*?(password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?))(["']?[ \t]*[:=][ \t]*)("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'=,;&|)}\]][^\s"',;&|)}\]]*)"#,
    CREDENTIAL_WORDS,
);
static FLAG: Rule = Rule::new(
    r#"(?i)(--(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret))[ \t]+("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'-][^\s"']*)"#,
    CREDENTIAL_WORDS,
);

/// Literals (lower case) that any match of a provider token pattern of this kind holds; an
/// unknown kind has none listed, so its pattern always runs.
fn token_hints(kind: &str) -> &'static [&'static str] {
    match kind {
        "private-key" => &["private key"],
        "aws-access-key" => {
            &["akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "apka"]
        }
        "aws-secret-key" => &["aws"],
        "github-token" => &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        "gitlab-token" => &["gl"],
        "slack-token" => &["xox"],
        "slack-webhook" => &["hooks.slack.com"],
        "stripe-key" => &["_live_", "_test_", "whsec_"],
        "api-key" => &["sk-"],
        "google-api-key" => &["aiza"],
        "npm-token" => &["npm_"],
        "pypi-token" => &["pypi-"],
        "huggingface-token" => &["hf_"],
        "jwt" => &["eyj"],
        _ => &[],
    }
}

/// The provider token patterns of [`crate::model::secrets`] as rules, compiled one by one on need.
fn token_rules() -> &'static [(&'static str, Rule)] {
    static RULES: OnceLock<Vec<(&'static str, Rule)>> = OnceLock::new();
    RULES.get_or_init(|| {
        secrets::TOKEN_PATTERNS
            .iter()
            .map(|(kind, pattern)| (*kind, Rule::new(pattern, token_hints(kind))))
            .collect()
    })
}

/// Redacts text: the built-in rules plus any configured patterns.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    extra: Vec<Regex>,
}

impl Redactor {
    /// The built-in rules plus `redact.patterns` (and `secrets.patterns`) of the configuration.
    pub fn new(config: &Config) -> Result<Redactor> {
        let mut extra = Vec::new();
        for pattern in config.redact.patterns.iter().chain(&config.secrets.patterns) {
            let re = Regex::new(pattern).with_context(|| {
                format!(
                    "{}: redact.patterns: {pattern:?} is not a valid regular expression",
                    crate::model::config::FILE_NAME
                )
            })?;
            extra.push(re);
        }
        Ok(Redactor { extra })
    }

    /// Returns `text` with every secret replaced by `[redacted:<kind>]`.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Redaction { text: Cow::Borrowed(text), lower: text.to_ascii_lowercase() };
        out.apply(&PEM_BLOCK, |_| marker("private-key"));
        out.apply(&URL_CREDENTIALS, |c| format!("{}{}@", &c[1], marker("url-credentials")));
        out.apply(&AUTHORIZATION, |c| format!("{}{}{}", &c[1], &c[2], marker("authorization")));
        out.apply(&BEARER, |c| {
            if c[2].len() < 12 {
                c[0].to_string()
            } else {
                format!("{} {}", &c[1], marker("bearer-token"))
            }
        });
        for (kind, rule) in token_rules() {
            out.apply(rule, |_| marker(kind));
        }
        out.apply(&ASSIGNMENT, |c| {
            let value = c[4].trim_matches(|ch| ch == '"' || ch == '\'');
            if value.starts_with("[redacted:") || value.is_empty() {
                return c[0].to_string();
            }
            let quote = if c[4].starts_with('"') { "\"" } else { "" };
            format!("{}{}{quote}{}{quote}", &c[1], &c[3], marker(&assignment_kind(&c[2])))
        });
        out.apply(&FLAG, |c| {
            if c[2].starts_with("[redacted:") {
                return c[0].to_string();
            }
            let kind = assignment_kind(c[1].trim_start_matches('-'));
            format!("{} {}", &c[1], marker(&kind))
        });
        let mut text = out.text;
        for re in &self.extra {
            if re.is_match(&text) {
                text = Cow::Owned(re.replace_all(&text, marker("pattern").as_str()).into_owned());
            }
        }
        text
    }
}

/// The kind named in the marker for a credential assignment's key word.
fn assignment_kind(word: &str) -> String {
    let word = word.to_ascii_lowercase();
    let kind = if word.starts_with("pass") {
        "password"
    } else if word.contains("secret") {
        "secret"
    } else if word.contains("token") {
        "token"
    } else if word.contains("key") {
        "api-key"
    } else {
        "credentials"
    };
    kind.to_string()
}

/// Text being redacted, with its ASCII lower-case copy for the rules' hints.
struct Redaction<'a> {
    text: Cow<'a, str>,
    lower: String,
}

impl Redaction<'_> {
    fn apply(&mut self, rule: &Rule, with: impl Fn(&Captures<'_>) -> String) {
        let Some(re) = rule.applies(&self.lower) else { return };
        if !re.is_match(&self.text) {
            return;
        }
        let replaced = re.replace_all(&self.text, |c: &Captures<'_>| with(c)).into_owned();
        self.lower = replaced.to_ascii_lowercase();
        self.text = Cow::Owned(replaced);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> String {
        Redactor::default().redact(text).into_owned()
    }

    #[test]
    fn assignments_keep_the_key_and_hide_the_value() {
        assert_eq!(r("password=hunter2"), "password=[redacted:password]");
        assert_eq!(r("DB_PASSWORD=hunter2 cargo run"), "DB_PASSWORD=[redacted:password] cargo run");
        assert_eq!(r(r#"{"api_key": "abc123"}"#), r#"{"api_key": "[redacted:api-key]"}"#);
        assert_eq!(r("secret: s3cr3t"), "secret: [redacted:secret]");
        assert_eq!(r("export GH_TOKEN='x y'"), "export GH_TOKEN=[redacted:token]");
        assert_eq!(r("mysql --password hunter2"), "mysql --password [redacted:password]");
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        for text in [
            "max_tokens: 1000",
            "if token == other { }",
            "cargo test --workspace",
            "the password is not set here",
            "let tokens = lex(input);",
            "budget_tokens: 120000",
        ] {
            assert_eq!(r(text), text);
        }
    }

    #[test]
    fn urls_headers_and_blocks() {
        assert_eq!(
            r("git clone https://bob:pa55@example.com/x.git"),
            "git clone https://[redacted:url-credentials]@example.com/x.git"
        );
        assert_eq!(
            r("curl -H 'Authorization: Bearer abcdefghijklmnop' x"),
            "curl -H 'Authorization: [redacted:authorization]' x"
        );
        let pem =
            "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nxyz\n-----END RSA PRIVATE KEY-----\nb";
        assert_eq!(r(pem), "a\n[redacted:private-key]\nb");
        assert_eq!(r("x -----BEGIN PRIVATE KEY-----\nMIIE"), "x [redacted:private-key]");
    }

    #[test]
    fn every_token_kind_has_hints() {
        for (kind, _) in secrets::TOKEN_PATTERNS {
            assert!(!token_hints(kind).is_empty(), "{kind} has no hints: it would always run");
        }
    }

    #[test]
    fn configured_patterns_apply() {
        let config = Config::parse("[redact]\npatterns = [\"corp-[0-9]{6}\"]\n", "t").unwrap();
        let redactor = Redactor::new(&config).unwrap();
        assert_eq!(redactor.redact("id corp-123456 ok"), "id [redacted:pattern] ok");
    }
}
