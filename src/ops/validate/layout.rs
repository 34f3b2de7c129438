//! The layout rules for one note commit: it changes only its note, its `last_work_commit` is its
//! first parent, and above it stands at most one seal commit that does not touch the note (later
//! attempts' commits aside, see [`super::attempts`]).

use anyhow::Result;
use gix::ObjectId;

use crate::model::config::Config;
use crate::model::note::{self, Kind, Note};

use super::attempts;
use super::history::{Class, Commit, History, Odb, short};
use super::report::{NoteReport, Problem};
use super::trees::{changed_paths, entry_id, read_blob};

/// Collects the problems of one note commit.
pub(super) struct Finding<'a> {
    commit: &'a Commit,
    problems: &'a mut Vec<Problem>,
}

impl Finding<'_> {
    pub(super) fn at_commit(&mut self, id: &ObjectId, what: String, mend: String) {
        let location = short(id);
        let commit = Some(self.commit.id.to_string());
        self.problems.push(Problem { location, line: None, commit, what, mend });
    }

    pub(super) fn at_line(&mut self, path: &str, line: usize, what: String, mend: String) {
        let commit = Some(self.commit.id.to_string());
        self.problems.push(Problem { location: path.into(), line: Some(line), commit, what, mend });
    }
}

/// Checks one note commit; `None` when `want` names another issue.
pub(super) fn check_note_commit(
    repo: &Odb,
    config: &Config,
    history: &History,
    at: usize,
    message_issue: Option<u64>,
    want: Option<u64>,
    problems: &mut Vec<Problem>,
) -> Result<Option<NoteReport>> {
    let commit = &history.commits[at];
    let dir = config.note_dir();
    let parent = commit.parents.first().copied();
    let held = NoteChange::read(repo, &dir, commit, parent, message_issue)?;
    let note_started = held.note().and_then(|n| n.field("started_at"));
    let note_started = note_started.map(|f| f.value.trim().to_string());
    let issue = message_issue.or(held.file_issue).or(held.note().and_then(Note::issue));
    if want.is_some() && issue != want {
        return Ok(None);
    }
    if held.path.is_none() && message_issue.is_none() {
        // It only deletes notes: a clean-up, not a note commit.
        return Ok(None);
    }
    let before = problems.len();
    let mut find = Finding { commit, problems };
    if message_issue.is_none() {
        find.message_not_a_note_commit(&dir, issue);
    }
    let Some(path) = held.path else {
        find.no_note_file(&dir, held.expected);
        let count = find.problems.len() - before;
        return Ok(Some(note_report(commit, None, issue, None, None, count)));
    };
    find.more_than_the_note(&held.changes, &path);
    find.note_file_name(&dir, &path, message_issue, held.file_issue);
    let kind = match held.parsed {
        Some(parsed) => {
            find.the_note(config, &path, parsed, message_issue, held.file_issue, parent)
        }
        None => None,
    };
    let owner = attempts::Owner { issue, started_at: note_started.as_deref() };
    let later = attempts::later(repo, &dir, history, at, &owner)?;
    let seal = check_above(repo, history, at, &path, &later, &mut find)?;
    let count = find.problems.len() - before;
    Ok(Some(note_report(commit, Some(path), issue, kind, seal, count)))
}

/// What a note commit changes (`changes`), and the note file among them (`path`): the one its
/// message names (`expected`), else the first Markdown file in the note directory, else any file
/// there; the issue the file's name gives, and the note it holds, parsed.
struct NoteChange {
    changes: Vec<(u8, String)>,
    expected: Option<String>,
    path: Option<String>,
    file_issue: Option<u64>,
    parsed: Option<Result<Note, note::Problem>>,
}

