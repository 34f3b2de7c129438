//! Which commits above a note commit belong to later attempts, and so are not that note's concern.
//!
//! One branch may carry several attempts, each laid out as work commits, a note commit, at most
//! one seal. Above an earlier attempt's note stand the later attempts' commits; they break nothing.
//! A commit above the note belongs to a later attempt when it is, or lies below, a note or seal of
//! another attempt (another issue, or another `started_at` in the note header or the seal's
//! trailer), or lies above a commit where a later attempt began: the bases in this worktree's
//! attempt state and its archive, and the bases the notes ref records (a session that began
//! after the note, or `start`, stores one), which travel with the branch to any machine.
//! Anything else above the note is still work committed after it: the attempt's own fault.

use std::collections::HashSet;

use anyhow::Result;
use gix::ObjectId;

use crate::git::repo::Repo;
use crate::model::note::Note;

use super::history::{Class, History, Odb};
use super::trees::read_blob;

/// The bases of this worktree's attempts: the current one and every archived one.
pub(super) fn bases(repo: &Repo) -> Vec<ObjectId> {
    let dir = repo.handoff_dir();
    let mut files = vec![dir.join(crate::agent::attempt::STATE_FILE)];
    if let Ok(entries) = std::fs::read_dir(dir.join(crate::agent::attempt::ARCHIVE_DIR)) {
        files.extend(entries.flatten().map(|e| e.path().join(crate::agent::attempt::STATE_FILE)));
    }
    files
        .iter()
        .filter_map(|path| crate::util::fs::read_regular(path, 64 << 10, "the attempt state").ok())
        .filter_map(|bytes| String::from_utf8(bytes).ok())
        .filter_map(|text| toml::from_str::<toml::Table>(&text).ok())
        .filter_map(|table| table.get("base")?.as_str().map(str::to_string))
        .filter_map(|hex| ObjectId::from_hex(hex.as_bytes()).ok())
        .collect()
}

/// The commits at or above a note commit of the range on which an attempt began, as the notes
/// ref (and its remote-tracking copies) records it: the same distinction [`bases`] draws from
/// this worktree's state, for a machine that has only the branch and `refs/notes/handoff`.
pub(super) fn recorded_bases(
    repo: &Repo,
    config: &crate::model::config::Config,
    history: &History,
) -> Result<Vec<ObjectId>> {
    let mut candidate = vec![false; history.commits.len()];
    for (at, commit) in history.commits.iter().enumerate() {
        if !matches!(commit.class, Class::Note(_)) || candidate[at] {
            continue;
        }
        candidate[at] = true;
        for n in history.above(at) {
            candidate[n] = true;
        }
    }
    if !candidate.contains(&true) {
        return Ok(Vec::new());
    }
    let refs = crate::store::records::readable_refs(repo, &config.notes_ref)?;
    let mut bases = Vec::new();
    for (commit, _) in history.commits.iter().zip(&candidate).filter(|(_, c)| **c) {
        if !crate::store::records::began_on(repo, &refs, commit.id)?.is_empty() {
            bases.push(commit.id);
        }
    }
    Ok(bases)
}

/// The note a later attempt is told apart from: its issue and `started_at`.
pub(super) struct Owner<'a> {
    pub issue: Option<u64>,
    pub started_at: Option<&'a str>,
}

/// The commits above the note commit at `at` that belong to later attempts.
pub(super) fn later(
    repo: &Odb,
    dir: &str,
    history: &History,
    at: usize,
    owner: &Owner<'_>,
) -> Result<HashSet<usize>> {
    let above = history.above(at);
    let mut is_above = vec![false; history.commits.len()];
    for &n in &above {
        is_above[n] = true;
    }
    let mut later = HashSet::new();
    if history.bases.contains(&history.commits[at].id) {
        // A later attempt began at the note itself: what stands above is its work (a seal of
        // this attempt's own, telling its started_at, stays this note's).
        later.extend(above.iter().copied().filter(|&n| !own_seal(history, at, n, owner)));
    }
    for &n in &above {
        let commit = &history.commits[n];
        if history.bases.contains(&commit.id) {
            later.extend(history.above(n));
        }
        if is_marker(repo, dir, history, n, owner)? {
            later.insert(n);
            later.extend(history.above(n));
            // Its work below it, down to the note.
            let mut stack = vec![n];
            while let Some(at) = stack.pop() {
                for parent in &history.commits[at].parents {
                    if let Some(&p) = history.index.get(parent)
                        && is_above[p]
                        && later.insert(p)
                    {
                        stack.push(p);
                    }
                }
            }
        }
    }
    Ok(later)
}

/// A seal right above the note that names the note's own `started_at`.
fn own_seal(history: &History, at: usize, n: usize, owner: &Owner<'_>) -> bool {
    let commit = &history.commits[n];
    commit.class == Class::Seal
        && commit.parents.first() == Some(&history.commits[at].id)
        && owner.started_at.is_some()
        && commit.started_at.as_deref() == owner.started_at
}

/// True when commit `n` is a note or seal of another attempt than `owner`'s.
fn is_marker(
    repo: &Odb,
    dir: &str,
    history: &History,
    n: usize,
    owner: &Owner<'_>,
) -> Result<bool> {
    let commit = &history.commits[n];
    let Some(started_at) = owner.started_at else { return Ok(false) };
    match commit.class {
        Class::Seal => Ok(commit.started_at.as_deref().is_some_and(|theirs| theirs != started_at)),
        Class::Note(Some(issue)) if owner.issue.is_some_and(|own| own != issue) => Ok(true),
        Class::Note(Some(issue)) => {
            let bytes = read_blob(repo, commit.id, &format!("{dir}/{issue}.md")).ok();
            let note = bytes.as_deref().and_then(|b| Note::parse(b).ok());
            let theirs = note.as_ref().and_then(|n| n.field("started_at")).map(|f| f.value.trim());
            Ok(theirs.is_some_and(|theirs| theirs != started_at))
        }
        _ => Ok(false),
    }
}
