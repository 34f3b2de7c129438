//! The secret scan: the blobs seal would commit, read in-process from the quarantine and the
//! store (one reader per core when there are many; `git cat-file --batch` where that fails), each
//! checked by the [`Guard`](super::Guard) for secret-looking names and content; a blob already
//! scanned while `git add` ran (see [`prescan`](super::prescan)) is not read again.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, anyhow, bail};
use gix::bstr::ByteSlice;
use gix::objs::{Exists, Find, FindHeader};

use crate::git::{self, Git};

use super::guard::Guard;
use super::prescan::Prescanned;
use super::request::Skipped;
use super::stage::Change;

/// Where the staged blobs are: the quarantine's objects (the new ones) and the store's.
pub(super) struct Objects<'a> {
    pub quarantine: &'a Path,
    pub store: &'a gix::OdbHandle,
}

/// The changed files the guard holds back: by name, else by the content of the staged blob.
pub(super) fn find_secrets(
    git: &Git,
    objects: &Objects<'_>,
    guard: &Guard,
    changes: &[Change],
    prescanned: &Prescanned,
) -> Result<Vec<Skipped>> {
    let mut skipped = Vec::new();
    let mut to_read = Vec::new();
    // A symlink's name goes into the tree as well (its target is not scanned: a path).
    for c in changes.iter().filter(|c| c.new_mode == 0o120000) {
        if let Some(why) = guard.by_name(&c.path) {
            skipped.push(Skipped { path: c.path.clone(), why });
        }
    }
    for c in changes.iter().filter(|c| c.is_regular_file()) {
        if let Some(why) = guard.by_name(&c.path) {
            skipped.push(Skipped { path: c.path.clone(), why });
            continue;
        }
        // Scanned while `git add` ran, on the very bytes it staged (see `prescan`).
        match prescanned.get(&c.path) {
            Some((id, why)) if id.to_hex() == c.new_id => {
                skipped.extend(why.clone().map(|why| Skipped { path: c.path.clone(), why }));
            }
            _ => to_read.push(c),
        }
    }
    // Inflating and matching are bound by CPU: with many blobs, one reader per core, each taking
    // the next blob as it finishes one (a few large files would leave a fixed share unbalanced).
    let readers = std::thread::available_parallelism().map_or(1, usize::from).clamp(1, 4);
    let readers = if to_read.len() >= 32 { readers } else { 1 };
    let next = AtomicUsize::new(0);
    let found = std::thread::scope(|s| {
        let threads: Vec<_> = (0..readers)
            .map(|_| {
                let (quarantine, store) = (objects.quarantine, objects.store.clone());
                let (next, to_read) = (&next, &to_read);
                s.spawn(move || {
                    let fresh = gix::odb::at(quarantine, store.store_ref().object_hash()).ok();
                    let mut buf = Vec::new();
                    let mut found = Vec::new();
                    while let Some(&c) = to_read.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let why = match read_in_process(fresh.as_ref(), &store, c, &mut buf) {
                            Some(mut content) => guard.by_content(&c.path, &mut content)?,
                            None => scan_blobs(git, guard, &[c])?.pop().map(|s| s.why),
                        };
                        found.extend(why.map(|why| Skipped { path: c.path.clone(), why }));
                    }
                    Ok(found)
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().unwrap_or_else(|_| Err(anyhow!("a secret scan thread panicked"))))
            .collect::<Result<Vec<Vec<Skipped>>>>()
    })?;
    skipped.extend(found.into_iter().flatten());
    let order: std::collections::HashMap<&[u8], usize> =
        changes.iter().enumerate().map(|(i, c)| (c.path.as_slice(), i)).collect();
    skipped.sort_by_key(|s| order.get(s.path.as_slice()).copied());
    Ok(skipped)
}

/// Blobs up to this size are read whole into memory; larger ones are streamed from git.
const IN_MEMORY: u64 = 32 << 20;

/// The staged blob of `c`, read in-process, the quarantine first: no `git cat-file` to start and
/// no pipe to copy through. `None` when it cannot be read so, or is too large to hold at once;
/// the caller then asks git.
fn read_in_process<'a>(
    fresh: Option<&gix::odb::Handle>,
    store: &gix::OdbHandle,
    c: &Change,
    buf: &'a mut Vec<u8>,
) -> Option<&'a [u8]> {
    let id = gix::ObjectId::from_hex(c.new_id.as_bytes()).ok()?;
    let blob = match fresh.filter(|f| f.exists(&id)) {
        Some(fresh) if fresh.try_header(&id).ok()??.size <= IN_MEMORY => {
            fresh.try_find(&id, buf).ok()??
        }
        None if store.try_header(&id).ok()??.size <= IN_MEMORY => {
            store.try_find(&id, buf).ok()??
        }
        _ => return None,
    };
    (blob.kind == gix::objs::Kind::Blob).then_some(blob.data)
}

