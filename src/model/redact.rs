//! Redaction: the one place that scrubs text before git-handoff writes it anywhere (the event log,
//! notes, records, progress notes, seal messages). A secret becomes `[redacted:<kind>]`.
//!
//! What counts as a secret is [`crate::model::secrets`], the rule set seal's guard uses too; only
//! the secret itself is replaced (the value of `password=x`, the `user:pass` of a URL, a whole
//! private-key block), so headings, line breaks and the words around it stay. Then the regexes of
//! `redact.patterns` and `secrets.patterns` in `.handoff.toml`. There is no switch to turn it off.
//!
//! Control characters (a NUL above all) are replaced by U+FFFD first: text from hook payloads,
//! facts files and summaries must never make a note binary. Tabs and line breaks stay.

use std::borrow::Cow;

use anyhow::Result;

use crate::model::config::Config;
use crate::model::patterns::Patterns;
use crate::model::secrets;

/// The marker that replaces a secret.
pub fn marker(kind: &str) -> String {
    format!("[redacted:{kind}]")
}

/// Redacts text: the shared secret rules plus any configured patterns.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    extra: Vec<Patterns>,
}

impl Redactor {
    /// The built-in rules plus `redact.patterns` (and `secrets.patterns`) of the configuration,
    /// compiled when it was parsed.
    pub fn new(config: &Config) -> Result<Redactor> {
        Ok(Redactor {
            extra: vec![config.redact.compiled.clone(), config.secrets.compiled.clone()],
        })
    }

    /// Returns `text` with control characters replaced and every secret replaced by
    /// `[redacted:<kind>]`. No copy when there is nothing to change.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match scrub_controls(text) {
            Cow::Borrowed(text) => self.hide_secrets(text),
            Cow::Owned(text) => Cow::Owned(self.hide_secrets(&text).into_owned()),
        }
    }

    /// Returns `text` with every secret replaced, control characters left as they are: for a
    /// source whose own check must still see them (a note with a NUL is refused as binary).
    pub fn hide_secrets<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let text = Cow::Borrowed(text);
        let found = secrets::find_all(&text);
        let mut text = match found.is_empty() {
            true => text,
            false => {
                let mut out = String::with_capacity(text.len());
                let mut at = 0;
                for f in &found {
                    out.push_str(&text[at..f.range.start]);
                    out.push_str(&marker(f.kind));
                    at = f.range.end;
                }
                out.push_str(&text[at..]);
                Cow::Owned(out)
            }
        };
        for patterns in &self.extra {
            if patterns.is_match(text.as_bytes()) {
                let replaced = patterns.replace_all(&text, marker("pattern").as_str());
                text = Cow::Owned(replaced.into_owned());
            }
        }
        text
    }

    /// Redacts `text`, a message that may quote `sources` (the arguments a command or a tool
    /// call was given) escaped as `{:?}` does, which can hide a secret from the rules (`"a\"b"`
    /// becomes `"a\\\"b"`): see [`Quoted`].
    pub fn redact_quoting<'a>(
        &self,
        text: &str,
        sources: impl IntoIterator<Item = &'a str>,
    ) -> String {
        self.redact_quoted(text, &Quoted::of(sources))
    }

    /// Redacts `text`, replacing the secrets of `quoted` first however they are escaped.
    pub fn redact_quoted(&self, text: &str, quoted: &Quoted) -> String {
        let mut text = text.to_string();
        for (form, kind) in &quoted.0 {
            if text.contains(form.as_str()) {
                text = text.replace(form.as_str(), &marker(kind));
            }
        }
        self.redact_string(text)
    }

    /// Redacts an owned string in place (no copy when nothing matches).
    pub fn redact_string(&self, text: String) -> String {
        match self.redact(&text) {
            Cow::Borrowed(_) => text,
            Cow::Owned(changed) => changed,
        }
    }
}

/// The secrets found in some sources (a command's arguments), each as it is and escaped once,
/// twice and three times as `{:?}` escapes: the forms a message quoting them may hold.
#[derive(Debug, Default)]
pub struct Quoted(Vec<(String, &'static str)>);

impl Quoted {
    pub fn of<'a>(sources: impl IntoIterator<Item = &'a str>) -> Quoted {
        let mut forms = Vec::new();
        for source in sources {
            for found in secrets::find_all(source) {
                let mut form = source[found.range].to_string();
                for _ in 0..4 {
                    let next = form.escape_debug().to_string();
                    if form.len() >= 3 && !forms.iter().any(|(f, _)| *f == form) {
                        forms.push((form, found.kind));
                    }
                    form = next;
                }
            }
        }
        // The longest first: an escaped form holds the plain one.
        forms.sort_by_key(|(f, _)| std::cmp::Reverse(f.len()));
        Quoted(forms)
    }
}

/// A control character that must not reach a note: C0 but tab, LF and CR; DEL; C1.
fn is_scrubbed(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// `text` with each control character of [`is_scrubbed`] replaced by U+FFFD.
pub fn scrub_controls(text: &str) -> Cow<'_, str> {
    // C0 and DEL are single bytes; C1 characters are encoded as 0xC2 0x80..=0x9F.
    let suspicious = text
        .bytes()
        .any(|b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f || b == 0xc2);
    if !suspicious || !text.chars().any(is_scrubbed) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| if is_scrubbed(c) { '\u{FFFD}' } else { c }).collect())
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
        assert_eq!(r("export GH_TOKEN='x y'"), "export GH_TOKEN='[redacted:token]'");
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
            assert!(matches!(Redactor::default().redact(text), Cow::Borrowed(_)));
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
    fn control_characters_never_pass() {
        assert_eq!(
            r("echo a\u{0}b\u{1b}[31m\u{7f}\u{85}"),
            "echo a\u{FFFD}b\u{FFFD}[31m\u{FFFD}\u{FFFD}"
        );
        assert_eq!(r("tab\tline\r\nend"), "tab\tline\r\nend");
        assert_eq!(r("café ünï"), "café ünï");
    }

    #[test]
    fn configured_patterns_apply() {
        let config = Config::parse("[redact]\npatterns = [\"corp-[0-9]{6}\"]\n", "t").unwrap();
        let redactor = Redactor::new(&config).unwrap();
        assert_eq!(redactor.redact("id corp-123456 ok"), "id [redacted:pattern] ok");
    }
}
