//! What the seal commits against HEAD, listed without reading HEAD's trees where the index says
//! enough.
//!
//! Comparing the staged index (or tree) with HEAD reads every HEAD tree along every changed path:
//! on test262's dirty tree (57,000 files, 321 changes spread over 329 directories) that was 140M
//! instructions, half of what `git add -A && git commit` costs in all. Two cheaper facts give the
//! same list: what `git add -A` changed in the index (the original index against the private
//! one, both read in-process, entry by entry) and what was already staged before the seal
//! (`git diff-index --cached` on the original index, which skips every directory whose cache tree
//! still matches HEAD: all of them, right after a commit). A path outside the second list had in
//! the original index what HEAD has, so HEAD's side of every change is known without a tree read.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;
use gix::ObjectId;
use gix::index::entry::Flags;

use super::stage::{Change, parse_raw};
use crate::git::Git;

/// What was staged before the seal: `git diff-index --cached` of the original index against
/// `base` (read only: the seal holds the index lock, so it cannot change meanwhile).
pub(super) fn staged_before(git: &Git, index: &Path, base: &str) -> Result<Vec<Change>> {
    let args =
        ["diff-index", "--cached", "-z", "--raw", "--no-renames", "--ignore-submodules=none", base];
    let mut cmd = git.command(args);
    cmd.env("GIT_INDEX_FILE", index).env("GIT_LITERAL_PATHSPECS", "1");
    let output = crate::git::run(&mut cmd)?;
    parse_raw(&crate::git::checked(&cmd, output)?)
}

/// The changes of the staged index against HEAD, in git's path order: every path `git add -A`
/// changed (`original` against `staged`) or that was staged before (`before`), with HEAD's side
/// from `before` where it lists the path and from the original index elsewhere.
pub(super) fn list(
    original: &gix::index::File,
    staged: &gix::index::File,
    before: &[Change],
) -> Result<Vec<Change>> {
    let old = sides(original);
    let new = sides(staged);
    let head = before
        .iter()
        .map(|c| Ok((c.path.as_slice(), side(c.old_mode, &c.old_id)?)))
        .collect::<Result<HashMap<&[u8], Side>>>()?;
    let mut out = Vec::new();
    let mut push = |path: &[u8], was: Side, now: Side| {
        let was = if head.is_empty() { was } else { head.get(path).copied().unwrap_or(was) };
        if was != now {
            out.push(change(path, &was, &now));
        }
    };
    // Both lists are in index order (by path): walk them side by side.
    let (mut o, mut n) = (0, 0);
    while o < old.len() || n < new.len() {
        match (old.get(o), new.get(n)) {
            (Some((p, a)), Some((q, b))) if p == q => {
                push(p, *a, *b);
                (o, n) = (o + 1, n + 1);
            }
            (Some((p, a)), Some((q, _))) if p < q => {
                push(p, *a, None);
                o += 1;
            }
            (Some((p, a)), None) => {
                push(p, *a, None);
                o += 1;
            }
            (_, Some((q, b))) => {
                push(q, None, *b);
                n += 1;
            }
            (None, None) => break,
        }
    }
    // A staged deletion is in neither index.
    let in_either = |path: &[u8]| {
        let find = |list: &[(&[u8], Side)]| list.binary_search_by(|(p, _)| (*p).cmp(path));
        find(&old).is_ok() || find(&new).is_ok()
    };
    for c in before.iter().filter(|c| !in_either(&c.path)) {
        push(&c.path, None, None);
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// One side of a path: mode and object id; `None` when the path is absent.
type Side = Option<(u32, ObjectId)>;

/// Each stage-0 path of an index with its side; intent-to-add entries hold nothing yet.
fn sides(index: &gix::index::File) -> Vec<(&[u8], Side)> {
    index
        .entries()
        .iter()
        .filter(|e| e.stage_raw() == 0)
        .map(|e| {
            let side = (!e.flags.contains(Flags::INTENT_TO_ADD)).then_some((e.mode.bits(), e.id));
            (e.path(index).as_ref(), side)
        })
        .collect()
}

fn side(mode: u32, hex: &str) -> Result<Side> {
    if mode == 0 {
        return Ok(None);
    }
    let id = ObjectId::from_hex(hex.as_bytes()).map_err(|err| {
        anyhow::anyhow!("`git diff-index` printed {hex:?} as an object id: {err}")
    })?;
    Ok(Some((mode, id)))
}

fn change(path: &[u8], was: &Side, now: &Side) -> Change {
    let hex = |side: &Side| side.map(|(_, id)| id.to_string()).unwrap_or_default();
    let (old_id, new_id) = (hex(was), hex(now));
    let zeros = "0".repeat(old_id.len().max(new_id.len()));
    Change {
        old_mode: was.map_or(0, |(mode, _)| mode),
        new_mode: now.map_or(0, |(mode, _)| mode),
        old_id: if old_id.is_empty() { zeros.clone() } else { old_id },
        new_id: if new_id.is_empty() { zeros } else { new_id },
        path: path.to_vec(),
    }
}
