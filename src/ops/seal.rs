//! The seal: one commit on top of HEAD that holds all uncommitted work exactly as `git add -A`
//! would stage it, so an interrupted attempt loses nothing. This is the command that must never
//! lose data, so it is built from git's own plumbing rather than a re-implementation of staging.
//!
//! **Design: git plumbing on a private index, swapped in under the held lock.** We take
//! `index.lock` first (O_CREAT|O_EXCL, as git does), hard-link the index to a private file in the
//! git dir (git only ever replaces index files by rename, so the link is a free private copy that
//! keeps the mtime git's racy-stat check needs), and run `git add -A` on it (`GIT_INDEX_FILE`).
//! Staging is then git's own under every setting that shapes it (`core.fileMode`, `core.autocrlf`
//! and eol attributes, clean filters, symlinks, sparse checkouts, submodules, index extensions and
//! versions), which a port from gix parts would have to chase one key at a time (gix 0.90 has no
//! `add`, and the research notes list where a probe built from its parts fell short). Then the
//! changes against HEAD are listed from the two indexes, and while the secrets guard streams their
//! blobs from `git cat-file`, the tree is built in-process from HEAD's tree and that list and
//! stored as one pack (see [`tree`]; `git write-tree` only where that fails); a path the scan
//! holds back means building it again without that path, whose index entry goes back to what it
//! was; the commit is written in-process as `git commit-tree --no-gpg-sign` writes it, with the
//! author and committer git itself gives (`git var`), or by commit-tree where the bytes could
//! differ (no hooks run, nothing signs); `git update-ref HEAD <new> <old>` moves the branch with a
//! compare-and-swap; and only then is the private index renamed over the index while our lock is
//! still held. Until the ref moves, nothing the user can see has changed: the real index, HEAD
//! and the work tree are never written, and a failure anywhere removes only our own lock and temp
//! files. Objects written along the way stay in the quarantine and go with it.
//!
//! Because `git add -A` refreshes the copy, the index we install carries fresh stat data, so
//! `git status` afterwards is as fast as after `git commit` (the cache tree of the changed
//! directories is missing until git's next commit writes it). Skipped files keep the index entries they had before (intent-to-add included), so the seal
//! never stages a secret even in the index. When git has no identity, the commit is authored by
//! [`FALLBACK_NAME`](crate::git::identity::FALLBACK_NAME) `<`[`FALLBACK_EMAIL`](crate::git::identity::FALLBACK_EMAIL)`>`; the caller's `GIT_AUTHOR_*`/`GIT_COMMITTER_*` and
//! the repository's `user.*` always win.

mod attempt;
mod changes;
mod guard;
mod lock;
mod prescan;
mod quarantine;
mod scan;
mod stage;
mod tree;

use std::collections::HashSet;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;
use jiff::Timestamp;
use serde::{Serialize, Serializer};

use crate::git::identity::identity_and_idents;
use crate::git::plumbing::{commit_tree, move_head, undo_head, write_commit};
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::model::redact::Redactor;
use crate::model::seal_message::TRAILER;
use crate::util::interrupt::Interrupt;
use crate::util::time;
use lock::{IndexLock, index_path, refuse_in_progress};
use quarantine::Quarantine;
use scan::{Objects, find_secrets};
use stage::{Change, Stage, refuse_conflicts};

pub use attempt::seal_attempt;
pub use guard::Guard;

/// What to seal and how.
#[derive(Debug, Clone)]
pub struct Request {
    pub issue: u64,
    pub started_at: Timestamp,
    /// Replaces the default subject (and body); the trailer is always added.
    pub message: Option<String>,
    /// Seal secret-looking files too.
    pub allow_secrets: bool,
    /// Paths the caller keeps out of the seal whatever they hold (a note change, see
    /// `handoff::place`), reported as skipped with their reason when they changed.
    pub hold: Vec<Skipped>,
}

/// The outcome, in the shape of `seal --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Sealed {
    /// The seal commit, `None` when there was nothing to seal.
    pub commit: Option<String>,
    /// The paths the seal commit changed, in git's path order.
    #[serde(serialize_with = "lossy_paths")]
    pub files: Vec<Vec<u8>>,
    /// Files left out because they look like secrets, or because the caller held them back.
    pub skipped: Vec<Skipped>,
}

/// A file the seal left out, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    #[serde(serialize_with = "lossy_path")]
    pub path: Vec<u8>,
    pub why: String,
}

/// Seals the uncommitted work of `repo`'s work tree. The repository is either sealed or, on any
/// error, exactly as it was.
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
    refuse_conflicts(&repo.git(), repo.gix.object_hash(), &index)?;
    Ok(())
}

