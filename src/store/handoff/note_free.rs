//! Remembering a first-parent line that holds no note commit, so the next lookup does not read it
//! again.
//!
//! On a branch without a handoff note, finding the latest handoff reads [`WALK_LIMIT`] commits
//! every time (recall at every session start: 1,000 commit reads where `git notes show` reads
//! one object). Commits never change, so once a walk from commit C found no note in N commits,
//! any later walk that reaches C may stop there: below it, nothing will be found. The fact is one
//! line in the worktree's handoff directory, `<commit> <commits read>`, replaced by each walk that
//! finds nothing; a later walk from a descendant of C reads only the commits above C.
//!
//! [`WALK_LIMIT`]: super::WALK_LIMIT

use std::path::PathBuf;

use anyhow::Result;
use gix::ObjectId;

use super::branch::{self, NoteOnBranch, Walk, Walked};
use crate::git::repo::Repo;

/// The file, in the worktree's handoff directory.
const FILE: &str = "note-free";

/// The note commits `branch::notes` finds for `walk` (which has no stop commit), without reading
/// the commits a previous walk found note-free. `line` then holds only the commits read.
pub fn notes(repo: &Repo, walk: Walk, enough: impl FnMut(&NoteOnBranch) -> bool) -> Result<Walked> {
    let path = repo.handoff_dir().join(FILE);
    let mut shortened = walk;
    if walk.stop.is_none()
        && let Some((known, read)) = recall(&path)
        && read >= walk.limit
    {
        if known == walk.start {
            return Ok(Walked::default());
        }
        shortened.stop = Some(known);
    }
    let walked = branch::notes(repo, shortened, enough)?;
    if walk.stop.is_none() && walked.notes.is_empty() {
        remember(path, walk.start, walk.limit);
    }
    Ok(walked)
}

/// The remembered commit and how many commits from it were read, if the file holds them.
fn recall(path: &std::path::Path) -> Option<(ObjectId, usize)> {
    let bytes = crate::util::fs::read_regular_if_any(path, 4 << 10, "the walk's memo").ok()??;
    let text = String::from_utf8(bytes).ok()?;
    let (id, read) = text.trim_end().split_once(' ')?;
    Some((ObjectId::from_hex(id.as_bytes()).ok()?, read.parse().ok()?))
}

/// Best effort: a lookup that cannot write the file is only slower next time.
fn remember(path: PathBuf, start: ObjectId, read: usize) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let Ok(mut file) = tempfile::NamedTempFile::new_in(dir) else { return };
    if std::io::Write::write_all(&mut file, format!("{start} {read}\n").as_bytes()).is_ok() {
        let _ = file.persist(&path);
    }
}
