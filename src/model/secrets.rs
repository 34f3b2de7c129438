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
mod rule;
mod rules;
mod value;

use std::sync::OnceLock;

use hints::Hints;
pub use rule::Found;
use rules::RULES;

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
