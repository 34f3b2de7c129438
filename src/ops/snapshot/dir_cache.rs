//! What each tracked directory held when a snapshot last read it, kept for the next one in
//! `<git dir>/handoff-snapshot-dirs` (beside, not in, the attempt's folder, which `start`
//! archives), as git's untracked cache keeps it in the index.
//!
//! Reading a directory costs more than `fstat` on it (ext4 hashes and sorts every name of it), and
//! an agent's edits rarely add or remove names. A directory whose inode, change time and
//! modification time are those it had when its names were read still holds those names: adding,
//! removing or renaming a name sets both times to the present, and the change time cannot be set
//! back. A directory whose times fall in the whole second the walk began, or the one before it
//! (or later), is not kept, so a later change in the same tick of a coarse clock cannot go unseen.
//! Only on Linux, on file systems known to keep those times (ext4, xfs, btrfs, tmpfs, overlayfs,
//! zfs, f2fs), and for directories on the work tree's own device (not a mount below it);
//! elsewhere every directory is read. The file is only ever replaced whole (a rename) and ends in a
//! checksum; one that cannot be read, is cut short or torn, or is of another version, is ignored,
//! and one that cannot be written is not.

use std::collections::HashMap;
use std::ops::Range;
use std::os::fd::BorrowedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustix::fs::{self, Stat};

use super::git_untracked::GitUntracked;

const MAGIC: &[u8] = b"git-handoff snapshot-dirs 2\n";
/// How old a directory's last change must be, in seconds, for its names to be kept.
const SETTLED_SECONDS: i64 = 2;

/// A directory's identity and times: the same key, the same names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Key {
    ino: u64,
    ctime: (i64, u64),
    mtime: (i64, u64),
}

impl Key {
    #[allow(clippy::unnecessary_cast)] // the field types differ between architectures
    fn of(stat: &Stat) -> Key {
        Key {
            ino: stat.st_ino as u64,
            ctime: (stat.st_ctime as i64, stat.st_ctime_nsec as u64),
            mtime: (stat.st_mtime as i64, stat.st_mtime_nsec as u64),
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.ino.to_be_bytes());
        for (seconds, nanos) in [self.ctime, self.mtime] {
            out.extend_from_slice(&seconds.to_be_bytes());
            out.extend_from_slice(&nanos.to_be_bytes());
        }
    }
}

/// The names kept from the last snapshot, by directory (relative to the top of the work tree).
pub(super) struct DirCache {
    path: Option<PathBuf>,
    /// The work tree's device: a directory on another is a mount, whose times are not known.
    device: u64,
    /// Seconds since the epoch when this walk began.
    now: i64,
    bytes: Vec<u8>,
    dirs: Kept,
    /// git's own untracked cache, asked for a directory this cache does not hold (see
    /// [`git_untracked`](super::git_untracked)).
    git: Option<Arc<GitUntracked>>,
}

/// Each kept directory's key and where its [`Listing`] is in the file.
type Kept = HashMap<Vec<u8>, (Key, Range<usize>)>;

/// A directory's names, one after another: a byte that is 1 for a directory, the name's length
/// in two bytes, the name.
pub(super) type Listing<'a> = &'a [u8];

/// Iterates over an encoded [`Listing`]: each name, and whether it is a directory.
pub(super) fn names(listing: Listing<'_>) -> impl Iterator<Item = (&[u8], bool)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let header = listing.get(at..at + 3)?;
        let len = u16::from_be_bytes([header[1], header[2]]) as usize;
        let name = listing.get(at + 3..at + 3 + len)?;
        at += 3 + len;
        Some((name, header[0] == 1))
    })
}

/// Appends one name to an encoded [`Listing`] (a name too long for it is not a name git lists
/// either: the file system refuses such names).
pub(super) fn push_name(listing: &mut Vec<u8>, name: &[u8], is_dir: bool) {
    if let Ok(len) = u16::try_from(name.len()) {
        listing.push(u8::from(is_dir));
        listing.extend_from_slice(&len.to_be_bytes());
        listing.extend_from_slice(name);
    }
}

