//! The lines of the narrowed diff's first part, path by path, kept for the next snapshot in
//! `<git dir>/handoff-snapshot-worktree` (beside the second part's, see
//! [`stat_cache`](super::stat_cache)).
//!
//! The first part (see [`narrowed_diff`](super::narrowed_diff)) holds the files the walk doubted,
//! mostly the ones the agent edited: git reads each from the work tree and diffs it against the
//! base's blob. Where no attributes file changed, a path's raw letter and stat line are known
//! from the path, the base's and the index's entries there, the file's content, and
//! what the second part's key already holds (the `diff`, `core` and `attr` config, the attributes
//! files, git itself), with the `filter` config besides, which turns the file into what is diffed.
//! The content is told by the file's stat data: device, inode, mode, owner, size, and the
//! modification and change times to the nanosecond; the change time is the kernel's, which no
//! program can set back. So a snapshot diffs only the files whose stat data changed since the
//! last one (none, when the agent did nothing in between) and takes the other lines from here.
//! One path's line depends on another's only through rename detection, which pairs an addition
//! with a deletion: where the part holds an addition (HEAD added a file since the base), only the
//! lines of files modified alike in the base, the index and the work tree are kept, and every
//! addition and deletion goes to git each time.
//!
//! A line is kept only for a file changed at least [`SETTLED`] before git read it: a file changed
//! again within the same tick of the clock could keep the stat data the line was read under (as
//! git's own racily clean entries). A path gone from the work tree is kept only with the deletion
//! git gave it. The file is replaced whole and ends in a checksum, as the second part's is.

use std::collections::{HashMap, HashSet};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use gix::ObjectId;

use super::kept_lines::{self, Line};
use super::narrowed_parts::{Entries, Held, is_attributes};
use super::narrowed_status::{Raw, split_raw};
use super::stat_cache;
use super::stat_render::{self, FileStat};

/// The name of the kept lines in the git directory.
pub(super) const FILE: &str = "handoff-snapshot-worktree";
/// How long before git reads a file it must have last changed for its line to be kept.
const SETTLED: Duration = Duration::from_secs(2);

/// The first part's paths, split into those whose lines are kept and those git diffs; made before
/// git runs, written after it with what git said.
pub(super) struct Plan {
    file: PathBuf,
    context: String,
    /// Whether the part holds an addition, so renames may be found among its paths.
    renames: bool,
    /// The lines kept for paths of this first part, by path.
    pub kept: Vec<Line>,
    /// The key of each path git diffs whose line may be kept, with whether its file was gone.
    fresh: HashMap<Vec<u8>, (ObjectId, bool)>,
    /// The keys of the kept lines, to write back with the fresh ones.
    kept_keys: Vec<ObjectId>,
    /// Whether the file holds lines for paths no longer in the part.
    stale: bool,
}

/// The plan for the first part `first` of a diff against `base`, and the entries git must still
/// diff; `None` where its lines cannot be kept (an attributes file that changed, a bare
/// repository, no key).
pub(super) fn split<'a>(
    repo: &gix::Repository,
    base: &str,
    first: &Entries<'a>,
) -> Option<(Plan, Entries<'a>)> {
    if first.attributes_changed {
        return None;
    }
    let plan = plan(repo, repo.workdir()?, base, first)?;
    let run = first.select(|path| !plan.is_kept(path));
    Some((plan, run))
}

