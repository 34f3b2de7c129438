//! The lines of the narrowed diff's first part, path by path, kept for the next snapshot in
//! `<git dir>/handoff-snapshot-worktree` (beside the second part's, see
//! [`stat_cache`](super::stat_cache)).
//!
//! The first part (see [`narrowed_diff`](super::narrowed_diff)) holds the files the walk doubted,
//! mostly the ones the agent edited: git reads each from the work tree and diffs it against the
//! base's blob. Where no path's line can depend on another's (no addition, which rename detection
//! may pair with a deletion; no attributes file that changed), a path's raw letter and stat line
//! are known from the path, the base's and the index's entries there, the file's content, and
//! what the second part's key already holds (the `diff`, `core` and `attr` config, the attributes
//! files, git itself), with the `filter` config besides, which turns the file into what is diffed.
//! The content is told by the file's stat data: device, inode, mode, owner, size, and the
//! modification and change times to the nanosecond; the change time is the kernel's, which no
//! program can set back. So a snapshot diffs only the files whose stat data changed since the
//! last one (none, when the agent did nothing in between) and takes the other lines from here.
//!
//! A line is kept only for a file changed at least [`SETTLED`] before git read it: a file changed
//! again within the same tick of the clock could keep the stat data the line was read under (as
//! git's own racily clean entries). A path gone from the work tree is kept only with the deletion
//! git gave it. The file is replaced whole and ends in a checksum, as the second part's is.

use std::collections::HashMap;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use gix::ObjectId;

use super::narrowed_parts::{Entries, Held, is_attributes};
use super::narrowed_status::{Raw, split_raw};
use super::stat_cache;
use super::stat_render::{self, FileStat};

const MAGIC: &[u8] = b"git-handoff snapshot-worktree 1\n";
/// The name of the kept lines in the git directory.
pub(super) const FILE: &str = "handoff-snapshot-worktree";
/// The most bytes kept (a first part of that many changed files is rare).
const MAX_BYTES: usize = 16 << 20;
/// How long before git reads a file it must have last changed for its line to be kept.
const SETTLED: Duration = Duration::from_secs(2);

/// What the cache holds for one path: the raw record's letter (none where git printed no record)
/// and the stat line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Line {
    pub path: Vec<u8>,
    pub letter: Option<u8>,
    pub stat: Option<FileStat>,
}

/// The first part's paths, split into those whose lines are kept and those git diffs; made before
/// git runs, written after it with what git said.
pub(super) struct Plan {
    file: PathBuf,
    context: String,
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
/// diff; `None` where its lines cannot be kept (an addition, a changed attributes file, a bare
/// repository, no key).
pub(super) fn split<'a>(
    repo: &gix::Repository,
    base: &str,
    first: &Entries<'a>,
) -> Option<(Plan, Entries<'a>)> {
    if first.is_whole() {
        return None;
    }
    let plan = plan(repo, repo.workdir()?, base, first)?;
    let run = first.select(|path| !plan.is_kept(path))?;
    Some((plan, run))
}

