//! Files read and written whole. Every file git-handoff reads (the configuration, notes, rules,
//! summaries, facts, the attempt's state, plan and event log, agent settings) goes through
//! [`open_regular`]: opened without waiting (`O_NONBLOCK`, so a FIFO or a device cannot hold a hook
//! or the hard-limit path), its type checked on the opened descriptor (`fstat`, so nothing can be
//! swapped in between a check and the open), and read up to a stated bound. Files are written
//! through a temporary file and a rename, so a reader (or a crash) never sees half a file.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};

pub use crate::util::leftovers::TMP_PREFIX;

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

/// Opens `path` for reading when it is a regular file (a symbolic link to one counts), without
/// blocking on the way: a FIFO, a device, a socket or a directory, or a link to one, is an error
/// at once that says what the path is and how to mend it. `what` names the file ("the note").
/// A missing file is an error whose cause is the `NotFound` I/O error (see [`is_missing`]).
pub fn open_regular(path: &Path, what: &str) -> Result<File> {
    open_sized(path, what).map(|(file, _)| file)
}

/// [`open_regular`], with the file's size when opened.
fn open_sized(path: &Path, what: &str) -> Result<(File, u64)> {
    let file = open_nonblocking(path)
        .with_context(|| format!("{}: cannot read {what}", path.display()))?;
    judged_regular(file, path, what)
}

/// [`open_regular`], with `None` for a file that does not exist. Where a missing file is no
/// problem (an event log, a progress file, a config file not written yet), this makes no error
/// value for it: with `RUST_BACKTRACE=1` set, an error captures a backtrace, which was a tenth
/// of what `record` cost.
pub fn open_regular_if_any(path: &Path, what: &str) -> Result<Option<File>> {
    Ok(open_sized_if_any(path, what)?.map(|(file, _)| file))
}

/// [`open_regular_if_any`], with the file's size when opened.
fn open_sized_if_any(path: &Path, what: &str) -> Result<Option<(File, u64)>> {
    match open_nonblocking(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        file => {
            let file = file.with_context(|| format!("{}: cannot read {what}", path.display()))?;
            judged_regular(file, path, what).map(Some)
        }
    }
}

fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

/// `file` (opened at `path`) and its size when it is a regular file, else the error
/// [`open_regular`] gives.
fn judged_regular(file: File, path: &Path, what: &str) -> Result<(File, u64)> {
    // On the descriptor: what was opened is what is judged.
    let meta =
        file.metadata().with_context(|| format!("{}: cannot read {what}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{}: {what} is {}, not a regular file; git-handoff reads {what} only from a regular \
             file, so it refuses it rather than wait on it or read it without end: remove it \
             (`rm -- {}`) or put a regular file in its place",
            path.display(),
            kind_of(&meta.file_type()),
            crate::util::shell::quote(&path.display().to_string())
        );
    }
    Ok((file, meta.len()))
}

/// Reads the regular file at `path` whole, if it holds at most `limit` bytes; a bigger one (or a
/// special file, see [`open_regular`]) is an error that says so.
pub fn read_regular(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    read_open(open_sized(path, what)?, path, limit, what)
}

/// Reads `file` (of `size` bytes when opened) whole, up to `limit` bytes and one more to tell
/// a bigger file. Room for the whole file is made first, so a small file that did not change is
/// read in one `read` and its end found by the next (a larger one in reads that start at 8 KiB
/// and double); from nothing, the reads started at 32 bytes (a 112-byte file took four).
fn read_up_to(file: File, size: u64, limit: u64, path: &Path, what: &str) -> Result<Vec<u8>> {
    // Bounded by `limit`: the size is what the file said, not what it may hold by now.
    let room = usize::try_from(size.min(limit).saturating_add(1)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(room);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("{}: cannot read {what}", path.display()))?;
    Ok(bytes)
}

fn read_open((file, size): (File, u64), path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    let bytes = read_up_to(file, size, limit, path, what)?;
    if bytes.len() as u64 > limit {
        bail!(
            "{}: {what} is larger than {}, more than git-handoff reads; shorten it",
            path.display(),
            crate::util::paths::size(limit)
        );
    }
    Ok(bytes)
}

/// [`read_regular`], with `None` for a file that does not exist.
pub fn read_regular_if_any(path: &Path, limit: u64, what: &str) -> Result<Option<Vec<u8>>> {
    match open_sized_if_any(path, what)? {
        Some(opened) => read_open(opened, path, limit, what).map(Some),
        None => Ok(None),
    }
}

/// The first `limit` bytes of the regular file at `path` (all of it when shorter); `None` for a
/// file that does not exist. For files of which a prefix is all a command needs (the rules).
pub fn read_prefix(path: &Path, limit: u64, what: &str) -> Result<Option<Vec<u8>>> {
    let Some((file, size)) = open_sized_if_any(path, what)? else { return Ok(None) };
    let mut bytes = read_up_to(file, size, limit, path, what)?;
    bytes.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(Some(bytes))
}

/// True when the error is a file that does not exist (nothing to read, not a problem).
pub fn is_missing(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
    })
}

fn kind_of(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        for (path, kind) in [(&fifo, "FIFO"), (&zero, "character device")] {
            let err = read_regular(path, 1 << 20, "the note").unwrap_err().to_string();
            assert!(err.contains(kind) && err.contains("the note"), "{err}");
            assert!(read_prefix(path, 10, "the rules").is_err());
        }
        let err = read_regular(dir.path(), 10, "the note").unwrap_err().to_string();
        assert!(err.contains("a directory"), "{err}");
    }

    #[test]
    fn reads_are_bounded_and_missing_files_are_none() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read_regular(&file, 10, "x").unwrap(), b"0123456789");
        assert!(read_regular(&file, 9, "x").unwrap_err().to_string().contains("larger than 9"));
        assert_eq!(read_prefix(&file, 4, "x").unwrap().unwrap(), b"0123");
        // Read into the room its size made, whatever the size.
        for size in [0, 1, 31, 32, 4096, 100_000] {
            let bytes: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
            std::fs::write(&file, &bytes).unwrap();
            assert_eq!(read_regular(&file, 1 << 20, "x").unwrap(), bytes, "{size}");
            assert_eq!(read_prefix(&file, 1 << 20, "x").unwrap().unwrap(), bytes, "{size}");
        }
        let missing = dir.path().join("missing");
        assert!(read_regular_if_any(&missing, 10, "x").unwrap().is_none());
        assert!(read_prefix(&missing, 10, "x").unwrap().is_none());
        assert!(is_missing(&read_regular(&missing, 10, "x").unwrap_err()));
    }
}
