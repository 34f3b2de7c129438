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
//! which commits change the note directory. The few note commits and seals are then read with
//! gix: their changed files (a tree comparison, as `git diff-tree -r --no-renames`) and the note's
//! bytes.

use std::collections::HashMap;
use std::fmt;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;
use serde::Serialize;

use crate::git::repo::Repo;
use crate::git::walk;
use crate::model::config::Config;
use crate::model::note::{self, Kind, Note};

/// The object database view the validator reads through (a clone with a delta-base cache).
type Odb = gix::Repository;

/// The trailer key that marks a seal commit.
pub const SEAL_TRAILER: &str = "Handoff-Seal";

/// Which commits to look at: reachable from `include`, and from none of `exclude` nor of the
/// remote-tracking refs of `exclude_remotes` (as `git rev-list <include> --not <exclude>
/// --remotes=<name>`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Range {
    pub include: Vec<ObjectId>,
    pub exclude: Vec<ObjectId>,
    pub exclude_remotes: Vec<String>,
}

/// One problem: `<location>:<line>: <what> — <mend>`. `location` is the note's path for problems
/// inside a note, else the commit's short id; `commit` is always the full id of the commit checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub location: String,
    pub line: Option<usize>,
    pub commit: Option<String>,
    pub what: String,
    pub mend: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {} — {}", self.location, self.what, self.mend),
            None => write!(f, "{}: {} — {}", self.location, self.what, self.mend),
        }
    }
}

/// One note commit that was checked.
#[derive(Debug, Clone, Serialize)]
pub struct NoteReport {
    pub commit: String,
    pub path: Option<String>,
    pub issue: Option<u64>,
    pub kind: Option<Kind>,
    /// The seal commit above the note, if any.
    pub seal: Option<String>,
    pub problems: usize,
}

/// The outcome of a validation.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub ok: bool,
    /// How many commits the range held.
    pub commits: usize,
    pub notes: Vec<NoteReport>,
    pub problems: Vec<Problem>,
}

/// A note commit found in a range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteCommit {
    pub id: ObjectId,
    /// The issue its message names (`Handoff note: issue #N`), if it does.
    pub message_issue: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Note(Option<u64>),
    Seal,
    Other,
}

struct Commit {
    id: ObjectId,
    parents: Vec<ObjectId>,
    subject: String,
    class: Class,
}

/// The commits of a range, parents before children.
struct History {
    commits: Vec<Commit>,
    index: HashMap<ObjectId, usize>,
}

/// The note commits in `range`, oldest first, without checking them (for `note`: "does a note
/// commit for this attempt exist?").
pub fn find_note_commits(repo: &Repo, config: &Config, range: &Range) -> Result<Vec<NoteCommit>> {
    let odb = walk::with_delta_cache(&repo.gix);
    let history = History::load(repo, &odb, config, range)?;
    Ok(history
        .commits
        .iter()
        .filter_map(|c| match c.class {
            Class::Note(issue) => Some(NoteCommit { id: c.id, message_issue: issue }),
            _ => None,
        })
        .collect())
}

