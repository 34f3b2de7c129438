//! One walk of the tracked files for both `git status -uno` and `git diff <base>`.
//!
//! Each of the two would stat every tracked file, and on a large tree that walk is most of what
//! they cost. Here it is done once, by us, on every core: each entry whose `lstat` matches the stat
//! data in the index exactly, and is not racily clean, is unchanged. A private copy of the index
//! then carries that answer as a file system monitor extension (`FSMN`, version 2: a token and a
//! bitmap of the entries that may have changed), and both git commands read it with
//! `core.fsmonitor` set to a hook that only answers "nothing more changed". git then stats only
//! the entries the bitmap names (`check_removed` and `fake_lstat` in git's `diff-lib.c`, 2.44 on;
//! older versions stat everything and print the same). What git prints is git's own: a file we
//! call unchanged is one whose stat data git itself would trust, and every doubt (racily clean,
//! intent-to-add, skip-worktree, a zero size the index smudged, a path under a symlink or a
//! missing directory, another file type or executable bit) leaves the entry to git. The private
//! index is given the real one's modification time, so git doubts the same racily clean entries
//! it would doubt there (one changed in the tick the index was written, whose stat data the index
//! still holds) and reads them.
//!
//! The private index ends in a null checksum, which git (2.40 on) reads without hashing the file,
//! as with `index.skipHash`; an older git refuses it, and the snapshot then runs without it.
//!
//! The same walk reads each tracked directory once (from the directory names kept between
//! snapshots when it has not changed, see [`dir_cache`](super::dir_cache)) for the untracked
//! half of status (see [`untracked_names`]).

use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

use rustix::fs::{self, AtFlags, Mode, OFlags};
use rustix::io::Errno;

use anyhow::{Context, Result, anyhow};
use tempfile::NamedTempFile;

use super::dir_cache::{DirCache, Visited};
use super::git_untracked::GitUntracked;
use super::private_index;
use super::untracked_names::{self, Found, Looking};
use crate::git::index_scan::{Entry, Scan};

/// The index as read, with the time it was written: a file changed in or after that second may
/// be racily clean, and only reading it tells.
pub(super) struct Index {
    /// The index's entries, with its bytes.
    pub scan: Scan,
    /// The second the index was written, and the whole time, which the private index is given.
    pub written: i64,
    pub modified: SystemTime,
    pub hash_len: usize,
}

/// What the walk leaves: the private index, and the untracked candidates (see [`untracked_names`]).
pub(super) struct Walked {
    /// The private index's file, made by the walk; filled beside it, or on first use when the
    /// snapshot expects not to need it ([`Walked::private_index`]).
    index: NamedTempFile,
    filled: OnceLock<Result<(), String>>,
    /// Each index entry the walk could not call unchanged, in index order: git looks at these.
    pub dirty: Vec<bool>,
    /// The names git is to look at for untracked files; `None` when it must look everywhere (not
    /// asked for, or too many).
    pub others: Option<Vec<Vec<u8>>>,
}

impl Walked {
    /// The private index that carries the walk's answer, written now if it was left for later.
    pub fn private_index(&self, index: &Index) -> Result<&Path> {
        let filled = self.filled.get_or_init(|| {
            let file = self.index.as_file();
            private_index::write_start(file, &index.scan)
                .and_then(|()| {
                    private_index::write_end(file, &self.dirty, index.modified, index.hash_len)
                })
                .map_err(|err| format!("{err:#}"))
        });
        match filled {
            Ok(()) => Ok(self.index.path()),
            Err(err) => Err(anyhow!("{err}")),
        }
    }

    /// A path beside the private index where no file is: an empty index, to git.
    pub fn no_index(&self) -> std::path::PathBuf {
        let mut path = self.index.path().as_os_str().to_owned();
        path.push(".none");
        path.into()
    }
}

