//! What `hooks install` created in the agents' settings: the file itself, the `hooks` object, the
//! event lists. Kept in the worktree's git dir as `handoff-installed.json` (not under `handoff/`,
//! which `start` archives with each attempt), so that `hooks uninstall` removes exactly the
//! containers install made and leaves those the user had, even when they end up empty. Settings installed without this record (another clone, an older
//! git-handoff) are taken out by the shape alone: a container left empty goes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The parts of one settings file that install created.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// The file did not exist.
    pub file: bool,
    /// Dotted keys that did not exist: `hooks`, `hooks.Stop`, ...
    pub keys: Vec<String>,
}

impl Created {
    /// What merging hooks for `events` into `before` (the file's text, `None` when absent) creates.
    pub fn by_merge(before: Option<&str>, events: &[&str]) -> Created {
        let root: Value = before.and_then(|t| serde_json::from_str(t).ok()).unwrap_or(Value::Null);
        let mut keys = Vec::new();
        if root.get("hooks").is_none() {
            keys.push("hooks".to_string());
        }
        for event in events {
            if root.get("hooks").and_then(|h| h.get(event)).is_none() {
                keys.push(format!("hooks.{event}"));
            }
        }
        Created { file: before.is_none(), keys }
    }

    /// Both records in one (a later install adds to what an earlier one created).
    pub fn union(mut self, other: Created) -> Created {
        self.file |= other.file;
        for key in other.keys {
            if !self.keys.contains(&key) {
                self.keys.push(key);
            }
        }
        self
    }

    pub fn has(&self, key: &str) -> bool {
        self.keys.iter().any(|k| k == key)
    }
}

/// The record, by settings path (`.claude/settings.json`).
pub type Manifest = BTreeMap<String, Created>;

fn file(git_dir: &Path) -> PathBuf {
    git_dir.join("handoff-installed.json")
}

/// Reads the record; a missing or unreadable one is empty (uninstall then goes by shape).
pub fn load(git_dir: &Path) -> Manifest {
    crate::util::fs::read_regular(&file(git_dir), 16 << 20, "the install record")
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// Writes the record, or removes it when it holds nothing.
pub fn save(git_dir: &Path, manifest: &Manifest) -> Result<()> {
    let path = file(git_dir);
    if manifest.is_empty() {
        return match std::fs::remove_file(&path) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                Err(anyhow::anyhow!("removing {}: {err}", path.display()))
            }
            _ => Ok(()),
        };
    }
    let mut text = serde_json::to_string_pretty(manifest)?;
    text.push('\n');
    crate::util::fs::write_atomic(&path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_creates_what_was_missing() {
        let created =
            Created::by_merge(Some(r#"{"hooks": {"Stop": []}}"#), &["Stop", "SessionStart"]);
        assert_eq!(created, Created { file: false, keys: vec!["hooks.SessionStart".into()] });
        let created = Created::by_merge(None, &["Stop"]);
        assert!(created.file && created.has("hooks") && created.has("hooks.Stop"));
        let both = created.union(Created { file: false, keys: vec!["hooks.X".into()] });
        assert!(both.file && both.has("hooks.X") && both.has("hooks"));
    }
}