/// Checks every note commit in `range` (only those of `issue` when given) and their layout.
pub fn validate(repo: &Repo, config: &Config, range: &Range, issue: Option<u64>) -> Result<Report> {
    let odb = walk::with_delta_cache(&repo.gix);
    let history = History::load(repo, &odb, config, range)?;
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

impl History {
    /// Lists the range in-process ([`walk::range`]): ids, parents, messages, and which commits
    /// change the note directory. `odb` is the repository handle with a delta-base cache.
    fn load(repo: &Repo, odb: &gix::Repository, config: &Config, range: &Range) -> Result<History> {
        if range.include.is_empty() {
            return Ok(History { commits: Vec::new(), index: HashMap::new() });
        }
        let mut exclude = range.exclude.clone();
        for remote in &range.exclude_remotes {
            exclude.extend(remote_tracking_commits(repo, remote)?);
        }
        let listed = walk::range(odb, &range.include, &exclude, &config.note_dir())
            .context("listing the commits to validate")?;
        let mut commits = Vec::with_capacity(listed.len());
        let mut index = HashMap::with_capacity(listed.len());
        for walk::Listed { id, parents, message, touches } in listed {
            let message = message.to_str_lossy();
            let class = if parents.len() > 1 {
                Class::Other
            } else if let Some(issue) = note::issue_of_commit_message(&message) {
                Class::Note(Some(issue))
            } else if is_seal_message(&message) {
                Class::Seal
            } else if touches == Some(true) {
                Class::Note(None)
            } else {
                Class::Other
            };
            let subject = message.lines().next().unwrap_or("").trim().to_string();
            index.insert(id, commits.len());
            commits.push(Commit { id, parents, subject, class });
        }
        Ok(History { commits, index })
    }

    /// The commits of the range that have `at` as an ancestor, in history order.
    fn above(&self, at: usize) -> Vec<usize> {
        let mut is_above = vec![false; self.commits.len()];
        let mut out = Vec::new();
        let root = self.commits[at].id;
        for (n, commit) in self.commits.iter().enumerate().skip(at + 1) {
            let hit = commit
                .parents
                .iter()
                .any(|p| *p == root || self.index.get(p).is_some_and(|&i| is_above[i]));
            if hit {
                is_above[n] = true;
                out.push(n);
            }
        }
        out
    }
}

/// The commits the remote-tracking refs of `remote` point at (`--remotes=<remote>`: every ref
/// under `refs/remotes/<remote>/`, tags peeled, anything that is not a commit skipped).
fn remote_tracking_commits(repo: &Repo, remote: &str) -> Result<Vec<ObjectId>> {
    let what = || format!("listing the remote-tracking refs of {remote}");
    let platform = repo.gix.references().with_context(what)?;
    let mut ids = Vec::new();
    for reference in
        platform.prefixed(format!("refs/remotes/{remote}/").as_str()).with_context(what)?
    {
        // A broken ref is git's to report; it excludes nothing.
        let Ok(mut reference) = reference else { continue };
        let Ok(id) = reference.peel_to_id() else { continue };
        if let Some(commit) = repo.commit_of(id.detach()) {
            ids.push(commit);
        }
    }
    Ok(ids)
}

/// True when the message's last paragraph holds a `Handoff-Seal:` trailer.
pub fn is_seal_message(message: &str) -> bool {
    let trimmed = message.trim_end();
    let last = trimmed.rsplit("\n\n").next().unwrap_or(trimmed);
    last.lines().any(|line| {
        line.split_once(':').is_some_and(|(key, _)| key.trim().eq_ignore_ascii_case(SEAL_TRAILER))
    })
}

fn short(id: &ObjectId) -> String {
    id.to_hex_with_len(12).to_string()
}

/// Collects the problems of one note commit.
struct Finding<'a> {
    commit: &'a Commit,
    problems: &'a mut Vec<Problem>,
}

impl Finding<'_> {
    fn at_commit(&mut self, id: &ObjectId, what: String, mend: String) {
        let location = short(id);
        let commit = Some(self.commit.id.to_string());
        self.problems.push(Problem { location, line: None, commit, what, mend });
    }

    fn at_line(&mut self, path: &str, line: usize, what: String, mend: String) {
        let commit = Some(self.commit.id.to_string());
        self.problems.push(Problem { location: path.into(), line: Some(line), commit, what, mend });
    }
}

/// Checks one note commit; `None` when `want` names another issue.
fn check_note_commit(
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
    let header_issue = parsed.as_ref().and_then(|n| n.as_ref().ok()).and_then(Note::issue);
    let issue = message_issue.or(file_issue).or(header_issue);
    if want.is_some() && issue != want {
        return Ok(None);
    }
    if path.is_none() && message_issue.is_none() {
        // It only deletes notes: a clean-up, not a note commit.
        return Ok(None);
    }
    let before = problems.len();
    let mut find = Finding { commit, problems };
    let id = commit.id;

    if message_issue.is_none() {
        let n = issue.map_or("N".to_string(), |n| n.to_string());
        find.at_commit(
            &id,
            format!(
                "commit {:?} changes the note directory {dir}/ but its message is not \
                 `Handoff note: issue #{n}`",
                commit.subject
            ),
            format!(
                "commit the note alone with the message `Handoff note: issue #{n}` \
                 (`git commit --amend -m \"Handoff note: issue #{n}\"` if this is the note commit)"
            ),
        );
    }
    let Some(path) = path else {
        let expected = expected.unwrap_or_else(|| format!("{dir}/<issue>.md"));
        find.at_commit(
            &id,
            format!("the note commit adds no note file (expected {expected})"),
            format!("commit the note file {expected} in it, and nothing else"),
        );
        return Ok(Some(note_report(
            commit,
            None,
            issue,
            None,
            None,
            find.problems.len() - before,
        )));
    };
    let others: Vec<&str> =
        changes.iter().map(|p| p.1.as_str()).filter(|p| *p != path.as_str()).collect();
    if !others.is_empty() {
        find.at_commit(
            &id,
            format!("the note commit also changes {}", others.join(", ")),
            "a note commit changes only the note file: commit the other changes in a work commit \
             below it (`git reset --soft HEAD~1`, commit the work, then the note)"
                .into(),
        );
    }
    if file_issue.is_none() || path.strip_prefix(&format!("{dir}/")).is_none_or(|n| n.contains('/'))
    {
        find.at_line(
            &path,
            1,
            format!("the note file is not named {dir}/<issue>.md"),
            format!("move it to {dir}/<issue>.md, <issue> being the issue number"),
        );
    }
    if let (Some(m), Some(f)) = (message_issue, file_issue)
        && m != f
    {
        find.at_commit(
            &id,
            format!("the commit message names issue #{m} but the note file is {path}"),
            format!("commit {dir}/{m}.md, or make the message `Handoff note: issue #{f}`"),
        );
    }

    let mut kind = None;
    match parsed {
        Some(Err(p)) => find.at_line(&path, p.line, p.what, p.mend),
        Some(Ok(note)) => {
            kind = Some(note.kind());
            for p in note.check(config, file_issue) {
                find.at_line(&path, p.line, p.what, p.mend);
            }
            if let (Some(m), Some(h)) = (message_issue, note.issue())
                && m != h
                && file_issue.is_none_or(|f| f == h)
            {
                find.at_commit(
                    &id,
                    format!("the commit message names issue #{m} but the note says issue {h}"),
                    format!("make the message `Handoff note: issue #{h}` or fix the note"),
                );
            }
            check_last_work_commit(&note, &path, parent, &mut find);
        }
        None => {}
    }
    let seal = check_above(repo, history, at, &path, &mut find)?;
    let count = find.problems.len() - before;
    Ok(Some(note_report(commit, Some(path), issue, kind, seal, count)))
}

