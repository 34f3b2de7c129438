//! Sealing the work tree as one commit: `git add -A` on a private index under the held
//! `index.lock`, the secrets guard over what it staged, the tree and commit written, HEAD moved
//! with a compare-and-swap, and only then the private index swapped in (see the `seal` module).

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;

use super::filtered;
use super::git_config::{commits_in_utf8, fsync_as_default, sparse_checkout};
use super::lock::{IndexLock, index_path, refuse_in_progress};
use super::prescan::{Adding, Prescanned};
use super::quarantine::Quarantine;
use super::scan::{Objects, find_secrets};
use super::stage::{Change, Stage, refuse_conflicts};
use crate::git::Git;
use crate::git::identity::{IdentityEnv, identity_and_idents};
use crate::git::plumbing::{commit_tree, move_head, undo_head, write_commit};
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::redact::Redactor;
use crate::util::interrupt::Interrupt;

use super::guard::Guard;
use super::request::{Request, Sealed, Skipped, commit_message};
use super::{changes, tree};

/// What would make [`seal`] refuse before it changes anything: an empty message, a merge or
/// rebase in progress, another process holding `index.lock`, unmerged entries. `seal` checks them
/// again under its lock; a caller that writes something before sealing (the note commit of an
/// edited note) checks first, so a refusal leaves everything as it was.
pub fn preflight(repo: &Repo, req: &Request) -> Result<()> {
    commit_message(req)?;
    let index = index_path(repo)?;
    // Taken and dropped at once: the same refusal, in the same words, as the seal's own.
    drop(IndexLock::acquire(&index)?);
    refuse_in_progress(&repo.git_dir)?;
    refuse_conflicts(&repo.git(), repo.object_hash(), &index)?;
    Ok(())
}

/// Seals the uncommitted work of `repo`'s work tree. The repository is either sealed or, on any
/// error, exactly as it was.
pub fn seal(repo: &Repo, config: &Config, req: &Request) -> Result<Sealed> {
    repo.top()?;
    let message = commit_message(req)?;
    let index = index_path(repo)?;
    let interrupt = Interrupt::catch();
    let mut lock = IndexLock::acquire(&index)?;
    refuse_in_progress(&repo.git_dir)?;
    let head = repo.head()?;
    // New objects go to a quarantine first.
    let quarantine = Quarantine::new(repo.gix().objects.store_ref().path())?;
    let fsync_as_default = fsync_as_default(repo);
    let git = private_git(repo, &quarantine, fsync_as_default);
    let stage = Stage::new(&git, &repo.git_dir, &index)?;
    let sealing = Sealing {
        repo,
        req,
        git: &git,
        stage: &stage,
        quarantine: &quarantine,
        index: &index,
        head: head.id,
        fsync_as_default,
    };
    let (staged, author) = sealing.add_all(config, message)?;
    let kept = sealing.tree_to_commit(staged)?;
    if kept.files.is_empty() {
        return sealing.nothing_to_commit(&mut lock, kept);
    }
    let commit = sealing.commit(&kept.tree, &author)?;
    quarantine.migrate(&git, &commit, head.id, kept.selective)?;
    // The last point where a signal can stop the seal; past it, the seal completes.
    interrupt.check("seal")?;
    sealing.move_head_and_install(&mut lock, &commit, &author.message)?;
    Ok(Sealed { commit: Some(commit), files: kept.files, skipped: kept.skipped })
}

/// Git for the seal's children: on the private index, writing to the quarantine. No hook runs in
/// any git child: a failing `reference-transaction` or `post-index-change` hook must not fail (or
/// slow) the seal.
fn private_git(repo: &Repo, quarantine: &Quarantine, fsync_as_default: bool) -> Git {
    // Under `core.splitIndex`, git writing the private index may write a new shared index and
    // delete the shared indexes older than `splitIndex.sharedIndexExpire`: with `now`, the one the
    // real index still names, which every git command then fails to open. Nothing is expired
    // here; the user's next index write expires what the installed index no longer names.
    let git = repo.git().without_hooks().with_config("splitIndex.sharedIndexExpire=never");
    quarantine.apply(git, fsync_as_default)
}