/// A directory a walker read, from the cache or from the disk.
pub(super) struct Visited {
    dir: Vec<u8>,
    key: Key,
    /// Read from the disk (to be kept), or `None` when the cache had it.
    read: Option<Vec<u8>>,
}

impl DirCache {
    /// The cache of the work tree at `root`, kept at `path`; empty when there is none yet, and
    /// unused (`path` `None`) where directory times cannot be trusted.
    pub fn load(path: PathBuf, root: &Path, git: Option<Arc<GitUntracked>>) -> DirCache {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let (bytes, dirs) = (Vec::new(), HashMap::new());
        let mut cache = DirCache { path: None, device: 0, now, bytes, dirs, git };
        #[allow(clippy::unnecessary_cast)] // the field's type differs between architectures
        let device = fs::stat(root).map(|stat| stat.st_dev as u64);
        let (true, Ok(device)) = (times_are_kept(root), device) else { return cache };
        cache.device = device;
        if let Ok(bytes) = std::fs::read(&path)
            && let Some(dirs) = parse(&bytes)
        {
            cache.dirs = dirs;
            cache.bytes = bytes;
        }
        cache.path = Some(path);
        cache
    }

    /// The names of `dir` (open as `fd`): kept ones when its key is unchanged, else read now.
    /// `None` when it cannot be read.
    pub fn read<'a>(
        &'a self,
        dir: &[u8],
        fd: BorrowedFd<'_>,
        visited: &mut Vec<Visited>,
        read: impl FnOnce() -> Option<Vec<u8>>,
    ) -> Option<std::borrow::Cow<'a, [u8]>> {
        let stat = self.path.as_ref().and_then(|_| fs::fstat(fd).ok());
        #[allow(clippy::unnecessary_cast)] // the field's type differs between architectures
        let stat = stat.filter(|stat| stat.st_dev as u64 == self.device);
        let Some(stat) = stat else {
            return read().map(std::borrow::Cow::Owned);
        };
        let key = Key::of(&stat);
        if let Some((kept, range)) = self.dirs.get(dir)
            && *kept == key
        {
            visited.push(Visited { dir: dir.to_vec(), key, read: None });
            return Some(std::borrow::Cow::Borrowed(&self.bytes[range.clone()]));
        }
        // git's names are only the untracked ones: not kept here, git keeps them.
        if let Some(names) = self.git.as_ref().and_then(|git| git.names(dir, &stat)) {
            let mut listing = Vec::new();
            for (name, is_dir) in names {
                push_name(&mut listing, name, is_dir);
            }
            return Some(std::borrow::Cow::Owned(listing));
        }
        let listing = read()?;
        if key.ctime.0.max(key.mtime.0) + SETTLED_SECONDS <= self.now {
            visited.push(Visited { dir: dir.to_vec(), key, read: Some(listing.clone()) });
        }
        Some(std::borrow::Cow::Owned(listing))
    }

    /// Whether the names taken from git's untracked cache still hold after the walk (see
    /// [`GitUntracked::held`]).
    pub fn git_held(&self, root: &Path) -> bool {
        self.git.as_ref().is_none_or(|git| git.held(root))
    }

    /// Replaces the kept names with what the walkers read, when that differs from what was kept.
    /// A failure to write only means the next snapshot reads the directories again.
    pub fn save(&self, visited: &[Visited]) {
        let Some(path) = &self.path else { return };
        let fresh = visited.iter().any(|v| v.read.is_some());
        if !fresh && visited.len() == self.dirs.len() {
            return;
        }
        let mut out = Vec::with_capacity(self.bytes.len() + 4096);
        out.extend_from_slice(MAGIC);
        for v in visited {
            let listing = match (&v.read, self.dirs.get(&v.dir)) {
                (Some(read), _) => read.as_slice(),
                (None, Some((_, range))) => &self.bytes[range.clone()],
                (None, None) => continue,
            };
            out.extend_from_slice(&(v.dir.len() as u32).to_be_bytes());
            out.extend_from_slice(&v.dir);
            v.key.encode(&mut out);
            out.extend_from_slice(&(listing.len() as u32).to_be_bytes());
            out.extend_from_slice(listing);
        }
        out.extend_from_slice(&checksum(&out).to_be_bytes());
        let _ = crate::util::fs::replace_unsynced(path, &out);
    }
}

