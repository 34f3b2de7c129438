//! The object reader a repository lends to each step of a command in turn (`Repo::objects`), with
//! the commits it read: recall's steps (the walk to the note, the note's file, its seal, what
//! happened since) each made a reader of their own, and read HEAD and the note commit again in
//! each.

use std::ops::{Deref, DerefMut};
use std::sync::{Mutex, PoisonError};

use anyhow::Result;
use gix::ObjectId;

use crate::git::walk::{Commit, Objects};

/// What a repository keeps between two loans: the reader, and the commits read through
/// [`Lent::commit`], newest last.
pub struct Kept {
    objects: Objects,
    commits: Vec<(ObjectId, Commit)>,
}

/// An object reader lent by a repository, given back when dropped. A second one asked for while
/// one is out is made anew; the last given back is kept.
pub struct Lent<'r> {
    kept: Option<Kept>,
    home: &'r Mutex<Option<Kept>>,
}

impl<'r> Lent<'r> {
    /// How many commits are kept: recall reads HEAD, the note commit and the commits between them
    /// in three or four of its steps.
    const COMMITS: usize = 8;

    /// The reader kept in `home`, else the one `make` makes.
    pub(super) fn from(home: &'r Mutex<Option<Kept>>, make: impl FnOnce() -> Objects) -> Self {
        let kept = home.lock().unwrap_or_else(PoisonError::into_inner).take();
        let kept = kept.unwrap_or_else(|| Kept { objects: make(), commits: Vec::new() });
        Lent { kept: Some(kept), home }
    }

    fn kept(&mut self) -> &mut Kept {
        self.kept.as_mut().expect("a lent reader is only taken when dropped")
    }

    /// [`Objects::commit`], the last few read kept (a commit never changes under its id).
    pub fn commit(&mut self, id: ObjectId) -> Result<Commit> {
        let kept = self.kept();
        if let Some((_, commit)) = kept.commits.iter().find(|(at, _)| *at == id) {
            return Ok(commit.clone());
        }
        let commit = kept.objects.commit(id)?;
        if kept.commits.len() == Self::COMMITS {
            kept.commits.remove(0);
        }
        kept.commits.push((id, commit.clone()));
        Ok(commit)
    }
}

impl Deref for Lent<'_> {
    type Target = Objects;

    fn deref(&self) -> &Objects {
        &self.kept.as_ref().expect("a lent reader is only taken when dropped").objects
    }
}

impl DerefMut for Lent<'_> {
    fn deref_mut(&mut self) -> &mut Objects {
        &mut self.kept().objects
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let Some(kept) = self.kept.take() {
            *self.home.lock().unwrap_or_else(PoisonError::into_inner) = Some(kept);
        }
    }
}
