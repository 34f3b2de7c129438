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
//! A line is kept only for a file changed at least [`SETTLED`] before git read it, by this
//! machine's clock (a network file system's own clock may run behind it): a file changed again
//! within the same tick of the clock could keep the stat data the line was read under (as git's
//! own racily clean entries). The file is looked at again after git ran, and its line kept only
//! if it did not change meanwhile; a path gone from the work tree is kept only with the deletion
//! git gave it. Never kept: a path below a link or in place of which a directory stands, an
//! assume-unchanged entry, and any line where git runs a program on the files (a clean filter, a
//! textconv), whose own file the key does not hold. The file is replaced whole and ends in a
//! checksum, as the second part's is ([`kept_lines`]).

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use gix::ObjectId;

use super::diff_split::through_real_dirs;
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
    /// The lines kept for paths of this first part, with their keys, by path.
    pub kept: Vec<(ObjectId, Line)>,
    /// Each path git diffs whose line may be kept: its key and what it was made from, to be made
    /// again after git ran.
    fresh: HashMap<Vec<u8>, (ObjectId, Entry)>,
    /// Whether the file holds lines for paths no longer in the part.
    stale: bool,
    top: PathBuf,
    hash: gix::hash::Kind,
}

/// What a path's key is made from: its entries in the base and the index.
#[derive(Clone, Copy)]
struct Entry {
    base: Option<Held>,
    id: Option<Held>,
}

/// The plan for the first part `first` of a diff against `base`, and the entries git must still
/// diff; `None` where its lines cannot be kept: an attributes file that changed, a program git
/// runs on the files (a clean filter or a textconv, whose own file is not in the key), a bare
/// repository, no key.
pub(super) fn split<'a>(
    repo: &gix::Repository,
    base: &str,
    first: &Entries<'a>,
) -> Option<(Plan, Entries<'a>)> {
    if first.attributes_changed || runs_programs(repo) {
        return None;
    }
    let plan = plan(repo, repo.workdir()?, base, first)?;
    let run = first.select(|path| !plan.is_kept(path));
    Some((plan, run))
}

/// Whether the config names a program git runs on a file's content before it counts its lines.
fn runs_programs(repo: &gix::Repository) -> bool {
    let config = repo.config_snapshot();
    config.plumbing().sections().any(|section| {
        let name = section.header().name();
        let keys: &[&str] = if name.eq_ignore_ascii_case(b"filter") {
            &["clean", "process"]
        } else if name.eq_ignore_ascii_case(b"diff") {
            &["textconv"]
        } else {
            &[]
        };
        keys.iter().any(|key| section.contains_value_name(key))
    })
}

/// The plan for `first`, which holds no attributes file that changed, in the repository whose
/// work tree is `top`. Where it holds an addition, which rename detection may pair with any
/// deletion, only the files in the base, the index and the work tree alike are kept (their lines
/// are their own whatever is renamed): the additions and deletions always go to git. An entry
/// git takes as unchanged whatever the file holds (assume-unchanged) always goes to git.
fn plan(repo: &gix::Repository, top: &Path, base: &str, first: &Entries<'_>) -> Option<Plan> {
    let context = context(repo, base, first)?;
    let file = repo.git_dir().join(FILE);
    let stored = kept_lines::read(&file, &context).unwrap_or_default();
    let settled = settled()?;
    let renames = first.is_whole();
    let hash = repo.object_hash();
    let mut plan = Plan {
        file,
        context,
        renames,
        kept: Vec::new(),
        fresh: HashMap::new(),
        stale: false,
        top: top.to_path_buf(),
        hash,
    };
    let bases: HashMap<&[u8], Held> = first.base.iter().copied().collect();
    let indexed: HashSet<&[u8]> = first.ids.iter().map(|(path, _)| *path).collect();
    let assumed = first.ids.iter().zip(first.flags(hash.len_in_bytes()));
    let assumed: HashSet<&[u8]> =
        assumed.filter(|(_, flags)| flags & ASSUME_UNCHANGED != 0).map(|((p, _), _)| *p).collect();
    let in_index = first.ids.iter().map(|&(path, id)| (path, bases.get(path).copied(), Some(id)));
    let only_base = first.base.iter().filter(|(path, _)| !indexed.contains(path));
    let only_base = only_base.map(|&(path, base)| (path, Some(base), None));
    let mut dirs = HashMap::new();
    let mut used = 0;
    for (path, base, id) in in_index.chain(only_base) {
        let addition_or_deletion = base.is_none() || id.is_none();
        if is_attributes(path) || assumed.contains(path) || (renames && addition_or_deletion) {
            continue;
        }
        let entry = Entry { base, id };
        let Some(Keyed { key, gone, settled }) =
            entry_key(hash, top, path, entry, settled, &mut dirs)
        else {
            continue;
        };
        match stored.get(&key) {
            _ if renames && gone => {}
            Some(line) if line.path == path => {
                plan.kept.push((key, line.clone()));
                used += 1;
            }
            _ if settled => {
                plan.fresh.insert(path.to_vec(), (key, entry));
            }
            _ => {}
        }
    }
    plan.stale = used != stored.len();
    plan.kept.sort_unstable_by(|a, b| a.1.path.cmp(&b.1.path));
    Some(plan)
}

