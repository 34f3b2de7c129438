//! `git diff --stat <base>` on two cores, for a tree too small for the one walk (see
//! [`status_split`](super::status_split)) whose changes are large.
//!
//! There the diff is most of what the snapshot costs: it reads every changed file and its base
//! blob and diffs them line by line, one after another. Here two gits share that work, each
//! limited by pathspec to its part, and their lines are put together and laid out as git lays out
//! the whole (see [`stat_render`]). Renames are what could tell the parts apart from the whole: a
//! rename pairs a path that left the base with one that came, and only when both are in the same
//! git. So the second part takes only paths that are the same kind of file in the base, the index
//! and the work tree (changed in content or mode, never added or deleted), and the first all the
//! rest, every path that came or left among them.
//!
//! Where the parts could print other bytes than the whole (copies sought, an order file, names
//! relative to a directory, colour, stat widths set in config, a submodule, a conflict, config
//! given on the command line) the diff runs whole; so it does when a part's output is not in the
//! shape the layout knows.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::thread;

use anyhow::Result;
use gix::ObjectId;

use super::git_read::{colour_possible, git_command, join, run_git};
use super::stat_render;
use crate::git::index_scan;
use crate::git::repo::Repo;
use crate::git::{self, Git};

/// Below this many bytes of changed files the diff is quicker than a second git's start.
const MIN_WEIGHT: u64 = 256 * 1024;
/// An index or a base with more entries than this is not read here: each entry costs an `lstat`,
/// on one core, before the diff starts. (A tree this large takes the one walk, see
/// [`status_split`](super::status_split), unless something kept it from doing so.)
const MAX_ENTRIES: usize = 8_192;
const MAX_BASE_ENTRIES: usize = 20_000;
/// The second part's pathspec is at most this long, and at most [`MAX_MATCHES`] over the number of
/// index entries: both parts match every entry against each of its items.
const MAX_PATHS: usize = 256;
const MAX_MATCHES: usize = 256 * 1024;

const GITLINK: u32 = 0o160000;

/// The base's blobs and links: mode and id by path.
type Base = HashMap<Vec<u8>, (u32, ObjectId)>;

/// The paths the second part diffs; the first diffs all others.
pub(super) struct Halves {
    paths: Vec<Vec<u8>>,
    width: i64,
}

/// The halves for a diff against `base`, or `None` to run it whole.
/// `forced`: asked for by the environment (see the planner, `plan.rs`), whatever the weight of
/// the changes.
pub(super) fn chosen(repo: &Repo, base: Option<ObjectId>, forced: bool) -> Option<Halves> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let from_command_line = crate::git::repo::config_on_command_line();
    if (cores < 2 && !forced) || from_command_line || !config_allows(repo) {
        return None;
    }
    let top = repo.top().ok()?;
    let hash = repo.object_hash();
    let (scan, _) =
        crate::git::split_index::read_whole(&repo.index_path().ok()?, &repo.git_dir, hash)?;
    if scan.special || scan.entries.len() > MAX_ENTRIES {
        return None;
    }
    let base = read_base(repo, base?)?;
    let Weighed { total, mut candidates } = weigh(repo, top, &scan, &base)?;
    if total < MIN_WEIGHT && !forced {
        return None;
    }
    // The heaviest first, each taken while the second part stays within half of the whole.
    candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let max_paths = MAX_PATHS.min(MAX_MATCHES / scan.entries.len().max(1));
    let mut paths = Vec::new();
    let mut weight = 0;
    for (w, path) in candidates {
        if paths.len() == max_paths {
            break;
        }
        if weight + w <= total / 2 || (forced && paths.is_empty()) {
            weight += w;
            paths.push(path.to_vec());
        }
    }
    if paths.is_empty() {
        return None;
    }
    let columns = std::env::var_os("COLUMNS");
    Some(Halves { paths, width: stat_render::columns(columns.as_deref().map(OsStrExt::as_bytes)) })
}

/// What [`weigh`] finds.
struct Weighed<'a> {
    total: u64,
    candidates: Vec<(u64, &'a [u8])>,
}

/// What the diff will cost, in bytes of changed files, and the paths the second part may take,
/// each with its share: a blob or link in the base, the index and the work tree alike (changed in
/// content or mode, never come or gone, so never one end of a rename), reached through real
/// directories (git counts a path under a symlink as gone).
fn weigh<'a>(
    repo: &Repo,
    top: &Path,
    scan: &'a index_scan::Scan,
    base: &Base,
) -> Option<Weighed<'a>> {
    let id_len = repo.object_hash().len_in_bytes();
    let kind = |mode: u32| mode & 0o170000;
    let mut real_dirs: HashMap<&[u8], bool> = HashMap::new();
    let mut total = 0u64;
    let mut candidates = Vec::new();
    let mut in_index = HashSet::with_capacity(scan.entries.len());
    for entry in &scan.entries {
        let path = scan.path(entry);
        in_index.insert(path);
        let stat = scan.bytes.get(entry.at()..entry.at() + 40 + id_len)?;
        let field = |i: usize| u32::from_be_bytes([0, 1, 2, 3].map(|k| stat[i * 4 + k]));
        let id = ObjectId::try_from(&stat[40..]).ok()?;
        let in_base = base.get(path);
        let meta = std::fs::symlink_metadata(top.join(OsStr::from_bytes(path))).ok();
        let on_disk = meta.map(|m| (m.mode(), m.len(), m.mtime()));
        let changed = match (in_base, on_disk) {
            (Some((_, base_id)), Some((_, len, mtime))) => {
                *base_id != id || u64::from(field(9)) != len || i64::from(field(2)) != mtime
            }
            _ => true,
        };
        let weight = if changed { on_disk.map_or(0, |d| d.1).max(u64::from(field(9))) } else { 0 };
        total += weight;
        let second = weight > 0
            && !entry.extended
            && matches!(kind(entry.mode), 0o100000 | 0o120000)
            && in_base.is_some_and(|(mode, _)| kind(*mode) == kind(entry.mode))
            && on_disk.is_some_and(|(mode, ..)| kind(mode) == kind(entry.mode))
            && through_real_dirs(top, path, &mut real_dirs);
        if second {
            candidates.push((weight, path));
        }
    }
    // Paths that left the index: their base blobs are diffed against nothing.
    for (path, (_, id)) in base {
        if !in_index.contains(path.as_slice()) {
            total += repo.gix().find_header(*id).map_or(0, |h| h.size());
        }
    }
    Some(Weighed { total, candidates })
}

