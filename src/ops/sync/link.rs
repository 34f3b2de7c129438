//! How a sync talks to a remote's server without overrunning it: a fleet of clones on one machine
//! that all sync at once would open hundreds of connections to one host in the same second, and a
//! server under such a burst drops them (`git daemon` keeps 32 at most by default; past that it
//! kills the newest connection from the same address, sleeps a second, and drops what still does
//! not fit). So the syncs of one user on one machine share a few connection slots per host (files
//! locked with `flock`, released by the kernel when a process ends, so a killed sync never keeps
//! one), and a connection the server dropped is made again after a jittered, growing wait.
//!
//! A sync makes two connections when it has records to publish (one fetch, one push) and one when
//! it has not. Each `git fetch` or `git push` is one connection: the slot is held while it runs
//! and never while the sync merges or waits. Local remotes (a path, `file://`) have no server and
//! take no slot.
//!
//! Fetches go first: while a fetch waits for a slot of a host, no push takes one (and while a fetch
//! from a local remote runs, no push to it starts). A fetch packs
//! every record the remote holds that its clone lacks, so a fetch queued behind other syncs'
//! pushes packs theirs too, and the server's work grows with the square of the writers; with the
//! fetches first, a fleet's fetches find the remote as it was, and its pushes follow.

use std::fs::File;
use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::git::repo::Repo;

/// The config key for the connection slots per host, shared by the syncs of one user on one
/// machine; 0 turns them off.
const SLOTS_KEY: &str = "handoff.syncConnections";

/// Half of `git daemon`'s default `--max-connections` (32): room for the reaping the daemon does
/// between two connections and for other clients on the same address.
const DEFAULT_SLOTS: usize = 16;

/// A sync waits this long at most for a slot, then connects without one.
const SLOT_WAIT: Duration = Duration::from_secs(90);

/// Connections a sync makes again, in all, after a server dropped or hung up on one.
const NETWORK_RECONNECTS: u32 = 8;

/// The same for a remote that cannot be busy (a local path) or refused the connection outright
/// (nothing listens there): once more, in case it was just restarting.
const FIRM_RECONNECTS: u32 = 1;

/// The policy of one sync's connections to one remote, and what it took.
pub struct Link {
    /// The host the slots are shared for (`git://127.0.0.1:9418`); `None` for a local remote.
    host: Option<String>,
    /// The remote's URL, the key of a local remote's turns (see [`local_turn`]).
    url: String,
    slots: usize,
    /// Connections made again after the server dropped one.
    pub reconnects: u32,
}

/// What a connection is for: fetches take a host's free slots before pushes do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Fetch,
    Push,
}

/// What one connection came to.
pub enum Attempt {
    /// git ran to its end and the server answered (it may still have refused a ref).
    Answered(Output),
    /// The server did not answer, hung up, or dropped the connection; the sync may connect again
    /// after [`Link::wait_to_reconnect`].
    Dropped(Output),
}

impl Link {
    pub fn new(repo: &Repo, remote: &str) -> Link {
        let url = configured_url(repo, remote).unwrap_or_else(|| {
            repo.git().text(["remote", "get-url", "--", remote]).unwrap_or_default()
        });
        let slots = repo
            .gix()
            .config_snapshot()
            .integer(SLOTS_KEY)
            .map_or(DEFAULT_SLOTS, |n| usize::try_from(n).unwrap_or(0));
        Link { host: host_of(&url), url, slots, reconnects: 0 }
    }

    /// Runs one git command that connects to the remote (`git fetch`, `git push`) in a slot of
    /// its host, and tells from git's exit code whether the connection itself failed: git dies
    /// (128) when it does, or is killed by a signal (SIGPIPE, writing to a connection the server
    /// closed, says nothing at all), and exits 1 when the server answered but a ref was not
    /// updated.
    pub fn connect(
        &mut self,
        cmd: &mut std::process::Command,
        purpose: Purpose,
    ) -> Result<Attempt> {
        // git's own words, in the C locale, tell a refused connection from a dropped one.
        cmd.env("LC_ALL", "C").env_remove("LANGUAGE");
        let slot = match self.host.as_deref() {
            Some(host) if self.slots > 0 => take_slot(host, self.slots, SLOT_WAIT, purpose),
            Some(_) => None,
            None => local_turn(&self.url, purpose, SLOT_WAIT),
        };
        let output = crate::git::run(cmd)?;
        drop(slot);
        Ok(if matches!(output.status.code(), Some(128) | None) {
            Attempt::Dropped(output)
        } else {
            Attempt::Answered(output)
        })
    }

