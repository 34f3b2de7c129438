//! The validator: finds the note commits in a range of history and checks each note and its layout.
//!
//! A **note commit** is a non-merge commit whose message is `Handoff note: issue #N`, or one that
//! adds or changes a file under the note directory (a commit carrying the seal trailer is a seal,
//! never a note commit). For each one: the note itself ([`Note::check`]), its file name and the
//! commit message agree on the issue, the commit changes only the note file, `last_work_commit` is
//! its first parent, and above it on the branch sits at most one seal commit (trailer
//! `Handoff-Seal: <started_at>`) that leaves the note alone.
//!
//! The range is listed in-process by [`walk::range`] (git's own rev-list walk, so the same commits
//! as `git rev-list`, and only what the range holds however long the history), which also says
//! which commits change the note directory. The few note commits and seals are then read the same
//! way ([`walk::Objects`]): their changed files (a tree comparison, as `git diff-tree -r
//! --no-renames`) and the note's bytes.
//!
//! `history` reads the range and classes its commits, `layout` checks each note commit and what
//! sits above it, `attempts` tells a later attempt from work after a note, `trees` reads the
//! changed files, `report` holds what is asked and found, `pre_push` the range a push adds.

use anyhow::Result;

use crate::git::repo::Repo;
use crate::git::walk;
use crate::model::config::Config;
use crate::model::note::{self, Note};
use history::{Class, History, Odb, short};
use layout::check_note_commit;

mod attempts;
mod history;
mod layout;
pub mod pre_push;
mod report;
mod trees;

pub use report::{Problem, Range, Report};

/// Checks every note commit in `range` (only those of `issue` when given) and their layout.
pub fn validate(repo: &Repo, config: &Config, range: &Range, issue: Option<u64>) -> Result<Report> {
    // gix, for what the readers leave to it, with a delta-base cache.
    let cached = walk::with_delta_cache(repo.gix());
    let (mut history, objects) = History::load(repo, &cached, config, range)?;
    // The walk's reader of the newest trees, its cache warm with the note commit's.
    let objects = objects.unwrap_or_else(|| walk::Objects::new(&cached, repo.sources()));
    let odb = Odb::new(objects);
    history.bases = attempts::bases(repo);
    history.bases.extend(attempts::recorded_bases(repo, config, &history)?);
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    for (at, commit) in history.commits.iter().enumerate() {
        let Class::Note(message_issue) = commit.class else { continue };
        let mut found = Vec::new();
        let Some(report) =
            check_note_commit(&odb, config, &history, at, message_issue, issue, &mut found)?
        else {
            continue;
        };
        // The note commit's own problems, then the note's lines in order, then commits above it.
        let own = short(&commit.id);
        found.sort_by_key(|p| match p.line {
            Some(line) => (1, line),
            None if p.location == own => (0, 0),
            None => (2, 0),
        });
        notes.push(report);
        problems.extend(found);
    }
    Ok(Report { ok: problems.is_empty(), commits: history.commits.len(), notes, problems })
}

/// Checks a note file on its own (not its commit), e.g. the work-tree copy before it is committed.
/// `path` is relative to the top of the work tree.
pub fn check_note_file(config: &Config, path: &str, bytes: &[u8]) -> Vec<Problem> {
    let file_issue = path.rsplit('/').next().and_then(note::issue_of_file_name);
    let located = |p: note::Problem| Problem {
        location: path.to_string(),
        line: Some(p.line),
        commit: None,
        what: p.what,
        mend: p.mend,
    };
    match Note::parse(bytes) {
        Err(p) => vec![located(p)],
        Ok(note) => note.check(config, file_issue).into_iter().map(located).collect(),
    }
}
