//! The snapshot on a large tree: `git status` split in two halves that run beside the diff.
//!
//! The three git commands are bound by CPU: status stats every tracked file and reads every
//! directory for untracked files, `git diff <base>` stats every tracked file again and diffs the
//! blobs. Here we stat the tracked files once, for both status and the diff, and read their
//! directories on the same walk (see [`tracked_walk`]); then `git status --short -uno` (the tracked
//! changes) and `git diff --stat <base>` run on a private index that tells them which files to look
//! at (the diff, where it can, on one that holds only the entries that can differ, see
//! [`narrowed_diff`]), beside `git ls-files --others --exclude-standard` given only the names the walk
//! found outside the index, the files among them asked of `git check-ignore` instead (see
//! [`untracked_names`](super::untracked_names); the untracked half is [`untracked_lines`](super::untracked_lines)). git prints the tracked lines before the untracked ones, each part
//! sorted, so the two halves joined are status's output, with the untracked paths quoted as
//! status quotes them (`quote_path` with `QUOTE_PATH_QUOTE_SP`).
//!
//! Measured and left: the diff taken between HEAD's tree edited at the paths status reported and
//! the base (no second walk) loses on trees with large directories, whose edited trees must be
//! hashed and written; a private index brought up to date with `git update-index` costs two reads
//! and a write of the index after status, which is more than the walk it saves on two cores; the
//! diff limited to the changed paths by pathspec is slower than the whole (git matches every
//! entry against every path).
//!
//! Where the halves could print other bytes than status (submodules, whose untracked content `-uno`
//! hides; conflicts; sparse or split indexes; colour; config given on the command line, which gix
//! does not read; an unknown `status.showUntrackedFiles`), the snapshot runs status whole.

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

use anyhow::Result;

use super::git_read::{colour_possible, join, run_git};
use super::git_untracked::GitUntracked;
use super::tracked_walk::{self, Index};
use super::untracked_lines::{Listing, Untracked, untracked_lines};
use super::{diff_split, monitor, narrowed_diff, narrowed_parts, narrowed_status, private_index};
use crate::git::index_scan;
use crate::git::repo::Repo;
use crate::git::{self, Git};

/// What the split needs to know, decided before any git starts.
pub(super) struct Plan {
    untracked: Untracked,
    quote_path_fully: bool,
    /// The index as read, and the work tree, for the one walk (see [`tracked_walk`]).
    walk: Option<(Index, PathBuf)>,
    /// Asked for by the environment: a failure of the private index is an error.
    forced: bool,
    /// The diff may be narrowed (see [`narrowed_diff`]).
    narrow_diff: bool,
    /// Narrowed, the diff may run in two parts where the second gets at least this many paths.
    diff_parts: Option<usize>,
    /// The walk may narrow git's search for untracked files (see [`untracked_names`](super::untracked_names)):
    /// names are compared byte for byte, as git does unless `core.ignoreCase` (or, on macOS,
    /// `core.precomposeUnicode`) is set.
    narrow_others: bool,
    /// Where the names of the tracked directories are kept between snapshots (see
    /// [`dir_cache`](super::dir_cache)).
    dir_cache: PathBuf,
    /// Where git's version is kept (see [`git::version`]).
    git_dir: PathBuf,
    /// git's own untracked cache, for the directories the snapshot kept none of its own for
    /// (see [`git_untracked`](super::git_untracked)).
    git_untracked: Option<Arc<GitUntracked>>,
    /// The user's file system monitor, asked what changed (see [`monitor`]).
    monitor: Option<monitor::Hook>,
    /// The tracked half may come from the narrowed diff's index (see [`narrowed_status`]).
    narrow_status: bool,
    /// ... and from the narrowed diff's raw records.
    raw_letters: bool,
}

impl Plan {
    fn listing(&self) -> Listing {
        Listing { untracked: self.untracked, quote_path_fully: self.quote_path_fully }
    }
}

/// What the planner decided for the split.
pub(super) struct Asked {
    /// The tracked files walked once, by us (else each git walks them).
    pub walk_once: bool,
    /// Asked for by the environment rather than chosen: a failure of the private index is an error.
    pub forced: bool,
    /// The user's monitor may be asked (see [`monitor`]).
    pub monitor: bool,
    /// The diff may be narrowed (see [`narrowed_diff`]).
    pub narrow_diff: bool,
    /// As the environment asks: `Some(true)`, the narrowed diff runs in two parts whenever its
    /// second part gets a path; `Some(false)`, in one part.
    pub diff_parts: Option<bool>,
}

