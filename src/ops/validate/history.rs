//! The range as the checks read it: its commits, parents before children, each classed as a
//! note commit, a seal or other work, and the objects they read (see the `validate` module).

use anyhow::{Context, Result, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::git::repo::Repo;
use crate::git::walk;
use crate::model::config::Config;
use crate::model::note;
use crate::model::seal_message::{is_seal_message, seal_started_at};

use super::report::Range;

/// The objects the checks read: packed and loose ones read plainly, anything else through gix.
/// Commits and trees are kept once read: the checks of one note read its commit and the trees
/// down to the note several times over (its changes, its blob, the commits above it).
pub struct Odb {
    pub objects: std::cell::RefCell<walk::Objects>,
    pub kept: std::cell::RefCell<gix::hashtable::HashMap<ObjectId, (gix::object::Kind, Vec<u8>)>>,
}

impl Odb {
    /// The object `id`, which must be a `kind`.
    pub fn read(&self, id: ObjectId, kind: gix::object::Kind) -> Result<Vec<u8>> {
        let (found, data) = self.read_any(id)?;
        if found != kind {
            bail!("object {id} is a {found}, not a {kind}");
        }
        Ok(data)
    }

    /// Larger trees are read again when asked for again.
    const MAX_KEPT: usize = 1 << 16;

    pub fn new(objects: walk::Objects) -> Odb {
        Odb { objects: objects.into(), kept: Default::default() }
    }

    /// The object `id` and its type.
    pub fn read_any(&self, id: ObjectId) -> Result<(gix::object::Kind, Vec<u8>)> {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Note(Option<u64>),
    Seal,
    Other,
}

pub struct Commit {
    pub id: ObjectId,
    pub parents: walk::Parents<ObjectId>,
    /// The message, made UTF-8 (lossily) for quoting in problems.
    pub message: String,
    pub class: Class,
    /// A seal's `Handoff-Seal:` trailer: the `started_at` of its attempt.
    pub started_at: Option<String>,
}

impl Commit {
    /// The first line of the message.
    pub fn subject(&self) -> &str {
        self.message.lines().next().unwrap_or("").trim()
    }
}

/// The commits of a range, parents before children.
pub struct History {
    pub commits: Vec<Commit>,
    pub index: gix::hashtable::HashMap<ObjectId, usize>,
    /// Where this worktree began its attempts ([`attempts::bases`]), for telling a later attempt's
    /// commits from work committed after a note.
    pub bases: Vec<ObjectId>,
}

impl History {
    /// Lists the range in-process ([`walk::range`]): ids, parents, messages, and which commits
    /// change the note directory. `odb` is the repository handle with a delta-base cache. Also
    /// gives back the walk's reader of the newest trees ([`walk::Walked::objects`]).
    pub fn load(
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
    pub fn above(&self, at: usize) -> Vec<usize> {
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
pub fn remote_tracking_commits(repo: &Repo, remote: &str) -> Result<Vec<ObjectId>> {
    let what = || format!("listing the remote-tracking refs of {remote}");
    let platform = repo.gix().references().with_context(what)?;
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

pub fn short(id: &ObjectId) -> String {
    id.to_hex_with_len(12).to_string()
}
