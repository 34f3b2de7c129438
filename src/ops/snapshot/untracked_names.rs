//! The untracked half of status, narrowed on the one walk (see [`tracked_walk`](super::tracked_walk)).
//!
//! `git ls-files --others` reads every directory of the work tree and looks each name up in the
//! index. The walk already holds each tracked directory open, so it reads the directory too and
//! keeps only the names the index cannot account for: a non-directory the index has no entry of
//! that name for, a directory it has no tracked files under. Those few names (on an agent's tree, a
//! new directory and the files it added beside tracked ones) are what git then gets as literal
//! pathspecs, with an empty index when none of them is a path the index knows by another type
//! (the files among them then go to `git check-ignore` as paths, see `untracked_lines` in
//! [`status_split`](super::status_split)), and git alone decides what of them it lists, ignore rules, nested repositories and collapsed directories included: a pathspec only
//! narrows git's walk, and every name outside them is one git would not list. With no name left,
//! git is not run at all.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::fd::BorrowedFd;
use std::os::unix::ffi::OsStrExt;

use rustix::fs::{self, AtFlags, FileType};

use super::dir_cache::{self, DirCache, Visited};
use crate::git::index_scan::Scan;

/// Above this many names, or [`MAX_BYTES`] of them, git lists everything: it matches each name it
/// reads against every pathspec, and the whole walk becomes cheaper.
const MAX_NAMES: usize = 128;
const MAX_BYTES: usize = 32 * 1024;

/// What one walker found outside the index.
#[derive(Default)]
pub(super) struct Found {
    /// Paths from the top of the work tree, no trailing slash.
    pub names: Vec<Vec<u8>>,
    bytes: usize,
    /// A directory could not be read, or there were too many names: git must walk it all.
    pub whole: bool,
}

impl Found {
    /// A walker's answer when git must look everywhere.
    pub fn everywhere() -> Found {
        Found { whole: true, ..Found::default() }
    }

    /// The names for git, or `None` when git must list everything (see [`MAX_NAMES`]).
    pub fn into_names(parts: impl IntoIterator<Item = Found>) -> Option<Vec<Vec<u8>>> {
        let mut all = Found::default();
        for part in parts {
            all.whole |= part.whole;
            all.bytes += part.bytes;
            all.names.extend(part.names);
        }
        (!all.whole && all.names.len() <= MAX_NAMES && all.bytes <= MAX_BYTES).then_some(all.names)
    }

    fn push(&mut self, dir: &[u8], name: &[u8]) {
        if self.whole {
            return;
        }
        let mut path = Vec::with_capacity(dir.len() + 1 + name.len());
        if !dir.is_empty() {
            path.extend_from_slice(dir);
            path.push(b'/');
        }
        path.extend_from_slice(name);
        self.bytes += path.len();
        self.names.push(path);
        self.whole = self.names.len() > MAX_NAMES || self.bytes > MAX_BYTES;
    }
}

/// The directories the walk must read at entry `at`: those whose first entry in the index it is,
/// as lengths of the entry's path (0 for the top of the work tree), shallowest first. Entries
/// under a directory are next to each other in the index, so each directory has one first entry.
pub(super) fn first_in(scan: &Scan, at: usize) -> Vec<usize> {
    let path = scan.path(&scan.entries[at]);
    let common = match at.checked_sub(1) {
        Some(before) => {
            let before = scan.path(&scan.entries[before]);
            // Mostly the entry before is in the same directory, and so in all of this entry's:
            // one comparison of the directory's path says so.
            let dir = path.iter().rposition(|&b| b == b'/').map_or(0, |slash| slash + 1);
            if before.starts_with(&path[..dir]) {
                return Vec::new();
            }
            path.iter().zip(before).take_while(|(a, b)| a == b).count()
        }
        None => 0,
    };
    let mut dirs: Vec<usize> = Vec::new();
    if at == 0 {
        dirs.push(0);
    }
    // `dir/` is a prefix of the entry before only if the paths agree past its slash.
    dirs.extend(
        path.iter().enumerate().filter(|&(k, &b)| b == b'/' && k >= common).map(|(k, _)| k),
    );
    dirs
}