/// The plan for `first`, which holds no addition and no changed attributes file, in the
/// repository whose work tree is `top`.
fn plan(repo: &gix::Repository, top: &Path, base: &str, first: &Entries<'_>) -> Option<Plan> {
    let context = context(repo, base, first)?;
    let file = repo.git_dir().join(FILE);
    let stored = read(&file, &context).unwrap_or_default();
    let settled = SystemTime::now().checked_sub(SETTLED)?;
    let settled = settled.duration_since(SystemTime::UNIX_EPOCH).ok()?;
    let settled = (settled.as_secs() as i64, i64::from(settled.subsec_nanos()));
    let mut plan = Plan {
        file,
        context,
        kept: Vec::new(),
        fresh: HashMap::new(),
        kept_keys: Vec::new(),
        stale: false,
    };
    let (at_entries, deleted) = first.base.split_at_checked(first.ids.len())?;
    let in_index = first
        .ids
        .iter()
        .zip(at_entries)
        .map(|(&(path, id), &(_, base))| (path, Some(base), Some(id)));
    let only_base = deleted.iter().map(|&(path, base)| (path, Some(base), None));
    let mut used = 0;
    for (path, base, id) in in_index.chain(only_base) {
        if is_attributes(path) {
            continue;
        }
        let Some((key, gone, settled)) = entry_key(repo, top, path, base, id, settled) else {
            continue;
        };
        match stored.get(&key) {
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
    key.feed(MAGIC);
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
        let mut fresh = Vec::new();
        for out in outputs {
            let Some(lines) = lines_of(out) else { return };
            fresh.extend(lines);
        }
        let fresh: Vec<(ObjectId, Line)> = fresh
            .into_iter()
            .filter_map(|line| {
                let &(key, gone) = self.fresh.get(&line.path)?;
                // A file gone is kept only with the deletion git gave it.
                (!gone || line.letter == Some(b'D')).then_some((key, line))
            })
            .collect();
        let unchanged = self.fresh.iter().filter(|(path, (_, gone))| {
            !gone && !fresh.iter().any(|(_, line)| &line.path == *path)
        });
        let unchanged: Vec<(ObjectId, Line)> = unchanged
            .map(|(path, (key, _))| (*key, Line { path: path.clone(), letter: None, stat: None }))
            .collect();
        if fresh.is_empty() && unchanged.is_empty() && !self.stale {
            return;
        }
        let kept = self.kept_keys.iter().copied().zip(self.kept.iter().cloned());
        let all: Vec<(ObjectId, Line)> = kept.chain(fresh).chain(unchanged).collect();
        write(&self.file, &self.context, &all);
    }
}

/// Each path's letter and stat line in one first-part output; `None` where it is not in the
/// shape expected.
fn lines_of(out: &[u8]) -> Option<Vec<Line>> {
    let (raw, rest) = split_raw(out)?;
    let stats = stat_render::parse(rest)?;
    let mut lines: Vec<Line> = Vec::new();
    for record in &raw {
        if record.from.is_some() {
            return None;
        }
        lines.push(Line { path: record.path.to_vec(), letter: Some(record.letter), stat: None });
    }
    for stat in stats {
        match lines.iter_mut().find(|line| line.path == stat.key) {
            Some(line) => line.stat = Some(stat),
            None => lines.push(Line { path: stat.key.clone(), letter: None, stat: Some(stat) }),
        }
    }
    Some(lines)
}

/// The lines kept under `context` in `file`, by key; `None` if there are none.
fn read(file: &Path, context: &str) -> Option<HashMap<ObjectId, Line>> {
    let limit = MAX_BYTES as u64 + 4096;
    let data = crate::util::fs::read_regular(file, limit, "the snapshot's kept lines").ok()?;
    let body = stat_cache::verified(&data)?;
    let rest = body.strip_prefix(MAGIC)?.strip_prefix(context.as_bytes())?;
    let mut rest = rest.strip_prefix(b"\n")?;
    let mut lines = HashMap::new();
    while !rest.is_empty() {
        let (key, line, after) = decode(rest)?;
        lines.insert(key, line);
        rest = after;
    }
    Some(lines)
}

/// Keeps `lines` under `context` in `file`, replacing what was kept; failing, keeps nothing.
fn write(file: &Path, context: &str, lines: &[(ObjectId, Line)]) {
    let mut data = Vec::new();
    data.extend_from_slice(MAGIC);
    data.extend_from_slice(context.as_bytes());
    data.push(b'\n');
    for (key, line) in lines {
        encode(&mut data, key, line);
        if data.len() > MAX_BYTES {
            return;
        }
    }
    let sum = stat_cache::checksum(&data);
    data.extend_from_slice(sum.as_bytes());
    let _ = crate::util::fs::replace_unsynced(file, &data);
}

/// One line as `<key> <letter or -> <n|s|b> <added> <deleted>\0<name>\0<path>\0`.
fn encode(out: &mut Vec<u8>, key: &ObjectId, line: &Line) {
    let letter = line.letter.unwrap_or(b'-');
    let (kind, added, deleted, name) = match &line.stat {
        None => (b'n', 0, 0, &[][..]),
        Some(stat) => {
            (if stat.binary { b'b' } else { b's' }, stat.added, stat.deleted, &stat.name[..])
        }
    };
    out.extend_from_slice(format!("{key} ").as_bytes());
    out.extend_from_slice(&[letter, b' ', kind]);
    out.extend_from_slice(format!(" {added} {deleted}").as_bytes());
    out.push(0);
    out.extend_from_slice(name);
    out.push(0);
    out.extend_from_slice(&line.path);
    out.push(0);
}

/// The line at the start of `data`, and what follows it.
fn decode(data: &[u8]) -> Option<(ObjectId, Line, &[u8])> {
    let mut fields = data.splitn(4, |&b| b == 0);
    let head = std::str::from_utf8(fields.next()?).ok()?;
    let name = fields.next()?;
    let path = fields.next()?;
    let rest = fields.next()?;
    let mut words = head.split(' ');
    let key = ObjectId::from_hex(words.next()?.as_bytes()).ok()?;
    let letter = match words.next()?.as_bytes() {
        b"-" => None,
        &[letter] => Some(letter),
        _ => return None,
    };
    let kind = words.next()?;
    let added = words.next()?.parse().ok()?;
    let deleted = words.next()?.parse().ok()?;
    if words.next().is_some() || path.is_empty() {
        return None;
    }
    let stat =
        |binary| FileStat { key: path.to_vec(), name: name.to_vec(), added, deleted, binary };
    let stat = match kind {
        "n" => None,
        "s" => Some(stat(false)),
        "b" => Some(stat(true)),
        _ => return None,
    };
    Some((key, Line { path: path.to_vec(), letter, stat }, rest))
}
