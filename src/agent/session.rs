//! Sessions within an attempt, as the event log sees them: the `SessionStart` event that marks
//! where a session began, and the digest of one session's events (or of the events since a
//! moment, such as a note's writing).
//!
//! A runtime's session (Claude Code's `session_id`) may span several attempts, and one attempt
//! several sessions; the log of the current attempt holds the events of every session since the
//! attempt began. A session begins at its first `SessionStart` event; a compact or resume of the
//! same session (same id) continues it.

use std::path::Path;

use anyhow::Result;

use crate::agent::digest::{Builder, Digest, OwnFiles};
use crate::agent::events::{self, Event, FORMAT, Kind};
use crate::model::checks::Checks;
use crate::model::config::Config;

/// The `SessionStart` line for the log: `source` (startup, resume, compact ...) as its text.
pub fn start_event(
    agent: &str,
    source: &str,
    session: Option<&str>,
    at: String,
) -> Result<Vec<u8>> {
    let event = Event {
        v: FORMAT,
        at: at.into(),
        kind: Kind::SessionStart,
        agent: agent.into(),
        event: Some("SessionStart".into()),
        tool: None,
        target: None,
        id: None,
        ok: None,
        exit_code: None,
        error: None,
        paths: Vec::new(),
        text: Some(source.into()),
        sub: false,
        session: session.map(Into::into),
    };
    event.to_line()
}

/// The digest of the session that wrote the log's last `SessionStart` events: the events from
/// where that session began (its first `SessionStart` after another session's), or of the whole
/// log when no session start was recorded. With `session`, a start of another session does not
/// count as this one's beginning unless no start of `session` follows it.
pub fn session_digest(path: &Path, config: &Config, session: Option<&str>) -> Result<Digest> {
    let mut began_at = 0u64;
    let mut current: Option<String> = None;
    let mut seen_own = false;
    let mut n = 0u64;
    events::for_each(path, |event| {
        if event.kind == Kind::SessionStart && !event.sub {
            let id = event.session.as_deref().map(str::to_string);
            let own = session.is_some() && id.as_deref() == session;
            // A new session begins unless this start continues the current one (a compact or
            // resume of the same id), and once the asked session has begun, only its own later
            // starts (after another session in between) move the beginning.
            let continues = id.is_some() && id == current;
            if !continues && (!seen_own || own) {
                began_at = n;
            }
            seen_own |= own;
            current = id;
        }
        n += 1;
    })?;
    fold(path, config, |index, _| index >= began_at)
}

/// The digest of the whole log, and that of the events after `at` (RFC 3339 UTC to the second,
/// as the log writes it; events of that very second are left out, as they may have come before),
/// in one reading of the log: a long session's is thousands of JSON lines.
pub fn whole_and_since(path: &Path, config: &Config, at: &str) -> Result<(Digest, Digest)> {
    let builder = || Builder::new(Checks::new(config)).ignoring(OwnFiles::of(config));
    let (mut whole, mut since) = (builder(), builder());
    let skipped = events::for_each(path, |event| {
        whole.add(&event);
        if event.at.as_ref() > at {
            since.add(&event);
        }
    })?;
    let finish = |builder: Builder| Digest { skipped_lines: skipped, ..builder.finish() };
    Ok((finish(whole), finish(since)))
}

/// The digest of the log's events that `keep` takes, by their index in the log.
fn fold(path: &Path, config: &Config, keep: impl Fn(u64, &Event<'_>) -> bool) -> Result<Digest> {
    let mut builder = Builder::new(Checks::new(config)).ignoring(OwnFiles::of(config));
    let mut index = 0u64;
    let skipped = events::for_each(path, |event| {
        if keep(index, &event) {
            builder.add(&event);
        }
        index += 1;
    })?;
    let mut digest = builder.finish();
    digest.skipped_lines = skipped;
    Ok(digest)
}
