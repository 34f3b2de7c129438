//! Key objects: the small blobs whose content names an issue (`git-handoff issue 179`) or a branch
//! (`git-handoff branch refs/heads/x`), on which every record is also stored, so the latest
//! handoff of an issue or branch is one notes lookup.

use anyhow::{Context, Result};
use gix::ObjectId;

use crate::git::repo::Repo;

/// What a key object stands for.
pub enum Key<'a> {
    Issue(u64),
    Branch(&'a str),
    /// A commit on which an attempt began (see [`super::begun`]).
    Begun(ObjectId),
}

impl Key<'_> {
    fn content(&self) -> String {
        match self {
            Key::Issue(n) => format!("git-handoff issue {n}\n"),
            Key::Branch(name) => format!("git-handoff branch {name}\n"),
            Key::Begun(commit) => format!("git-handoff attempt began on {commit}\n"),
        }
    }

    /// The id of the key object (a blob) in this repository's hash, without writing it.
    pub fn id(&self, repo: &Repo) -> Result<ObjectId> {
        let content = self.content();
        gix::objs::compute_hash(repo.gix.object_hash(), gix::objs::Kind::Blob, content.as_bytes())
            .context("hashing a record key")
    }

    pub(super) fn write(&self, repo: &Repo) -> Result<ObjectId> {
        Ok(repo.gix.write_blob(self.content().as_bytes()).context("writing a record key")?.detach())
    }
}