/// The plan for `first`, which holds no attributes file that changed, in the repository whose
/// work tree is `top`. Where it holds an addition, which rename detection may pair with any
/// deletion, only the files in the base, the index and the work tree alike are kept (their lines
/// are their own whatever is renamed): the additions and deletions always go to git.
fn plan(repo: &gix::Repository, top: &Path, base: &str, first: &Entries<'_>) -> Option<Plan> {
    let context = context(repo, base, first)?;
    let file = repo.git_dir().join(FILE);
    let stored = kept_lines::read(&file, &context).unwrap_or_default();
    let settled = SystemTime::now().checked_sub(SETTLED)?;
    let settled = settled.duration_since(SystemTime::UNIX_EPOCH).ok()?;
    let settled = (settled.as_secs() as i64, i64::from(settled.subsec_nanos()));
    let renames = first.is_whole();
    let mut plan = Plan {
        file,
        context,
        renames,
        kept: Vec::new(),
        fresh: HashMap::new(),
        kept_keys: Vec::new(),
        stale: false,
    };
    let bases: HashMap<&[u8], Held> = first.base.iter().copied().collect();
    let indexed: HashSet<&[u8]> = first.ids.iter().map(|(path, _)| *path).collect();
    let in_index = first.ids.iter().map(|&(path, id)| (path, bases.get(path).copied(), Some(id)));
    let only_base = first.base.iter().filter(|(path, _)| !indexed.contains(path));
    let only_base = only_base.map(|&(path, base)| (path, Some(base), None));
    let mut used = 0;
    for (path, base, id) in in_index.chain(only_base) {
        if is_attributes(path) || (renames && (base.is_none() || id.is_none())) {
            continue;
        }
        let Some((key, gone, settled)) = entry_key(repo, top, path, base, id, settled) else {
            continue;
        };
        match stored.get(&key) {
            _ if renames && gone => {}
            Some(line) if line.path == path => {
                plan.kept.push(line.clone());
                plan.kept_keys.push(key);
                used += 1;
            }
            _ if settled => {
                plan.fresh.insert(path.to_vec(), (key, gone));
            }
            _ => {}
        }
    }
    plan.stale = used != stored.len();
    plan.kept.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    Some(plan)
}

/// What every line of the part depends on besides its own path's entries and file.
fn context(repo: &gix::Repository, base: &str, first: &Entries<'_>) -> Option<String> {
    let mut key = stat_cache::Key::new(repo, base);
    key.feed(kept_lines::MAGIC);
    key.feed_sections(repo, &[b"filter"]);
    for (path, (mode, id)) in first.ids.iter().filter(|(path, _)| is_attributes(path)) {
        key.feed_entry(path, *mode, id);
    }
    key.finish()
}

/// A path's key: its entries in the base and the index, and its file's stat data (or that it is
/// gone); with whether it is gone and whether it was changed long enough ago to be kept. `None`
/// where the file cannot be told (a stat that fails otherwise than for a missing file).
fn entry_key(
    repo: &gix::Repository,
    top: &Path,
    path: &[u8],
    base: Option<Held>,
    id: Option<Held>,
    settled: (i64, i64),
) -> Option<(ObjectId, bool, bool)> {
    let mut hasher = gix::hash::hasher(repo.object_hash());
    let mut feed = |bytes: &[u8]| {
        hasher.update(&(bytes.len() as u64).to_be_bytes());
        hasher.update(bytes);
    };
    feed(path);
    for held in [base, id] {
        match held {
            Some((mode, id)) => {
                feed(&mode.to_be_bytes());
                feed(id.as_bytes());
            }
            None => feed(b"none"),
        }
    }
    let (gone, settled) = match id {
        // A path HEAD deleted that the index does not hold: git diffs no file for it.
        None => (false, true),
        Some(_) => {
            let file = top.join(std::ffi::OsStr::from_bytes(path));
            match std::fs::symlink_metadata(&file) {
                Ok(meta) => {
                    for field in [meta.dev(), meta.ino(), u64::from(meta.mode())] {
                        feed(&field.to_be_bytes());
                    }
                    for field in [u64::from(meta.uid()), u64::from(meta.gid()), meta.size()] {
                        feed(&field.to_be_bytes());
                    }
                    for field in [meta.mtime(), meta.mtime_nsec(), meta.ctime(), meta.ctime_nsec()]
                    {
                        feed(&field.to_be_bytes());
                    }
                    let at = |secs: i64, nanos: i64| (secs, nanos) < settled;
                    (
                        false,
                        at(meta.mtime(), meta.mtime_nsec()) && at(meta.ctime(), meta.ctime_nsec()),
                    )
                }
                Err(err) if gone_error(&err) => {
                    feed(b"gone");
                    (true, true)
                }
                Err(_) => return None,
            }
        }
    };
    let key = hasher.try_finalize().ok()?;
    Some((key, gone, settled))
}