pub fn seal(repo: &Repo, config: &Config, req: &Request) -> Result<Sealed> {
    repo.top()?;
    let message = commit_message(req)?;
    let index = index_path(repo)?;
    let interrupt = Interrupt::catch();
    let mut lock = IndexLock::acquire(&index)?;
    refuse_in_progress(&repo.git_dir)?;
    let head = repo.head()?;
    // No hook runs in any git child: a failing `reference-transaction` or `post-index-change`
    // hook must not fail (or slow) the seal. New objects go to a quarantine first.
    let quarantine = Quarantine::new(repo.gix.objects.store_ref().path())?;
    let fsync_as_default = fsync_as_default(repo);
    let git = quarantine.apply(repo.git().without_hooks(), fsync_as_default);
    let stage = Stage::new(&git, &repo.git_dir, &index)?;
    let hash = repo.gix.object_hash();
    // `git add -A` on the private index is the longest step: it starts before anything else
    // competes for the cores (the secret rules are compiled while it starts; should that fail, it
    // is stopped, having written only the seal's temporary files).
    let adding = stage.start_add(!req.allow_secrets)?;
    let guard = Guard::new(&config.secrets)?;
    // A `--message` is text git-handoff writes into history: secrets in it are redacted.
    let message = Redactor::new(config)?.redact_string(message);

    let base = head.id.unwrap_or_else(|| repo.empty_tree());
    let base_hex = base.to_string();
    // Steps that need nothing from each other run at once: `git add -A` on the private index,
    // whose files are scanned for secrets as it stages them; reading the real index (read only:
    // it cannot change while we hold its lock) for the conflict check and what was staged before;
    // asking git for an identity; compiling the secret rules.
    let top = repo.top()?;
    let scanning = (!req.allow_secrets).then_some(&guard);
    let (added, original, before, identity) = std::thread::scope(|s| {
        if !req.allow_secrets {
            s.spawn(crate::model::secrets::prepare);
        }
        let original = s.spawn(|| refuse_conflicts(&git, hash, &index));
        let before = s.spawn(|| changes::staged_before(&git, &index, &base_hex));
        // The author and committer `git commit-tree` would write, so the commit is made here.
        let identity = s.spawn(|| identity_and_idents(&git));
        let added = adding.finish(top, scanning, hash);
        let added = added.context("staging the work tree like `git add -A`");
        (added, join(original), join(before), join(identity))
    });
    let original = original?;
    let prescanned = added?;
    let (identity, idents) = identity?;
    let changes = list_changes(&stage, hash, original.as_ref(), before, &base)?;
    // The tree is built while the changed blobs are scanned for secrets, leaving out what the
    // caller holds back; a secret the scan finds means building it again without that file.
    let caller_held: HashSet<&[u8]> = req.hold.iter().map(|h| h.path.as_slice()).collect();
    // New trees are flushed to disk only where git's `core.fsync` settings would flush packs.
    let objects_dir = (quarantine.path(), !fsync_as_default);
    let (guessed, scanned) = std::thread::scope(|s| {
        let (gix, changes, caller_held) = (repo.gix.clone(), &changes, &caller_held);
        let guessed =
            s.spawn(move || tree::build(&gix, objects_dir, head.id, changes, caller_held));
        let objects = Objects { quarantine: quarantine.path(), store: &repo.gix.objects };
        let scanned = if req.allow_secrets {
            Ok(Vec::new())
        } else {
            find_secrets(&git, &objects, &guard, changes, &prescanned)
        };
        (guessed.join(), scanned)
    });
    let mut skipped = scanned?;
    let scan_held = skipped.iter().any(|s| !caller_held.contains(s.path.as_slice()));
    hold_back(&mut skipped, &req.hold, &changes);
    let held: HashSet<&[u8]> = skipped.iter().map(|s| s.path.as_slice()).collect();
    let files: Vec<Vec<u8>> = changes
        .iter()
        .filter(|c| !held.contains(c.path.as_slice()))
        .map(|c| c.path.clone())
        .collect();
    let held_changes: Vec<&Change> =
        changes.iter().filter(|c| held.contains(c.path.as_slice())).collect();
    if !held_changes.is_empty() {
        stage.reset_to_head(&held_changes)?;
    }
    // The tree from HEAD's and the list of changes; `git write-tree` where that fails.
    let tree = match guessed {
        Ok(Ok(tree)) if !scan_held => Ok(tree),
        _ => tree::build(&repo.gix, objects_dir, head.id, &changes, &held),
    };
    let tree = match tree {
        Ok(tree) => tree,
        Err(_) => stage.write_tree()?,
    };
    if !held_changes.is_empty() {
        stage.restore_entries(&repo.gix, &index, &held_changes)?;
    }
    let selective = !held_changes.is_empty();
    if files.is_empty() {
        // Nothing to commit, yet the index may differ from what `git add -A` stages (after
        // `git rm --cached`, or a seal killed after it moved HEAD): leave it as git would.
        if stage.differs_from(repo.gix.object_hash(), &index)? {
            quarantine.migrate(&git, &tree, head.id, selective)?;
            lock.install(&stage.file)?;
        }
        return Ok(Sealed { commit: None, files, skipped });
    }
    // Written here as `commit-tree` would write it, where the same bytes are certain; else by git.
    let in_process =
        idents.filter(|_| fsync_as_default && commits_in_utf8(repo)).and_then(|idents| {
            write_commit(quarantine.path(), hash, (&tree, head.id), &idents, &message).ok()
        });
    let commit = match in_process {
        Some(commit) => commit,
        None => commit_tree(&git, &tree, head.id, &message, &identity)?,
    };
    quarantine.migrate(&git, &commit, head.id, selective)?;

    // The last point where a signal can stop the seal; past it, the seal completes.
    interrupt.check("seal")?;
    let subject = message.lines().next().unwrap_or_default();
    move_head(&git, &commit, head.id, &format!("handoff seal: {subject}")).context(
        "HEAD, the index and the work tree are as they were; if HEAD moved meanwhile, run seal again",
    )?;
    if let Err(err) = lock.install(&stage.file) {
        let undo = undo_head(&git, &commit, head.id);
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
    Ok(Sealed { commit: Some(commit), files, skipped })
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

/// Whether git flushes to disk what it flushes by default: `core.fsync` and
/// `core.fsyncObjectFiles` set nowhere, the command line (`git -c`, which gix does not read)
/// included.
fn fsync_as_default(repo: &Repo) -> bool {
    let config = repo.gix.config_snapshot();
    let keys = ["core.fsync", "core.fsyncObjectFiles"];
    let on_command_line = std::env::vars_os().any(|(key, value)| {
        let key = key.to_string_lossy();
        (key == "GIT_CONFIG_PARAMETERS" || key.starts_with("GIT_CONFIG_KEY_"))
            && value.to_string_lossy().to_ascii_lowercase().contains("core.fsync")
    });
    !on_command_line && keys.iter().all(|key| config.string(key).is_none())
}

/// Whether `git commit-tree` writes commits here without an `encoding` header: `i18n.commitEncoding`
/// unset or UTF-8, and no config on git's command line (which gix does not read).
fn commits_in_utf8(repo: &Repo) -> bool {
    let config = repo.gix.config_snapshot();
    let utf8 = match config.string("i18n.commitEncoding") {
        None => true,
        Some(value) => value.eq_ignore_ascii_case(b"utf-8") || value.eq_ignore_ascii_case(b"utf8"),
    };
    utf8 && !crate::git::repo::config_on_command_line()
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

/// The seal commit's message: the subject (or `--message`), a blank line, the trailer.
pub fn commit_message(req: &Request) -> Result<String> {
    let body = match &req.message {
        Some(text) => {
            let lines: Vec<&str> = text.lines().skip_while(|l| l.trim().is_empty()).collect();
            let body = lines.join("\n").trim_end().to_string();
            if body.is_empty() {
                bail!(
                    "--message is empty; give the seal commit a subject, or leave --message out \
                     for the default \"Seal leftover work: issue #{}\"",
                    req.issue
                );
            }
            body
        }
        None => format!("Seal leftover work: issue #{}", req.issue),
    };
    Ok(format!("{body}\n\n{TRAILER}: {}\n", time::format(req.started_at)))
}

fn lossy_path<S: Serializer>(path: &[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_str_lossy())
}

fn lossy_paths<S: Serializer>(paths: &[Vec<u8>], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(paths.iter().map(|p| p.to_str_lossy()))
}

#[cfg(test)]
mod tests {
    use super::stage::parse_raw;
    use super::*;

    fn request(message: Option<&str>) -> Request {
        Request {
            issue: 7,
            started_at: time::parse("2026-11-30T03:48:52Z").unwrap(),
            message: message.map(str::to_string),
            allow_secrets: false,
            hold: Vec::new(),
        }
    }

    #[test]
    fn default_message_names_the_issue_and_carries_the_trailer() {
        assert_eq!(
            commit_message(&request(None)).unwrap(),
            "Seal leftover work: issue #7\n\nHandoff-Seal: 2026-11-30T03:48:52Z\n"
        );
    }

    #[test]
    fn custom_message_keeps_the_trailer() {
        assert_eq!(
            commit_message(&request(Some("\n\nWIP: parser\n\nhalf done\n\n"))).unwrap(),
            "WIP: parser\n\nhalf done\n\nHandoff-Seal: 2026-11-30T03:48:52Z\n"
        );
        assert!(commit_message(&request(Some(" \n \n"))).is_err());
    }

    #[test]
    fn raw_diff_records_parse() {
        let raw = b":100644 000000 aaaa 0000 D\0gone.txt\0:000000 100755 0000 bbbb A\0new\tname\0";
        let changes = parse_raw(raw).unwrap();
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].path, b"gone.txt");
        assert_eq!(changes[0].new_mode, 0);
        assert_eq!(changes[1].new_mode, 0o100755);
        assert_eq!(changes[1].path, b"new\tname");
        assert!(parse_raw(b"garbage\0x\0").is_err());
    }
}
