//! What a secret looks like: the provider token patterns shared by seal's secrets guard (which
//! refuses to commit files holding them) and by redaction (which scrubs them from every text we
//! write). One list, so the two can never disagree about what a token is.
//!
//! No entropy guessing: random binary data is ordinary content. Each pattern is anchored on a
//! provider's documented prefix or structure.

use std::sync::OnceLock;

use regex::bytes::Regex as BytesRegex;

/// `(kind, regex)`: the kind names the secret in `[redacted:<kind>]` and in seal's `why`.
pub const TOKEN_PATTERNS: &[(&str, &str)] = &[
    ("private-key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    ("aws-access-key", r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[0-9A-Z]{16}\b"),
    (
        "aws-secret-key",
        r#"(?i)aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}\b"#,
    ),
    ("github-token", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b"),
    ("github-token", r"\bgithub_pat_[A-Za-z0-9_]{22,255}\b"),
    ("gitlab-token", r"\bgl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|agent|soat)-[A-Za-z0-9_\-]{20,}"),
    ("slack-token", r"\bxox[abposre]-[A-Za-z0-9-]{10,}"),
    ("slack-webhook", r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}"),
    ("stripe-key", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b"),
    ("stripe-key", r"\bwhsec_[A-Za-z0-9]{24,}\b"),
    ("api-key", r"\bsk-(?:ant-(?:api|admin)\d\d-|proj-|svcacct-|or-v1-)?[A-Za-z0-9_\-]{20,}"),
    ("google-api-key", r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("pypi-token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}"),
    ("huggingface-token", r"\bhf_[A-Za-z0-9]{34,}\b"),
    ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
];

struct Compiled {
    bytes: Vec<(&'static str, BytesRegex)>,
    any_bytes: BytesRegex,
}

fn compiled() -> &'static Compiled {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let bytes = TOKEN_PATTERNS
            .iter()
            .map(|(kind, re)| (*kind, BytesRegex::new(re).expect("token patterns are valid")))
            .collect();
        let alternation: Vec<String> =
            TOKEN_PATTERNS.iter().map(|(_, re)| format!("(?:{re})")).collect();
        let any_bytes = BytesRegex::new(&alternation.join("|")).expect("token patterns are valid");
        Compiled { bytes, any_bytes }
    })
}

/// The kind of the first token found in `bytes`, if any. Cheap when there is none: one pass of a
/// combined automaton, then a second pass only to name the kind.
pub fn find_token(bytes: &[u8]) -> Option<&'static str> {
    let compiled = compiled();
    let found = compiled.any_bytes.find(bytes)?;
    let window = &bytes[found.start()..];
    compiled.bytes.iter().find(|(_, re)| re.is_match(window)).map(|(kind, _)| *kind)
}

/// The longest token any pattern can match in practice, for scanning streams in overlapping
/// chunks: a token cut by a chunk boundary is seen whole in the overlap.
pub const MAX_TOKEN_LEN: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_provider() {
        let samples = [
            ("private-key", "-----BEGIN OPENSSH PRIVATE KEY-----".to_string()),
            ("private-key", "-----BEGIN RSA PRIVATE KEY-----".to_string()),
            ("aws-access-key", "AKIAIOSFODNN7EXAMPLE".to_string()),
            (
                "aws-secret-key",
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".to_string(),
            ),
            ("github-token", format!("ghp_{}", "a1B2".repeat(9))),
            ("github-token", format!("github_pat_{}", "A1b2_".repeat(10))),
            ("gitlab-token", format!("glpat-{}", "x1Y2z".repeat(4))),
            ("slack-token", "xoxb-1234567890-abcdefghij".to_string()),
            ("stripe-key", format!("sk_live_{}", "4eC39HqLyjWDarjtT1zdp7dc")),
            ("api-key", format!("sk-{}", "abcDEF123".repeat(4))),
            ("api-key", format!("sk-ant-api03-{}", "abcDEF123".repeat(4))),
            ("api-key", format!("sk-proj-{}", "abcDEF123".repeat(4))),
            ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U".to_string()),
        ];
        for (kind, sample) in samples {
            let text = format!("prefix {sample} suffix");
            assert_eq!(find_token(text.as_bytes()), Some(kind), "{sample}");
        }
    }

    #[test]
    fn ordinary_content_is_not_a_token() {
        for text in [
            "fn main() { println!(\"hello\"); }",
            "sk-short",
            "task-1234567890",
            "the AKIA prefix alone",
            "ghp_tooshort",
            "-----BEGIN PUBLIC KEY-----",
            "-----BEGIN CERTIFICATE-----",
        ] {
            assert_eq!(find_token(text.as_bytes()), None, "{text}");
        }
        let random: Vec<u8> =
            (0..65536u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        assert_eq!(find_token(&random), None);
    }
}
