//! git's own untracked cache (see [`untracked_cache`]) as a source of a directory's untracked
//! names, for a walk that has none of its own kept (see `dir_cache`): the
//! first snapshot of an attempt, right after the user's `git status` brought git's cache up to
//! date. A directory whose names git kept is then not read at all, as `git status` does not read
//! it either.
//!
//! git's names are used only where git would use them itself (`valid_cached_dir` and
//! `prep_exclude` in git's `dir.c`), and more strictly: the cache was made here
//! (`Location <work tree>, system Linux`), listing untracked files as `normal`; `info/exclude`
//! and `core.excludesFile` hold what they held (their blob ids); the directory is valid, not
//! check-only, and its stat data is what `fstat` says now, field for field, older than the index
//! (git doubts a directory changed in the tick the index was written); and the `.gitignore` of
//! the directory and of every directory above it is what it was: each one the cache names is
//! hashed again before the walk, and one the cache says was not there is not there now (one
//! added since changed its directory's times, which the walk sees, and is looked for after it).
//! The names git lists are the untracked ones but those ignored, which no listing of git's would
//! show anyway; they go to git as the names the walk found (see
//! [`untracked_names`](super::untracked_names)). Nothing of git's is written.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::SystemTime;

use rustix::fs::Stat;

use crate::git::index_scan::Scan;
use crate::git::untracked_cache::{self, NORMAL_FLAGS, UntrackedCache};

/// What the walk saw of a directory of the cache.
const UNSEEN: u8 = 0;
const SAME: u8 = 1;
const CHANGED: u8 = 2;
const USED: u8 = 3;

/// git's untracked cache, checked, as the walk asks it.
pub(super) struct GitUntracked {
    cache: UntrackedCache,
    by_path: HashMap<Vec<u8>, usize>,
    /// Per directory: its `.gitignore` and those above it are as the cache says.
    rules_kept: Vec<bool>,
    /// Per directory: what the walk saw of it ([`UNSEEN`], [`SAME`], [`CHANGED`], [`USED`]).
    seen: Vec<AtomicU8>,
    /// The index's modification time: a directory changed at or after it may be racily kept.
    index_time: (i64, u32),
}

impl GitUntracked {
    /// The cache of the index `scan` (modified at `modified`) of the work tree at `top`, where it
    /// can be used at all.
    pub fn load(
        repo: &gix::Repository,
        scan: &Scan,
        modified: SystemTime,
        top: &Path,
    ) -> Option<GitUntracked> {
        let config = repo.config_snapshot();
        if !cfg!(target_os = "linux") || config.boolean("core.untrackedCache") == Some(false) {
            return None;
        }
        let (_, range) = scan.extensions.iter().find(|(signature, _)| signature == b"UNTR")?;
        let hash = repo.object_hash();
        let cache = untracked_cache::parse(
            scan.bytes.get(range.start + 8..range.end)?,
            hash.len_in_bytes(),
        )?;
        let here = |top: &Path| {
            let mut ident = b"Location ".to_vec();
            ident.extend_from_slice(top.as_os_str().as_encoded_bytes());
            ident.extend_from_slice(b", system Linux");
            ident == cache.ident
        };
        let real_top = std::fs::canonicalize(top).ok();
        let ok = cache.dir_flags == NORMAL_FLAGS
            && cache.exclude_per_dir == b".gitignore"
            && (here(top) || real_top.as_deref().is_some_and(here))
            && same_file(hash, &repo.common_dir().join("info/exclude"), &cache.info_exclude)
            && same_file(hash, &excludes_file(&config)?, &cache.excludes_file)
            && !cache.dirs.is_empty();
        if !ok {
            return None;
        }
        // Each directory's `.gitignore` as the cache says, and its parent's rules kept (parents
        // come first).
        let mut rules_kept = Vec::with_capacity(cache.dirs.len());
        for dir in &cache.dirs {
            let parent_kept =
                dir.parent.is_none_or(|p| rules_kept.get(p).copied().unwrap_or(false));
            let own = if dir.exclude_id.iter().all(|&b| b == 0) {
                // None then: none tracked now (a new untracked one is seen by its directory's times).
                let mut path = dir.path.clone();
                if !path.is_empty() {
                    path.push(b'/');
                }
                path.extend_from_slice(b".gitignore");
                scan.entries.binary_search_by(|e| scan.path(e).cmp(&path)).is_err()
            } else {
                same_file(hash, &top.join(path_of(&dir.path)).join(".gitignore"), &dir.exclude_id)
            };
            rules_kept.push(parent_kept && own);
        }
        let by_path = cache.dirs.iter().enumerate().map(|(i, d)| (d.path.clone(), i)).collect();
        let seen = (0..cache.dirs.len()).map(|_| AtomicU8::new(UNSEEN)).collect();
        let since = modified.duration_since(SystemTime::UNIX_EPOCH).ok()?;
        let index_time = (since.as_secs() as i64, since.subsec_nanos());
        Some(GitUntracked { cache, by_path, rules_kept, seen, index_time })
    }

