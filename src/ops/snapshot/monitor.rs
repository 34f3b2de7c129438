//! What the user's file system monitor says may have changed, so the walk (see
//! `tracked_walk`) stats only those files, as git does under
//! `core.fsmonitor`.
//!
//! git keeps the monitor's answer in the index (the `FSMN` extension: a token, and a bitmap of the
//! entries that were not known clean when the index was written) and, on the next command, asks the
//! hook what changed since that token. An entry the bitmap does not name and the hook does not
//! report is trusted unchanged without an `lstat` (git's `refresh_cache_ent` returns it as it
//! is). The snapshot asks the hook once, as git would, with the index's token, and hands the same
//! answer to the gits it runs (through its private index, whose hook only says "nothing more").
//! The user's monitor is then asked once per snapshot, where status and the diff, run as git runs
//! them, would each ask it again.
//!
//! A reported path invalidates the entry of that name and every entry under it (git does the same,
//! a name it does not know being a directory). Where the monitor cannot answer (no token in the
//! index, a version 1 hook, the hook failing or answering `/`, "everything"), every file is
//! stat'ed, as git then stats every file. The built-in daemon (`core.fsmonitor=true`) is not asked:
//! git on Linux has none before 2.48 here measured, and it is then treated as no answer.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::git::index_scan::Scan;
use crate::git::split_index;

/// The token of the private index's monitor: its hook only ever answers with it.
pub(super) const TOKEN: &[u8] = b"handoff\0";

/// The user's monitor hook, as `core.fsmonitor` names it, and the work tree it runs in.
pub(super) struct Hook {
    command: String,
    top: PathBuf,
}

/// The hook `core.fsmonitor` names, where it speaks version 2 (`core.fsmonitorHookVersion` unset
/// or 2); `None` for none, for a boolean (git's own daemon, or off), or for version 1.
pub(super) fn configured(config: &gix::config::Snapshot<'_>, top: &Path) -> Option<Hook> {
    let value = config.string("core.fsmonitor")?;
    let value = value.to_string();
    let lower = value.to_ascii_lowercase();
    let boolean = ["true", "false", "yes", "no", "on", "off", "1", "0", ""];
    if boolean.contains(&lower.as_str()) {
        return None;
    }
    match config.integer("core.fsmonitorHookVersion") {
        None | Some(2) => {}
        Some(_) => return None,
    }
    // git reads the setting as a path: `~/` is the home directory.
    let command = match value.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", std::env::var("HOME").ok()?),
        None => value,
    };
    Some(Hook { command, top: top.to_path_buf() })
}

/// For each entry of the index `scan`, whether it may have changed since the index was written,
/// by the index's monitor data and the hook's answer; `None` when they cannot tell.
pub(super) fn changed(hook: &Hook, scan: &Scan) -> Option<Vec<bool>> {
    let (token, bitmap) = index_data(scan)?;
    let mut dirty = vec![false; scan.entries.len()];
    for bit in split_index::ewah_bits(bitmap)?.0 {
        *dirty.get_mut(bit)? = true;
    }
    let answer = ask(hook, token)?;
    let mut parts = answer.split(|&b| b == 0);
    // The new token, which is the index's to keep: the snapshot writes no index.
    parts.next()?;
    let mut reported: Vec<&[u8]> = parts.filter(|p| !p.is_empty()).collect();
    if reported.iter().any(|p| *p == b"/") {
        return None;
    }
    reported.sort_unstable();
    let entries = &scan.entries;
    for path in reported {
        let path = path.strip_suffix(b"/").unwrap_or(path);
        // The entry of that name, then the entries under it (`path/`), which sort right after
        // the names that extend `path` with a byte below `/`.
        let from = entries.partition_point(|e| scan.path(e) < path);
        if entries.get(from).is_some_and(|e| scan.path(e) == path) {
            dirty[from] = true;
        }
        let mut under = path.to_vec();
        under.push(b'/');
        let mut at = from + entries[from..].partition_point(|e| scan.path(e) < under.as_slice());
        while entries.get(at).is_some_and(|e| scan.path(e).starts_with(&under)) {
            dirty[at] = true;
            at += 1;
        }
    }
    Some(dirty)
}