/// The flag of an index entry git takes as unchanged whatever its file holds.
const ASSUME_UNCHANGED: u16 = 0x8000;

/// The moment a file must have last changed before for its line to be kept: [`SETTLED`] ago, by
/// this machine's clock (the file system's may differ, on a network mount; see the module's
/// notes), as seconds and nanoseconds.
fn settled() -> Option<(i64, i64)> {
    let settled = SystemTime::now().checked_sub(SETTLED)?;
    let settled = settled.duration_since(SystemTime::UNIX_EPOCH).ok()?;
    Some((settled.as_secs() as i64, i64::from(settled.subsec_nanos())))
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

/// A path's key, with whether its file is gone and whether it was changed long enough ago to be
/// kept.
struct Keyed {
    key: ObjectId,
    gone: bool,
    settled: bool,
}

/// A path's key: its entries in the base and the index, and its file's stat data (or that it is
/// gone); `None` where the file cannot be told by its stat data: below a directory that is not a
/// real one (git takes a path under a link as gone, and a link's target may change), a directory
/// in its place (git looks inside, for a repository), anything but a file or a link, or a stat
/// that fails otherwise than for a missing file. `dirs` holds what is known of the directories.
fn entry_key<'p>(
    hash: gix::hash::Kind,
    top: &Path,
    path: &'p [u8],
    entry: Entry,
    settled: (i64, i64),
    dirs: &mut HashMap<&'p [u8], bool>,
) -> Option<Keyed> {
    let mut hasher = gix::hash::hasher(hash);
    let mut feed = |bytes: &[u8]| {
        hasher.update(&(bytes.len() as u64).to_be_bytes());
        hasher.update(bytes);
    };
    feed(path);
    for held in [entry.base, entry.id] {
        match held {
            Some((mode, id)) => {
                feed(&mode.to_be_bytes());
                feed(id.as_bytes());
            }
            None => feed(b"none"),
        }
    }
    let (gone, settled) = match entry.id {
        // A path HEAD deleted that the index does not hold: git diffs no file for it.
        None => (false, true),
        Some(_) if !through_real_dirs(top, path, dirs) => return None,
        Some(_) => match std::fs::symlink_metadata(top.join(OsStr::from_bytes(path))) {
            Ok(meta) if meta.is_file() || meta.is_symlink() => {
                for field in [meta.dev(), meta.ino(), u64::from(meta.mode())] {
                    feed(&field.to_be_bytes());
                }
                for field in [u64::from(meta.uid()), u64::from(meta.gid()), meta.size()] {
                    feed(&field.to_be_bytes());
                }
                for field in [meta.mtime(), meta.mtime_nsec(), meta.ctime(), meta.ctime_nsec()] {
                    feed(&field.to_be_bytes());
                }
                let before = |secs: i64, nanos: i64| (secs, nanos) < settled;
                (
                    false,
                    before(meta.mtime(), meta.mtime_nsec())
                        && before(meta.ctime(), meta.ctime_nsec()),
                )
            }
            Ok(_) => return None,
            Err(err) if gone_error(&err) => {
                feed(b"gone");
                (true, true)
            }
            Err(_) => return None,
        },
    };
    let key = hasher.try_finalize().ok()?;
    Some(Keyed { key, gone, settled })
}

