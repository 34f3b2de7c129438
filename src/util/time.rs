//! Times as the product writes them: RFC 3339 in UTC, to the second (`2026-11-30T03:48:52Z`).

use anyhow::{Context, Result};
use jiff::Timestamp;

/// Now, to the second.
pub fn now() -> Timestamp {
    Timestamp::from_second(Timestamp::now().as_second()).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// Formats a time as `2026-11-30T03:48:52Z`.
pub fn format(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Parses an RFC 3339 time with any offset and normalises it to UTC seconds.
pub fn parse(text: &str) -> Result<Timestamp> {
    let ts: Timestamp = text.trim().parse().with_context(|| {
        format!("{text:?} is not an RFC 3339 time; write it as 2026-11-30T03:48:52Z")
    })?;
    Timestamp::from_second(ts.as_second()).context("time out of range")
}