/// Walks the tracked files under `root` and writes the private index beside it, unless `defer`
/// leaves that for first use (where the narrowed diff and status are expected to need none: 8 MB
/// written and removed again on tc39/test262); with `dir_cache` (where the directories' names
/// are kept), also reads their directories for untracked names. `known`, when the user's monitor
/// answered (see [`monitor`]), names the entries that may have changed; the others are not
/// stat'ed.
pub(super) fn walk(
    root: &Path,
    index: &Index,
    dir_cache: Option<(&Path, Option<Arc<GitUntracked>>)>,
    known: Option<&[bool]>,
    defer: bool,
) -> Result<Walked> {
    let cache = dir_cache.map(|(path, git)| DirCache::load(path.to_path_buf(), root, git));
    let file = tempfile::Builder::new()
        .prefix("git-handoff-index-")
        .tempfile()
        .context("creating the snapshot's private index")?;
    // Everything but the monitor's extension is the index as read: it is written while the
    // walkers stat, and the extension appended once they are done.
    let (start, (dirty, mut others, visited)) = std::thread::scope(|s| {
        let start =
            (!defer).then(|| s.spawn(|| private_index::write_start(file.as_file(), &index.scan)));
        let walked = dirty_entries(root, index, cache.as_ref(), known);
        let panicked = || Err(anyhow!("writing the private index panicked"));
        (start.map(|start| start.join().unwrap_or_else(|_| panicked())), walked)
    });
    if cache.as_ref().is_some_and(|cache| !cache.git_held(root)) {
        others = None;
    }
    // A walk that stopped reading directories (too many names, one it could not read) leaves the
    // kept names as they were.
    if let (Some(cache), Some(_)) = (&cache, &others) {
        cache.save(&visited);
    }
    let filled = OnceLock::new();
    if let Some(start) = start {
        start?;
        private_index::write_end(file.as_file(), &dirty, index.modified, index.hash_len)?;
        let _ = filled.set(Ok(()));
    }
    Ok(Walked { index: file, filled, dirty, others })
}

/// For each entry, whether git must look at it; with `others`, the untracked candidates.
fn dirty_entries(
    root: &Path,
    index: &Index,
    cache: Option<&DirCache>,
    known: Option<&[bool]>,
) -> (Vec<bool>, Option<Vec<Vec<u8>>>, Vec<Visited>) {
    let entries = &index.scan.entries;
    // More walkers than cores only contend for the same directories. The entries are dealt in
    // pieces, so a walker that finishes early takes more rather than waiting for the others.
    let threads = std::thread::available_parallelism().map_or(1, usize::from).clamp(1, 4);
    let piece = (entries.len() / (threads * 8)).clamp(256, 8192);
    let pieces = entries.len().div_ceil(piece);
    let next = AtomicUsize::new(0);
    // What no walker answered for stays for git to look at.
    let mut dirty = vec![true; entries.len()];
    let mut found = Vec::with_capacity(threads);
    let mut visited = Vec::new();
    std::thread::scope(|s| {
        let walkers: Vec<_> = (0..threads.min(pieces))
            .map(|_| {
                s.spawn(|| {
                    let mut walker = Walker::new(root, cache);
                    let mut done = Vec::new();
                    loop {
                        let at = next.fetch_add(1, Ordering::Relaxed) * piece;
                        if at >= entries.len() {
                            break;
                        }
                        let end = (at + piece).min(entries.len());
                        let part: Vec<bool> =
                            (at..end).map(|i| walker.visit(index, i, known)).collect();
                        done.push((at, part));
                    }
                    (done, walker.others)
                })
            })
            .collect();
        for walker in walkers {
            match walker.join() {
                Ok((done, looking)) => {
                    for (at, part) in done {
                        dirty[at..at + part.len()].copy_from_slice(&part);
                    }
                    if let Some(looking) = looking {
                        found.push(looking.found);
                        visited.extend(looking.visited);
                    }
                }
                Err(_) => found.push(Found::everywhere()),
            }
        }
    });
    // With no entry, no walker read the top directory.
    let others = (cache.is_some() && !entries.is_empty()).then(|| Found::into_names(found));
    (dirty, others.flatten(), visited)
}

/// One thread's walk: the directory it is in, opened one component at a time without following
/// symlinks (git treats a path under a symlink as gone), so each file costs one `fstatat` of its
/// own name.
struct Walker<'a> {
    root: Option<OwnedFd>,
    /// The open components of the current directory; `broken` when the next one is not a real
    /// directory.
    open: Vec<(Vec<u8>, OwnedFd)>,
    broken: bool,
    /// Opening failed for another reason than the path not being a real directory (no
    /// descriptor left, no memory): what is under it is unknown.
    strange: bool,
    /// The directory `open` leads to, as a path: most entries are in the one before theirs.
    current: Vec<u8>,
    /// The untracked names looked for, when asked (see [`untracked_names`]).
    others: Option<Looking<'a>>,
}