/// The plan for splitting status in `repo` as `asked`, or `None` to run it whole.
pub(super) fn chosen(repo: &Repo, asked: Asked) -> Option<Plan> {
    let index = repo.index_path().ok()?;
    let Asked { walk_once: walk, forced, monitor: ask_monitor, narrow_diff, diff_parts } = asked;
    if crate::git::repo::config_on_command_line() {
        return None;
    }
    let config = repo.gix().config_snapshot();
    if colour_possible(&config, &["color.status", "status.color", "color.ui"]) {
        return None;
    }
    let setting = config.string("status.showUntrackedFiles").map(|v| v.to_ascii_lowercase());
    let untracked = match setting.as_deref() {
        None => Untracked::Normal,
        Some(b"no" | b"false" | b"off" | b"0") => Untracked::No,
        Some(b"normal" | b"true" | b"yes" | b"on" | b"1") => Untracked::Normal,
        Some(b"all") => Untracked::All,
        Some(_) => return None,
    };
    let hash = repo.object_hash();
    let (scan, meta) = crate::git::split_index::read_whole(&index, &repo.git_dir, hash)?;
    if scan.special {
        return None;
    }
    let quote_path_fully = config.boolean("core.quotePath").unwrap_or(true);
    let narrow_others = !["core.ignoreCase", "core.precomposeUnicode"]
        .iter()
        .any(|key| config.boolean(key).unwrap_or(false));
    let git_untracked = (walk && narrow_others && untracked != Untracked::No)
        .then(|| GitUntracked::load(repo.gix(), &scan, meta.modified().ok()?, repo.top().ok()?))
        .flatten()
        .map(Arc::new);
    let walk = walk.then(|| {
        let root = repo.top().ok()?.to_path_buf();
        let (written, modified) = (meta.mtime(), meta.modified().ok()?);
        Some((Index { scan, written, modified, hash_len: hash.len_in_bytes() }, root))
    });
    let dir_cache = repo.git_dir.join("handoff-snapshot-dirs");
    let walk = walk.flatten();
    let git_dir = repo.git_dir.clone();
    let monitor = monitor::configured(&config, repo.top().ok()?).filter(|_| ask_monitor);
    // Two gits at once only pay on two cores or more; parts laid out by us only where their lines
    // are what the whole's would be (see [`diff_split`](super::diff_split)).
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let halves = diff_parts == Some(true);
    let diff_parts = (narrow_diff
        && diff_parts != Some(false)
        && (cores >= 2 || halves)
        && diff_split::config_allows(repo))
    .then_some(if halves { 1 } else { narrowed_diff::SECOND_PART_FROM });
    let narrow_status = narrowed_status::allowed(&config);
    let raw_letters = narrow_status && narrowed_status::raw_allowed(&config);
    Some(Plan {
        narrow_status,
        raw_letters,
        git_untracked,
        untracked,
        quote_path_fully,
        walk,
        forced,
        narrow_diff,
        diff_parts,
        narrow_others,
        dir_cache,
        git_dir,
        monitor,
    })
}

/// What the diff against a base commit can be narrowed with (see [`narrowed_diff`]): the repository,
/// the base, and the base as the diff's arguments name it.
pub(super) struct Narrow<'a> {
    pub repo: &'a gix::Repository,
    pub base: gix::ObjectId,
    pub arg: &'a str,
}

