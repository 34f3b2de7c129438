//! What a killed git-handoff process leaves behind, and how the next command tells it from what a
//! live one is using. Every temporary file or directory git-handoff makes in a repository is
//! named `<prefix><pid>-<random>` ([`tagged`]): an entry whose process is gone (or is a zombie)
//! is a leftover, removed by [`sweep`]. An entry without a process id (a build before this one)
//! is a leftover once it is [`UNTAGGED_AGE`] old.
//!
//! A lock (`index.lock`) is the other leftover: git records nothing in it, so git's advice is to
//! remove it when no git process runs. git-handoff writes `git-handoff <pid> <host>` into the
//! locks it takes; [`stale_lock`] judges one as git's advice does: ours with its process gone on
//! this host, or anyone's that no process holds open and that has not changed for
//! [`OPEN_LOCK_AGE`].

use std::path::Path;
use std::time::{Duration, SystemTime};

/// A file written atomically is first `<this><pid>-<random>` beside its place.
pub const TMP_PREFIX: &str = ".handoff-tmp-";
/// A seal's quarantine is `objects/<this><pid>-<random>` (it may hold a secret's blob).
pub const QUARANTINE_PREFIX: &str = "tmp_objdir-handoff-";
/// A seal's private index lives in `<git dir>/<this><pid>-<random>/`.
pub const STAGE_PREFIX: &str = "handoff-seal-";
/// A note commit's private index is `<git dir>/<this><pid>-<random>`.
pub const NOTE_INDEX_PREFIX: &str = "handoff-note-index-";

/// Removes what killed seals and notes left in the repository at `git_dir` (object store
/// `objects`): their quarantines, private indexes and temporary files. Cheap: a few directory
/// listings; every command but `record` runs it when it opens the repository.
pub fn clear_repository(git_dir: &Path, objects: &Path) {
    sweep(objects, QUARANTINE_PREFIX);
    // Old builds named note indexes `handoff-note-index<random>`. Each directory is read once.
    sweep_any(git_dir, &[STAGE_PREFIX, NOTE_INDEX_PREFIX, "handoff-note-index"]);
    // tempfile's own names (`.tmpXXXXXX`), from builds before the process id was in the name.
    sweep_any(&git_dir.join("handoff"), &[TMP_PREFIX, ".tmp"]);
}

/// An entry without a process id is a leftover from this age on.
pub const UNTAGGED_AGE: Duration = Duration::from_secs(10 * 60);

/// A lock nobody holds open and that has not changed for this long is a dead process's.
pub const OPEN_LOCK_AGE: Duration = Duration::from_secs(60);

/// `prefix` followed by this process's id and a dash: the start of a temporary entry's name.
pub fn tagged(prefix: &str) -> String {
    format!("{prefix}{}-", std::process::id())
}

/// What git-handoff writes into a lock it takes: who holds it.
pub fn lock_owner() -> String {
    format!("git-handoff {} {}\n", std::process::id(), host())
}

/// This machine's name, as a lock records it.
fn host() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into the buffer it is given.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    if ok { String::from_utf8_lossy(&buf[..end]).into_owned() } else { String::new() }
}

/// Whether process `pid` is running on this machine (a zombie is not: it only waits to be reaped).
pub fn is_alive(pid: u32) -> bool {
    let Ok(pid_t) = libc::pid_t::try_from(pid) else { return false };
    if pid_t <= 0 {
        return false;
    }
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    let exists = unsafe { libc::kill(pid_t, 0) } == 0
        || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    if !exists {
        return false;
    }
    // `/proc/<pid>/stat` is `pid (comm) S ...`: the state follows the last `)`.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit_once(") ").is_none_or(|(_, rest)| !rest.starts_with(['Z', 'X'])),
        Err(_) => true,
    }
}

/// The process id in an entry's name after its prefix (`1234-abcd`), if it has one.
fn pid_of(rest: &str) -> Option<u32> {
    let (digits, _) = rest.split_once('-')?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

fn age(meta: &std::fs::Metadata) -> Duration {
    let modified = meta.modified().unwrap_or(SystemTime::now());
    SystemTime::now().duration_since(modified).unwrap_or_default()
}

/// Removes the entries of `dir` whose names start with `prefix` and that are leftovers: tagged
/// with a process that is gone, or untagged and old. Returns how many it removed. Best effort: an
/// entry that cannot be removed stays for the next time.
pub fn sweep(dir: &Path, prefix: &str) -> usize {
    sweep_any(dir, &[prefix])
}

/// [`sweep`] for several prefixes in one reading of `dir`: an entry is judged by the first of
/// `prefixes` its name starts with.
fn sweep_any(dir: &Path, prefixes: &[&str]) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let rest = name.to_str().and_then(|n| prefixes.iter().find_map(|p| n.strip_prefix(p)));
        let Some(rest) = rest else { continue };
        let Ok(meta) = entry.path().symlink_metadata() else { continue };
        let leftover = match pid_of(rest) {
            Some(pid) => pid != std::process::id() && !is_alive(pid),
            None => age(&meta) >= UNTAGGED_AGE,
        };
        if !leftover {
            continue;
        }
        let gone = if meta.is_dir() {
            std::fs::remove_dir_all(entry.path())
        } else {
            std::fs::remove_file(entry.path())
        };
        removed += usize::from(gone.is_ok());
    }
    removed
}

