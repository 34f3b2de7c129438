//! The writers' refs: each clone pushes its records to a ref of its own on the remote
//! (`refs/handoff/writers/<writer>`), so syncs of different clones never contend for one ref; a
//! sync fetches them all (with the notes ref) and merges them into the local notes ref.
//!
//! The writer's name is `handoff.writer` in the repository's config (shared by its worktrees),
//! made up once at random when unset. What a sync has merged is kept beside the git dir
//! (`handoff-sync-<remote>`): the commit of each tracking ref it merged and the tree of
//! everything the remote held, so the next sync merges only the writers' refs that moved and
//! pushes only when this clone holds a record the remote lacks. Losing that file costs one full
//! merge, never a record.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{Result, bail};
use gix::ObjectId;

use crate::git::repo::Repo;

/// The config key that names this clone as a writer.
const WRITER_KEY: &str = "handoff.writer";

/// Where the writers' refs of `notes_ref` live on a remote: `refs/handoff/writers/` for
/// `refs/notes/handoff`, `refs/handoff/<name>-writers/` for another `refs/notes/<name>`.
pub fn remote_prefix(notes_ref: &str) -> String {
    format!("refs/handoff/{}/", folder(notes_ref))
}

/// Where a sync keeps its copies of `remote`'s writers' refs:
/// `refs/handoff/remotes/<remote>/writers/`.
pub fn tracking_prefix(notes_ref: &str, remote: &str) -> String {
    format!("refs/handoff/remotes/{remote}/{}/", folder(notes_ref))
}

fn folder(notes_ref: &str) -> String {
    match notes_ref.strip_prefix("refs/notes/").unwrap_or(notes_ref) {
        "handoff" => "writers".to_owned(),
        name => format!("{name}-writers"),
    }
}

/// This clone's writer name: `handoff.writer`, or a new random one saved there.
pub fn writer(repo: &Repo) -> Result<String> {
    let configured = repo.gix().config_snapshot().string(WRITER_KEY).map(|v| v.to_string());
    if let Some(name) = configured {
        if !is_valid(&name) {
            bail!(
                "{WRITER_KEY} is {name:?}, which cannot end a ref name; use letters, digits, `-`, \
                 `_` and `.` (`git config {WRITER_KEY} <name>`), or unset it for a random one"
            );
        }
        return Ok(name);
    }
    let name = format!("w{:016x}", random());
    // Saved with one git process and not read back: two worktrees of one clone that race to save
    // it each sync once under their own name (a second writer's ref, folded in by the next
    // compaction), and nothing is lost; a failure to save it costs the same.
    let _ = repo.git().output(["config", "--local", WRITER_KEY, name.as_str()]);
    Ok(name)
}

fn is_valid(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && !name.ends_with(".lock")
        && !name.contains("..")
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

fn random() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut x = nanos ^ u64::from(std::process::id()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // splitmix64
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// What the last sync with a remote merged: each tracking ref's commit, and the tree of every
/// record the remote held (after its push).
#[derive(Debug, Default)]
pub struct Merged {
    pub refs: HashMap<String, ObjectId>,
    pub remote_view: Option<ObjectId>,
}

fn state_path(repo: &Repo, remote: &str) -> PathBuf {
    let name: String = remote
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    repo.common_dir.join(format!("handoff-sync-{name}"))
}

/// The last sync's [`Merged`] with `remote`; empty when there is none (or it cannot be read, or
/// names objects this repository no longer has: then everything is merged again).
pub fn merged(repo: &Repo, remote: &str) -> Merged {
    let Ok(text) = std::fs::read_to_string(state_path(repo, remote)) else {
        return Merged::default();
    };
    let mut merged = Merged::default();
    for line in text.lines() {
        let Some((id, name)) = line.split_once(' ') else { continue };
        let Ok(id) = ObjectId::from_hex(id.as_bytes()) else { continue };
        if name == "view" {
            merged.remote_view = Some(id).filter(|id| repo.gix().has_object(id));
        } else {
            merged.refs.insert(name.to_owned(), id);
        }
    }
    merged
}

/// Saves what this sync merged (see [`merged`]). A failure costs the next sync a full merge.
pub fn save_merged(repo: &Repo, remote: &str, merged: &Merged) {
    let mut text = String::new();
    if let Some(view) = merged.remote_view {
        text.push_str(&format!("{view} view\n"));
    }
    let mut refs: Vec<_> = merged.refs.iter().collect();
    refs.sort();
    for (name, id) in refs {
        text.push_str(&format!("{id} {name}\n"));
    }
    let _ = crate::util::fs::replace_unsynced(&state_path(repo, remote), text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_are_named_after_the_notes_ref() {
        assert_eq!(remote_prefix("refs/notes/handoff"), "refs/handoff/writers/");
        assert_eq!(remote_prefix("refs/notes/team"), "refs/handoff/team-writers/");
        assert_eq!(
            tracking_prefix("refs/notes/handoff", "origin"),
            "refs/handoff/remotes/origin/writers/"
        );
    }

    #[test]
    fn writer_names_fit_in_a_ref() {
        assert!(is_valid("ci-job-42.a_b") && is_valid(&format!("w{:016x}", random())));
        for bad in ["", ".x", "a..b", "a/b", "a.lock", "a b", "ä"] {
            assert!(!is_valid(bad), "{bad:?}");
        }
    }
}