    /// The untracked names git kept for `dir`, whose `fstat` is `stat`, each with whether it is
    /// a directory; `None` where git's are not to be trusted.
    pub fn names(&self, dir: &[u8], stat: &Stat) -> Option<Vec<(&[u8], bool)>> {
        let &at = self.by_path.get(dir)?;
        let kept = &self.cache.dirs[at];
        let same = kept.stat.is_some_and(|s| same_stat(&s, stat)) && !self.racy(stat);
        self.seen[at].store(if same { SAME } else { CHANGED }, Ordering::Relaxed);
        if !same || kept.check_only || !self.rules_kept[at] {
            return None;
        }
        let names = kept.untracked.iter().map(|name| match name.strip_suffix(b"/") {
            Some(name) => (name, true),
            None => (name.as_slice(), false),
        });
        self.seen[at].store(USED, Ordering::Relaxed);
        Some(names.collect())
    }

    /// After the walk: whether every directory above one whose names came from git's cache
    /// still has the `.gitignore` the cache says (none, where its times changed).
    pub fn held(&self, top: &Path) -> bool {
        let seen = |i: usize| self.seen[i].load(Ordering::Relaxed);
        let mut checked = vec![false; self.cache.dirs.len()];
        for (i, dir) in self.cache.dirs.iter().enumerate() {
            if seen(i) != USED {
                continue;
            }
            let mut up = dir.parent;
            while let Some(p) = up {
                let none = self.cache.dirs[p].exclude_id.iter().all(|&b| b == 0);
                // One the cache names was hashed before the walk (see `rules_kept`).
                if !checked[p] && none && !matches!(seen(p), SAME | USED) {
                    let path = &self.cache.dirs[p].path;
                    let gitignore = top.join(path_of(path)).join(".gitignore");
                    if std::fs::symlink_metadata(gitignore).is_ok() {
                        return false;
                    }
                }
                checked[p] = true;
                up = self.cache.dirs[p].parent;
            }
        }
        true
    }

    #[allow(clippy::unnecessary_cast)] // the field types differ between architectures
    fn racy(&self, stat: &Stat) -> bool {
        let time = |s: i64, ns: i64| (s, ns as u32);
        let (mtime, ctime) = (
            time(stat.st_mtime as i64, stat.st_mtime_nsec as i64),
            time(stat.st_ctime as i64, stat.st_ctime_nsec as i64),
        );
        mtime >= self.index_time || ctime >= self.index_time
    }
}

/// Whether `fstat`'s answer is the stat data git kept, field for field (32 bits each).
#[allow(clippy::unnecessary_cast)] // the field types differ between architectures
fn same_stat(kept: &[u32; 9], stat: &Stat) -> bool {
    let now = [
        stat.st_ctime as u32,
        stat.st_ctime_nsec as u32,
        stat.st_mtime as u32,
        stat.st_mtime_nsec as u32,
        stat.st_dev as u32,
        stat.st_ino as u32,
        stat.st_uid as u32,
        stat.st_gid as u32,
        stat.st_size as u32,
    ];
    *kept == now
}

fn path_of(path: &[u8]) -> &Path {
    use std::os::unix::ffi::OsStrExt;
    Path::new(std::ffi::OsStr::from_bytes(path))
}

/// The largest ignore file read to compare with git's cache; a larger one is not trusted.
const MAX_PATTERNS_FILE: u64 = 16 << 20;

/// Whether the file at `path` holds what git took the id `kept` of (all zeros: no file). git's
/// `add_patterns` takes the index's id of a tracked file it found unchanged, else hashes the
/// file's bytes with a newline added (and an empty file as the empty blob); either is taken here,
/// and a file that differs from the one git hashed by that newline holds the same patterns.
fn same_file(hash: gix::hash::Kind, path: &Path, kept: &[u8]) -> bool {
    // Only a regular file, read bounded and without blocking: a `.gitignore` that is a symlink (a
    // clone can hold one, to /dev/zero say; git does not follow it) or a FIFO is not read, and
    // git's cache is not trusted there.
    match std::fs::symlink_metadata(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return kept.iter().all(|&b| b == 0);
        }
        Ok(meta) if meta.is_file() => {}
        _ => return false,
    }
    let read = crate::util::fs::read_regular_if_any(path, MAX_PATTERNS_FILE, "an ignore file");
    let Ok(Some(mut bytes)) = read else { return false };
    let id = |bytes: &[u8]| gix::objs::compute_hash(hash, gix::objs::Kind::Blob, bytes).ok();
    let same = |bytes: &[u8]| id(bytes).is_some_and(|id| id.as_bytes() == kept);
    if same(&bytes) {
        return true;
    }
    bytes.push(b'\n');
    same(&bytes)
}

/// `core.excludesFile`, or git's default under `XDG_CONFIG_HOME` or `~/.config`.
fn excludes_file(config: &gix::config::Snapshot<'_>) -> Option<std::path::PathBuf> {
    if let Some(path) = config.trusted_path("core.excludesFile").ok().flatten() {
        return Some(path);
    }
    let xdg = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty());
    let dir = match xdg {
        Some(xdg) => std::path::PathBuf::from(xdg),
        None => std::path::PathBuf::from(std::env::var_os("HOME")?).join(".config"),
    };
    Some(dir.join("git/ignore"))
}
