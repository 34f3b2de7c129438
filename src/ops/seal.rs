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
//! `add`, and the research notes list where a probe built from its parts fell short). Then
//! `git write-tree` runs while `git diff-index --cached` lists the changes against HEAD and the
//! secrets guard streams their blobs from `git cat-file`; skipped paths go back to HEAD's entry for
//! a second `write-tree`; `git commit-tree --no-gpg-sign` makes the commit (no hooks run, nothing
//! signs); `git update-ref HEAD <new> <old>` moves the branch with a compare-and-swap; and only
//! then is the private index renamed over the index while our lock is still held. Until the ref
//! moves, nothing the user can see has changed: the real index, HEAD and the work tree are never
//! written, and a failure anywhere removes only our own lock and temp files. Objects written along
//! the way are unreachable, and `git gc` collects them as usual.
//!
//! Because `git add -A` refreshes the copy, the index we install carries fresh stat data (and the
//! cache tree from `write-tree`), so `git status` afterwards is as fast as after `git commit`.
//! Skipped files keep the index entries they had before (intent-to-add included), so the seal
//! never stages a secret even in the index. When git has no identity, the commit is authored by
//! [`FALLBACK_NAME`] `<`[`FALLBACK_EMAIL`]`>`; the caller's `GIT_AUTHOR_*`/`GIT_COMMITTER_*` and
//! the repository's `user.*` always win.

mod guard;

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;
use jiff::Timestamp;
use serde::{Serialize, Serializer};

use crate::git::repo::Repo;
use crate::git::{self, Git};
use crate::model::config::Config;
use crate::util::interrupt::Interrupt;
use crate::util::time;

pub use guard::Guard;

/// The author and committer name used when git has none configured.
pub const FALLBACK_NAME: &str = "git-handoff";
/// The author and committer email used when git has none configured.
pub const FALLBACK_EMAIL: &str = "git-handoff@localhost";
/// The trailer that marks a seal commit: `Handoff-Seal: <started_at>`.
pub const TRAILER: &str = "Handoff-Seal";

/// What to seal and how.
#[derive(Debug, Clone)]
pub struct Request {
    pub issue: u64,
    pub started_at: Timestamp,
    /// Replaces the default subject (and body); the trailer is always added.
    pub message: Option<String>,
    /// Seal secret-looking files too.
    pub allow_secrets: bool,
}

/// The outcome, in the shape of `seal --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Sealed {
    /// The seal commit, `None` when there was nothing to seal.
    pub commit: Option<String>,
    /// The paths the seal commit changed, in git's path order.
    #[serde(serialize_with = "lossy_paths")]
    pub files: Vec<Vec<u8>>,
    /// Files left out because they look like secrets.
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
pub fn seal(repo: &Repo, config: &Config, req: &Request) -> Result<Sealed> {
    repo.top()?;
    let guard = Guard::new(&config.secrets)?;
    let message = commit_message(req)?;
    let index = index_path(repo)?;
    let interrupt = Interrupt::catch();
    let mut lock = IndexLock::acquire(&index)?;
    refuse_in_progress(&repo.git_dir)?;
    let head = repo.head()?;
    let git = repo.git();
    let stage = Stage::new(&git, &repo.git_dir, &index)?;
    let hash = repo.gix.object_hash();

    // Three steps that need nothing from each other run at once: `git add -A` on the private
    // index, the conflict check on the real index (read only; it cannot change while we hold its
    // lock) and asking git for an identity.
    let (added, conflicts, identity) = std::thread::scope(|s| {
        let conflicts = s.spawn(|| refuse_conflicts(&git, hash, &index));
        let identity = s.spawn(|| identity_env(&git));
        (stage.add_all(), join(conflicts), join(identity))
    });
    conflicts?;
    added?;
    let identity = identity?;
    // `write-tree` only adds the cache tree to the private index (and git replaces index files
    // by rename), so listing the changes and scanning them for secrets run beside it.
    let base = head.id.unwrap_or_else(|| repo.empty_tree());
    let (tree, listed) = std::thread::scope(|s| {
        let tree = s.spawn(|| stage.write_tree());
        let listed = stage.changes(&base).and_then(|changes| {
            let skipped =
                if req.allow_secrets { Vec::new() } else { find_secrets(&git, &guard, &changes)? };
            Ok((changes, skipped))
        });
        (join(tree), listed)
    });
    let mut tree = tree?;
    let (changes, skipped) = listed?;
    let held: HashSet<&[u8]> = skipped.iter().map(|s| s.path.as_slice()).collect();
    let files: Vec<Vec<u8>> = changes
        .iter()
        .filter(|c| !held.contains(c.path.as_slice()))
        .map(|c| c.path.clone())
        .collect();
    if files.is_empty() {
        return Ok(Sealed { commit: None, files, skipped });
    }

    let held_changes: Vec<&Change> =
        changes.iter().filter(|c| held.contains(c.path.as_slice())).collect();
    if !held_changes.is_empty() {
        stage.reset_to_head(&held_changes)?;
        tree = stage.write_tree()?;
        stage.restore_entries(&repo.gix, &index, &held_changes)?;
    }
    let commit = commit_tree(&git, &tree, head.id, &message, &identity)?;

    // The last point where a signal can stop the seal; past it, the seal completes.
    interrupt.check("seal")?;
    let subject = message.lines().next().unwrap_or_default();
    move_head(&git, &commit, head.id, &format!("handoff seal: {subject}"))?;
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

/// The result of a helper thread; a panic there (there should be none) is an error here.
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, Result<T>>) -> Result<T> {
    handle.join().unwrap_or_else(|_| Err(anyhow!("a helper thread of seal panicked")))
}