/// Whether every directory leading to `path` is a real one, not a symlink (answers kept by
/// directory in `known`).
pub(super) fn through_real_dirs<'a>(
    top: &Path,
    path: &'a [u8],
    known: &mut HashMap<&'a [u8], bool>,
) -> bool {
    let slashes = path.iter().enumerate().filter(|(_, b)| **b == b'/').map(|(at, _)| at);
    for at in slashes {
        let dir = &path[..at];
        let real = *known.entry(dir).or_insert_with(|| {
            std::fs::symlink_metadata(top.join(OsStr::from_bytes(dir))).is_ok_and(|m| m.is_dir())
        });
        if !real {
            return false;
        }
    }
    true
}

/// Whether the repository's config leaves the parts' lines what the whole's would be.
pub(super) fn config_allows(repo: &Repo) -> bool {
    let config = repo.gix().config_snapshot();
    let colour = colour_possible(&config, &["color.diff", "diff.color", "color.ui"]);
    let copies = config.string("diff.renames").is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.as_slice() == b"copies" || v.as_slice() == b"copy"
    });
    let set = ["diff.orderFile", "diff.relative", "diff.statNameWidth", "diff.statGraphWidth"]
        .iter()
        .any(|key| config.string(key).is_some());
    let ignore_case = config.boolean("core.ignoreCase").unwrap_or(false);
    !(colour || copies || set || ignore_case)
}

/// The base's blobs and links by path; `None` for a submodule in it or one too large to read here.
fn read_base(repo: &Repo, commit: ObjectId) -> Option<Base> {
    let tree = repo.gix().find_commit(commit).ok()?.tree_id().ok()?.detach();
    let mut entries = HashMap::new();
    let mut pending = vec![(Vec::new(), tree)];
    while let Some((prefix, tree)) = pending.pop() {
        let tree = repo.gix().find_tree(tree).ok()?;
        for entry in tree.decode().ok()?.entries {
            let mut path = prefix.clone();
            if !path.is_empty() {
                path.push(b'/');
            }
            path.extend_from_slice(entry.filename);
            let mode = u32::from(entry.mode.value());
            if entry.mode.is_tree() {
                pending.push((path, entry.oid.to_owned()));
            } else if mode == GITLINK {
                return None;
            } else {
                entries.insert(path, (mode, entry.oid.to_owned()));
            }
            if entries.len() + pending.len() > MAX_BASE_ENTRIES {
                return None;
            }
        }
    }
    Some(entries)
}

/// `git diff --stat <base>` from its two parts, at once; `whole` (its arguments) after all when a
/// part's output is not what the layout knows.
pub(super) fn run(git: &Git, halves: &Halves, base: &str, whole: &[String]) -> Result<Vec<u8>> {
    let literal = |magic: &str, path: &[u8]| {
        let mut spec = format!(":({magic})").into_bytes();
        spec.extend_from_slice(path);
        OsString::from_vec(spec)
    };
    let second: Vec<OsString> = halves.paths.iter().map(|p| literal("top,literal", p)).collect();
    let first: Vec<OsString> =
        halves.paths.iter().map(|p| literal("top,exclude,literal", p)).collect();
    let (first, second) = thread::scope(|s| {
        let second = s.spawn(|| part(git, base, &second));
        let first = part(git, base, &first);
        (first, join(second))
    });
    let parsed = stat_render::parse(&first?).zip(stat_render::parse(&second?));
    match parsed.and_then(|(a, b)| stat_render::merge(a, b)) {
        Some(files) => Ok(stat_render::render(&files, halves.width)),
        None => run_git(git, whole),
    }
}

/// One part: `git diff --numstat -z --stat=<wide> <base> -- <pathspecs>`.
fn part(git: &Git, base: &str, pathspecs: &[OsString]) -> Result<Vec<u8>> {
    let mut args: Vec<OsString> = ["diff", "--numstat", "-z", "--stat=1000000,1000000", base, "--"]
        .map(OsString::from)
        .into();
    args.extend(pathspecs.iter().cloned());
    let mut cmd = git_command(git, &args);
    // The pathspecs carry their own magic, which these would override.
    for key in [
        "GIT_LITERAL_PATHSPECS",
        "GIT_GLOB_PATHSPECS",
        "GIT_NOGLOB_PATHSPECS",
        "GIT_ICASE_PATHSPECS",
    ] {
        cmd.env_remove(key);
    }
    let output = git::run(&mut cmd)?;
    git::checked(&cmd, output)
}
