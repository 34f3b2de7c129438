//! The first-parent walk that finds note commits on a branch: commit messages only, newest first.
//!
//! A note commit is a non-merge commit whose message is `Handoff note: issue #N` (as `validate`
//! classes it; a seal carries the `Handoff-Seal:` trailer instead). Walking first parents keeps to
//! the branch itself: notes that came in through a merge of another branch belong to that branch.

use anyhow::{Context, Result};
use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::git::repo::Repo;
use crate::model::note;
use crate::model::seal_message;

/// A note commit found on the branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteOnBranch {
    pub commit: ObjectId,
    /// Its first parent (the last work commit, the base, or a seal), `None` for a root commit.
    pub parent: Option<ObjectId>,
    /// The issue its message names.
    pub issue: u64,
    /// First-parent steps from where the walk began (0: the start itself).
    pub depth: usize,
    /// The seal commit right above it on the walk (whose first parent it is).
    pub seal_above: Option<ObjectId>,
    /// The committer time, seconds since the epoch.
    pub time: i64,
}

/// Where a walk begins and ends.
#[derive(Debug, Clone, Copy)]
pub struct Walk {
    pub start: ObjectId,
    /// The commit the walk stops at, left out (an attempt's base).
    pub stop: Option<ObjectId>,
    /// At most this many commits are read.
    pub limit: usize,
}

/// What a walk saw.
#[derive(Debug, Default)]
pub struct Walked {
    /// The note commits, newest first.
    pub notes: Vec<NoteOnBranch>,
    /// Every commit read, newest first.
    pub line: Vec<ObjectId>,
}

/// The note commits on the first-parent line of `walk`, newest first; the walk ends early once
/// `enough` returns true for one of them.
pub fn notes(
    repo: &Repo,
    walk: Walk,
    mut enough: impl FnMut(&NoteOnBranch) -> bool,
) -> Result<Walked> {
    let mut found = Vec::new();
    let mut line = Vec::new();
    let mut next = Some(walk.start);
    // The commit read just before (the child of the next one), when it is a seal.
    let mut seal_child: Option<ObjectId> = None;
    let mut depth = 0;
    let mut objects = repo.objects();
    while let Some(id) = next {
        if Some(id) == walk.stop || depth >= walk.limit {
            break;
        }
        let commit = match objects.commit(id) {
            Ok(commit) => commit,
            // Past the first commit, a missing one is the edge of a shallow clone.
            Err(_) if depth > 0 => break,
            Err(err) => return Err(err).with_context(|| format!("reading commit {id}")),
        };
        line.push(id);
        let parents = commit.parents;
        let message = commit.message.to_str_lossy().into_owned();
        let issue = if parents.len() <= 1 { note::issue_of_commit_message(&message) } else { None };
        if let Some(issue) = issue {
            let time = commit.time;
            let hit = NoteOnBranch {
                commit: id,
                parent: parents.first().copied(),
                issue,
                depth,
                seal_above: seal_child,
                time,
            };
            let stop = enough(&hit);
            found.push(hit);
            if stop {
                break;
            }
        }
        seal_child = (issue.is_none() && seal_message::is_seal_message(&message)).then_some(id);
        depth += 1;
        next = parents.first().copied();
    }
    Ok(Walked { notes: found, line })
}

/// The `started_at` a seal commit's `Handoff-Seal:` trailer names, if `id` is a seal.
pub fn seal_started_at(repo: &Repo, id: ObjectId) -> Option<String> {
    let commit = repo.objects().commit(id).ok()?;
    let message = commit.message.to_str_lossy().into_owned();
    if note::issue_of_commit_message(&message).is_some() {
        return None;
    }
    seal_message::seal_started_at(&message)
}

/// The bytes of the file `path` in `commit`, if it has one there.
pub fn file_at(repo: &Repo, commit: ObjectId, path: &str) -> Option<Vec<u8>> {
    let mut objects = repo.objects();
    let tree = objects.commit(commit).ok()?.tree;
    objects.blob_at(tree, path).ok()?
}

/// The paths `commit` changes against `parent` (all of its files for a root commit), in git's
/// order, as `git diff-tree -r --no-renames --name-only` lists them (read in-process: no git).
pub fn changed_files(
    repo: &Repo,
    parent: Option<ObjectId>,
    commit: ObjectId,
) -> Result<Vec<String>> {
    let mut objects = repo.objects();
    let mut tree = |id: ObjectId| -> Result<ObjectId> {
        Ok(objects.commit(id).with_context(|| format!("reading commit {id}"))?.tree)
    };
    let new = tree(commit)?;
    let old = parent.map(&mut tree).transpose()?;
    let paths = objects.changed_paths(old, Some(new))?;
    Ok(paths.iter().map(|p| p.to_str_lossy().into_owned()).collect())
}
