//! A seal commit's message: the `Handoff-Seal:` trailer that tells a seal from work, carrying
//! the attempt's `started_at`.

/// The trailer every seal commit carries in its last paragraph.
pub const TRAILER: &str = "Handoff-Seal";

/// The file in the handoff dir where `seal` lists what it left out (`[{"path", "why"}]`, as
/// `seal --json` gives `skipped`), so the emergency note can say which files were not sealed
/// and why.
pub const LEFT_OUT_FILE: &str = "seal-left-out.json";

/// The value of the `Handoff-Seal:` trailer in the message's last paragraph, if it has one.
pub fn seal_started_at(message: &str) -> Option<String> {
    let trimmed = message.trim_end();
    let last = trimmed.rsplit("\n\n").next().unwrap_or(trimmed);
    last.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.trim().eq_ignore_ascii_case(TRAILER).then(|| value.trim().to_string())
    })
}

/// True when the message's last paragraph holds a `Handoff-Seal:` trailer.
pub fn is_seal_message(message: &str) -> bool {
    // Called for every commit of a push: most messages never spell the trailer's name, in any
    // case, and are told apart by one scan for its first letter.
    if !mentions_trailer(message.as_bytes()) {
        return false;
    }
    let trimmed = message.trim_end();
    let last = trimmed.rsplit("\n\n").next().unwrap_or(trimmed);
    last.lines().any(|line| {
        line.split_once(':').is_some_and(|(key, _)| key.trim().eq_ignore_ascii_case(TRAILER))
    })
}

/// Whether `message` holds the seal trailer's name, ignoring ASCII case (as the trailer's key is
/// compared), anywhere.
fn mentions_trailer(message: &[u8]) -> bool {
    let name = TRAILER.as_bytes();
    memchr::memchr2_iter(name[0].to_ascii_lowercase(), name[0].to_ascii_uppercase(), message).any(
        |at| message[at..].get(..name.len()).is_some_and(|word| word.eq_ignore_ascii_case(name)),
    )
}

#[cfg(test)]
mod tests;