/// Refuses an index with unmerged entries: sealing would record one side of a conflict. The
/// index is read in-process; one that gix cannot read is left to `git ls-files --unmerged`.
fn refuse_conflicts(git: &Git, hash: gix::hash::Kind, index: &Path) -> Result<()> {
    let mut paths: Vec<Vec<u8>> = match gix::index::File::at(index, hash, true, Default::default())
    {
        Ok(file) => file
            .entries()
            .iter()
            .filter(|e| e.stage_raw() != 0)
            .map(|e| e.path(&file).to_vec())
            .collect(),
        Err(_) if !index.exists() => Vec::new(),
        Err(_) => {
            let mut cmd = git.command(["ls-files", "--unmerged", "-z"]);
            cmd.env("GIT_INDEX_FILE", index);
            let output = git::run(&mut cmd)?;
            let out = git::checked(&cmd, output)?;
            out.split(|&b| b == 0)
                .filter_map(|rec| rec.find_byte(b'\t').map(|tab| rec[tab + 1..].to_vec()))
                .collect()
        }
    };
    paths.dedup();
    if let Some(first) = paths.first() {
        bail!(
            "the index has unresolved conflicts in {} path(s) (first: {}); resolve them and \
             `git add` them (or `git reset` to drop the merge state), then run seal again",
            paths.len(),
            first.to_str_lossy()
        );
    }
    Ok(())
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

/// The index file git uses here: `GIT_INDEX_FILE`, else `<git dir>/index`.
fn index_path(repo: &Repo) -> Result<PathBuf> {
    match std::env::var_os("GIT_INDEX_FILE").filter(|v| !v.is_empty()) {
        Some(path) => {
            let path = PathBuf::from(path);
            if path.is_absolute() {
                return Ok(path);
            }
            Ok(std::env::current_dir().context("reading the current directory")?.join(path))
        }
        None => Ok(repo.git_dir.join("index")),
    }
}

/// `index.lock`, taken the way git takes it: created exclusively, removed only if it is still ours.
struct IndexLock {
    path: PathBuf,
    index: PathBuf,
    file: File,
    installed: bool,
}

impl IndexLock {
    fn acquire(index: &Path) -> Result<IndexLock> {
        let mut name = index.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let file = OpenOptions::new().write(true).create_new(true).open(&path).map_err(|err| {
            if err.kind() == io::ErrorKind::AlreadyExists {
                anyhow!(
                    "{} exists: another git process is running in this repository; wait for it \
                     to finish (or remove the lock if no git process is running) and run seal again",
                    path.display()
                )
            } else {
                anyhow!("cannot create {}: {err}; check the permissions of the git dir", path.display())
            }
        })?;
        Ok(IndexLock { path, index: index.to_path_buf(), file, installed: false })
    }

    /// True while the lock file on disk is the one we created (nobody removed and retook it).
    fn is_ours(&self) -> bool {
        match (fs::symlink_metadata(&self.path), self.file.metadata()) {
            (Ok(disk), Ok(held)) => disk.dev() == held.dev() && disk.ino() == held.ino(),
            _ => false,
        }
    }

    /// Renames the new index (a complete file git wrote, next to the index) over the index while
    /// we still hold the lock, so it becomes visible in one step, then drops the lock. A rename,
    /// unlike a copy into the lock, keeps the mtime git wrote it with ("racy git" depends on it).
    fn install(&mut self, new_index: &Path) -> Result<()> {
        if !self.is_ours() {
            bail!(
                "{} was removed or replaced by another process while sealing",
                self.path.display()
            );
        }
        fs::rename(new_index, &self.index).with_context(|| {
            format!("renaming {} to {}", new_index.display(), self.index.display())
        })?;
        self.installed = true;
        if self.is_ours() {
            let _ = fs::remove_file(&self.path);
        }
        Ok(())
    }
}

impl Drop for IndexLock {
    fn drop(&mut self) {
        if !self.installed && self.is_ours() {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Gives `to` the modification time of `from`. Git trusts an index entry's stat data only when the
/// file's mtime is older than the index file's own mtime ("racy git"): a copy of an index must keep
/// the original's time, or a same-size edit made in the same second would look clean.
fn copy_mtime(from: &Path, to: &File) -> io::Result<()> {
    let modified = fs::metadata(from)?.modified()?;
    to.set_times(fs::FileTimes::new().set_modified(modified))
}

/// Refuses to seal in the middle of an operation that owns the index and HEAD.
fn refuse_in_progress(git_dir: &Path) -> Result<()> {
    let states: [(&str, &str, &str); 8] = [
        ("rebase-merge", "a rebase", "`git rebase --continue` or `git rebase --abort`"),
        ("rebase-apply/applying", "`git am`", "`git am --continue` or `git am --abort`"),
        ("rebase-apply", "a rebase", "`git rebase --continue` or `git rebase --abort`"),
        ("MERGE_HEAD", "a merge", "`git commit` or `git merge --abort`"),
        ("CHERRY_PICK_HEAD", "a cherry-pick", "`git cherry-pick --continue` or `--abort`"),
        ("REVERT_HEAD", "a revert", "`git revert --continue` or `git revert --abort`"),
        ("BISECT_START", "a bisect", "`git bisect reset`"),
        ("BISECT_LOG", "a bisect", "`git bisect reset`"),
    ];
    for (file, what, mend) in states {
        if git_dir.join(file).exists() {
            bail!(
                "{what} is in progress in this repository ({} exists); finish it with {mend}, \
                 then run seal again",
                git_dir.join(file).display()
            );
        }
    }
    Ok(())
}

/// One path of `git diff-index --cached --raw`: HEAD's side and the staged side.
#[derive(Debug, Clone)]
struct Change {
    old_mode: u32,
    new_mode: u32,
    old_id: String,
    new_id: String,
    path: Vec<u8>,
}

impl Change {
    fn is_regular_file(&self) -> bool {
        matches!(self.new_mode, 0o100644 | 0o100755)
    }
}

/// The private index in a temporary directory inside the git dir, and git run on it.
struct Stage<'a> {
    git: &'a Git,
    file: PathBuf,
    _dir: tempfile::TempDir,
}

impl<'a> Stage<'a> {
    /// Copies the index (if there is one) to a private file next to it.
    fn new(git: &'a Git, git_dir: &Path, index: &Path) -> Result<Stage<'a>> {
        let dir = tempfile::Builder::new()
            .prefix("handoff-seal-")
            .tempdir_in(git_dir)
            .with_context(|| format!("creating a temporary directory in {}", git_dir.display()))?;
        let file = dir.path().join("index");
        // Git never writes an index file in place (it writes `<file>.lock` and renames it), so a
        // hard link is a private copy that costs nothing and keeps the mtime git's "racy git"
        // check depends on. Where linking fails, a copy with the same mtime does the same.
        match fs::hard_link(index, &file) {
            Ok(()) => {}
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            Err(_) => match fs::copy(index, &file) {
                Ok(_) => copy_mtime(index, &File::options().write(true).open(&file)?)
                    .with_context(|| format!("copying {}", index.display()))?,
                Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                Err(err) => return Err(anyhow!("copying {}: {err}", index.display())),
            },
        }
        Ok(Stage { git, file, _dir: dir })
    }

    fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut cmd = self.git.command(args);
        cmd.env("GIT_INDEX_FILE", &self.file).env("GIT_LITERAL_PATHSPECS", "1");
        cmd
    }

    fn run(&self, args: &[&str]) -> Result<Vec<u8>> {
        let mut cmd = self.command(args);
        let output = git::run(&mut cmd)?;
        git::checked(&cmd, output)
    }

    fn add_all(&self) -> Result<()> {
        self.run(&["add", "--all"]).map(drop).context("staging the work tree like `git add -A`")
    }

    /// What the private index changes against `base` (a commit, or the empty tree), in git's
    /// path order. Plumbing ignores `diff.*` settings: every changed path, no renames.
    fn changes(&self, base: &ObjectId) -> Result<Vec<Change>> {
        let base = base.to_string();
        let out = self.run(&[
            "diff-index",
            "--cached",
            "-z",
            "--raw",
            "--no-renames",
            "--ignore-submodules=none",
            base.as_str(),
        ])?;
        parse_raw(&out)
    }

    /// Puts HEAD's entries (or none) back for `changes`, so the commit leaves them as they were.
    fn reset_to_head(&self, changes: &[&Change]) -> Result<()> {
        let mut info = Vec::new();
        for c in changes {
            index_line(&mut info, c.old_mode, &c.old_id, &c.path, c.new_id.len());
        }
        self.update_index_info(&info)
    }

    /// Puts the original index's entries back for `changes`, so skipped files are staged exactly
    /// as before the seal (intent-to-add entries stay intent-to-add, and assume-unchanged and
    /// skip-worktree bits are set again).
    fn restore_entries(
        &self,
        gix: &gix::Repository,
        index: &Path,
        changes: &[&Change],
    ) -> Result<()> {
        if changes.is_empty() {
            return Ok(());
        }
        let original = match index.exists() {
            true => Some(
                gix::index::File::at(index, gix.object_hash(), false, Default::default())
                    .with_context(|| format!("reading {}", index.display()))?,
            ),
            false => None,
        };
        let hex_len = gix.object_hash().len_in_hex();
        let mut info = Vec::new();
        let mut intents = Vec::new();
        let mut assumed = Vec::new();
        let mut skip_worktree = Vec::new();
        for c in changes {
            let entry = original.as_ref().and_then(|o| o.entry_by_path(c.path.as_bstr()));
            if let Some(e) = entry {
                use gix::index::entry::Flags;
                for (flag, paths) in [
                    (Flags::ASSUME_VALID, &mut assumed),
                    (Flags::SKIP_WORKTREE, &mut skip_worktree),
                ] {
                    if e.flags.contains(flag) {
                        paths.extend_from_slice(&c.path);
                        paths.push(0);
                    }
                }
            }
            match entry {
                Some(e) if e.flags.contains(gix::index::entry::Flags::INTENT_TO_ADD) => {
                    index_line(&mut info, 0, "", &c.path, hex_len);
                    intents.extend_from_slice(&c.path);
                    intents.push(0);
                }
                Some(e) => {
                    index_line(&mut info, e.mode.bits(), &e.id.to_string(), &c.path, hex_len)
                }
                None => index_line(&mut info, 0, "", &c.path, hex_len),
            }
        }
        self.update_index_info(&info)?;
        if !intents.is_empty() {
            let args = [
                "add",
                "--intent-to-add",
                "--force",
                "--pathspec-from-file=-",
                "--pathspec-file-nul",
            ];
            self.run_with_input(&args, &intents).context("restoring intent-to-add entries")?;
        }
        for (flag, paths) in [("--assume-unchanged", assumed), ("--skip-worktree", skip_worktree)] {
            if !paths.is_empty() {
                self.run_with_input(&["update-index", flag, "-z", "--stdin"], &paths)
                    .with_context(|| format!("restoring the {flag} bits"))?;
            }
        }
        Ok(())
    }

    fn update_index_info(&self, info: &[u8]) -> Result<()> {
        if info.is_empty() {
            return Ok(());
        }
        self.run_with_input(&["update-index", "--add", "-z", "--index-info"], info).map(drop)
    }

    fn run_with_input(&self, args: &[&str], input: &[u8]) -> Result<Vec<u8>> {
        let mut cmd = self.command(args);
        run_with_input(&mut cmd, input)
    }

    fn write_tree(&self) -> Result<String> {
        let out = self.run(&["write-tree"])?;
        Ok(out.trim_ascii().to_str_lossy().into_owned())
    }
}

/// One record of `git update-index -z --index-info`; mode 0 removes the path. `hex_len` is the
/// length of an object id in this repository's hash.
fn index_line(out: &mut Vec<u8>, mode: u32, id: &str, path: &[u8], hex_len: usize) {
    let zero = "0".repeat(hex_len);
    let id = if mode == 0 { zero.as_str() } else { id };
    out.extend_from_slice(format!("{mode:o} {id}\t").as_bytes());
    out.extend_from_slice(path);
    out.push(0);
}

/// Parses `git diff-index -z --raw` output: `:old new oid oid status NUL path NUL` records.
fn parse_raw(out: &[u8]) -> Result<Vec<Change>> {
    let mut fields = out.split(|&b| b == 0);
    let mut changes = Vec::new();
    while let Some(head) = fields.next() {
        if head.is_empty() {
            continue;
        }
        let bad = || anyhow!("unexpected `git diff-index` output: {:?}", head.to_str_lossy());
        let words: Vec<&str> = head
            .strip_prefix(b":")
            .ok_or_else(bad)?
            .to_str()
            .map_err(|_| bad())?
            .split(' ')
            .collect();
        let [old_mode, new_mode, old_id, new_id, _status] = words[..] else { return Err(bad()) };
        let mode = |m: &str| u32::from_str_radix(m, 8).map_err(|_| bad());
        let path = fields.next().ok_or_else(bad)?;
        changes.push(Change {
            old_mode: mode(old_mode)?,
            new_mode: mode(new_mode)?,
            old_id: old_id.to_string(),
            new_id: new_id.to_string(),
            path: path.to_vec(),
        });
    }
    Ok(changes)
}

/// The changed files the guard holds back: by name, else by the content of the staged blob.
fn find_secrets(git: &Git, guard: &Guard, changes: &[Change]) -> Result<Vec<Skipped>> {
    let mut skipped = Vec::new();
    let mut to_read = Vec::new();
    for c in changes.iter().filter(|c| c.is_regular_file()) {
        match guard.by_name(&c.path) {
            Some(why) => skipped.push(Skipped { path: c.path.clone(), why }),
            None => to_read.push(c),
        }
    }
    if !to_read.is_empty() {
        skipped.extend(scan_blobs(git, guard, &to_read)?);
    }
    let order: std::collections::HashMap<&[u8], usize> =
        changes.iter().enumerate().map(|(i, c)| (c.path.as_slice(), i)).collect();
    skipped.sort_by_key(|s| order.get(s.path.as_slice()).copied());
    Ok(skipped)
}

/// Streams the blobs through one `git cat-file --batch` and scans each. The ids go in from a
/// second thread while the answers are read, so neither side waits on the other per object.
fn scan_blobs(git: &Git, guard: &Guard, changes: &[&Change]) -> Result<Vec<Skipped>> {
    let mut cmd = git.command(["cat-file", "--batch", "--buffer"]);
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().with_context(|| format!("running {}", git::describe(&cmd)))?;
    let (Some(mut input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
        bail!("{} started without pipes", git::describe(&cmd));
    };
    let mut output = BufReader::with_capacity(1 << 16, output);
    let ids: Vec<u8> =
        changes.iter().flat_map(|c| format!("{}\n", c.new_id).into_bytes()).collect();
    let result = std::thread::scope(|s| {
        // Dropping `input` at the end of the thread closes git's stdin, which flushes its answers.
        let writer = s.spawn(move || input.write_all(&ids));
        let result = changes
            .iter()
            .filter_map(|c| match scan_one(&mut output, guard, c) {
                Ok(Some(why)) => Some(Ok(Skipped { path: c.path.clone(), why })),
                Ok(None) => None,
                Err(err) => Some(Err(err)),
            })
            .collect::<Result<Vec<Skipped>>>();
        if result.is_err() {
            // Unblocks the writer, which then fails on a closed pipe.
            let _ = child.kill();
        }
        let _ = writer.join();
        result
    });
    let finished = child.wait_with_output();
    let skipped = result.with_context(|| format!("reading blobs from {}", git::describe(&cmd)))?;
    let finished = finished.with_context(|| format!("waiting for {}", git::describe(&cmd)))?;
    git::checked(&cmd, finished)?;
    Ok(skipped)
}

/// Reads one `cat-file --batch` answer (`<oid> blob <size>\n<bytes>\n`) and scans its bytes.
fn scan_one(output: &mut impl BufRead, guard: &Guard, c: &Change) -> Result<Option<String>> {
    let mut header = Vec::new();
    output.read_until(b'\n', &mut header)?;
    let text = header.trim_ascii_end().to_str_lossy().into_owned();
    let size = match text.split(' ').collect::<Vec<_>>()[..] {
        [_, "blob", size] => size.parse::<u64>().ok(),
        _ => None,
    };
    let Some(size) = size else {
        bail!("`git cat-file` answered {text:?} for {} ({})", c.new_id, c.path.to_str_lossy());
    };
    let mut blob = output.take(size);
    let why = guard.by_content(&c.path, &mut blob)?;
    io::copy(&mut blob, &mut io::sink())?;
    if blob.limit() != 0 {
        bail!("`git cat-file` ended inside blob {} ({})", c.new_id, c.path.to_str_lossy());
    }
    let mut newline = [0u8; 1];
    output.read_exact(&mut newline)?;
    Ok(why)
}

/// Environment that gives git an identity when it has none: for the author and the committer
/// separately, the caller's `GIT_*_NAME/EMAIL`, then `author.*`/`committer.*`, then `user.*`,
/// then [`FALLBACK_NAME`]/[`FALLBACK_EMAIL`]. Empty when git already knows who is committing.
pub fn identity_env(git: &Git) -> Result<Vec<(String, String)>> {
    let mut env = Vec::new();
    let mut config: Option<Vec<(String, String)>> = None;
    let var = |key: &str| std::env::var(key).ok().filter(|v| !v.trim().is_empty());
    for who in ["AUTHOR", "COMMITTER"] {
        // Git takes these before any config; with both set there is nothing to ask.
        if var(&format!("GIT_{who}_NAME")).is_some() && var(&format!("GIT_{who}_EMAIL")).is_some() {
            continue;
        }
        let mut cmd = git.command(["var", &format!("GIT_{who}_IDENT")]);
        if git::run(&mut cmd)?.status.success() {
            continue;
        }
        let config = config.get_or_insert_with(|| ident_config(git));
        let lookup = |key: String| config.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
        let lower = who.to_lowercase();
        let name = var(&format!("GIT_{who}_NAME"))
            .or_else(|| lookup(format!("{lower}.name")))
            .or_else(|| lookup("user.name".into()))
            .unwrap_or_else(|| FALLBACK_NAME.into());
        let email = var(&format!("GIT_{who}_EMAIL"))
            .or_else(|| lookup(format!("{lower}.email")))
            .or_else(|| lookup("user.email".into()))
            .or_else(|| var("EMAIL"))
            .unwrap_or_else(|| FALLBACK_EMAIL.into());
        env.push((format!("GIT_{who}_NAME"), name));
        env.push((format!("GIT_{who}_EMAIL"), email));
    }
    Ok(env)
}

/// The repository's `user.*`, `author.*` and `committer.*` names and emails (non-empty ones).
fn ident_config(git: &Git) -> Vec<(String, String)> {
    let pattern = r"^(user|author|committer)\.(name|email)$";
    let mut cmd = git.command(["config", "-z", "--get-regexp", pattern]);
    let Ok(out) = git::run(&mut cmd) else { return Vec::new() };
    out.stdout
        .split(|&b| b == 0)
        .filter_map(|rec| {
            let (key, value) = rec.split_once_str("\n")?;
            let value = value.to_str().ok()?.trim();
            (!value.is_empty()).then(|| (key.to_str_lossy().to_lowercase(), value.to_string()))
        })
        .collect()
}

/// `git commit-tree`: no hooks, no signing, the message verbatim.
fn commit_tree(
    git: &Git,
    tree: &str,
    parent: Option<ObjectId>,
    message: &str,
    identity: &[(String, String)],
) -> Result<String> {
    let parent = parent.map(|p| p.to_string());
    let mut args = vec!["commit-tree", "--no-gpg-sign", tree];
    if let Some(parent) = &parent {
        args.extend(["-p", parent.as_str()]);
    }
    let mut cmd = git.command(&args);
    cmd.envs(identity.iter().map(|(k, v)| (k, v)));
    let out = run_with_input(&mut cmd, message.as_bytes()).context("creating the seal commit")?;
    Ok(out.trim_ascii().to_str_lossy().into_owned())
}

/// Moves HEAD (its branch, or HEAD itself when detached) from `old` to `new`, only if it still
/// points at `old` (an unborn branch must still be unborn).
fn move_head(git: &Git, new: &str, old: Option<ObjectId>, reflog: &str) -> Result<()> {
    let old = old.map(|o| o.to_string()).unwrap_or_else(|| "0".repeat(new.len()));
    git.output(["update-ref", "-m", reflog, "HEAD", new, old.as_str()]).map(drop).with_context(|| {
        format!(
            "moving HEAD from {old} to the seal commit {new} failed; HEAD, the index and the work \
             tree are as they were; if HEAD moved meanwhile, run seal again"
        )
    })
}

/// Puts HEAD back where it was after a failure past [`move_head`].
fn undo_head(git: &Git, sealed: &str, old: Option<ObjectId>) -> Result<()> {
    match old {
        Some(old) => {
            let old = old.to_string();
            let args = ["update-ref", "-m", "handoff seal: undone", "HEAD", old.as_str(), sealed];
            git.output(args).map(drop)
        }
        None => git.output(["update-ref", "-d", "HEAD", sealed]).map(drop),
    }
}

/// Runs `cmd` with `input` on its stdin and returns stdout; a non-zero exit is an error.
fn run_with_input(cmd: &mut Command, input: &[u8]) -> Result<Vec<u8>> {
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().with_context(|| format!("running {}", git::describe(cmd)))?;
    let mut stdin = child.stdin.take().context("stdin of a child process")?;
    // The writer runs beside the reader so neither side can fill a pipe and wait on the other.
    let (output, written) = std::thread::scope(|s| {
        let writer = s.spawn(move || stdin.write_all(input));
        let output = child.wait_with_output();
        let written = writer.join().unwrap_or_else(|_| Err(io::Error::other("writer thread")));
        (output, written)
    });
    let output = output.with_context(|| format!("waiting for {}", git::describe(cmd)))?;
    let stdout = git::checked(cmd, output)?;
    // A failed write matters only when git did not fail first (then its message is the better one).
    written.with_context(|| format!("writing to {}", git::describe(cmd)))?;
    Ok(stdout)
}

fn lossy_path<S: Serializer>(path: &[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_str_lossy())
}

fn lossy_paths<S: Serializer>(paths: &[Vec<u8>], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(paths.iter().map(|p| p.to_str_lossy()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(message: Option<&str>) -> Request {
        Request {
            issue: 7,
            started_at: time::parse("2026-11-30T03:48:52Z").unwrap(),
            message: message.map(str::to_string),
            allow_secrets: false,
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