impl<'a> Walker<'a> {
    fn new(root: &Path, cache: Option<&'a DirCache>) -> Walker<'a> {
        let root =
            fs::open(root, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty());
        Walker {
            root: root.ok(),
            open: Vec::new(),
            broken: false,
            strange: false,
            current: Vec::new(),
            others: cache.map(Looking::new),
        }
    }

    /// Entry `at`: reads the directories it is the first entry of, when looking for untracked
    /// files, and answers whether git must look at it.
    fn visit(&mut self, index: &Index, at: usize, known: Option<&[bool]>) -> bool {
        let scan = &index.scan;
        if let Some(mut looking) = self.others.take() {
            let path = scan.path(&scan.entries[at]);
            for len in untracked_names::first_in(scan, at) {
                if looking.found.whole {
                    break;
                }
                let dir = &path[..len];
                match self.enter(dir) {
                    Some(fd) => untracked_names::read_dir(scan, at, dir, fd, &mut looking),
                    // A directory that is not a real one holds nothing git would list; one that
                    // could not be opened for another reason may.
                    None => looking.found.whole |= self.strange,
                }
            }
            self.others = Some(looking);
        }
        // What the monitor knows unchanged, git trusts without a look.
        if known.is_some_and(|known| !known.get(at).copied().unwrap_or(true)) {
            return false;
        }
        self.dirty(index, &scan.entries[at])
    }

    fn dirty(&mut self, index: &Index, entry: &Entry) -> bool {
        if entry.extended {
            return true;
        }
        let path = index.scan.path(entry);
        let (dir, name) = match path.iter().rposition(|&b| b == b'/') {
            Some(at) => (&path[..at], &path[at + 1..]),
            None => (&path[..0], path),
        };
        let Some(dir) = self.enter(dir) else { return true };
        match fs::statat(dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => {
                let at = entry.at();
                !matches_index(&index.scan.bytes[at..at + 40], entry.mode, &stat)
                    || modified_in_or_after(&stat, index.written)
            }
            Err(_) => true,
        }
    }

    /// The descriptor of `dir` (relative to the root), or `None` when it is not a real directory.
    fn enter(&mut self, dir: &[u8]) -> Option<BorrowedFd<'_>> {
        if self.broken || dir != self.current.as_slice() {
            self.open_dir(dir);
        }
        if self.broken {
            return None;
        }
        match self.open.last() {
            Some((_, fd)) => Some(fd.as_fd()),
            None => {
                self.strange |= self.root.is_none();
                self.root.as_ref().map(|fd| fd.as_fd())
            }
        }
    }

    /// Opens `dir` from the components already open, setting `broken` where it is not real.
    fn open_dir(&mut self, dir: &[u8]) {
        let wanted: Vec<&[u8]> =
            if dir.is_empty() { Vec::new() } else { dir.split(|&b| b == b'/').collect() };
        let same = self.open.iter().zip(&wanted).take_while(|((have, _), want)| have == *want);
        let same = same.count();
        if self.broken || same < self.open.len() || same < wanted.len() {
            self.open.truncate(same);
            self.broken = false;
            self.strange = false;
            for component in &wanted[same..] {
                let parent = match (self.open.last(), &self.root) {
                    (Some((_, fd)), _) => fd.as_fd(),
                    (None, Some(root)) => root.as_fd(),
                    (None, None) => {
                        (self.broken, self.strange) = (true, true);
                        break;
                    }
                };
                let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                match fs::openat(parent, OsStr::from_bytes(component), flags, Mode::empty()) {
                    Ok(fd) => self.open.push((component.to_vec(), fd)),
                    Err(err) => {
                        let gone = [Errno::NOTDIR, Errno::NOENT, Errno::LOOP].contains(&err);
                        (self.broken, self.strange) = (true, !gone);
                        break;
                    }
                }
            }
        }
        self.current.clear();
        self.current.extend_from_slice(dir);
    }
}

/// Changed in or after the second the index was written: racily clean, only reading it tells.
#[allow(clippy::unnecessary_cast)] // the field types differ between architectures
fn modified_in_or_after(meta: &fs::Stat, second: i64) -> bool {
    meta.st_mtime as i64 >= second
}

/// Whether the file's stat data is the index entry's, field by field (git keeps 32 bits of each),
/// and its type and executable bit are the entry's mode.
#[allow(clippy::unnecessary_cast)] // the field types differ between architectures
fn matches_index(stat: &[u8], mode: u32, meta: &fs::Stat) -> bool {
    let field = |i: usize| u32::from_be_bytes(stat[i * 4..i * 4 + 4].try_into().unwrap());
    let kind = meta.st_mode as u32 & 0o170000;
    let same_kind = match mode {
        0o100644 => kind == 0o100000 && meta.st_mode as u32 & 0o100 == 0,
        0o100755 => kind == 0o100000 && meta.st_mode as u32 & 0o100 != 0,
        0o120000 => kind == 0o120000,
        _ => false,
    };
    same_kind
        && field(0) == meta.st_ctime as u32
        && field(1) == meta.st_ctime_nsec as u32
        && field(2) == meta.st_mtime as u32
        && field(3) == meta.st_mtime_nsec as u32
        && field(4) == meta.st_dev as u32
        && field(5) == meta.st_ino as u32
        && field(7) == meta.st_uid as u32
        && field(8) == meta.st_gid as u32
        // git writes a size of 0 for an entry it could not trust (a racily clean one).
        && field(9) != 0
        && field(9) == meta.st_size as u32
}
