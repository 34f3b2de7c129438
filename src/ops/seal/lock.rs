//! The index lock seal holds from start to end (taken as git takes it, O_CREAT|O_EXCL), the private
//! index beside it, and the refusal to seal in the middle of a merge, rebase or other operation.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use crate::git::repo::Repo;

/// The index file git uses here: `GIT_INDEX_FILE`, else `<git dir>/index`.
pub(super) fn index_path(repo: &Repo) -> Result<PathBuf> {
    repo.index_path()
}

/// `index.lock`, taken the way git takes it: created exclusively, removed only if it is still ours.
pub(super) struct IndexLock {
    pub(super) path: PathBuf,
    pub(super) index: PathBuf,
    pub(super) file: File,
    pub(super) installed: bool,
}

impl IndexLock {
    pub(super) fn acquire(index: &Path) -> Result<IndexLock> {
        let mut name = index.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let create = || OpenOptions::new().write(true).create_new(true).open(&path);
        // A dead process's lock (a killed seal's, or git's that nobody holds) does not block.
        let file = match create() {
            Err(err)
                if err.kind() == io::ErrorKind::AlreadyExists
                    && crate::util::leftovers::lock_cleared_within(
                        &path,
                        crate::git::note_commit::LOCK_WAIT,
                    ) =>
            {
                create()
            }
            other => other,
        };
        let mut file = file.map_err(|err| {
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
        // Who holds it, for the next command to judge if this process dies holding it. Git never
        // reads a lock's content: our new index is renamed over the index, not the lock.
        use std::io::Write;
        let _ = file.write_all(crate::util::leftovers::lock_owner().as_bytes());
        Ok(IndexLock { path, index: index.to_path_buf(), file, installed: false })
    }

    /// True while the lock file on disk is the one we created (nobody removed and retook it).
    pub(super) fn is_ours(&self) -> bool {
        match (fs::symlink_metadata(&self.path), self.file.metadata()) {
            (Ok(disk), Ok(held)) => disk.dev() == held.dev() && disk.ino() == held.ino(),
            _ => false,
        }
    }

    /// Renames the new index (a complete file git wrote, next to the index) over the index while
    /// we still hold the lock, so it becomes visible in one step, then drops the lock. A rename,
    /// unlike a copy into the lock, keeps the mtime git wrote it with ("racy git" depends on it).
    pub(super) fn install(&mut self, new_index: &Path) -> Result<()> {
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
pub(super) fn copy_mtime(from: &Path, to: &File) -> io::Result<()> {
    let modified = fs::metadata(from)?.modified()?;
    to.set_times(fs::FileTimes::new().set_modified(modified))
}

/// Refuses to seal in the middle of an operation that owns the index and HEAD.
pub(super) fn refuse_in_progress(git_dir: &Path) -> Result<()> {
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