    /// Waits before connecting again after `dropped`; false when the sync should give up instead
    /// (the remote stayed silent too many times, or is local, or nothing listens there).
    pub fn wait_to_reconnect(&mut self, dropped: &Output) -> bool {
        let stderr = String::from_utf8_lossy(&dropped.stderr).to_ascii_lowercase();
        let firm = self.host.is_none()
            || ["connection refused", "couldn't connect", "could not resolve", "not found"]
                .iter()
                .any(|word| stderr.contains(word));
        let budget = if firm { FIRM_RECONNECTS } else { NETWORK_RECONNECTS };
        if self.reconnects >= budget {
            return false;
        }
        std::thread::sleep(backoff(self.reconnects));
        self.reconnects += 1;
        true
    }
}

/// The remote's fetch URL from git's config, `url.<base>.insteadOf` applied, read without starting
/// a git process (as `git remote get-url` would give it); `None` when gix cannot tell.
fn configured_url(repo: &Repo, remote: &str) -> Option<String> {
    let remote = repo.gix().try_find_remote(remote)?.ok()?;
    let url = remote.url(gix::remote::Direction::Fetch)?;
    Some(url.to_bstring().to_string())
}

/// The wait before reconnect number `n + 1`: a random time between half and all of 250 ms, 500
/// ms, 1 s, 2 s, then 4 s each time, so the connections a server dropped together come back
/// spread out, and later than the burst that overran it.
fn backoff(n: u32) -> Duration {
    let cap = 250u64 << n.min(4);
    Duration::from_millis(cap / 2 + random() % (cap / 2 + 1))
}

/// The host part of a remote URL, as the key its slots are shared under: `scheme://host:port`
/// for URLs, `ssh://host` for scp-like `host:path`; `None` for a local path or `file://`.
fn host_of(url: &str) -> Option<String> {
    let url = url.trim();
    if let Some((scheme, rest)) = url.split_once("://") {
        let scheme = scheme.to_ascii_lowercase();
        if scheme == "file" {
            return None;
        }
        let authority = rest.split('/').next().unwrap_or(rest);
        let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
        return Some(format!("{scheme}://{}", host.to_ascii_lowercase()));
    }
    // scp-like `[user@]host:path` (a colon before any slash); anything else is a path.
    let (before, _) = url.split_once(':')?;
    if before.contains('/') || before.is_empty() {
        return None;
    }
    let host = before.rsplit_once('@').map_or(before, |(_, host)| host);
    Some(format!("ssh://{}", host.to_ascii_lowercase()))
}

/// Takes one of `slots` slots of `host`, waiting (without a busy loop: a sweep every 20–80 ms)
/// until one is free or `wait` passed; a push waits too while a fetch waits (a fetch holds a
/// shared lock on the host's `fetching` file while it waits; a push takes a slot only when it
/// could lock that file whole). `None` when the slots cannot be used (no private directory for
/// them) or the wait ran out: the sync then connects without one.
fn take_slot(host: &str, slots: usize, wait: Duration, purpose: Purpose) -> Option<File> {
    let started = Instant::now();
    let dir = slot_dir()?;
    let key = format!("{:016x}", fnv1a(host.as_bytes()));
    let mut files: Vec<File> =
        (0..slots).filter_map(|i| slot_file(&dir, &format!("{key}.{i}"))).collect();
    if files.is_empty() {
        return None;
    }
    let fetching = slot_file(&dir, &format!("{key}.fetching"));
    let mut queued = false;
    let first = (random() as usize) % files.len();
    loop {
        let fetch_waits = match (&fetching, purpose) {
            (Some(file), Purpose::Fetch) => {
                queued = queued || file.try_lock_shared().is_ok();
                false
            }
            (Some(file), Purpose::Push) => file.try_lock().map(|()| file.unlock()).is_err(),
            (None, _) => false,
        };
        for i in (0..files.len()).filter(|_| !fetch_waits) {
            let at = (first + i) % files.len();
            // The `fetching` file closes with this function: a fetch that has a slot waits no more.
            if files[at].try_lock().is_ok() {
                return Some(files.swap_remove(at));
            }
        }
        if started.elapsed() > wait {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20 + random() % 61));
    }
}