/// Whether a stat's failure says the file is not there (nor a directory on its way).
fn gone_error(err: &std::io::Error) -> bool {
    matches!(err.raw_os_error(), Some(libc::ENOENT) | Some(libc::ENOTDIR))
}

impl Plan {
    /// Whether the line of `path` is kept (so git need not diff it).
    pub(super) fn is_kept(&self, path: &[u8]) -> bool {
        self.kept.binary_search_by(|line| line.path.as_slice().cmp(path)).is_ok()
    }

    /// The kept lines' stat lines, in git's order.
    pub(super) fn stats(&self) -> Vec<FileStat> {
        self.kept.iter().filter_map(|line| line.stat.clone()).collect()
    }

    /// The kept lines' raw records, for status's letters.
    pub(super) fn raw(&self) -> Vec<Raw<'_>> {
        let lines = self.kept.iter();
        let with_letter = lines.filter_map(|l| l.letter.map(|letter| (letter, l.path.as_slice())));
        with_letter.map(|(letter, path)| Raw { letter, path, from: None }).collect()
    }

    /// Keeps the lines of the paths git diffed, read from the outputs of the first part's gits
    /// (`outputs`: raw records, then the numstat and the stat), with the lines kept before;
    /// failing, keeps nothing new.
    pub(super) fn write(&self, outputs: &[&[u8]]) {
        let mut letters: HashMap<&[u8], Vec<u8>> = HashMap::new();
        let mut stats: HashMap<Vec<u8>, Vec<FileStat>> = HashMap::new();
        let mut parsed = Vec::new();
        for out in outputs {
            let Some((raw, rest)) = split_raw(out) else { return };
            let Some(files) = stat_render::parse(rest) else { return };
            parsed.push(raw);
            for file in files {
                stats.entry(file.key.clone()).or_default().push(file);
            }
        }
        for record in parsed.iter().flatten() {
            // A rename's or a copy's ends: their letters are not their own.
            for path in record.from.into_iter().chain([record.path]) {
                letters.entry(path).or_default().push(record.letter);
            }
        }
        let mut fresh = Vec::new();
        for (path, &(key, gone)) in &self.fresh {
            let letter = letters.get(path.as_slice()).map_or(&[][..], Vec::as_slice);
            let stat = stats.get(path).map_or(&[][..], Vec::as_slice);
            // One record at most (a type change may be split in two) and a stat line only with
            // it; a file gone only with the deletion git gave it; among renames, a file only as
            // modified, which nothing else can be paired with.
            let (letter, stat) = match (letter, stat) {
                ([], []) => (None, None),
                ([letter], []) => (Some(*letter), None),
                ([letter], [stat]) => (Some(*letter), Some(stat.clone())),
                _ => continue,
            };
            let plain = matches!(letter, Some(b'M' | b'T' | b'D') | None);
            let own = plain && (!self.renames || matches!(letter, Some(b'M') | None));
            if own && (!gone || letter == Some(b'D')) {
                fresh.push((key, Line { path: path.clone(), letter, stat }));
            }
        }
        if fresh.is_empty() && !self.stale {
            return;
        }
        let kept = self.kept_keys.iter().copied().zip(self.kept.iter().cloned());
        let all: Vec<(ObjectId, Line)> = kept.chain(fresh).collect();
        kept_lines::write(&self.file, &self.context, &all);
    }
}