/// Streams the blobs through one `git cat-file --batch` and scans each. The ids go in from a
/// second thread while the answers are read, so neither side waits on the other per object.
pub(super) fn scan_blobs(git: &Git, guard: &Guard, changes: &[&Change]) -> Result<Vec<Skipped>> {
    let mut cmd = git.command(["cat-file", "--batch", "--buffer"]);
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().with_context(|| format!("running {}", git::describe(&cmd)))?;
    let (Some(mut input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
        bail!("{} started without pipes", git::describe(&cmd));
    };
    let mut output = BufReader::with_capacity(1 << 16, output);
    let ids: Vec<u8> =
        changes.iter().flat_map(|c| format!("{}\n", c.new_id).into_bytes()).collect();
    let result = std::thread::scope(|s| {
        // Dropping `input` at the end of the thread closes git's stdin, which flushes its answers.
        let writer = s.spawn(move || input.write_all(&ids));
        let result = changes
            .iter()
            .filter_map(|c| match scan_one(&mut output, guard, c) {
                Ok(Some(why)) => Some(Ok(Skipped { path: c.path.clone(), why })),
                Ok(None) => None,
                Err(err) => Some(Err(err)),
            })
            .collect::<Result<Vec<Skipped>>>();
        if result.is_err() {
            // Unblocks the writer, which then fails on a closed pipe.
            let _ = child.kill();
        }
        let _ = writer.join();
        result
    });
    let finished = child.wait_with_output();
    let skipped = result.with_context(|| format!("reading blobs from {}", git::describe(&cmd)))?;
    let finished = finished.with_context(|| format!("waiting for {}", git::describe(&cmd)))?;
    git::checked(&cmd, finished)?;
    Ok(skipped)
}

/// Reads one `cat-file --batch` answer (`<oid> blob <size>\n<bytes>\n`) and scans its bytes.
pub(super) fn scan_one(
    output: &mut impl BufRead,
    guard: &Guard,
    c: &Change,
) -> Result<Option<String>> {
    let mut header = Vec::new();
    output.read_until(b'\n', &mut header)?;
    let text = header.trim_ascii_end().to_str_lossy().into_owned();
    let size = match text.split(' ').collect::<Vec<_>>()[..] {
        [_, "blob", size] => size.parse::<u64>().ok(),
        _ => None,
    };
    let Some(size) = size else {
        bail!("`git cat-file` answered {text:?} for {} ({})", c.new_id, c.path.to_str_lossy());
    };
    let mut blob = output.take(size);
    let why = guard.by_content(&c.path, &mut blob)?;
    io::copy(&mut blob, &mut io::sink())?;
    if blob.limit() != 0 {
        bail!("`git cat-file` ended inside blob {} ({})", c.new_id, c.path.to_str_lossy());
    }
    let mut newline = [0u8; 1];
    output.read_exact(&mut newline)?;
    Ok(why)
}
