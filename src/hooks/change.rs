//! A file change planned before anything is written: installing and uninstalling first plan every
//! file (so that one unreadable or invalid file stops the command with nothing changed), then
//! apply the plans, and a dry run prints them.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// One file before and after (`None`: absent).
#[derive(Debug, Clone)]
pub struct FileChange {
    pub path: PathBuf,
    pub before: Option<String>,
    pub after: Option<String>,
    /// Make the file executable (hooks).
    pub executable: bool,
}

impl FileChange {
    pub fn changes_anything(&self) -> bool {
        self.before != self.after
    }

    /// A unified diff, the paths shown as `name` (relative to the work tree where possible).
    pub fn diff(&self, name: &str) -> String {
        if !self.changes_anything() {
            return String::new();
        }
        let old = self.before.as_deref().unwrap_or("");
        let new = self.after.as_deref().unwrap_or("");
        let from = if self.before.is_some() { format!("a/{name}") } else { "/dev/null".into() };
        let to = if self.after.is_some() { format!("b/{name}") } else { "/dev/null".into() };
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(3)
            .header(&from, &to)
            .to_string()
    }

    /// Writes (atomically) or removes the file; a removal also removes the directories it leaves
    /// empty, up to (not including) `stop`.
    pub fn apply(&self, stop: &Path) -> Result<()> {
        if !self.changes_anything() {
            if self.executable && self.after.is_some() {
                make_executable(&self.path)?;
            }
            return Ok(());
        }
        match &self.after {
            Some(text) => {
                crate::util::fs::write_atomic(&self.path, text.as_bytes())?;
                if self.executable {
                    make_executable(&self.path)?;
                }
            }
            None => {
                std::fs::remove_file(&self.path)
                    .with_context(|| format!("removing {}", self.path.display()))?;
                prune_empty_dirs(&self.path, stop);
            }
        }
        Ok(())
    }
}

/// The most of a settings or hook file read: far above any hand-written one.
pub const MAX_BYTES: u64 = 16 << 20;

/// Reads a text file (a regular one, at most [`MAX_BYTES`]): `None` when it does not exist.
pub fn read_text(path: &Path) -> Result<Option<String>> {
    match crate::util::fs::read_regular_if_any(path, MAX_BYTES, "the file")? {
        Some(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| {
            anyhow::anyhow!(
                "{}: not UTF-8 text; fix or move the file, then run again",
                path.display()
            )
        }),
        None => Ok(None),
    }
}

/// Removes the now empty parents of `path`, stopping at `stop` or the first one not empty.
fn prune_empty_dirs(path: &Path, stop: &Path) {
    let mut dir = path.parent();
    while let Some(current) = dir {
        if current == stop || !current.starts_with(stop) || std::fs::remove_dir(current).is_err() {
            break;
        }
        dir = current.parent();
    }
}

pub fn make_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    let mode = meta.permissions().mode();
    // Execute wherever there is read permission (like chmod +x under a usual umask).
    let wanted = mode | ((mode & 0o444) >> 2) | 0o100;
    if wanted != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(wanted))
            .with_context(|| format!("making {} executable", path.display()))?;
    }
    Ok(())
}

/// A path as the user knows it: relative to the top of the work tree when it is inside (what a dry
/// run's diff is named, and what `hooks` prints).
pub fn shown(path: &Path, top: Option<&Path>) -> String {
    top.and_then(|top| path.strip_prefix(top).ok())
        .map_or_else(|| path.display().to_string(), |rel| rel.display().to_string())
}
