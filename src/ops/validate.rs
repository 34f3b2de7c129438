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

use std::fmt;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;
use serde::Serialize;

use crate::git::repo::Repo;
use crate::git::walk;
use crate::model::config::Config;
use crate::model::note::{self, Kind, Note};
use crate::model::seal_message::{is_seal_message, seal_started_at};
use layout::check_note_commit;

/// The objects the checks read: packed and loose ones read plainly, anything else through gix.
/// Commits and trees are kept once read: the checks of one note read its commit and the trees
/// down to the note several times over (its changes, its blob, the commits above it).
struct Odb {
    objects: std::cell::RefCell<walk::Objects>,
    kept: std::cell::RefCell<gix::hashtable::HashMap<ObjectId, (gix::object::Kind, Vec<u8>)>>,
}

impl Odb {
    /// The object `id`, which must be a `kind`.
    fn read(&self, id: ObjectId, kind: gix::object::Kind) -> Result<Vec<u8>> {
        let (found, data) = self.read_any(id)?;
        if found != kind {
            bail!("object {id} is a {found}, not a {kind}");
        }
        Ok(data)
    }

    /// Larger trees are read again when asked for again.
    const MAX_KEPT: usize = 1 << 16;

    fn new(objects: walk::Objects) -> Odb {
        Odb { objects: objects.into(), kept: Default::default() }
    }

    /// The object `id` and its type.
    fn read_any(&self, id: ObjectId) -> Result<(gix::object::Kind, Vec<u8>)> {
        if let Some((kind, data)) = self.kept.borrow().get(&id) {
            return Ok((*kind, data.clone()));
        }
        let mut data = Vec::new();
        let found = self.objects.borrow_mut().read(id, &mut data)?;
        let keep = matches!(found, gix::object::Kind::Commit | gix::object::Kind::Tree);
        if keep && data.len() <= Self::MAX_KEPT {
            self.kept.borrow_mut().insert(id, (found, data.clone()));
        }
        Ok((found, data))
    }
}

mod attempts;
mod layout;
mod trees;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Note(Option<u64>),
    Seal,
    Other,
}

struct Commit {
    id: ObjectId,
    parents: walk::Parents<ObjectId>,
    /// The message, made UTF-8 (lossily) for quoting in problems.
    message: String,
    class: Class,
    /// A seal's `Handoff-Seal:` trailer: the `started_at` of its attempt.
    started_at: Option<String>,
}

impl Commit {
    /// The first line of the message.
    fn subject(&self) -> &str {
        self.message.lines().next().unwrap_or("").trim()
    }
}

/// The commits of a range, parents before children.
struct History {
    commits: Vec<Commit>,
    index: gix::hashtable::HashMap<ObjectId, usize>,
    /// Where this worktree began its attempts ([`attempts::bases`]), for telling a later attempt's
    /// commits from work committed after a note.
    bases: Vec<ObjectId>,
}

/// Checks every note commit in `range` (only those of `issue` when given) and their layout.
pub fn validate(repo: &Repo, config: &Config, range: &Range, issue: Option<u64>) -> Result<Report> {
    // gix, for what the readers leave to it, with a delta-base cache.
    let cached = walk::with_delta_cache(&repo.gix);
    let (mut history, objects) = History::load(repo, &cached, config, range)?;
    // The walk's reader of the newest trees, its cache warm with the note commit's.
    let objects = objects.unwrap_or_else(|| walk::Objects::new(&cached, repo.sources()));
    let odb = Odb::new(objects);
    history.bases = attempts::bases(repo);
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
    /// change the note directory. `odb` is the repository handle with a delta-base cache. Also
    /// gives back the walk's reader of the newest trees ([`walk::Walked::objects`]).
    fn load(
        repo: &Repo,
        odb: &gix::Repository,
        config: &Config,
        range: &Range,
    ) -> Result<(History, Option<walk::Objects>)> {
        if range.include.is_empty() {
            let empty =
                History { commits: Vec::new(), index: Default::default(), bases: Vec::new() };
            return Ok((empty, None));
        }
        let mut exclude = range.exclude.clone();
        for remote in &range.exclude_remotes {
            exclude.extend(remote_tracking_commits(repo, remote)?);
        }
        let walk::Walked { commits: listed, objects } =
            walk::range_in(odb, repo.sources(), &range.include, &exclude, &config.note_dir())
                .context("listing the commits to validate")?;
        let mut commits = Vec::with_capacity(listed.len());
        let mut index =
            gix::hashtable::HashMap::with_capacity_and_hasher(listed.len(), Default::default());
        for walk::Listed { id, parents, message, touches } in listed {
            let message = String::from_utf8(message)
                .unwrap_or_else(|err| err.into_bytes().to_str_lossy().into_owned());
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
            let started_at = (class == Class::Seal).then(|| seal_started_at(&message)).flatten();
            index.insert(id, commits.len());
            commits.push(Commit { id, parents, message, class, started_at });
        }
        Ok((History { commits, index, bases: Vec::new() }, objects))
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
        // Symbolic refs followed here and objects peeled by `commit_of`, which reads them
        // without gix's object store (see `Repo::objects`).
        let mut id = None;
        for _ in 0..5 {
            match reference.target().try_id() {
                Some(target) => {
                    id = Some(target.to_owned());
                    break;
                }
                None => match reference.follow() {
                    Some(Ok(next)) => reference = next,
                    _ => break,
                },
            }
        }
        if let Some(commit) = id.and_then(|id| repo.commit_of(id)) {
            ids.push(commit);
        }
    }
    Ok(ids)
}

fn short(id: &ObjectId) -> String {
    id.to_hex_with_len(12).to_string()
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

    /// The range of a push the pre-commit framework describes without FROM/TO: a first push (the
    /// remote has no ref yet, the root commit is included). pre-commit then passes only the local
    /// branch, and its hooks get an empty stdin; what the push adds is the local branch less what
    /// `remote` already has (`<local> --not --remotes=<remote>`), as the plain hook computes it.
    pub fn range_from_local_branch(
        repo: &Repo,
        remote: Option<&str>,
        local: &str,
    ) -> Result<Range> {
        let local = local.trim();
        let id = repo.resolve_commit(local).with_context(|| {
            format!(
                "PRE_COMMIT_LOCAL_BRANCH names {local:?}, which is not a commit here; run this \
                 from the pre-commit framework's pre-push stage"
            )
        })?;
        let mut range = Range { include: vec![id], ..Range::default() };
        exclude_remote(repo, remote, &mut range);
        Ok(range)
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
