//! The secrets guard: which files a seal leaves out because they look like secrets.
//!
//! A file is held back by its name (`.env`, `.env.*`, `*.pem`, `*.key`, `id_rsa`, `id_ed25519`,
//! `credentials.json`, or a `secrets.files` glob) or by its content: anything redaction would hide
//! (a private-key block, a provider token, URL credentials, a `Bearer` header, an `API_KEY=`
//! assignment ...: [`crate::model::secrets::find_token`], the one rule set both use), a
//! `secrets.patterns` regex, or, for `.npmrc`/`.pypirc`/`.netrc`, a credential entry. Templates meant to be committed
//! (`.env.example`, `.env.sample`, `.env.template`, `.env.dist`) pass on their name but are still
//! scanned.
//!
//! A name that holds a token (`ghp_….txt`) is a secret too: names go into trees as they are.
//! UTF-16 text (with a BOM, or ASCII with NULs between the letters) is scanned as the text it is.
//!
//! Content is read as a stream, in chunks that overlap by [`MAX_TOKEN_LEN`] bytes, so memory stays
//! flat whatever the file size and a token cut by a chunk boundary is still seen whole. What is
//! scanned is the blob the seal would commit (after git's clean filters and line-ending
//! conversion), not the work-tree file, so the check and the commit can never disagree.

use std::io::{self, Read};

use anyhow::Result;
use gix::bstr::{BStr, ByteSlice};
use regex::bytes::Regex;

use crate::model::config::Secrets;
use crate::model::patterns::Patterns;
use crate::model::secrets::{MAX_TOKEN_LEN, find_token};

use super::utf16;

/// Bytes read per step; the working buffer is this plus the overlap.
const CHUNK: usize = 1 << 20;