/// Whether a stat's failure says the file is not there (nor a directory on its way).
fn gone_error(err: &std::io::Error) -> bool {
    matches!(err.raw_os_error(), Some(libc::ENOENT) | Some(libc::ENOTDIR))
}

impl Plan {
    /// Whether the line of `path` is kept (so git need not diff it).
    pub(super) fn is_kept(&self, path: &[u8]) -> bool {
        self.kept.binary_search_by(|(_, line)| line.path.as_slice().cmp(path)).is_ok()
    }

    /// The kept lines' stat lines, in git's order.
    pub(super) fn stats(&self) -> Vec<FileStat> {
        self.kept.iter().filter_map(|(_, line)| line.stat.clone()).collect()
    }

    /// The kept lines' raw records, for status's letters.
    pub(super) fn raw(&self) -> Vec<Raw<'_>> {
        let lines = self.kept.iter().map(|(_, line)| line);
        let with_letter = lines.filter_map(|l| l.letter.map(|letter| (letter, l.path.as_slice())));
        with_letter
            .map(|(letter, path)| Raw { letter, path, from: None, to_gitlink: false })
            .collect()
    }

    /// Keeps the lines of the paths git diffed, read from the outputs of the first part's gits
    /// (`outputs`: raw records, then the numstat and the stat), with the lines kept before;
    /// failing, keeps nothing new.
    pub(super) fn write(&self, outputs: &[&[u8]]) {
        let Some((letters, stats)) = printed(outputs) else { return };
        let mut dirs = HashMap::new();
        let mut fresh = Vec::new();
        for (path, &(key, entry)) in &self.fresh {
            let letter = letters.get(path).map_or(&[][..], Vec::as_slice);
            let stat = stats.get(path).map_or(&[][..], Vec::as_slice);
            // One record at most (a type change may be split in two) and a stat line only with
            // it; among renames, a file only as modified, which nothing else can be paired with.
            let (letter, stat) = match (letter, stat) {
                ([], []) => (None, None),
                ([letter], []) => (Some(*letter), None),
                ([letter], [stat]) => (Some(*letter), Some(stat.clone())),
                _ => continue,
            };
            let plain = matches!(letter, Some(b'M' | b'T' | b'D') | None);
            let own = plain && (!self.renames || matches!(letter, Some(b'M') | None));
            // The file as it is now, after git read it: kept only if it is as it was before (it
            // did not change while git ran), and a deletion only for a path gone (from the work
            // tree, or from the index where HEAD deleted it).
            let now = entry_key(self.hash, &self.top, path, entry, (i64::MAX, 0), &mut dirs);
            let deleted = |now: &Keyed| entry.id.is_none() || now.gone;
            let same =
                now.is_some_and(|now| now.key == key && deleted(&now) == (letter == Some(b'D')));
            if own && same {
                fresh.push((key, Line { path: path.clone(), letter, stat }));
            }
        }
        if fresh.is_empty() && !self.stale {
            return;
        }
        let all: Vec<(ObjectId, Line)> = self.kept.iter().cloned().chain(fresh).collect();
        kept_lines::write(&self.file, &self.context, &all);
    }
}

/// Each path's letters (more than one where git split a type change, or for a rename's ends) and
/// stat lines in the outputs of the first part's gits; `None` where one is not in the shape
/// expected.
type Printed = (HashMap<Vec<u8>, Vec<u8>>, HashMap<Vec<u8>, Vec<FileStat>>);
fn printed(outputs: &[&[u8]]) -> Option<Printed> {
    let (mut letters, mut stats): Printed = Default::default();
    for out in outputs {
        let (raw, rest) = split_raw(out)?;
        for file in stat_render::parse(rest)? {
            stats.entry(file.key.clone()).or_default().push(file);
        }
        for record in raw {
            // A rename's or a copy's ends: their letters are not their own.
            for path in record.from.into_iter().chain([record.path]) {
                letters.entry(path.to_vec()).or_default().push(record.letter);
            }
        }
    }
    Some((letters, stats))
}
