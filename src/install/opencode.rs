//! opencode: a plugin of its own, `.opencode/plugin/git-handoff.js` (opencode loads every
//! `.opencode/plugin/*.js` of the project), small and dependency-free, that pipes opencode's
//! events to `git-handoff record` in the generic shape: each call's start and end under the
//! model's call id with the shell's exit code, prompts, the model's last text, compaction, API
//! errors, subagent sessions, the recall at a session's start and the digest when it goes idle.
//!
//! The file is git-handoff's whole: install writes it (or rewrites an older one of ours, known by
//! its first line), and leaves one the user changed; uninstall removes it as installed.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use crate::install::Action;
use crate::install::change::{FileChange, read_text};

/// The plugin file, relative to the top of the work tree.
pub const PLUGIN_PATH: &str = ".opencode/plugin/git-handoff.js";

/// The plugin as installed.
pub const PLUGIN: &str = include_str!("opencode_plugin.js");

/// The first line of every version of the plugin.
const FIRST_LINE: &str = "// git-handoff for opencode:";

/// Whether a file is a version of our plugin that the user has not changed: its first line is
/// ours, and it is this version or a different one of ours (told by its first line alone; an
/// edited one keeps its first line, and install then rewrites it).
fn ours(text: &str) -> bool {
    text.starts_with(FIRST_LINE)
}

/// Plans writing the plugin: created, rewritten when it is an older one of ours, kept otherwise.
pub fn plan_install(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(PLUGIN_PATH);
    let before = read_text(&path)?;
    let (after, action) = match before.as_deref() {
        None => (Some(PLUGIN.to_string()), Action::Created),
        Some(text) if text == PLUGIN => (before.clone(), Action::Unchanged),
        Some(text) if ours(text) => (Some(PLUGIN.to_string()), Action::Updated),
        Some(_) => (before.clone(), Action::Kept),
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Plans removing the plugin as installed; a changed one is the user's and stays.
pub fn plan_uninstall(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(PLUGIN_PATH);
    let before = read_text(&path)?;
    let (after, action) = match before.as_deref() {
        None => (None, Action::NotInstalled),
        Some(text) if text == PLUGIN => (None, Action::RemovedFile),
        Some(_) => (before.clone(), Action::Kept),
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Whether the plugin is there, and as this version writes it.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub path: PathBuf,
    pub installed: bool,
    /// There, but not as this version writes it (older, or changed by the user).
    pub outdated: bool,
}

pub fn status(top: &Path) -> Result<Status> {
    let path = top.join(PLUGIN_PATH);
    let text = read_text(&path)?;
    Ok(Status {
        installed: text.as_deref().is_some_and(ours),
        outdated: text.as_deref().is_some_and(|t| ours(t) && t != PLUGIN),
        path,
    })
}