/// The same order for a local remote, which has no server to overrun and so no slots: a fetch
/// holds the remote's `fetching` file shared while it runs (the file is returned, to be dropped
/// when it ends), and a push waits, at most `wait`, until no fetch does.
fn local_turn(remote: &str, purpose: Purpose, wait: Duration) -> Option<File> {
    let started = Instant::now();
    let key = format!("{:016x}", fnv1a(format!("local {remote}").as_bytes()));
    let fetching = slot_file(&slot_dir()?, &format!("{key}.fetching"))?;
    if purpose == Purpose::Fetch {
        return fetching.lock_shared().is_ok().then_some(fetching);
    }
    while fetching.try_lock().is_err() && started.elapsed() < wait {
        std::thread::sleep(Duration::from_millis(20 + random() % 61));
    }
    None
}

/// One of the lock files in the slot directory, made when missing.
fn slot_file(dir: &std::path::Path, name: &str) -> Option<File> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true).open(dir.join(name)).ok()
}

/// The directory of the slot files: `git-handoff-<uid>-slots` in the temporary directory, made
/// private; `None` when it cannot be made, or is not a directory of this user's.
fn slot_dir() -> Option<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let uid = rustix::process::getuid().as_raw();
    let dir = std::env::temp_dir().join(format!("git-handoff-{uid}-slots"));
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    (meta.is_dir() && meta.uid() == uid && meta.mode() & 0o022 == 0).then_some(dir)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A random number, different in each process and each call (no cryptographic use).
fn random() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut x = nanos
        ^ u64::from(std::process::id()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ COUNTER.fetch_add(1, Ordering::Relaxed).wrapping_mul(0xD1B5_4A32_D192_ED03);
    // splitmix64
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_told_from_local_remotes() {
        assert_eq!(host_of("git://127.0.0.1:9418/r.git").as_deref(), Some("git://127.0.0.1:9418"));
        assert_eq!(
            host_of("https://me@Example.com/o/r.git").as_deref(),
            Some("https://example.com")
        );
        assert_eq!(host_of("git@github.com:o/r.git").as_deref(), Some("ssh://github.com"));
        for local in ["/srv/r.git", "file:///srv/r.git", "../r.git", "./a:b", ""] {
            assert_eq!(host_of(local), None, "{local}");
        }
    }

    #[test]
    fn a_host_has_as_many_slots_as_configured() {
        let host = format!("test://slots-{}-{}", std::process::id(), random());
        let short = Duration::from_millis(50);
        let push = Purpose::Push;
        let first = take_slot(&host, 2, short, push).expect("a free slot");
        let second = take_slot(&host, 2, short, push).expect("a second free slot");
        assert!(take_slot(&host, 2, short, push).is_none(), "a third slot of two");
        drop(first);
        assert!(take_slot(&host, 2, short, push).is_some(), "the slot given back");
        drop(second);
        assert!(take_slot(&format!("{host}-other"), 1, short, push).is_some());
    }

    #[test]
    fn pushes_wait_while_a_fetch_waits() {
        let host = format!("test://fetch-first-{}-{}", std::process::id(), random());
        let short = Duration::from_millis(50);
        let key = format!("{:016x}", fnv1a(host.as_bytes()));
        let waiting = slot_file(&slot_dir().unwrap(), &format!("{key}.fetching")).unwrap();
        waiting.try_lock_shared().expect("a fetch waiting");
        assert!(take_slot(&host, 2, short, Purpose::Push).is_none(), "a push before the fetch");
        let fetch = take_slot(&host, 2, short, Purpose::Fetch).expect("a fetch takes a free slot");
        drop(waiting);
        assert!(take_slot(&host, 2, short, Purpose::Push).is_some(), "the push after it");
        drop(fetch);
        let remote = format!("/srv/fetch-first-{}-{}.git", std::process::id(), random());
        let fetching = local_turn(&remote, Purpose::Fetch, short).expect("a local fetch's turn");
        let began = Instant::now();
        assert!(local_turn(&remote, Purpose::Push, short).is_none());
        assert!(began.elapsed() >= short, "the push waited for the fetch");
        drop(fetching);
        let began = Instant::now();
        local_turn(&remote, Purpose::Push, Duration::from_secs(5));
        assert!(began.elapsed() < Duration::from_secs(5), "the push went once the fetch ended");
    }

    #[test]
    fn reconnects_wait_longer_each_time_and_spread_out() {
        for n in 0..10 {
            let cap = 250u64 << n.min(4);
            let wait = backoff(n).as_millis() as u64;
            assert!(wait >= cap / 2 && wait <= cap, "{n}: {wait}");
        }
    }
}
