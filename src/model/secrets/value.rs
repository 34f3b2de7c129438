//! Is this value a secret, or code that only looks like a credential assignment? The one judgment
//! the redactor and the seal guard share for `password = X`, `--token X`, `Authorization: X` and
//! their kin: `const token = getToken();`, `max_token=4096`, `use_api_key: true`,
//! `api_key = os.environ["API_KEY"]` and `password: ${DB_PASSWORD}` are kept verbatim.

/// Values that name a type, a state or a placeholder, not a secret.
const NOT_SECRETS: &[&str] = &[
    "true",
    "false",
    "yes",
    "no",
    "none",
    "null",
    "nil",
    "undefined",
    "on",
    "off",
    "required",
    "optional",
    "empty",
    "string",
    "str",
    "&str",
    "bool",
    "boolean",
    "int",
    "integer",
    "number",
    "any",
    "object",
    "unknown",
    "secret",
    "secrets",
    "password",
    "passwd",
    "token",
    "tokens",
    "key",
    "apikey",
    "api_key",
    "redacted",
    "hidden",
    "masked",
    "example",
    "placeholder",
    "value",
    "self",
    "this",
    "default",
    "env",
    "environ",
    "process.env",
    "os.environ",
    // Permissions (`id-token: write` in a GitHub workflow).
    "read",
    "write",
];

/// How a value was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Inside quotes: a literal.
    Quoted,
    /// `KEY=value`, `-pvalue`, `--flag value`: shell and .env style.
    Bare,
    /// `key = value` or `key: value` with spaces: code or YAML.
    Spaced,
}

/// True when `value` looks like a secret rather than code, a reference or a placeholder.
pub fn plausible(value: &str, form: Form) -> bool {
    let value = value.trim();
    let lower = value.to_ascii_lowercase();
    if value.chars().count() < 3 || value.starts_with("[redacted:") {
        return false;
    }
    if value.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-' | b':')) {
        return false;
    }
    if NOT_SECRETS.contains(&lower.as_str()) {
        return false;
    }
    // A reference to something else: a variable, a template, a placeholder, a masked value.
    if value.starts_with(['$', '%', '<', '{', '&', '*', '@', '(', '[', '!', '`'])
        || ["${", "{{", "#{", "(", "[", "::", "->", "<%"].iter().any(|s| value.contains(s))
    {
        return false;
    }
    let first = value.chars().next().unwrap_or(' ');
    if value.chars().all(|c| c == first) {
        return false;
    }
    if form == Form::Quoted {
        return true;
    }
    if value.contains(['<', '>']) || value.starts_with(['/', '~']) || value.starts_with("./") {
        return false;
    }
    let identifier = |s: &str| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    // `settings.SECRET_KEY`, `config.api.token`: a path to a value, not the value.
    if value.contains('.') && value.split('.').all(identifier) {
        return false;
    }
    // `authToken`, `form_password`, `Token` after `= `/`: `: a name in code, not a value. Right
    // after `=` (shell, .env, URLs) a bare word is the value itself.
    if form == Form::Spaced && identifier(value) && is_code_name(value) {
        return false;
    }
    true
}

/// A name as code writes it: snake_case with an underscore, a capitalised type name (`String`,
/// `Token`), or camelCase words (`authToken`, `userId`, `parseHTTPResponse`). A generated password
/// has capitals too (`aBcD3fGh1J`, `kT9xLmQ2pR`), but not words: a digit inside, or a capital
/// followed by one lower-case letter and another capital, is not how code names things.
fn is_code_name(value: &str) -> bool {
    let bytes = value.as_bytes();
    let digits = bytes.iter().any(u8::is_ascii_digit);
    let type_name =
        bytes[0].is_ascii_uppercase() && bytes[1..].iter().all(u8::is_ascii_lowercase) && !digits;
    value.contains('_') || type_name || camel_words(bytes)
}

/// camelCase made of words: a lower-case letter then a capital somewhere, no digit before a
/// letter, and each capital after a lower-case letter starts a word of two or more lower-case
/// letters, an acronym (capitals), or a short last word (`userId`, `getX`).
fn camel_words(bytes: &[u8]) -> bool {
    let hump =
        |i: usize| i > 0 && bytes[i - 1].is_ascii_lowercase() && bytes[i].is_ascii_uppercase();
    if !(1..bytes.len()).any(hump) {
        return false;
    }
    let digit_inside =
        bytes.windows(2).any(|w| w[0].is_ascii_digit() && w[1].is_ascii_alphabetic());
    if digit_inside {
        return false;
    }
    (1..bytes.len()).filter(|&i| hump(i)).all(|i| {
        let lower = bytes[i + 1..].iter().take_while(|b| b.is_ascii_lowercase()).count();
        let next = bytes.get(i + 1 + lower);
        lower >= 2
            || next.is_none()
            || lower == 0 && next.is_some_and(u8::is_ascii_uppercase)
            || lower == 1 && next.is_some_and(u8::is_ascii_digit)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_plausible() {
        for (value, form) in [
            ("hunter2", Form::Bare),
            ("hunter2", Form::Spaced),
            ("s3cr3t", Form::Spaced),
            ("x y", Form::Quoted),
            ("abc123", Form::Quoted),
            ("wJalrXUtnFEMI/K7MDENG", Form::Bare),
            ("S3cret!", Form::Bare),
            ("Passw0rd", Form::Spaced),
            ("aBcD3fGh1J", Form::Spaced),
            ("kT9xLmQ2pR", Form::Spaced),
            ("aBcDeFgHiJ", Form::Spaced),
        ] {
            assert!(plausible(value, form), "{value} {form:?}");
        }
    }

    #[test]
    fn code_and_placeholders_are_not() {
        for (value, form) in [
            ("getToken(", Form::Spaced),
            ("4096", Form::Bare),
            ("true", Form::Spaced),
            ("os.environ[", Form::Spaced),
            ("process.env.API_KEY", Form::Spaced),
            ("${DB_PASSWORD}", Form::Spaced),
            ("$TOKEN", Form::Bare),
            ("<your-token>", Form::Quoted),
            ("", Form::Quoted),
            ("****", Form::Quoted),
            ("Option<String>", Form::Spaced),
            ("authToken", Form::Spaced),
            ("userId", Form::Spaced),
            ("parseHTTPResponse", Form::Spaced),
            ("getApiKey2", Form::Spaced),
            ("form_password", Form::Spaced),
            ("Token", Form::Spaced),
            ("user_input", Form::Spaced),
            ("[redacted:token]", Form::Bare),
        ] {
            assert!(!plausible(value, form), "{value} {form:?}");
        }
    }
}