fn note_report(
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

fn check_last_work_commit(note: &Note, path: &str, parent: Option<ObjectId>, find: &mut Finding) {
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
                    crate::cli::output::short_id(&field.value)
                ),
            ),
        Some(_) => {}
    }
}

/// Checks what sits above the note commit; returns the seal above it, if it is one.
fn check_above(
    repo: &Odb,
    history: &History,
    at: usize,
    path: &str,
    find: &mut Finding,
) -> Result<Option<ObjectId>> {
    let note_id = history.commits[at].id;
    let above = history.above(at);
    let mut seal = None;
    for &n in &above {
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
                         (`git reset --soft HEAD~1`, `git restore --staged {path}`, commit again)"
                    ),
                );
            }
            continue;
        }
        let what = if is_seal {
            format!(
                "a second seal commit {:?} sits above the note commit {}",
                commit.subject,
                short(&note_id)
            )
        } else {
            format!(
                "commit {:?} sits above the note commit {} (work committed after the note)",
                commit.subject,
                short(&note_id)
            )
        };
        find.at_commit(
            &commit.id,
            what,
            format!(
                "only one seal commit may follow a note: move this commit below the note \
                 (`git rebase -i {}~1`), or write a new note on top of it",
                short(&note_id)
            ),
        );
    }
    Ok(seal)
}

/// The paths a commit changes against its first parent (all of them for a root commit), with a
/// status letter (`A`, `D`, `M`), as `git diff-tree -r --no-renames` lists them.
fn changed_paths(repo: &Odb, parent: Option<ObjectId>, id: ObjectId) -> Result<Vec<(u8, String)>> {
    let tree_of = |c: ObjectId| -> Result<ObjectId> {
        Ok(repo.find_commit(c)?.tree_id().with_context(|| format!("reading {c}"))?.detach())
    };
    let old = parent.map(tree_of).transpose()?;
    let mut changes = Vec::new();
    diff_trees(repo, old, Some(tree_of(id)?), "", &mut changes)
        .with_context(|| format!("listing the files of {id}"))?;
    changes.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(changes)
}

type Entries = std::collections::BTreeMap<Vec<u8>, (gix::object::tree::EntryMode, ObjectId)>;

fn tree_entries(repo: &Odb, tree: Option<ObjectId>) -> Result<Entries> {
    let mut entries = Entries::new();
    if let Some(tree) = tree {
        let tree = repo.find_tree(tree)?;
        for entry in tree.decode()?.entries {
            entries.insert(entry.filename.to_vec(), (entry.mode, entry.oid.to_owned()));
        }
    }
    Ok(entries)
}

/// Recursively compares two trees (`None` is the empty tree) and collects changed blob paths.
fn diff_trees(
    repo: &Odb,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    prefix: &str,
    out: &mut Vec<(u8, String)>,
) -> Result<()> {
    let (old, new) = (tree_entries(repo, old)?, tree_entries(repo, new)?);
    let names: std::collections::BTreeSet<&Vec<u8>> = old.keys().chain(new.keys()).collect();
    for name in names {
        let path = format!("{prefix}{}", name.to_str_lossy());
        let (a, b) = (old.get(name), new.get(name));
        if a == b {
            continue;
        }
        let subtree = |e: Option<&(gix::object::tree::EntryMode, ObjectId)>| {
            e.filter(|(mode, _)| mode.is_tree()).map(|(_, id)| *id)
        };
        let leaf = |e: Option<&(gix::object::tree::EntryMode, ObjectId)>| {
            e.filter(|(mode, _)| !mode.is_tree()).map(|(_, id)| *id)
        };
        if subtree(a).is_some() || subtree(b).is_some() {
            diff_trees(repo, subtree(a), subtree(b), &format!("{path}/"), out)?;
        }
        match (leaf(a), leaf(b)) {
            (None, None) => {}
            (None, Some(_)) => out.push((b'A', path)),
            (Some(_), None) => out.push((b'D', path)),
            (Some(_), Some(_)) => out.push((b'M', path)),
        }
    }
    Ok(())
}

