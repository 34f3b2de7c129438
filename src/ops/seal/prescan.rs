//! The secret scan begun while `git add` runs. `add` hashes and stores one file after another on
//! one core; the scan of what it staged used to wait for it, then read every new blob back and
//! inflate it. Here `add --verbose` names each file it stages (`add '<path>'`), and a second
//! thread reads that file from the work tree, hashes it as a blob and scans it at once.
//!
//! A verdict counts only for the blob it was made on: the scan after `add` takes it when the
//! staged blob's id is the id of the bytes read here, and reads the staged blob otherwise (a file
//! a filter or line-ending conversion rewrites, or one changed since `add` read it). What `add`
//! prints after its output's last flush, at its exit, is left to that scan as well.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;
use rustix::fs::{Mode, OFlags};

use super::guard::Guard;
use crate::git;

/// What the scan made of a file, by path: the id of the bytes it read, and why it would hold the
/// file back (`None`: nothing found).
pub(super) type Prescanned = HashMap<Vec<u8>, (ObjectId, Option<String>)>;

/// Files up to this size are scanned here; larger ones by the scan after `add`, which streams.
const MAX_BYTES: u64 = 8 << 20;

/// `git add --all` started, its output not yet read. Dropped unfinished (the seal failed before
/// waiting for it), the child is killed and waited for: it only ever wrote the private index and
/// the quarantine, which go with the seal's temporary directories.
pub(super) struct Adding {
    cmd: Command,
    child: Option<Child>,
    scanning: bool,
}

/// Starts `cmd` (`git add --all`); with `scanning`, it names each file it stages for the scan
/// [`Adding::finish`] runs beside it. Started before anything else of the seal's, `add` (the
/// longest step) has a core from its first moment.
pub(super) fn start(mut cmd: Command, scanning: bool) -> Result<Adding> {
    // `add '<path>'` is printed untranslated, so the locale stays the caller's: it reaches clean
    // filters, and the seal must stage what `git add -A` would.
    if scanning {
        cmd.arg("--verbose");
    }
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let child = cmd.spawn().with_context(|| format!("running {}", git::describe(&cmd)))?;
    Ok(Adding { cmd, child: Some(child), scanning })
}

impl Drop for Adding {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Adding {
    /// Waits for `add`, with the files it stages scanned under `top` by `guard` as it goes
    /// (started with `scanning`; without a guard nothing is scanned).
    ///
    /// In a sparse checkout (`sparse`), `add` exits 1 when a new file lies outside the cone,
    /// having staged everything else: that is its answer, not a failure, and the second value
    /// says it happened (the caller lists what was left out).
    pub(super) fn finish(
        mut self,
        top: &Path,
        guard: Option<&Guard>,
        hash: gix::hash::Kind,
        sparse: bool,
    ) -> Result<(Prescanned, bool)> {
        let mut child = self.child.take().expect("finished once");
        let cmd = &self.cmd;
        let guard = guard.filter(|_| self.scanning);
        let Some(guard) = guard else {
            let output = child.wait_with_output();
            let output = output.with_context(|| format!("waiting for {}", git::describe(cmd)))?;
            return checked_add(cmd, output, sparse).map(|partial| (Prescanned::new(), partial));
        };
        let (Some(stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
            return Err(anyhow!("{} started without pipes", git::describe(cmd)));
        };
        let done = AtomicBool::new(false);
        let (send, receive) = mpsc::channel::<Vec<u8>>();
        let (status, errors, scanned) = thread::scope(|s| {
            let errors = s.spawn(move || {
                let mut bytes = Vec::new();
                stderr.read_to_end(&mut bytes).map(|_| bytes)
            });
            let done = &done;
            let scanned = s.spawn(move || {
                let mut scanned = Prescanned::new();
                while let Ok(path) = receive.recv() {
                    if done.load(Ordering::Relaxed) {
                        break;
                    }
                    if let Some(verdict) = scan_file(top, &path, guard, hash) {
                        scanned.insert(path, verdict);
                    }
                }
                scanned
            });
            // The paths as `add` prints them; the scanner takes them as they come. A name with a
            // newline in it can make a line name another path: the verdict is then on a blob
            // `add` did not stage, and is not taken.
            let mut lines = BufReader::new(stdout);
            let mut line = Vec::new();
            while lines.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                if let Some(path) = line.strip_prefix(b"add '").and_then(|l| l.strip_suffix(b"'\n"))
                {
                    let _ = send.send(path.to_vec());
                }
                line.clear();
            }
            // Closed before waiting: had reading failed, git must not block on a full pipe.
            drop(lines);
            let status = child.wait();
            done.store(true, Ordering::Relaxed);
            drop(send);
            (status, errors.join(), scanned.join())
        });
        let status = status.with_context(|| format!("waiting for {}", git::describe(cmd)))?;
        let stderr = errors.map_err(|_| anyhow!("reading git add's messages failed"))??;
        let partial = checked_add(cmd, Output { status, stdout: Vec::new(), stderr }, sparse)?;
        let scanned = scanned.map_err(|_| anyhow!("the secret scan beside git add panicked"))?;
        Ok((scanned, partial))
    }
}

/// `add`'s exit status judged: true for the exit 1 of a sparse checkout (see [`Adding::finish`]).
fn checked_add(cmd: &Command, output: Output, sparse: bool) -> Result<bool> {
    if sparse && output.status.code() == Some(1) {
        return Ok(true);
    }
    git::checked(cmd, output).map(|_| false)
}

/// The blob id of the regular file at `path` and the guard's verdict on it; `None` when it is not
/// a regular file, too large, or cannot be read. It is opened without following a symlink and
/// without waiting: a FIFO put in its place must not hold the seal (and the index lock) forever.
fn scan_file(
    top: &Path,
    path: &[u8],
    guard: &Guard,
    hash: gix::hash::Kind,
) -> Option<(ObjectId, Option<String>)> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = rustix::fs::open(top.join(OsStr::from_bytes(path)), flags, Mode::empty()).ok()?;
    let mut file = std::fs::File::from(fd);
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut bytes).ok()?;
    let id = gix::objs::compute_hash(hash, gix::objs::Kind::Blob, &bytes).ok()?;
    let why = guard.by_content(path, &mut bytes.as_slice()).ok()?;
    Some((id, why))
}
