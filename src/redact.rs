//! Redaction: the one place that scrubs secrets from text before git-handoff writes it anywhere
//! (the event log, and later notes and records). A secret becomes `[redacted:<kind>]`.
//!
//! What is scrubbed, in this order: whole PEM private-key blocks; credentials in URLs
//! (`https://user:pass@host`); `Authorization:` headers and `Bearer` tokens; the provider tokens of
//! [`crate::secrets`] (one list shared with seal's guard); `password=`/`secret=`/`token=`/`api_key=`
//! style assignments (also `key: value`, JSON `"key": "value"` and `--password value`); and the
//! regexes of `redact.patterns` in `.handoff.toml`. There is no switch to turn it off.
//!
//! Redaction errs on the side of hiding: a value that merely looks like a credential assignment is
//! hidden, the key name is kept so the text still reads.

use std::borrow::Cow;
use std::sync::OnceLock;

use anyhow::{Context, Result};
use regex::{Captures, Regex};

use crate::config::Config;
use crate::secrets;

/// The marker that replaces a secret.
pub fn marker(kind: &str) -> String {
    format!("[redacted:{kind}]")
}

/// Built-in rules beyond the provider tokens, compiled once per process.
struct Rules {
    pem_block: Regex,
    url_credentials: Regex,
    authorization: Regex,
    bearer: Regex,
    assignment: Regex,
    flag: Regex,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let re = |pattern: &str| Regex::new(pattern).expect("redaction rules are valid");
        Rules {
            // A block cut short (a capped string) is hidden up to the end of the text.
            pem_block: re(
                r"(?s)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)",
            ),
            url_credentials: re(r"\b([A-Za-z][A-Za-z0-9+.-]*://)[^\s/@:]+:[^\s/@]+@"),
            authorization: re(
                r#"(?i)\b((?:proxy-)?authorization)(["']?\s*[:=]\s*)(?:"[^"\r\n]*"|'[^'\r\n]*'|[^\r\n"']+)"#,
            ),
            // A bearer token has a digit; prose ("bearer authentication") has none.
            bearer: re(r"(?i)\b(bearer)\s+([A-Za-z0-9._~+/=-]*[0-9][A-Za-z0-9._~+/=-]*)"),
            assignment: re(
                r#"(?i)\b([A-Za-z0-9_.-]*?(password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?))(["']?[ \t]*[:=][ \t]*)("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'=,;&|)}\]][^\s"',;&|)}\]]*)"#,
            ),
            flag: re(
                r#"(?i)(--(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret))[ \t]+("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'-][^\s"']*)"#,
            ),
        }
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
                    crate::config::FILE_NAME
                )
            })?;
            extra.push(re);
        }
        Ok(Redactor { extra })
    }

    /// The built-in rules only.
    pub fn builtin() -> Redactor {
        Redactor::default()
    }

    /// Returns `text` with every secret replaced by `[redacted:<kind>]`.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let rules = rules();
        let mut out = Cow::Borrowed(text);
        replace(&mut out, &rules.pem_block, |_| marker("private-key"));
        replace(&mut out, &rules.url_credentials, |c| {
            format!("{}{}@", &c[1], marker("url-credentials"))
        });
        replace(&mut out, &rules.authorization, |c| {
            format!("{}{}{}", &c[1], &c[2], marker("authorization"))
        });
        replace(&mut out, &rules.bearer, |c| {
            if c[2].starts_with("[redacted:") || c[2].len() < 12 {
                c[0].to_string()
            } else {
                format!("{} {}", &c[1], marker("bearer-token"))
            }
        });
        for (kind, re) in secrets::text_patterns() {
            replace(&mut out, re, |_| marker(kind));
        }
        replace(&mut out, &rules.assignment, |c| {
            let value = c[4].trim_matches(|ch| ch == '"' || ch == '\'');
            if value.starts_with("[redacted:") || value.is_empty() {
                return c[0].to_string();
            }
            let quote = if c[4].starts_with('"') { "\"" } else { "" };
            format!("{}{}{quote}{}{quote}", &c[1], &c[3], marker(&assignment_kind(&c[2])))
        });
        replace(&mut out, &rules.flag, |c| {
            if c[2].starts_with("[redacted:") {
                return c[0].to_string();
            }
            let kind = assignment_kind(c[1].trim_start_matches('-'));
            format!("{} {}", &c[1], marker(&kind))
        });
        for re in &self.extra {
            replace(&mut out, re, |_| marker("pattern"));
        }
        out
    }

    /// Redacts an owned string in place (no copy when nothing matches).
    pub fn redact_string(&self, text: String) -> String {
        match self.redact(&text) {
            Cow::Borrowed(_) => text,
            Cow::Owned(changed) => changed,
        }
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

fn replace(text: &mut Cow<'_, str>, re: &Regex, with: impl Fn(&Captures<'_>) -> String) {
    if !re.is_match(text) {
        return;
    }
    let replaced = re.replace_all(text, |c: &Captures<'_>| with(c)).into_owned();
    *text = Cow::Owned(replaced);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> String {
        Redactor::builtin().redact(text).into_owned()
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
    fn configured_patterns_apply() {
        let config = Config::parse("[redact]\npatterns = [\"corp-[0-9]{6}\"]\n", "t").unwrap();
        let redactor = Redactor::new(&config).unwrap();
        assert_eq!(redactor.redact("id corp-123456 ok"), "id [redacted:pattern] ok");
    }
}
