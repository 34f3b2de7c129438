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

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use gix::index::entry::Flags;

use super::stage::{Change, parse_raw};
use crate::git::Git;

/// One side of a path: mode and object id (hex); `None` when the path is absent.
type Side = Option<(u32, String)>;

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
) -> Vec<Change> {
    let old = sides(original);
    let new = sides(staged);
    let mut paths: BTreeMap<&[u8], Side> = BTreeMap::new();
    for change in before {
        paths.insert(&change.path, side(change.old_mode, &change.old_id));
    }
    let mut o = old.iter().peekable();
    let mut n = new.iter().peekable();
    loop {
        let (path, a, b) = match (o.peek(), n.peek()) {
            (None, None) => break,
            (Some((p, a)), Some((q, b))) if p == q => {
                o.next();
                n.next();
                (*p, a, b)
            }
            (Some((p, a)), Some((q, _))) if p < q => {
                o.next();
                (*p, a, &None)
            }
            (Some(_), Some((q, b))) | (None, Some((q, b))) => {
                n.next();
                (*q, &None, b)
            }
            (Some((p, a)), None) => {
                o.next();
                (*p, a, &None)
            }
        };
        if a != b {
            paths.entry(path).or_insert_with(|| a.clone());
        }
    }
    let staged_side: BTreeMap<&[u8], &Side> = new.iter().map(|(p, s)| (*p, s)).collect();
    paths
        .into_iter()
        .filter_map(|(path, head)| {
            let now = staged_side.get(path).map_or(&None, |s| *s);
            (head != *now).then(|| {
                let zero = |s: &Side| s.clone().unwrap_or((0, "0".repeat(40)));
                let ((old_mode, old_id), (new_mode, new_id)) = (zero(&head), zero(now));
                let zeros = "0".repeat(old_id.len().max(new_id.len()));
                Change {
                    old_mode,
                    new_mode,
                    old_id: if old_mode == 0 { zeros.clone() } else { old_id },
                    new_id: if new_mode == 0 { zeros } else { new_id },
                    path: path.to_vec(),
                }
            })
        })
        .collect()
}

/// Each stage-0 path of an index with its side; intent-to-add entries hold nothing yet.
fn sides(index: &gix::index::File) -> Vec<(&[u8], Side)> {
    index
        .entries()
        .iter()
        .filter(|e| e.stage_raw() == 0)
        .map(|e| {
            let side = (!e.flags.contains(Flags::INTENT_TO_ADD))
                .then(|| (e.mode.bits(), e.id.to_string()));
            (e.path(index).as_ref(), side)
        })
        .collect()
}

fn side(mode: u32, id: &str) -> Side {
    (mode != 0).then(|| (mode, id.to_string()))
}
