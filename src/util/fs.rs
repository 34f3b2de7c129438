//! Files written whole: through a temporary file and a rename, so a reader (or a crash) never
//! sees half a file.

use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` through a temporary file and a rename, so readers never see half.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let dir = path.parent().context("a state file has a parent directory")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    // A temporary file is private (0600); the result keeps the mode of the file it replaces, or
    // gets the ordinary 0644 of a new file.
    let mode = std::fs::metadata(path).map(|m| m.permissions()).ok();
    let mode = mode.unwrap_or_else(|| std::os::unix::fs::PermissionsExt::from_mode(0o644));
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().set_permissions(mode))
        .and_then(|_| tmp.as_file().sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    tmp.persist(path).with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

/// Replaces `path` whole with `bytes` (a temporary file beside it, then a rename), without
/// waiting for the disk: for what is only kept to save work (the snapshot's kept directory names,
/// git's version), which a crash may lose but never leaves torn.
pub fn replace_unsynced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut prefix = path.file_name().unwrap_or_default().to_os_string();
    prefix.push(".");
    let mut file = tempfile::Builder::new().prefix(&prefix).tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
