//! The snapshot's one planner: how status and the diff run, chosen here from the repository's
//! configuration and size, with the environment overrides beside it.
//!
//! | the repository | status | the diff |
//! | --- | --- | --- |
//! | index under 256 KiB (about 2,500 files) | one `git status` | one `git diff --stat`, or in two parts laid out as git's ([`diff_split`]) when its changed files weigh 256 KiB or more |
//! | larger | in two halves ([`status_split`]): the tracked files walked once by us ([`tracked_walk`](super::tracked_walk)), trusting what `core.fsmonitor`'s hook says is unchanged ([`monitor`](super::monitor)); the untracked names read on the same walk ([`untracked_names`](super::untracked_names)) and listed by git ([`untracked_lines`](super::untracked_lines)) | on the walk's private index, narrowed to the paths that can differ ([`narrowed_diff`](super::narrowed_diff)) when the index is HEAD's tree and they are at most a quarter of it, in two parts from 128 files HEAD changed that the walk found clean (then only the first part is bounded so), the second part's lines kept between snapshots ([`stat_cache`](super::stat_cache)), the first part in two pieces side by side from 128 paths with no addition ([`narrowed_run`](super::narrowed_run)), its lines kept path by path for the files that did not change since ([`worktree_cache`](super::worktree_cache)); status's tracked letters from the first part's raw records ([`narrowed_status`](super::narrowed_status)); else whole |
//! | larger, but what the halves cannot reproduce (colour, `-c` config, submodules, conflicts, a sparse index, an unknown `status.showUntrackedFiles`) | one `git status` | as for a small index |
//!
//! Index versions 2 to 4 and split indexes are read alike (a split one made whole). On two cores
//! or fewer, the whole status runs with `core.preloadIndex=false`, so it takes one core beside the
//! diff.
//!
//! The overrides, for tests and benchmarks: `GIT_HANDOFF_SNAPSHOT_WALKS=split` (status in halves
//! with the walk, whatever the size), `halves` (in halves, each git walking), `two` (status whole
//! beside the diff); `GIT_HANDOFF_SNAPSHOT_DIFF=whole` (the diff neither narrowed nor in parts),
//! `narrowed` (narrowed where it can be, in one part) or `halves` (in two parts whenever a path
//! can go to the second); `GIT_HANDOFF_SNAPSHOT_MONITOR=off`
//! (the walk stats every file, whatever the monitor knows). Given, a failure of the private index
//! is an error rather than a quiet way back.

use gix::ObjectId;

use super::{diff_split, status_split};
use crate::git::repo::Repo;
use crate::git::{index_scan, split_index};

const WALKS_ENV: &str = "GIT_HANDOFF_SNAPSHOT_WALKS";
const DIFF_ENV: &str = "GIT_HANDOFF_SNAPSHOT_DIFF";
const MONITOR_ENV: &str = "GIT_HANDOFF_SNAPSHOT_MONITOR";

/// From this index size up (about 2,500 entries) the split pays for its extra git start and index
/// read; below it status runs whole.
const MIN_INDEX_BYTES: u64 = 256 * 1024;

/// How status runs when split (see [`status_split`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Walk {
    /// The tracked files walked once, by us, for both status and the diff.
    Once,
    /// Each git walks them itself.
    EachGit,
}

/// How the environment asks the diff to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DiffAsked {
    /// Neither narrowed nor in parts.
    Whole,
    /// Narrowed where it can be, in one part.
    OnePart,
    /// In two parts whenever a path can go to the second.
    Halves,
}

/// What the environment asks for; nothing, mostly.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Overrides {
    /// `Some(None)`: status whole; `Some(Some(walk))`: split, so walked.
    pub status: Option<Option<Walk>>,
    /// How the diff is asked to run.
    pub diff: Option<DiffAsked>,
    /// The monitor is not asked.
    pub no_monitor: bool,
}

impl Overrides {
    fn read() -> Overrides {
        let var = |key: &str| std::env::var(key).ok();
        Overrides {
            status: match var(WALKS_ENV).as_deref() {
                Some("split") => Some(Some(Walk::Once)),
                Some("halves") => Some(Some(Walk::EachGit)),
                Some("two") => Some(None),
                _ => None,
            },
            diff: match var(DIFF_ENV).as_deref() {
                Some("whole") => Some(DiffAsked::Whole),
                Some("narrowed") => Some(DiffAsked::OnePart),
                Some("halves") => Some(DiffAsked::Halves),
                _ => None,
            },
            no_monitor: var(MONITOR_ENV).as_deref() == Some("off"),
        }
    }

    /// Whether the split was asked for rather than chosen.
    pub fn forced(&self) -> bool {
        self.status.flatten().is_some()
    }
}

/// The snapshot's strategy for status and the diff.
pub(super) enum Strategy {
    /// Status whole, the diff beside it: whole, or in two parts.
    Whole { diff: Option<diff_split::Halves> },
    /// Status in two halves, the diff on the walk (narrowed where it can be).
    Split(Box<status_split::Plan>),
}

/// The strategy for a snapshot of `repo` against `base`.
pub(super) fn choose(repo: &Repo, base: Option<ObjectId>) -> Strategy {
    let overrides = Overrides::read();
    let walk = match overrides.status {
        Some(asked) => asked,
        None => {
            let large = index_size(repo).is_some_and(|len| len >= MIN_INDEX_BYTES);
            large.then_some(Walk::Once)
        }
    };
    let asked = walk.map(|walk| status_split::Asked {
        walk_once: walk == Walk::Once,
        forced: overrides.forced(),
        monitor: !overrides.no_monitor,
        narrow_diff: overrides.diff != Some(DiffAsked::Whole),
        diff_parts: match overrides.diff {
            Some(DiffAsked::OnePart) => Some(false),
            Some(DiffAsked::Halves) => Some(true),
            _ => None,
        },
    });
    if let Some(plan) = asked.and_then(|asked| status_split::chosen(repo, asked)) {
        return Strategy::Split(Box::new(plan));
    }
    let diff = match overrides.diff {
        Some(DiffAsked::Whole | DiffAsked::OnePart) => None,
        asked => diff_split::chosen(repo, base, asked == Some(DiffAsked::Halves)),
    };
    Strategy::Whole { diff }
}

/// The index's size in bytes; a split index's with its shared index, where most entries are.
fn index_size(repo: &Repo) -> Option<u64> {
    let path = repo.index_path().ok()?;
    let len = std::fs::metadata(&path).ok()?.len();
    if len >= MIN_INDEX_BYTES {
        return Some(len);
    }
    let (bytes, _) = index_scan::read(&path).ok()?;
    let hash = repo.object_hash();
    let scan = index_scan::scan_bytes(bytes, hash)?;
    let shared = split_index::shared_path(&scan, &repo.git_dir, hash);
    Some(len + shared.and_then(|p| std::fs::metadata(p).ok()).map_or(0, |m| m.len()))
}

/// Whether status, run whole, should leave its preload threads off: on two cores or fewer they
/// would take CPU from the diff beside it. Its output is the same.
pub(super) fn status_without_preload() -> bool {
    std::thread::available_parallelism().map_or(1, usize::from) <= 2
}
