//! The secret scan: the blobs seal would commit, streamed from one `git cat-file --batch`, each
//! checked by the [`Guard`](super::Guard) for secret-looking names and content.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::Stdio;

use anyhow::{Context, Result, bail};
use gix::bstr::ByteSlice;

use crate::git::{self, Git};

use super::stage::Change;
use super::{Guard, Skipped};

/// The changed files the guard holds back: by name, else by the content of the staged blob.
pub(super) fn find_secrets(git: &Git, guard: &Guard, changes: &[Change]) -> Result<Vec<Skipped>> {
    let mut skipped = Vec::new();
    let mut to_read = Vec::new();
    for c in changes.iter().filter(|c| c.is_regular_file()) {
        match guard.by_name(&c.path) {
            Some(why) => skipped.push(Skipped { path: c.path.clone(), why }),
            None => to_read.push(c),
        }
    }
    if !to_read.is_empty() {
        skipped.extend(scan_blobs(git, guard, &to_read)?);
    }
    let order: std::collections::HashMap<&[u8], usize> =
        changes.iter().enumerate().map(|(i, c)| (c.path.as_slice(), i)).collect();
    skipped.sort_by_key(|s| order.get(s.path.as_slice()).copied());
    Ok(skipped)
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