/// A checksum of the file's bytes, eight at a time: enough to tell a torn or cut file (not a
/// guard against tampering, which needs write access to the git dir anyway).
fn checksum(bytes: &[u8]) -> u64 {
    let mut sum = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        sum = (sum.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    for &byte in words.remainder() {
        sum = (sum.rotate_left(23) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    sum
}

/// The kept directories, or `None` when the bytes are not this version's or not whole.
fn parse(bytes: &[u8]) -> Option<Kept> {
    let (bytes, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    (checksum(bytes).to_be_bytes() == sum).then_some(())?;
    let mut at = MAGIC.len();
    (bytes.get(..at)? == MAGIC).then_some(())?;
    let mut dirs = HashMap::new();
    let u32_at = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    let u64_at = |at: usize| Some(u64::from_be_bytes(bytes.get(at..at + 8)?.try_into().ok()?));
    while at < bytes.len() {
        let len = u32_at(at)? as usize;
        let dir = bytes.get(at + 4..at + 4 + len)?.to_vec();
        at += 4 + len;
        let key = Key {
            ino: u64_at(at)?,
            ctime: (u64_at(at + 8)? as i64, u64_at(at + 16)?),
            mtime: (u64_at(at + 24)? as i64, u64_at(at + 32)?),
        };
        let len = u32_at(at + 40)? as usize;
        let start = at + 44;
        bytes.get(start..start + len)?;
        dirs.insert(dir, (key, start..start + len));
        at = start + len;
    }
    Some(dirs)
}

/// Whether the file system at `root` sets a directory's times when a name in it changes, as the
/// cache needs (see the module's documentation).
#[cfg(target_os = "linux")]
fn times_are_kept(root: &Path) -> bool {
    const KNOWN: [i64; 7] = [
        0xEF53,      // ext2, ext3, ext4
        0x5846_5342, // xfs
        0x9123_683E, // btrfs
        0x0102_1994, // tmpfs
        0x794C_7630, // overlayfs
        0x2FC1_2FC1, // zfs
        0xF2F5_2010, // f2fs
    ];
    #[allow(clippy::unnecessary_cast)] // the field's type differs between architectures
    fs::statfs(root).is_ok_and(|s| KNOWN.contains(&(s.f_type as i64)))
}

#[cfg(not(target_os = "linux"))]
fn times_are_kept(_: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_reads_back_as_written() {
        let mut listing = Vec::new();
        push_name(&mut listing, b"a.txt", false);
        push_name(&mut listing, b"sub dir", true);
        push_name(&mut listing, "ü".as_bytes(), false);
        let back: Vec<(&[u8], bool)> = names(&listing).collect();
        assert_eq!(back, [(&b"a.txt"[..], false), (b"sub dir", true), ("ü".as_bytes(), false)]);
    }

    #[test]
    fn a_file_of_another_version_cut_short_or_torn_is_not_read() {
        let sealed = |bytes: &[u8]| [bytes, &checksum(bytes).to_be_bytes()].concat();
        assert!(parse(&sealed(b"git-handoff snapshot-dirs 0\n")).is_none());
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&3u32.to_be_bytes());
        bytes.extend_from_slice(b"src");
        assert!(parse(&sealed(&bytes)).is_none());
        assert_eq!(parse(&sealed(MAGIC)).map(|d| d.len()), Some(0));
        let mut torn = sealed(MAGIC);
        torn[3] ^= 1;
        assert!(parse(&torn).is_none());
        assert!(parse(MAGIC).is_none());
    }
}
