//! The private index that carries the walk's answer (see [`tracked_walk`](super::tracked_walk)):
//! the index as read, but for a file system monitor extension (`FSMN`, version 2) whose bitmap
//! names the entries the walk doubted, and the options that make git trust it.

use std::fs::{File, FileTimes};
use std::io::Write;
use std::time::SystemTime;

use anyhow::{Context, Result};

use super::monitor;
use crate::git::index_scan::Scan;

/// The hook git runs for `core.fsmonitor`: it prints the token and a NUL, so nothing changed since.
const HOOK: &str = "printf 'handoff\\0';:";

/// The options that make git read the private index's answer (before the subcommand). `git diff`
/// may write the index it refreshed back, here the private one: never as a split index
/// (`core.splitIndex`), whose shared part it would leave in the git dir.
pub(super) fn config_args() -> Vec<String> {
    [
        "-c",
        &format!("core.fsmonitor={HOOK}"),
        "-c",
        "core.fsmonitorHookVersion=2",
        "-c",
        "core.preloadIndex=false",
        "-c",
        "core.splitIndex=false",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The private index up to its monitor extension: the entries, and the extensions that stay.
pub(super) fn write_start(mut file: &File, scan: &Scan) -> Result<()> {
    let mut write =
        |bytes: &[u8]| file.write_all(bytes).context("writing the snapshot's private index");
    write(&scan.bytes[..scan.entries_end])?;
    for (signature, range) in &scan.extensions {
        // A monitor's own extension is replaced; the end-of-entries ones would no longer be last;
        // the untracked cache is of no use to `-uno` and the diff, and a monitor would touch it.
        if !matches!(signature, b"FSMN" | b"EOIE" | b"IEOT" | b"UNTR") {
            write(&scan.bytes[range.clone()])?;
        }
    }
    Ok(())
}

/// The private index's monitor extension, which names the entries in `dirty`, and its end; then
/// its date.
pub(super) fn write_end(
    mut file: &File,
    dirty: &[bool],
    modified: SystemTime,
    hash_len: usize,
) -> Result<()> {
    let extension = monitor::extension(dirty);
    let mut bytes = Vec::with_capacity(extension.len() + 8 + hash_len);
    bytes.extend_from_slice(b"FSMN");
    bytes.extend_from_slice(&u32::try_from(extension.len())?.to_be_bytes());
    bytes.extend_from_slice(&extension);
    // A null checksum: git (2.40 on) then does not hash the file.
    bytes.resize(bytes.len() + hash_len, 0);
    file.write_all(&bytes).context("writing the snapshot's private index")?;
    // git doubts an entry changed in or after the time its index was written (it is racily
    // clean) and reads the file; the private index, written now, would make git trust them all.
    let times = FileTimes::new().set_modified(modified);
    file.set_times(times).context("dating the snapshot's private index")?;
    Ok(())
}