/// Whether the lock at `path` is a dead process's: written by git-handoff on this host for a
/// process that is gone, or (anyone's) unchanged for [`OPEN_LOCK_AGE`] and open in no process.
pub fn stale_lock(path: &Path) -> bool {
    stale_after(path, OPEN_LOCK_AGE)
}

/// Removes the lock at `path` when nobody holds it open and it has not changed for `age` (a ref
/// lock, which a live writer holds for microseconds), or its recorded owner is gone. True when
/// it was removed.
pub fn clear_lock_older_than(path: &Path, age: Duration) -> bool {
    clear_if(path, |p| stale_after(p, age))
}

fn stale_after(path: &Path, open_age: Duration) -> bool {
    use std::io::Read;
    let Ok(meta) = path.symlink_metadata() else { return false };
    if !meta.is_file() {
        return false;
    }
    let mut head = String::new();
    let _ = std::fs::File::open(path).and_then(|f| f.take(512).read_to_string(&mut head));
    if let Some(rest) = head.strip_prefix("git-handoff ") {
        let mut words = rest.split_whitespace();
        let pid = words.next().and_then(|p| p.parse::<u32>().ok());
        let lock_host = words.next().unwrap_or("");
        if let Some(pid) = pid
            && lock_host == host()
        {
            return !is_alive(pid);
        }
    }
    age(&meta) >= open_age && !held_open(path)
}

/// Whether any process we can see has `path` open (Linux: `/proc/*/fd`). Unknown counts as open.
fn held_open(path: &Path) -> bool {
    let Ok(target) = std::fs::canonicalize(path) else { return true };
    let Ok(procs) = std::fs::read_dir("/proc") else { return true };
    for proc in procs.flatten() {
        let name = proc.file_name();
        if !name.to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())) {
            continue;
        }
        let Ok(fds) = std::fs::read_dir(proc.path().join("fd")) else { continue };
        if fds.flatten().any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l == target)) {
            return true;
        }
    }
    false
}

/// Whether the lock at `path` is gone, or a dead process's and cleared, within `wait`: a git that
/// a killed command left running in its own process group (see `Git::detached`) finishes its step
/// in milliseconds, and the retry that follows at once must not fail on its lock.
pub fn lock_cleared_within(path: &Path, wait: Duration) -> bool {
    let deadline = std::time::Instant::now() + wait;
    loop {
        if path.symlink_metadata().is_err() || clear_stale_lock(path) {
            return true;
        }
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Removes the lock at `path` if it is [`stale_lock`], moving it aside first so that a lock
/// another process took meanwhile is never the one removed. True when it was removed.
pub fn clear_stale_lock(path: &Path) -> bool {
    clear_if(path, stale_lock)
}

fn clear_if(path: &Path, stale: impl Fn(&Path) -> bool) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(before) = path.symlink_metadata() else { return false };
    if !stale(path) {
        return false;
    }
    let mut aside = path.as_os_str().to_owned();
    aside.push(format!(".stale-{}", std::process::id()));
    let aside = std::path::PathBuf::from(aside);
    if std::fs::rename(path, &aside).is_err() {
        return false;
    }
    match aside.symlink_metadata() {
        Ok(moved) if moved.ino() == before.ino() && moved.dev() == before.dev() => {
            let _ = std::fs::remove_file(&aside);
            true
        }
        _ => {
            // Someone else's fresh lock: put it back unless another was taken meanwhile.
            if std::fs::hard_link(&aside, path).is_ok() {
                let _ = std::fs::remove_file(&aside);
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_processes() {
        assert_eq!(pid_of("1234-abc"), Some(1234));
        assert_eq!(pid_of("abc123"), None);
        assert_eq!(pid_of("12x-abc"), None);
        assert!(is_alive(std::process::id()));
        assert!(!is_alive(0));
        assert!(tagged("p-").starts_with("p-") && tagged("p-").ends_with('-'));
    }

    #[test]
    fn a_dead_process_leftover_goes_and_a_live_one_stays() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        std::fs::create_dir(dir.path().join(format!("x-{dead}-a"))).unwrap();
        std::fs::write(dir.path().join(format!("x-{dead}-b")), "").unwrap();
        std::fs::write(dir.path().join(tagged("x-") + "c"), "").unwrap();
        std::fs::write(dir.path().join("x-untagged"), "").unwrap();
        std::fs::write(dir.path().join(format!("y-{dead}-a")), "").unwrap();
        assert_eq!(sweep(dir.path(), "x-"), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, [tagged("x-") + "c", "x-untagged".into(), format!("y-{dead}-a")]);
    }

    #[test]
    fn a_dead_owners_lock_is_stale_and_a_fresh_anonymous_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("index.lock");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        std::fs::write(&lock, format!("git-handoff {dead} {}\n", host())).unwrap();
        assert!(clear_stale_lock(&lock));
        assert!(!lock.exists());
        std::fs::write(&lock, lock_owner()).unwrap();
        assert!(!clear_stale_lock(&lock), "our own lock is live");
        std::fs::write(&lock, "").unwrap();
        assert!(!clear_stale_lock(&lock), "a fresh lock of git's is left alone");
    }
}
