//! What a seal is asked to do ([`Request`]) and what it did ([`Sealed`], the shape of `seal
//! --json`, with each [`Skipped`] file), and the seal commit's message.

use anyhow::{Result, bail};
use gix::bstr::ByteSlice;
use jiff::Timestamp;
use serde::{Serialize, Serializer};

use crate::model::seal_message::TRAILER;
use crate::util::time;

/// What to seal and how.
#[derive(Debug, Clone)]
pub struct Request {
    pub issue: u64,
    pub started_at: Timestamp,
    /// Replaces the default subject (and body); the trailer is always added.
    pub message: Option<String>,
    /// Seal secret-looking files too.
    pub allow_secrets: bool,
    /// Paths the caller keeps out of the seal whatever they hold (a note change, see
    /// `handoff::place`), reported as skipped with their reason when they changed.
    pub hold: Vec<Skipped>,
}

/// The outcome, in the shape of `seal --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Sealed {
    /// The seal commit, `None` when there was nothing to seal.
    pub commit: Option<String>,
    /// The paths the seal commit changed, in git's path order.
    #[serde(serialize_with = "lossy_paths")]
    pub files: Vec<Vec<u8>>,
    /// Files left out because they look like secrets, or because the caller held them back.
    pub skipped: Vec<Skipped>,
}

/// A file the seal left out, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    #[serde(serialize_with = "lossy_path")]
    pub path: Vec<u8>,
    pub why: String,
}

/// The seal commit's message: the subject (or `--message`), a blank line, the trailer.
pub fn commit_message(req: &Request) -> Result<String> {
    let body = match &req.message {
        Some(text) => {
            let lines: Vec<&str> = text.lines().skip_while(|l| l.trim().is_empty()).collect();
            let body = lines.join("\n").trim_end().to_string();
            if body.is_empty() {
                bail!(
                    "--message is empty; give the seal commit a subject, or leave --message out \
                     for the default \"Seal leftover work: issue #{}\"",
                    req.issue
                );
            }
            body
        }
        None => format!("Seal leftover work: issue #{}", req.issue),
    };
    Ok(format!("{body}\n\n{TRAILER}: {}\n", time::format(req.started_at)))
}

fn lossy_path<S: Serializer>(path: &[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&redact_path(&path.to_str_lossy()))
}

fn lossy_paths<S: Serializer>(paths: &[Vec<u8>], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(paths.iter().map(|p| redact_path(&p.to_str_lossy())))
}

/// A path as a report shows it: a file named after a token (which the guard left out) must not
/// print the token. Each segment is judged on its own (`dir/API_KEY=x`), as the guard judges it.
pub fn redact_path(path: &str) -> String {
    let redactor = crate::model::redact::Redactor::default();
    let whole = redactor.redact(path);
    let parts: Vec<String> = whole.split('/').map(|p| redactor.redact(p).into_owned()).collect();
    parts.join("/")
}