/// `git status --short` (`status_args`, which end in `--short`) from its two halves, and
/// `git diff --stat` (`diff_args`), all at once; the diff narrowed where `narrow_diff` allows.
pub(super) fn run(
    git: &Git,
    plan: &Plan,
    status_args: &[String],
    diff_args: &[String],
    narrow_diff: Option<Narrow<'_>>,
) -> Result<(Vec<u8>, Vec<u8>)> {
    let mut tracked_args = status_args.to_vec();
    tracked_args.push("-uno".into());
    let narrow = plan.untracked != Untracked::No && plan.narrow_others;
    let cache = narrow.then(|| (plan.dir_cache.as_path(), plan.git_untracked.clone()));
    // The listing would ask the user's monitor again (twice, with check-ignore), for nothing: it
    // reads no entry's stat data.
    let listing_git = &git.clone().with_config("core.fsmonitor=false");
    let (tracked_and_diff, untracked) = thread::scope(|s| {
        // The user's monitor, asked once (see [`monitor`]) while HEAD's changes are read.
        let known = match (&plan.monitor, &plan.walk) {
            (Some(hook), Some((index, _))) => Some(s.spawn(|| monitor::changed(hook, &index.scan))),
            _ => None,
        };
        // Unless the walk narrows it, the listing needs nothing from the walk and runs beside it.
        let whole =
            (!narrow).then(|| s.spawn(|| untracked_lines(listing_git, plan.listing(), None)));
        // Whether git can list the names against an empty index (see `untracked_lines`).
        let recurses = narrow.then(|| {
            s.spawn(|| git::version::version(git, &plan.git_dir).is_some_and(|v| v >= (2, 27)))
        });
        // What HEAD changed since the base needs nothing from the walk and is read beside it (on
        // a base 35 commits back on the generated 30k-file tree, 750 paths in 300 directories,
        // it took 18-22 ms before the walk began); the diff is narrowed to it and to what the walk
        // doubts (see [`narrowed_diff`]).
        let since = match (&narrow_diff, &plan.walk) {
            (Some(n), Some((index, _))) if plan.narrow_diff => {
                let repo = n.repo.clone().into_sync();
                let (base, arg, scan) = (n.base, n.arg, &index.scan);
                let in_parts = plan.diff_parts.is_some();
                Some(s.spawn(move || {
                    narrowed_diff::since(&repo.to_thread_local(), base, arg, scan, in_parts)
                }))
            }
            _ => None,
        };
        let known = known.and_then(|k| k.join().ok().flatten());
        // Where the diff and the tracked half are expected to run narrowed, neither reads the
        // private index of the whole walk: it is written only if one of them falls back on it.
        let defer = plan.narrow_status
            && since.is_some()
            && narrow_diff.as_ref().zip(plan.walk.as_ref()).is_some_and(|(n, (index, _))| {
                narrowed_diff::head_tree_of_index(n.repo, &index.scan).is_some()
            });
        let walked = plan.walk.as_ref().map(|(index, root)| {
            tracked_walk::walk(root, index, cache.clone(), known.as_deref(), defer)
        });
        let walked = match walked {
            Some(Ok(walked)) => Some(walked),
            Some(Err(err)) if plan.forced => return Err(err),
            _ => None,
        };
        let since = since.and_then(|since| since.join().ok().flatten());
        let recurses = recurses.is_some_and(|r| r.join().unwrap_or(false));
        let names = walked.as_ref().and_then(|w| names_to_list(w, plan, recurses));
        let untracked = whole.unwrap_or_else(|| {
            s.spawn(|| {
                yield_to_the_diff();
                untracked_lines(listing_git, plan.listing(), names)
            })
        });
        let both = match (&walked, &plan.walk) {
            (Some(walked), Some((index, _))) => {
                let narrow = (narrow_diff.as_ref(), since.as_ref());
                on_the_walk(git, plan, walked, index, narrow, &tracked_args, diff_args)?
            }
            _ => tracked_and_diff(|| run_git(git, &tracked_args), || run_git(git, diff_args)),
        };
        Ok((both, join(untracked)))
    })?;
    let (mut status, diff) = tracked_and_diff?;
    status.extend_from_slice(&untracked?);
    Ok((status, diff))
}

/// The names the walk found outside the index, for the listing to classify, and the empty index
/// it may list them against (when git recurses into such names, from 2.27, and none of them is
/// known to the index); `None` when the walk found none to give.
fn names_to_list(
    walked: &tracked_walk::Walked,
    plan: &Plan,
    recurses: bool,
) -> Option<(Vec<Vec<u8>>, Option<PathBuf>)> {
    let names = walked.others.clone()?;
    let index = plan.walk.as_ref().map(|(index, _)| &index.scan);
    let outside = |scan: &&index_scan::Scan| {
        // A skip-worktree `.gitignore` is read from the index.
        !scan.entries.iter().any(|e| e.extended) && names.iter().all(|n| unknown_to(scan, n))
    };
    let no_index = index.filter(|scan| recurses && outside(scan)).map(|_| walked.no_index());
    Some((names, no_index))
}