/// The `FSMN` extension of version 2: the token and the bitmap of entries not known clean.
fn index_data(scan: &Scan) -> Option<(&[u8], &[u8])> {
    let (_, range) = scan.extensions.iter().find(|(signature, _)| signature == b"FSMN")?;
    let data = scan.bytes.get(range.start + 8..range.end)?;
    if data.get(..4)? != 2u32.to_be_bytes() {
        return None;
    }
    let rest = &data[4..];
    let end = rest.iter().position(|&b| b == 0)?;
    let token = &rest[..end];
    let rest = &rest[end + 1..];
    let size = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
    Some((token, rest.get(4..4 + size)?))
}

/// Runs the hook as git does (`query_fsmonitor_hook`): in the top of the work tree, through the
/// shell when the command needs one, with the version and the token; its output when it succeeds.
fn ask(hook: &Hook, token: &[u8]) -> Option<Vec<u8>> {
    let token = OsStr::from_bytes(token);
    let plain = !hook.command.contains(|c| "|&;<>()$`\\\"' \t\n*?[#~=%".contains(c));
    let mut cmd = if plain {
        // A relative path is the work tree's, as for git, which runs the hook there.
        let path = Path::new(&hook.command);
        let path = if hook.command.contains('/') { hook.top.join(path) } else { path.into() };
        let mut cmd = Command::new(path);
        cmd.arg("2").arg(token);
        cmd
    } else {
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c").arg(format!("{} \"$@\"", hook.command)).arg(&hook.command);
        cmd.arg("2").arg(token);
        cmd
    };
    cmd.current_dir(&hook.top).stdin(Stdio::null()).stderr(Stdio::null());
    let output = cmd.output().ok()?;
    output.status.success().then_some(output.stdout)
}

/// The private index's `FSMN` extension (version 2): its token ([`TOKEN`], which its hook
/// prints), then an EWAH bitmap of the entries git must check,
/// written as one marker word followed by every word literally.
pub(super) fn extension(dirty: &[bool]) -> Vec<u8> {
    let mut words = vec![0u64; dirty.len().div_ceil(64)];
    for (i, _) in dirty.iter().enumerate().filter(|(_, d)| **d) {
        words[i / 64] |= 1 << (i % 64);
    }
    let mut bitmap = Vec::with_capacity(16 + words.len() * 8);
    bitmap.extend_from_slice(&(dirty.len() as u32).to_be_bytes());
    bitmap.extend_from_slice(&(words.len() as u32 + 1).to_be_bytes());
    // The marker: no run, then `words.len()` literal words.
    bitmap.extend_from_slice(&((words.len() as u64) << 33).to_be_bytes());
    for word in &words {
        bitmap.extend_from_slice(&word.to_be_bytes());
    }
    // The position of the last marker word.
    bitmap.extend_from_slice(&0u32.to_be_bytes());
    let mut extension = Vec::with_capacity(bitmap.len() + 16);
    extension.extend_from_slice(&2u32.to_be_bytes());
    extension.extend_from_slice(TOKEN);
    extension.extend_from_slice(&(bitmap.len() as u32).to_be_bytes());
    extension.extend_from_slice(&bitmap);
    extension
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bitmap_names_the_dirty_entries_as_git_reads_it() {
        let mut dirty = vec![false; 70];
        dirty[1] = true;
        dirty[64] = true;
        let ext = extension(&dirty);
        assert_eq!(&ext[..4], &2u32.to_be_bytes());
        assert_eq!(&ext[4..12], TOKEN);
        let bitmap = &ext[16..];
        assert_eq!(u32::from_be_bytes(ext[12..16].try_into().unwrap()) as usize, bitmap.len());
        assert_eq!(&bitmap[..4], &70u32.to_be_bytes());
        assert_eq!(&bitmap[4..8], &3u32.to_be_bytes());
        assert_eq!(&bitmap[8..16], &(2u64 << 33).to_be_bytes());
        assert_eq!(&bitmap[16..24], &2u64.to_be_bytes());
        assert_eq!(&bitmap[24..32], &1u64.to_be_bytes());
        assert_eq!(&bitmap[32..], &0u32.to_be_bytes());
    }
}