/// Exact file names that hold keys or credentials.
const SECRET_NAMES: &[&str] =
    &[".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "credentials.json"];

/// Suffixes of key and certificate-key files.
const SECRET_SUFFIXES: &[&str] = &[".pem", ".key"];

/// `.env.<this>` files are templates, committed on purpose.
const ENV_TEMPLATES: &[&str] = &["example", "sample", "template", "dist"];

/// Package-manager and login files: secret only when they hold a credential entry.
const CREDENTIAL_FILES: &[(&str, &str)] = &[
    (".npmrc", r"(?m)(?:^|:)(?:_authToken|_auth|_password)\s*=\s*\S"),
    (".pypirc", r"(?m)^\s*password\s*[=:]\s*\S"),
    (".netrc", r"(?m)(?:^|\s)password\s+\S"),
    ("_netrc", r"(?m)(?:^|\s)password\s+\S"),
];

/// The rules in force: the built-in ones plus `.handoff.toml`'s `[secrets]`.
pub struct Guard {
    globs: Vec<String>,
    patterns: Patterns,
    credentials: Vec<(&'static str, Regex)>,
}

impl Guard {
    pub fn new(config: &Secrets) -> Result<Guard> {
        // Compiled when the configuration was parsed.
        let patterns = config.compiled.clone();
        let credentials = CREDENTIAL_FILES
            .iter()
            .map(|(name, re)| (*name, Regex::new(re).expect("credential patterns are valid")))
            .collect();
        Ok(Guard { globs: config.files.clone(), patterns, credentials })
    }

    /// Why the name alone makes `path` a secret, if it does.
    pub fn by_name(&self, path: &[u8]) -> Option<String> {
        let base = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
        let builtin = SECRET_NAMES
            .iter()
            .find(|name| base == name.as_bytes())
            .map(|name| name.to_string())
            .or_else(|| {
                let rest = base.strip_prefix(b".env.")?;
                (!ENV_TEMPLATES.iter().any(|t| rest == t.as_bytes())).then(|| ".env.*".to_string())
            })
            .or_else(|| {
                SECRET_SUFFIXES
                    .iter()
                    .find(|suffix| base.len() > suffix.len() && base.ends_with(suffix.as_bytes()))
                    .map(|suffix| format!("*{suffix}"))
            });
        if let Some(rule) = builtin {
            return Some(format!("looks like a secret: its name matches {rule}"));
        }
        // A name is written into a tree as it is: a file named after a token carries it.
        // Each part on its own too: `dir/API_KEY=x` reads as a path segment, not an assignment.
        let parts = std::iter::once(path).chain(path.split(|&b| b == b'/'));
        if let Some(kind) = parts.filter_map(find_token).next() {
            return Some(format!("looks like a secret: its name holds a {kind}"));
        }
        let mode = gix::glob::wildmatch::Mode::NO_MATCH_SLASH_LITERAL;
        self.globs
            .iter()
            .find(|glob| {
                // Like .gitignore: a glob without a slash matches the file name at any depth.
                let subject = if glob.contains('/') { path } else { base };
                let glob = glob.strip_prefix('/').unwrap_or(glob);
                gix::glob::wildmatch(BStr::new(glob), subject.as_bstr(), mode)
            })
            .map(|glob| format!("looks like a secret: its name matches secrets.files {glob:?}"))
    }

    /// Why the content makes `path` a secret, if it does. Reads `content` to its end in chunks.
    pub fn by_content(&self, path: &[u8], content: &mut impl Read) -> io::Result<Option<String>> {
        let base = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
        let credential = self
            .credentials
            .iter()
            .find(|(name, _)| base == name.as_bytes())
            .map(|(n, re)| (*n, re));
        // The window grows with what is read: most changed files are small, and zeroing a whole
        // chunk for each of them cost more than the scan itself.
        let mut window: Vec<u8> = Vec::new();
        let mut found = None;
        let mut wide = None;
        loop {
            let read = content.by_ref().take(CHUNK as u64).read_to_end(&mut window)?;
            if read == 0 {
                break;
            }
            // UTF-16 text (a BOM, or NULs between ASCII letters) is read as the text it holds.
            wide = wide.or_else(|| utf16::detect(&window));
            if found.is_none() {
                found = self.scan(&window, credential);
            }
            if found.is_none()
                && let Some(order) = wide
            {
                found = self.scan(utf16::decode(&window, order).as_bytes(), credential);
            }
            if read < CHUNK {
                break;
            }
            // Keep the tail so a token cut by the boundary is seen whole in the next window.
            window.drain(..window.len() - MAX_TOKEN_LEN.min(window.len()));
        }
        Ok(found)
    }

    fn scan(&self, window: &[u8], credential: Option<(&str, &Regex)>) -> Option<String> {
        if let Some(kind) = find_token(window) {
            return Some(format!("looks like a secret: its content holds a {kind}"));
        }
        if let Some(pattern) = self.patterns.first_match(window) {
            return Some(format!(
                "looks like a secret: its content matches secrets.patterns {pattern:?}"
            ));
        }
        let (name, re) = credential?;
        re.is_match(window).then(|| format!("looks like a secret: a {name} with credentials"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(files: &[&str], patterns: &[&str]) -> Guard {
        let patterns: Vec<String> = patterns.iter().map(|s| s.to_string()).collect();
        let secrets = Secrets {
            files: files.iter().map(|s| s.to_string()).collect(),
            compiled: Patterns::compile("secrets.patterns", &patterns, "test").unwrap(),
            patterns,
        };
        Guard::new(&secrets).unwrap()
    }

    #[test]
    fn names() {
        let g = guard(&["*.secret", "conf/*.ini"], &[]);
        for path in [
            ".env",
            "app/.env",
            ".env.local",
            "deploy/.env.production",
            "server.pem",
            "tls/server.key",
            "id_rsa",
            "home/.ssh/id_ed25519",
            "credentials.json",
            "x.secret",
            "deep/x.secret",
            "conf/db.ini",
        ] {
            assert!(g.by_name(path.as_bytes()).is_some(), "{path}");
        }
        for path in [
            "env",
            ".envrc",
            ".env.example",
            "id_rsa.pub",
            ".key",
            "keys.rs",
            "credentials.json.md",
            "other/conf/db.ini",
            ".npmrc",
        ] {
            assert!(g.by_name(path.as_bytes()).is_none(), "{path}");
        }
    }

    fn content(g: &Guard, path: &str, bytes: &[u8]) -> Option<String> {
        g.by_content(path.as_bytes(), &mut &bytes[..]).unwrap()
    }

    #[test]
    fn content_rules() {
        let g = guard(&[], &["INTERNAL-[0-9]{6}"]);
        let token = format!("ghp_{}", "a1B2".repeat(9));
        assert!(content(&g, "a.txt", token.as_bytes()).unwrap().contains("github-token"));
        assert!(content(&g, "a.txt", b"id INTERNAL-123456").unwrap().contains("secrets.patterns"));
        assert!(content(&g, "a.txt", b"hello").is_none());
        assert!(content(&g, ".npmrc", b"//registry.npmjs.org/:_authToken=abc\n").is_some());
        assert!(content(&g, ".npmrc", b"registry=https://example.com\n").is_none());
        assert!(content(&g, ".pypirc", b"[pypi]\nusername = x\npassword = y\n").is_some());
        assert!(content(&g, "x/.netrc", b"machine h login u password p\n").is_some());
        assert!(content(&g, "notes.txt", b"password = y\n").is_none());
    }

    #[test]
    fn tokens_across_chunk_boundaries_are_found() {
        let g = guard(&[], &[]);
        let token = format!("ghp_{}", "a1B2".repeat(9));
        for offset in [CHUNK - 10, CHUNK - 1, CHUNK, 2 * CHUNK - 20, 3 * CHUNK + 5] {
            let mut bytes = vec![b' '; offset];
            bytes.extend_from_slice(token.as_bytes());
            bytes.extend_from_slice(&[b' '; 100]);
            assert!(content(&g, "big.txt", &bytes).is_some(), "offset {offset}");
        }
        let clean = vec![b'x'; 3 * CHUNK + 17];
        assert!(content(&g, "big.txt", &clean).is_none());
    }
}