/// The tracked half of status and the diff on the private index that carries the walk's answer,
/// each narrowed where it can be; the outer error is a forced plan's failure, the inner what git
/// answered.
fn on_the_walk(
    git: &Git,
    plan: &Plan,
    walked: &tracked_walk::Walked,
    index: &Index,
    (narrow_diff, since): (Option<&Narrow<'_>>, Option<&narrowed_parts::Since>),
    tracked_args: &[String],
    diff_args: &[String],
) -> Result<Result<(Vec<u8>, Vec<u8>)>> {
    let private = || -> Result<Git> {
        Ok(git.clone().with_env("GIT_INDEX_FILE", walked.private_index(index)?))
    };
    let with_walk = |args: &[String]| [private_index::config_args(), args.to_vec()].concat();
    let narrowed = match (narrow_diff, since) {
        (Some(n), Some(since)) => {
            let (parts, others, dirty) = (plan.diff_parts, walked.others.as_deref(), &walked.dirty);
            let allowed = narrowed_diff::Allowed {
                raw_letters: plan.raw_letters,
                quote_path_fully: plan.quote_path_fully,
            };
            match narrowed_diff::narrowed(n.repo, index, dirty, since, parts, others, &allowed) {
                Err(err) if plan.forced => return Err(err),
                narrowed => narrowed.ok().flatten(),
            }
        }
        _ => None,
    };
    let whole = || run_git(&private()?, &with_walk(diff_args));
    let diff = || match &narrowed {
        Some(narrowed) => match narrowed.run(git, diff_args)? {
            (Some(diff), letters) => Ok((diff, letters)),
            // Parts whose lines the layout does not know: the diff whole.
            (None, letters) => Ok((whole()?, letters)),
        },
        None => Ok((whole()?, None)),
    };
    let tracked = || match narrowed.as_ref().filter(|_| plan.narrow_status) {
        Some(narrowed) => {
            narrowed_status::tracked_lines(&narrowed.first_git(git), plan.quote_path_fully)
        }
        None => run_git(&private()?, &with_walk(tracked_args)),
    };
    let both = match narrowed.as_ref().filter(|n| plan.narrow_status && n.gives_letters()) {
        // Status's tracked letters come with the diff: no git of their own, unless they could
        // not be read.
        Some(_) => diff().and_then(|(diff, letters)| {
            let tracked = match letters {
                Some(letters) => narrowed_status::status_lines(letters, plan.quote_path_fully),
                None => tracked()?,
            };
            Ok((tracked, diff))
        }),
        None => tracked_and_diff(tracked, || diff().map(|(diff, _)| diff)),
    };
    Ok(match both {
        // An older git refuses the private index; it is only a way to go faster.
        Err(_) if !plan.forced => {
            tracked_and_diff(|| run_git(git, tracked_args), || run_git(git, diff_args))
        }
        both => both,
    })
}

/// The tracked half of status and the diff, at once: the diff, the longest of the gits that run
/// after the walk, on this thread, and status on one that gives way to it. (Narrowed, the diff
/// takes about as long as status; giving way then changes nothing, measured either way.)
fn tracked_and_diff(
    tracked: impl FnOnce() -> Result<Vec<u8>> + Send,
    diff: impl FnOnce() -> Result<Vec<u8>>,
) -> Result<(Vec<u8>, Vec<u8>)> {
    thread::scope(|s| {
        let tracked = s.spawn(|| {
            yield_to_the_diff();
            tracked()
        });
        let diff = diff();
        let tracked = join(tracked);
        Ok((tracked?, diff?))
    })
}

/// Lowers the calling thread's priority a little (nice +3), and with it that of the gits it
/// starts, which inherit it. After the walk, three gits share two cores: status's tracked half
/// and the untracked listing together cost about what the diff alone costs, so with the diff
/// weighted twice as much as either, the scheduler gives it a core of its own and the snapshot
/// ends with it, instead of all three taking turns and the diff running on alone at the end.
/// Only the thread is lowered (Linux gives each thread its own nice value); elsewhere, where it
/// would be the whole process, nothing changes. Failing, it changes nothing either.
fn yield_to_the_diff() {
    #[cfg(target_os = "linux")]
    if let Ok(nice) = rustix::process::getpriority_process(None) {
        let _ = rustix::process::setpriority_process(None, (nice + 3).min(19));
    }
}

/// Whether the index has neither an entry at `path` nor one under it.
fn unknown_to(scan: &index_scan::Scan, path: &[u8]) -> bool {
    let entries = &scan.entries;
    let first_from = |key: &[u8]| {
        entries.get(entries.partition_point(|e| scan.path(e) < key)).map(|e| scan.path(e))
    };
    let mut dir = path.to_vec();
    dir.push(b'/');
    first_from(path) != Some(path) && !first_from(&dir).is_some_and(|p| p.starts_with(&dir))
}