/// The object id at `path` in a commit's tree.
fn entry_id(repo: &Odb, commit: ObjectId, path: &str) -> Result<Option<ObjectId>> {
    let tree = repo
        .find_commit(commit)
        .and_then(|c| c.tree())
        .with_context(|| format!("reading the tree of {commit}"))?;
    let entry = tree
        .lookup_entry_by_path(path)
        .with_context(|| format!("looking up {path} in {commit}"))?;
    Ok(entry.map(|e| e.object_id()))
}

/// The content of the blob at `path` in a commit.
fn read_blob(repo: &Odb, commit: ObjectId, path: &str) -> Result<Vec<u8>> {
    let Some(id) = entry_id(repo, commit, path)? else {
        bail!("{path} is not in commit {commit}, though git diff-tree listed it");
    };
    let object = repo.find_object(id).with_context(|| format!("reading {path} in {commit}"))?;
    Ok(object.data.clone())
}

/// Pre-push mode: which commits a push would add.
pub mod pre_push {
    use super::*;

    /// The range a push adds, from git's pre-push stdin (`<local ref> <local oid> <remote ref>
    /// <remote oid>` lines). Deletions add nothing; a new branch (all-zero remote oid) adds what
    /// no remote-tracking ref of `remote` already has.
    pub fn range_from_stdin(repo: &Repo, remote: Option<&str>, stdin: &str) -> Result<Range> {
        let mut range = Range::default();
        for (n, line) in stdin.lines().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let [_, local, _, remote_oid] = words[..] else {
                bail!(
                    "pre-push input line {}: {line:?} is not `<local ref> <local oid> <remote ref> \
                     <remote oid>`; run this as git's pre-push hook (`git handoff hooks install \
                     --pre-push`)",
                    n + 1
                );
            };
            let local = oid(local, n + 1)?;
            let remote_oid = oid(remote_oid, n + 1)?;
            // A deletion adds nothing; a pushed tag of a tree or blob adds no commits.
            let Some(local) = repo.commit_of(local) else { continue };
            range.include.push(local);
            if let Some(remote) = repo.commit_of(remote_oid) {
                range.exclude.push(remote);
            }
        }
        exclude_remote(repo, remote, &mut range);
        Ok(range)
    }

    /// The range from the pre-commit framework's `PRE_COMMIT_FROM_REF`/`PRE_COMMIT_TO_REF`, when
    /// `PRE_COMMIT_TO_REF` is set.
    pub fn range_from_env(
        repo: &Repo,
        remote: Option<&str>,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<Option<Range>> {
        let Some(to) = to.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
        let mut range = Range::default();
        if is_all_zeros(to) {
            return Ok(Some(range));
        }
        range.include.push(repo.resolve_commit(to).context("PRE_COMMIT_TO_REF")?);
        if let Some(from) = from.map(str::trim).filter(|f| !f.is_empty() && !is_all_zeros(f))
            && let Ok(id) = repo.resolve_commit(from)
        {
            range.exclude.push(id);
        }
        exclude_remote(repo, remote, &mut range);
        Ok(Some(range))
    }

    fn exclude_remote(repo: &Repo, remote: Option<&str>, range: &mut Range) {
        if range.include.is_empty() {
            return;
        }
        // Only a configured remote has remote-tracking refs; a URL would be read as a pattern.
        // A push to a URL or a remote never fetched adds what that remote lacks, which may be all
        // history: that is what the push sends, so that is what is checked.
        if let Some(name) = remote
            && repo.gix.remote_names().iter().any(|r| r.to_str_lossy() == name)
        {
            range.exclude_remotes.push(name.to_string());
        }
    }

    fn oid(text: &str, line: usize) -> Result<ObjectId> {
        if is_all_zeros(text) {
            return Ok(ObjectId::null(gix::hash::Kind::Sha1));
        }
        ObjectId::from_hex(text.as_bytes())
            .map_err(|_| anyhow!("pre-push input line {line}: {text:?} is not an object id"))
    }

    /// All-zero object ids mean "none", in SHA-1 (40) or SHA-256 (64) repositories alike.
    pub fn is_all_zeros(text: &str) -> bool {
        !text.is_empty() && text.bytes().all(|b| b == b'0')
    }
}