/// What every step of a seal shares: the repository, the request, git on the private index
/// (`stage`) and the quarantine, the real index (held locked), HEAD when the seal began.
struct Sealing<'a> {
    repo: &'a Repo,
    req: &'a Request,
    git: &'a Git,
    stage: &'a Stage<'a>,
    quarantine: &'a Quarantine,
    index: &'a Path,
    head: Option<ObjectId>,
    fsync_as_default: bool,
}

/// What `git add -A` staged on the private index, and what the seal holds back or leaves out.
struct Staged {
    changes: Vec<Change>,
    prescanned: Prescanned,
    guard: Guard,
    /// Files behind a clean filter that hold a secret.
    filtered: Vec<Skipped>,
    /// New files outside a sparse checkout's cone.
    outside: Vec<Skipped>,
}

/// Who writes the seal commit, and its (redacted) message.
struct Author {
    message: String,
    identity: IdentityEnv,
    idents: Option<[String; 2]>,
}

/// The tree the seal commits, the files it holds, and those it held back or left out.
struct Kept {
    tree: String,
    files: Vec<Vec<u8>>,
    skipped: Vec<Skipped>,
    /// Whether files were held back: only the objects the commit reaches are kept then.
    selective: bool,
}

impl Sealing<'_> {
    /// `git add -A` on the private index, begun before anything else competes for the cores (the
    /// secret rules are compiled while it starts; should that fail, it is stopped, having written
    /// only the seal's temporary files).
    fn add_all(&self, config: &Config, message: String) -> Result<(Staged, Author)> {
        let (repo, req) = (self.repo, self.req);
        let mut keep_out = special_held(repo.top()?, req);
        // Files behind a clean filter are scanned in the work tree before the filter sees them.
        let filtered = match req.allow_secrets {
            false => {
                filtered::secrets_behind_filters(repo, self.git, &Guard::new(&config.secrets)?)?
            }
            true => Vec::new(),
        };
        keep_out.extend(filtered.iter().map(|s| s.path.as_slice()));
        let adding = self.stage.start_add(!req.allow_secrets, &keep_out)?;
        let guard = Guard::new(&config.secrets)?;
        // A `--message` is text git-handoff writes into history: secrets in it are redacted.
        let message = Redactor::new(config)?.redact_string(message);
        self.while_adding(adding, guard, filtered, message)
    }

    /// Waits for `adding` while the steps that need nothing from each other run at once: `git add
    /// -A` on the private index, whose files are scanned for secrets as it stages them; reading the
    /// real index (read only: it cannot change while we hold its lock) for the conflict check and
    /// what was staged before; asking git for an identity; compiling the secret rules.
    fn while_adding(
        &self,
        adding: Adding,
        guard: Guard,
        filtered: Vec<Skipped>,
        message: String,
    ) -> Result<(Staged, Author)> {
        let (repo, req, git, index) = (self.repo, self.req, self.git, self.index);
        let hash = repo.object_hash();
        let base = self.head.unwrap_or_else(|| repo.empty_tree());
        let base_hex = base.to_string();
        let top = repo.top()?;
        let scanning = (!req.allow_secrets).then_some(&guard);
        let (added, original, before, identity) = std::thread::scope(|s| {
            if !req.allow_secrets {
                s.spawn(crate::model::secrets::prepare);
            }
            let original = s.spawn(|| refuse_conflicts(git, hash, index));
            let before = s.spawn(|| changes::staged_before(git, index, &base_hex));
            // The author and committer `git commit-tree` would write, so the commit is made here.
            let identity = s.spawn(|| identity_and_idents(git));
            let added = adding.finish(top, scanning, hash, sparse_checkout(repo));
            let added = added.context("staging the work tree like `git add -A`");
            (added, join(original), join(before), join(identity))
        });
        let original = original?;
        let (prescanned, partial) = added?;
        // In a sparse checkout, new files outside the cone: `git add -A` leaves them, so does seal.
        let outside = if partial { outside_the_cone(self.stage)? } else { Vec::new() };
        let (identity, idents) = identity?;
        let changes = list_changes(self.stage, hash, original.as_ref(), before, &base)?;
        let staged = Staged { changes, prescanned, guard, filtered, outside };
        Ok((staged, Author { message, identity, idents }))
    }

    /// The tree is built while the changed blobs are scanned for secrets, leaving out what the
    /// caller holds back; a secret the scan finds means building it again without that file. The
    /// private index keeps what is held back as HEAD has it.
    fn tree_to_commit(&self, staged: Staged) -> Result<Kept> {
        let caller_held: HashSet<&[u8]> = self.req.hold.iter().map(|h| h.path.as_slice()).collect();
        let (guessed, scanned) = self.build_while_scanning(&staged, &caller_held);
        let mut skipped = scanned?;
        let scan_held = skipped.iter().any(|s| !caller_held.contains(s.path.as_slice()));
        hold_back(&mut skipped, &self.req.hold, &staged.changes);
        skipped.extend(staged.filtered);
        let changes = &staged.changes;
        let held: HashSet<&[u8]> = skipped.iter().map(|s| s.path.as_slice()).collect();
        let files: Vec<Vec<u8>> = changes
            .iter()
            .filter(|c| !held.contains(c.path.as_slice()))
            .map(|c| c.path.clone())
            .collect();
        let held_changes: Vec<&Change> =
            changes.iter().filter(|c| held.contains(c.path.as_slice())).collect();
        if !held_changes.is_empty() {
            self.stage.reset_to_head(&held_changes)?;
        }
        // The tree from HEAD's and the list of changes; `git write-tree` where that fails.
        let tree = match guessed {
            Ok(Ok(tree)) if !scan_held => Ok(tree),
            _ => tree::build(self.repo.gix(), self.objects_dir(), self.head, changes, &held),
        };
        let tree = match tree {
            Ok(tree) => tree,
            Err(_) => self.stage.write_tree()?,
        };
        if !held_changes.is_empty() {
            self.stage.restore_entries(self.repo.gix(), self.index, &held_changes)?;
        }
        let selective = !held_changes.is_empty();
        skipped.extend(staged.outside);
        Ok(Kept { tree, files, skipped, selective })
    }

    /// The tree of all the changes, built (on a thread) while they are scanned for secrets.
    fn build_while_scanning(
        &self,
        staged: &Staged,
        caller_held: &HashSet<&[u8]>,
    ) -> (std::thread::Result<Result<String>>, Result<Vec<Skipped>>) {
        let (repo, head, objects_dir) = (self.repo, self.head, self.objects_dir());
        std::thread::scope(|s| {
            let (gix, changes) = (repo.gix().clone(), &staged.changes);
            let guessed =
                s.spawn(move || tree::build(&gix, objects_dir, head, changes, caller_held));
            let objects =
                Objects { quarantine: self.quarantine.path(), store: &repo.gix().objects };
            let scanned = if self.req.allow_secrets {
                Ok(Vec::new())
            } else {
                find_secrets(self.git, &objects, &staged.guard, changes, &staged.prescanned)
            };
            (guessed.join(), scanned)
        })
    }

    /// Where new trees go: the quarantine, flushed to disk only where git's `core.fsync` settings
    /// would flush packs.
    fn objects_dir(&self) -> (&Path, bool) {
        (self.quarantine.path(), !self.fsync_as_default)
    }

    /// Nothing to commit, yet the index may differ from what `git add -A` stages (after `git rm
    /// --cached`, or a seal killed after it moved HEAD): leave it as git would.
    fn nothing_to_commit(&self, lock: &mut IndexLock, kept: Kept) -> Result<Sealed> {
        if self.stage.differs_from(self.repo.object_hash(), self.index)? {
            self.quarantine.migrate(self.git, &kept.tree, self.head, kept.selective)?;
            lock.install(&self.stage.file)?;
        }
        Ok(Sealed { commit: None, files: kept.files, skipped: kept.skipped })
    }

    /// The seal commit of `tree`: written here as `commit-tree` would write it, where the same
    /// bytes are certain; else by git.
    fn commit(&self, tree: &str, author: &Author) -> Result<String> {
        let (hash, head, message) = (self.repo.object_hash(), self.head, &author.message);
        let in_process = author
            .idents
            .as_ref()
            .filter(|_| self.fsync_as_default && commits_in_utf8(self.repo))
            .and_then(|idents| {
                write_commit(self.quarantine.path(), hash, (tree, head), idents, message).ok()
            });
        match in_process {
            Some(commit) => Ok(commit),
            None => commit_tree(self.git, tree, head, message, &author.identity),
        }
    }

    /// HEAD moved to `commit` (compare-and-swap: only from where the seal began), then the
    /// private index installed; should that fail, HEAD is moved back.
    fn move_head_and_install(
        &self,
        lock: &mut IndexLock,
        commit: &str,
        message: &str,
    ) -> Result<()> {
        let subject = message.lines().next().unwrap_or_default();
        move_head(self.git, commit, self.head, &format!("handoff seal: {subject}")).context(
            "HEAD, the index and the work tree are as they were; if HEAD moved meanwhile, run seal again",
        )?;
        if let Err(err) = lock.install(&self.stage.file) {
            let undo = undo_head(self.git, commit, self.head);
            return Err(match undo {
                Ok(()) => err.context(format!(
                    "sealing failed while installing the new index; HEAD was moved back, nothing \
                     changed; commit {commit} holds the work if you want it (`git cherry-pick {commit}`)"
                )),
                Err(undo) => err.context(format!(
                    "HEAD now points at the seal commit {commit} but the index could not be replaced \
                     ({undo:#}); the work tree is untouched; run `git reset` to refresh the index"
                )),
            });
        }
        Ok(())
    }
}

