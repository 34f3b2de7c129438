//! Files written whole: through a temporary file and a rename, so a reader (or a crash) never
//! sees half a file.

use std::path::Path;

use anyhow::{Context, Result};

/// The name every temporary file written here starts with, then the writer's process id (see
/// [`crate::util::leftovers`]): a killed writer's file is recognised and removed by the next
/// command.
pub const TMP_PREFIX: &str = ".handoff-tmp-";

/// Writes `bytes` to `path` through a temporary file beside it and a rename, so readers never see
/// half. For git-handoff's own state files; a file in the work tree goes through
/// [`write_atomic_in`], so that a kill never leaves a temporary file where `git add -A` sees it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().context("a state file has a parent directory")?;
    write_atomic_in(path, bytes, dir)
}

/// Writes `bytes` to `path` through a temporary file made in `tmp_dir` (the git dir's
/// `handoff/`, for a file in the work tree) and a rename. Where `tmp_dir` is on another file
/// system, the temporary file is made beside `path` instead.
pub fn write_atomic_in(path: &Path, bytes: &[u8], tmp_dir: &Path) -> Result<()> {
    use std::io::Write;
    let dir = path.parent().context("a state file has a parent directory")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    std::fs::create_dir_all(tmp_dir).with_context(|| format!("creating {}", tmp_dir.display()))?;
    let prefix = crate::util::leftovers::tagged(TMP_PREFIX);
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .tempfile_in(tmp_dir)
        .with_context(|| format!("creating a temporary file in {}", tmp_dir.display()))?;
    // A temporary file is private (0600); the result keeps the mode of the file it replaces, or
    // gets the ordinary 0644 of a new file.
    let mode = std::fs::metadata(path).map(|m| m.permissions()).ok();
    let mode = mode.unwrap_or_else(|| std::os::unix::fs::PermissionsExt::from_mode(0o644));
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().set_permissions(mode))
        .and_then(|_| tmp.as_file().sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    match tmp.persist(path) {
        Ok(_) => Ok(()),
        Err(err) if err.error.raw_os_error() == Some(libc::EXDEV) && tmp_dir != dir => {
            drop(err);
            write_atomic_in(path, bytes, dir)
        }
        Err(err) => Err(err.error).with_context(|| format!("replacing {}", path.display())),
    }
}

/// Replaces `path` whole with `bytes` (a temporary file beside it, then a rename), without
/// waiting for the disk: for what is only kept to save work (the snapshot's kept directory names,
/// git's version), which a crash may lose but never leaves torn.
pub fn replace_unsynced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut prefix = std::ffi::OsString::from(crate::util::leftovers::tagged(TMP_PREFIX));
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    let mut file = tempfile::Builder::new().prefix(&prefix).tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
