//! Staging on the private index: `git add -A` there, the changes it made against HEAD read from
//! `git diff-index --cached --raw`, and skipped paths put back to HEAD's entry.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::git::plumbing::run_with_input;
use crate::git::{self, Git};

use super::lock::copy_mtime;
use super::prescan;

/// Refuses an index with unmerged entries: sealing would record one side of a conflict. The
/// index is read in-process and returned for listing the changes; one that gix cannot read is left
/// to `git ls-files --unmerged`.
pub(super) fn refuse_conflicts(
    git: &Git,
    hash: gix::hash::Kind,
    index: &Path,
) -> Result<Option<gix::index::File>> {
    let (mut paths, file): (Vec<Vec<u8>>, _) =
        match gix::index::File::at(index, hash, true, Default::default()) {
            Ok(file) => {
                let unmerged = file
                    .entries()
                    .iter()
                    .filter(|e| e.stage_raw() != 0)
                    .map(|e| e.path(&file).to_vec())
                    .collect();
                (unmerged, Some(file))
            }
            Err(_) if !index.exists() => (Vec::new(), None),
            Err(_) => {
                let mut cmd = git.command(["ls-files", "--unmerged", "-z"]);
                cmd.env("GIT_INDEX_FILE", index);
                let output = git::run(&mut cmd)?;
                let out = git::checked(&cmd, output)?;
                let unmerged = out
                    .split(|&b| b == 0)
                    .filter_map(|rec| rec.find_byte(b'\t').map(|tab| rec[tab + 1..].to_vec()))
                    .collect();
                (unmerged, None)
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
    Ok(file)
}

/// One path of `git diff-index --cached --raw`: HEAD's side and the staged side.
#[derive(Debug, Clone)]
pub(super) struct Change {
    pub(super) old_mode: u32,
    pub(super) new_mode: u32,
    pub(super) old_id: String,
    pub(super) new_id: String,
    pub(super) path: Vec<u8>,
}

impl Change {
    pub(super) fn is_regular_file(&self) -> bool {
        matches!(self.new_mode, 0o100644 | 0o100755)
    }
}

/// The seal's private index lives in `<git dir>/<this><pid>-<random>/`.
pub const PREFIX: &str = crate::util::leftovers::STAGE_PREFIX;

/// The private index in a temporary directory inside the git dir, and git run on it.
pub(super) struct Stage<'a> {
    pub(super) git: &'a Git,
    pub(super) file: PathBuf,
    pub(super) _dir: tempfile::TempDir,
}

impl<'a> Stage<'a> {
    /// Copies the index (if there is one) to a private file next to it.
    pub(super) fn new(git: &'a Git, git_dir: &Path, index: &Path) -> Result<Stage<'a>> {
        let dir = tempfile::Builder::new()
            .prefix(&crate::util::leftovers::tagged(PREFIX))
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

    pub(super) fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut cmd = self.git.command(args);
        cmd.env("GIT_INDEX_FILE", &self.file).env("GIT_LITERAL_PATHSPECS", "1");
        cmd
    }

    pub(super) fn run(&self, args: &[&str]) -> Result<Vec<u8>> {
        let mut cmd = self.command(args);
        let output = git::run(&mut cmd)?;
        git::checked(&cmd, output)
    }

    /// `git add --all` on the private index. Its new blobs go into one pack (git's bulk
    /// check-in, for every file above `core.bigFileThreshold`, here one byte) deflated at the
    /// fastest level: creating a loose object file per blob was most of what `add` cost on a tree
    /// of small files, and deflating at the default level most of it on larger ones. (Stored
    /// without compression, ripgrep's tree took a fifth less, but `git gc` copies packed objects
    /// as they are, so the pack would stay that size: seven times larger on text.) Files that a
    /// filter or line-ending conversion rewrites are still written loose, without compression
    /// (git compresses loose objects when it packs them).
    /// Paths in `special` (held paths that are no regular file, a FIFO at the note path) are
    /// kept out: `git add` refuses such a file, and the whole seal with it.
    pub(super) fn start_add(&self, scanning: bool, special: &[&[u8]]) -> Result<prescan::Adding> {
        let mut args: Vec<std::ffi::OsString> = [
            "-c",
            "core.bigFileThreshold=1",
            "-c",
            "pack.compression=1",
            "-c",
            "core.looseCompression=0",
            "add",
            "--all",
        ]
        .map(Into::into)
        .to_vec();
        if !special.is_empty() {
            use std::os::unix::ffi::OsStringExt;
            // No `--`: the scan adds `--verbose` after; every pathspec here starts with `:(`.
            args.push(":(top)".into());
            for path in special {
                let spec = [b":(top,literal,exclude)".as_slice(), path].concat();
                args.push(std::ffi::OsString::from_vec(spec));
            }
        }
        let mut cmd = self.command(args);
        if !special.is_empty() {
            // The exclusion is pathspec magic, which literal pathspecs turn off.
            cmd.env_remove("GIT_LITERAL_PATHSPECS");
        }
        git::keep_freed_memory(&mut cmd);
        prescan::start(cmd, scanning).context("staging the work tree like `git add -A`")
    }

    /// What the private index changes against `base` (a commit, or the empty tree), in git's
    /// path order. Plumbing ignores `diff.*` settings: every changed path, no renames.
    pub(super) fn changes(&self, base: &ObjectId) -> Result<Vec<Change>> {
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
    pub(super) fn reset_to_head(&self, changes: &[&Change]) -> Result<()> {
        let mut info = Vec::new();
        for c in changes {
            index_line(&mut info, c.old_mode, &c.old_id, &c.path, c.new_id.len());
        }
        self.update_index_info(&info)
    }

    /// Puts the original index's entries back for `changes`, so skipped files are staged exactly
    /// as before the seal (intent-to-add entries stay intent-to-add, and assume-unchanged and
    /// skip-worktree bits are set again).
    pub(super) fn restore_entries(
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

    pub(super) fn update_index_info(&self, info: &[u8]) -> Result<()> {
        if info.is_empty() {
            return Ok(());
        }
        self.run_with_input(&["update-index", "--add", "-z", "--index-info"], info).map(drop)
    }

    pub(super) fn run_with_input(&self, args: &[&str], input: &[u8]) -> Result<Vec<u8>> {
        let mut cmd = self.command(args);
        run_with_input(&mut cmd, input)
    }

    pub(super) fn write_tree(&self) -> Result<String> {
        let out = self.run(&["write-tree"])?;
        Ok(out.trim_ascii().to_str_lossy().into_owned())
    }

    /// True when the private index stages something other than `index` does: another entry
    /// (path, stage, mode, object) or other intent-to-add, skip-worktree or assume-unchanged bits.
    /// Stat data and extensions are not compared: they do not change what is staged.
    pub(super) fn differs_from(&self, hash: gix::hash::Kind, index: &Path) -> Result<bool> {
        use gix::index::entry::Flags;
        let read = |path: &Path| -> Result<Option<gix::index::File>> {
            match gix::index::File::at(path, hash, false, Default::default()) {
                Ok(file) => Ok(Some(file)),
                Err(_) if !path.exists() => Ok(None),
                Err(err) => Err(anyhow!("reading {}: {err}", path.display())),
            }
        };
        let (Some(ours), theirs) = (read(&self.file)?, read(index)?) else { return Ok(false) };
        let Some(theirs) = theirs else { return Ok(!ours.entries().is_empty()) };
        if ours.entries().len() != theirs.entries().len() {
            return Ok(true);
        }
        let bits = Flags::INTENT_TO_ADD | Flags::SKIP_WORKTREE | Flags::ASSUME_VALID;
        let same = ours.entries().iter().zip(theirs.entries()).all(|(a, b)| {
            a.path(&ours) == b.path(&theirs)
                && a.stage_raw() == b.stage_raw()
                && a.mode == b.mode
                && a.id == b.id
                && a.flags & bits == b.flags & bits
        });
        Ok(!same)
    }
}

/// One record of `git update-index -z --index-info`; mode 0 removes the path. `hex_len` is the
/// length of an object id in this repository's hash.
pub(super) fn index_line(out: &mut Vec<u8>, mode: u32, id: &str, path: &[u8], hex_len: usize) {
    let zero = "0".repeat(hex_len);
    let id = if mode == 0 { zero.as_str() } else { id };
    out.extend_from_slice(format!("{mode:o} {id}\t").as_bytes());
    out.extend_from_slice(path);
    out.push(0);
}

/// Parses `git diff-index -z --raw` output: `:old new oid oid status NUL path NUL` records.
pub(super) fn parse_raw(out: &[u8]) -> Result<Vec<Change>> {
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