/// The files `git add -A` left untracked in a sparse checkout (exit 1): outside the cone.
fn outside_the_cone(stage: &Stage<'_>) -> Result<Vec<Skipped>> {
    let out = stage.run(&["ls-files", "-z", "--others", "--exclude-standard"])?;
    let left: Vec<Skipped> = out
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|path| Skipped {
            path: path.to_vec(),
            why: "outside the sparse-checkout cone, where `git add -A` leaves it too; \
                  `git sparse-checkout add <dir>` takes it in"
                .into(),
        })
        .collect();
    if left.is_empty() {
        bail!(
            "`git add -A` failed (exit 1) in this sparse checkout, yet left no file out; run \
             `git add -A` to see why"
        );
    }
    Ok(left)
}

/// Adds the paths the caller holds back to `skipped`, those that changed and are not there yet.
fn hold_back(skipped: &mut Vec<Skipped>, hold: &[Skipped], changes: &[Change]) {
    for held in hold {
        let changed = changes.iter().any(|c| c.path == held.path);
        if changed && !skipped.iter().any(|s| s.path == held.path) {
            skipped.push(held.clone());
        }
    }
}

/// The changes the private index stages against HEAD: from the two indexes and what was staged
/// before (see [`changes`]) when both indexes read in-process, else from `git diff-index`.
fn list_changes(
    stage: &Stage<'_>,
    hash: gix::hash::Kind,
    original: Option<&gix::index::File>,
    before: Result<Vec<Change>>,
    base: &ObjectId,
) -> Result<Vec<Change>> {
    let staged = gix::index::File::at(&stage.file, hash, true, Default::default());
    match (original, staged, before) {
        (Some(original), Ok(staged), Ok(before)) => changes::list(original, &staged, &before),
        _ => stage.changes(base),
    }
}

/// The result of a helper thread; a panic there (there should be none) is an error here.
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, Result<T>>) -> Result<T> {
    handle.join().unwrap_or_else(|_| Err(anyhow!("a helper thread of seal panicked")))
}

/// The held paths that are there but are no regular file, link or directory (a FIFO at the note
/// path): `git add -A` would refuse them, and the whole seal with them.
fn special_held<'a>(top: &Path, req: &'a Request) -> Vec<&'a [u8]> {
    use std::os::unix::ffi::OsStrExt;
    req.hold
        .iter()
        .map(|held| held.path.as_slice())
        .filter(|path| {
            let meta = std::fs::symlink_metadata(top.join(std::ffi::OsStr::from_bytes(path)));
            meta.is_ok_and(|m| !m.is_file() && !m.is_dir() && !m.file_type().is_symlink())
        })
        .collect()
}
