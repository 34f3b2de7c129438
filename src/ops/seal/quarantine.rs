//! The object quarantine: seal's git children write every new object into a private directory
//! inside the object store (`objects/tmp_objdir-handoff-*`, as git's own receive quarantine does),
//! with the store itself as an alternate. Only what the seal keeps moves into the store before
//! HEAD moves: everything when no file was skipped, else the objects reachable from the seal commit
//! (or the tree of the index left in place). The blobs of skipped files, secrets, never stay behind
//! in `.git/objects`: they leave with the directory.
//!
//! `git add` writes the new blobs into one pack here (`core.bigFileThreshold=1` sends every
//! unfiltered file through git's bulk check-in): one file instead of a loose object per blob,
//! which on a tree of small files is most of what staging costs. When every object is kept the
//! packs and loose objects move as they are, packs with their index last. When some are not (a
//! skipped secret's blob sits in the pack), `git pack-objects` writes the kept ones into a new pack
//! in the store instead, and nothing else moves.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gix::ObjectId;

use crate::git::plumbing::run_with_input;
use crate::git::{Git, pack_write};
use crate::util::leftovers::tagged;

/// A quarantine is `objects/<this><pid>-<random>`: a killed seal's is removed by the next command.
pub const PREFIX: &str = crate::util::leftovers::QUARANTINE_PREFIX;

pub(super) struct Quarantine {
    dir: tempfile::TempDir,
    store: PathBuf,
}

impl Quarantine {
    /// A new, empty quarantine inside the object store at `store`.
    pub(super) fn new(store: &Path) -> Result<Quarantine> {
        let dir = tempfile::Builder::new().prefix(&tagged(PREFIX)).tempdir_in(store).with_context(
            || format!("creating a temporary object directory in {}", store.display()),
        )?;
        Ok(Quarantine { dir, store: store.to_path_buf() })
    }

    /// The directory new objects go to.
    pub(super) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `git` writing new objects here and reading the store (and its alternates) as well.
    ///
    /// With `fsync_as_default` (`core.fsync` and `core.fsyncObjectFiles` unset), the packs written
    /// here are not flushed to disk one by one: they stand for the loose objects `git add` and
    /// `git commit` would write, which git by default does not flush either
    /// (`committed,-loose-object`), and each flush cost the seal a wait on the disk.
    pub(super) fn apply(&self, git: Git, fsync_as_default: bool) -> Git {
        let git =
            if fsync_as_default { git.with_config("core.fsync=-pack,-pack-metadata") } else { git };
        git.with_env("GIT_OBJECT_DIRECTORY", self.dir.path())
            .with_env("GIT_ALTERNATE_OBJECT_DIRECTORIES", pack_write::alternates_with(&self.store))
    }

    /// Moves the objects the seal keeps into the store: with `selective`, only those reachable
    /// from `root` (a commit or a tree) that `old` (HEAD) does not reach; otherwise all.
    pub(super) fn migrate(
        &self,
        git: &Git,
        root: &str,
        old: Option<ObjectId>,
        selective: bool,
    ) -> Result<()> {
        if selective {
            return self.pack_kept(git, root, old);
        }
        let entries = fs::read_dir(self.dir.path()).context("listing the temporary objects")?;
        let mut packs = Vec::new();
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == "pack" {
                packs.push(entry.path());
            } else if name.len() == 2 && name.bytes().all(|b| b.is_ascii_hexdigit()) {
                self.move_loose(&entry.path(), &name)?;
            }
        }
        for pack in packs {
            self.move_packs(&pack)?;
        }
        Ok(())
    }

    /// Writes the objects reachable from `root` and not from `old` into a new pack in the store.
    fn pack_kept(&self, git: &Git, root: &str, old: Option<ObjectId>) -> Result<()> {
        let keep = reachable(git, root, old)?;
        if keep.is_empty() {
            return Ok(());
        }
        let target = self.store.join("pack");
        fs::create_dir_all(&target).with_context(|| format!("creating {}", target.display()))?;
        let mut input = keep.join("\n");
        input.push('\n');
        let mut cmd =
            git.command([OsString::from("pack-objects"), "-q".into(), target.join("pack").into()]);
        run_with_input(&mut cmd, input.as_bytes()).context("packing the objects the seal keeps")?;
        Ok(())
    }

    fn move_loose(&self, dir: &Path, fan: &str) -> Result<()> {
        let target = self.store.join(fan);
        fs::create_dir_all(&target).with_context(|| format!("creating {}", target.display()))?;
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let to = target.join(entry.file_name());
            // An object is its name: one that is already there is the same object.
            if !to.exists() {
                fs::rename(entry.path(), &to)
                    .with_context(|| format!("moving an object into {}", to.display()))?;
            }
        }
        Ok(())
    }

    /// Moves packs with their index last, so no reader sees an index without its pack.
    fn move_packs(&self, dir: &Path) -> Result<()> {
        let target = self.store.join("pack");
        fs::create_dir_all(&target)?;
        let mut files: Vec<PathBuf> =
            fs::read_dir(dir)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort_by_key(|f| f.extension().is_some_and(|e| e == "idx"));
        for file in files {
            let Some(name) = file.file_name() else { continue };
            fs::rename(&file, target.join(name))
                .with_context(|| format!("moving {}", file.display()))?;
        }
        Ok(())
    }
}

/// The objects reachable from `root` and not from `old`, as hex ids.
fn reachable(git: &Git, root: &str, old: Option<ObjectId>) -> Result<Vec<String>> {
    let old = old.map(|o| format!("^{o}"));
    let mut args = vec!["rev-list", "--objects", "--no-object-names", root];
    args.extend(old.as_deref());
    let out = git.output(&args).context("listing the objects the seal keeps")?;
    Ok(String::from_utf8_lossy(&out).lines().map(str::to_string).collect())
}