impl NoteChange {
    fn read(
        repo: &Odb,
        dir: &str,
        commit: &Commit,
        parent: Option<ObjectId>,
        message_issue: Option<u64>,
    ) -> Result<NoteChange> {
        let changes = changed_paths(repo, parent, commit.id)?;
        let in_dir = |p: &&(u8, String)| p.0 != b'D' && p.1.starts_with(&format!("{dir}/"));
        let expected = message_issue.map(|n| format!("{dir}/{n}.md"));
        let path = changes
            .iter()
            .filter(in_dir)
            .find(|p| Some(&p.1) == expected.as_ref())
            .or_else(|| changes.iter().filter(in_dir).find(|p| p.1.ends_with(".md")))
            .or_else(|| changes.iter().find(|p| in_dir(p)))
            .map(|p| p.1.clone());
        let file_issue = path.as_deref().and_then(|p| {
            let name = p.strip_prefix(&format!("{dir}/"))?;
            note::issue_of_file_name(name)
        });
        let bytes = match &path {
            Some(p) => Some(read_blob(repo, commit.id, p)?),
            None => None,
        };
        let parsed = bytes.as_deref().map(Note::parse);
        Ok(NoteChange { changes, expected, path, file_issue, parsed })
    }

    /// The note, where it parses.
    fn note(&self) -> Option<&Note> {
        self.parsed.as_ref().and_then(|n| n.as_ref().ok())
    }
}

impl Finding<'_> {
    /// The commit changes the note directory, yet its message is not a note commit's.
    fn message_not_a_note_commit(&mut self, dir: &str, issue: Option<u64>) {
        let n = issue.map_or("N".to_string(), |n| n.to_string());
        let subject = self.commit.subject();
        let id = self.commit.id;
        self.at_commit(
            &id,
            format!(
                "commit {subject:?} changes the note directory {dir}/ but its message is not \
                 `Handoff note: issue #{n}`"
            ),
            format!(
                "commit the note alone with the message `Handoff note: issue #{n}` \
                 (`git commit --amend -m \"Handoff note: issue #{n}\"` if this is the note commit)"
            ),
        );
    }

    /// The note commit adds no note file (`expected`, where its message names the issue).
    fn no_note_file(&mut self, dir: &str, expected: Option<String>) {
        let expected = expected.unwrap_or_else(|| format!("{dir}/<issue>.md"));
        let id = self.commit.id;
        self.at_commit(
            &id,
            format!("the note commit adds no note file (expected {expected})"),
            format!("commit the note file {expected} in it, and nothing else"),
        );
    }

    /// The note commit changes more than its note file, `path`.
    fn more_than_the_note(&mut self, changes: &[(u8, String)], path: &str) {
        let others: Vec<&str> =
            changes.iter().map(|p| p.1.as_str()).filter(|p| *p != path).collect();
        if !others.is_empty() {
            let id = self.commit.id;
            self.at_commit(
                &id,
                format!("the note commit also changes {}", others.join(", ")),
                "a note commit changes only the note file: commit the other changes in a work \
                 commit below it (`git reset --soft HEAD~1`, commit the work, then the note)"
                    .into(),
            );
        }
    }

    /// The note file is `<dir>/<issue>.md`, the issue the message names.
    fn note_file_name(
        &mut self,
        dir: &str,
        path: &str,
        message_issue: Option<u64>,
        file_issue: Option<u64>,
    ) {
        if file_issue.is_none()
            || path.strip_prefix(&format!("{dir}/")).is_none_or(|n| n.contains('/'))
        {
            self.at_line(
                path,
                1,
                format!("the note file is not named {dir}/<issue>.md"),
                format!("move it to {dir}/<issue>.md, <issue> being the issue number"),
            );
        }
        if let (Some(m), Some(f)) = (message_issue, file_issue)
            && m != f
        {
            let id = self.commit.id;
            self.at_commit(
                &id,
                format!("the commit message names issue #{m} but the note file is {path}"),
                format!("commit {dir}/{m}.md, or make the message `Handoff note: issue #{f}`"),
            );
        }
    }

    /// The note at `path` parses, passes its check, names the issue the message names, and its
    /// `last_work_commit` is the commit's first parent; returns its kind where it parses.
    fn the_note(
        &mut self,
        config: &Config,
        path: &str,
        parsed: Result<Note, note::Problem>,
        message_issue: Option<u64>,
        file_issue: Option<u64>,
        parent: Option<ObjectId>,
    ) -> Option<Kind> {
        let note = match parsed {
            Err(p) => {
                self.at_line(path, p.line, p.what, p.mend);
                return None;
            }
            Ok(note) => note,
        };
        for p in note.check(config, file_issue) {
            self.at_line(path, p.line, p.what, p.mend);
        }
        if let (Some(m), Some(h)) = (message_issue, note.issue())
            && m != h
            && file_issue.is_none_or(|f| f == h)
        {
            let id = self.commit.id;
            self.at_commit(
                &id,
                format!("the commit message names issue #{m} but the note says issue {h}"),
                format!("make the message `Handoff note: issue #{h}` or fix the note"),
            );
        }
        check_last_work_commit(&note, path, parent, self);
        Some(note.kind())
    }
}