/// One walker's search for untracked names: what it found, the directory names kept between
/// snapshots, and the directories it read.
pub(super) struct Looking<'a> {
    pub found: Found,
    cache: &'a DirCache,
    pub visited: Vec<Visited>,
}

impl<'a> Looking<'a> {
    pub fn new(cache: &'a DirCache) -> Looking<'a> {
        Looking { found: Found::default(), cache, visited: Vec::new() }
    }
}

/// Reads directory `dir` (open as `fd`, its first entry in the index at `first`), or takes its
/// names from the cache, and adds each name in it the index does not account for.
pub(super) fn read_dir(
    scan: &Scan,
    first: usize,
    dir: &[u8],
    fd: BorrowedFd,
    looking: &mut Looking,
) {
    let found = &mut looking.found;
    if found.whole {
        return;
    }
    let Some(listing) = looking.cache.read(dir, fd, &mut looking.visited, || list(fd)) else {
        found.whole = true;
        return;
    };
    let known = in_index(scan, first, dir);
    for (name, is_dir) in dir_cache::names(&listing) {
        let tracked = known
            .get(name)
            .is_some_and(|&(file, tracked_dir)| if is_dir { tracked_dir } else { file });
        if !tracked {
            found.push(dir, name);
        }
    }
}

/// The names in the directory open as `fd`, but those git never lists (`treat_path` in git's
/// `dir.c`); `None` when it cannot be read. The walker's own descriptor is read, from its start,
/// with one buffer of 32 KiB (most directories in one `getdents64`): a `Dir` would open the
/// directory again, ask its flags, read it 4 KiB at a time and close it, five system calls or more
/// where two do (on tc39/test262, 2,119 directories, 5,000 calls fewer).
fn list(fd: BorrowedFd) -> Option<Vec<u8>> {
    let mut listing = Vec::new();
    each_entry(fd, |name, kind| {
        if matches!(name, b"." | b".." | b".git") {
            return;
        }
        let kind = match kind {
            FileType::Unknown => {
                match fs::statat(fd, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) => FileType::from_raw_mode(stat.st_mode),
                    // Gone since it was listed: gone for git too.
                    Err(_) => return,
                }
            }
            kind => kind,
        };
        dir_cache::push_name(&mut listing, name, kind == FileType::Directory);
    })?;
    Some(listing)
}

/// Calls `each` with every name in the directory open as `fd` and its type as the directory says.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn each_entry(fd: BorrowedFd, mut each: impl FnMut(&[u8], FileType)) -> Option<()> {
    fs::seek(fd, fs::SeekFrom::Start(0)).ok()?;
    let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 32 * 1024];
    let mut dir = fs::RawDir::new(fd, &mut buf);
    while let Some(entry) = dir.next() {
        let entry = entry.ok()?;
        each(entry.file_name().to_bytes(), entry.file_type());
    }
    Some(())
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn each_entry(fd: BorrowedFd, mut each: impl FnMut(&[u8], FileType)) -> Option<()> {
    for entry in fs::Dir::read_from(fd).ok()? {
        let entry = entry.ok()?;
        each(entry.file_name().to_bytes(), entry.file_type());
    }
    Some(())
}

/// The names the index has in `dir`: for each, whether it is an entry (a file, a symlink) and
/// whether entries lie under it (a directory).
fn in_index<'a>(scan: &'a Scan, first: usize, dir: &[u8]) -> HashMap<&'a [u8], (bool, bool)> {
    let skip = if dir.is_empty() { 0 } else { dir.len() + 1 };
    let entries = &scan.entries;
    let mut known: HashMap<&[u8], (bool, bool)> = HashMap::new();
    let mut at = first;
    while let Some(entry) = entries.get(at) {
        let path = scan.path(entry);
        if skip > 0 && !(path.starts_with(dir) && path.get(dir.len()) == Some(&b'/')) {
            break;
        }
        let rest = &path[skip..];
        match rest.iter().position(|&b| b == b'/') {
            Some(end) => {
                known.entry(&rest[..end]).or_default().1 = true;
                // Past the subdirectory's entries, which come one after another.
                let under = &path[..skip + end + 1];
                at += 1 + entries[at + 1..].partition_point(|e| scan.path(e).starts_with(under));
            }
            None => {
                known.entry(rest).or_default().0 = true;
                at += 1;
            }
        }
    }
    known
}