pub(super) fn note_report(
    commit: &Commit,
    path: Option<String>,
    issue: Option<u64>,
    kind: Option<Kind>,
    seal: Option<ObjectId>,
    problems: usize,
) -> NoteReport {
    NoteReport {
        commit: commit.id.to_string(),
        path,
        issue,
        kind,
        seal: seal.map(|s| s.to_string()),
        problems,
    }
}

pub(super) fn check_last_work_commit(
    note: &Note,
    path: &str,
    parent: Option<ObjectId>,
    find: &mut Finding,
) {
    let Some(field) = note.field("last_work_commit") else { return };
    if !note::is_full_hex(&field.value) {
        return; // already reported by the note check
    }
    match parent {
        None => find.at_line(
            path,
            field.line,
            "the note commit has no parent, so no commit can be its last work commit".into(),
            "commit the note on top of the work (or the base), not as a root commit".into(),
        ),
        Some(parent) if ObjectId::from_hex(field.value.as_bytes()).ok() != Some(parent) => find
            .at_line(
                path,
                field.line,
                format!(
                    "last_work_commit is {} but the note commit's first parent is {parent}",
                    field.value
                ),
                format!(
                    "set `last_work_commit: {parent}` (the last work commit, the base, or the seal \
                 below the note), or commit the note directly on top of {}",
                    crate::util::text::short_id(&field.value)
                ),
            ),
        Some(_) => {}
    }
}

/// Checks what sits above the note commit; returns the seal above it, if it is one.
pub(super) fn check_above(
    repo: &Odb,
    history: &History,
    at: usize,
    path: &str,
    later: &std::collections::HashSet<usize>,
    find: &mut Finding,
) -> Result<Option<ObjectId>> {
    let note_id = history.commits[at].id;
    // The issue the note is for, from its file name (`.agent/handoff/7.md`), for the advice.
    let issue = path.rsplit('/').next().and_then(|f| f.strip_suffix(".md")).unwrap_or("N");
    let issue = if issue.bytes().all(|b| b.is_ascii_digit()) { issue } else { "N" };
    let above = history.above(at);
    let mut seal = None;
    for &n in above.iter().filter(|n| !later.contains(n)) {
        let commit = &history.commits[n];
        let is_seal = commit.class == Class::Seal;
        if is_seal && seal.is_none() && commit.parents.first() == Some(&note_id) {
            seal = Some(commit.id);
            if entry_id(repo, commit.id, path)? != entry_id(repo, note_id, path)? {
                find.at_commit(
                    &commit.id,
                    format!("the seal commit above the note changes the note file {path}"),
                    format!(
                        "a seal must not touch the note: take {path} out of the seal \
                         (`git reset --soft HEAD~1`, `git restore --staged -- {}`, commit again)",
                        crate::util::shell::quote(path)
                    ),
                );
            }
            continue;
        }
        let what = if is_seal {
            format!(
                "a second seal commit {:?} sits above the note commit {}",
                commit.subject(),
                short(&note_id)
            )
        } else {
            format!(
                "commit {:?} sits above the note commit {} (work committed after the note)",
                commit.subject(),
                short(&note_id)
            )
        };
        find.at_commit(
            &commit.id,
            what,
            format!(
                "only one seal commit may follow a note. New work after a handoff is the next \
                 attempt's: begin it from the note (`git handoff start --issue {issue} --base \
                 {note}`), then hand it off (`git handoff seal`, then `git handoff note`, or \
                 `git handoff note --emergency --reason agent_request`); or move this commit \
                 below the note (`git rebase -i {note}~1`)",
                note = short(&note_id),
            ),
        );
    }
    Ok(seal)
}
