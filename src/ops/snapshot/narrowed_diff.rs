//! `git diff --stat <base>` on a large tree, narrowed to the paths that can differ.
//!
//! Fed by the walk (see [`tracked_walk`](super::tracked_walk)), the whole diff still reads every entry
//! of the index (2.6 MB on the generated 30k-file tree) and visits each one beside the base's
//! tree, even where the cache tree says nothing differs, before it diffs the few files that
//! changed. Most of that is known before git starts. When the index is HEAD's tree (its cache tree
//! says so), an entry can differ from the base only where HEAD's tree differs from the base's, or
//! where the walk doubted the file. So git is given only those paths: a private index with the
//! index's entries at them, and in place of the base a tree of the base's entries at them, stored
//! in a temporary object directory that git reads as an alternate. Every other entry is the same
//! in the base, the index and the work tree and adds nothing to the diff, so the pairs git diffs,
//! the renames among them and the lines it prints are those of the whole diff. The
//! `.gitattributes` files always go with them, so git reads the same attributes.
//!
//! Run alone on the generated 30k-file tree, the narrowed diff took 12.6 ms where the whole one
//! took 18-20; the snapshot went from 45.6 to 41.4 ms there, and from 109 to 83 ms on tc39/test262
//! (57k files; medians of 21 alternated runs, `bench/table.sh` trees).
//!
//! Where the reasoning does not hold, the whole diff runs: an index that is not HEAD's tree (a
//! staged change, no cache tree), an unmerged entry, a submodule, intent-to-add or skip-worktree
//! entries, more paths to give than a quarter of the index (in two parts: in the first part; see
//! [`max_paths`]). The narrowed
//! index is written in version 2 whatever the real one's version: a version 4 index's entries
//! (`feature.manyFiles`) are spelled out.

use std::fs::FileTimes;
use std::io::Write;

use anyhow::{Context, Result};
use gix::ObjectId;
use tempfile::NamedTempFile;

use std::os::unix::ffi::OsStrExt;

use super::narrowed_parts::{
    Entries, Held, Since, candidates, entries_in_parts, is_attributes, max_paths,
};
use super::narrowed_run::{FirstDiff, Narrowed, Part, Second};
use super::tracked_walk::Index;
use super::{stat_cache, stat_render, worktree_cache};
use crate::git::index_scan::Scan;
use crate::git::pack_write;

const TREE: u32 = 0o040000;
const GITLINK: u32 = 0o160000;

/// What HEAD changed since `base` (a commit, given to git as `base_arg`), when the index `scan`
/// is HEAD's tree; `None` where the diff must run whole. Bounded by [`max_paths`] unless `in_parts`
/// (the diff may run in two parts, whose second is not bounded).
pub(super) fn since(
    repo: &gix::Repository,
    base: ObjectId,
    base_arg: &str,
    scan: &Scan,
    in_parts: bool,
) -> Option<Since> {
    let head_tree = head_tree_of_index(repo, scan)?;
    let base_tree = repo.find_commit(base).ok()?.tree_id().ok()?.detach();
    let mut changed = Vec::new();
    let most = if in_parts { usize::MAX / 2 } else { max_paths(scan.entries.len()) };
    let mut budget = Budget { paths: most, trees: 2 * most };
    let (old, new) = (Some(base_tree), Some(head_tree));
    diff_trees(repo, old, new, &mut Vec::new(), &mut changed, &mut budget)?;
    Some(Since { changed, base: base_arg.to_string() })
}

/// HEAD's tree, when the index `scan` is that tree (its cache tree says so) and holds no entry
/// the narrowed diff cannot give (see the module's notes); `None` where the diff runs whole.
pub(super) fn head_tree_of_index(repo: &gix::Repository, scan: &Scan) -> Option<ObjectId> {
    if scan.special || scan.entries.iter().any(|e| e.extended) {
        return None;
    }
    let head_tree = repo.head_tree_id().ok()?.detach();
    (cache_tree_root(scan, repo.object_hash())? == head_tree).then_some(head_tree)
}

/// The root of the index's cache tree (the `TREE` extension: a path, its entry count, its
/// subtree count, then its id when the count is not -1): the tree the index would write.
fn cache_tree_root(scan: &Scan, hash: gix::hash::Kind) -> Option<ObjectId> {
    let (_, range) = scan.extensions.iter().find(|(signature, _)| signature == b"TREE")?;
    let data = scan.bytes.get(range.start + 8..range.end)?;
    // The root's path is empty.
    let rest = data.strip_prefix(b"\0")?;
    let line_end = rest.iter().position(|&b| b == b'\n')?;
    let (count, _) = std::str::from_utf8(&rest[..line_end]).ok()?.split_once(' ')?;
    if count.parse::<i64>().ok()? < 0 {
        return None;
    }
    let id = rest.get(line_end + 1..line_end + 1 + hash.len_in_bytes())?;
    ObjectId::try_from(id).ok()
}

struct Budget {
    paths: usize,
    trees: usize,
}

/// The entries (name, mode, id) of the tree `id`, in the tree's order; none for `None`.
fn entries(repo: &gix::Repository, id: Option<ObjectId>) -> Option<Vec<(Vec<u8>, u32, ObjectId)>> {
    let Some(id) = id else { return Some(Vec::new()) };
    let tree = repo.find_tree(id).ok()?;
    let decoded = tree.decode().ok()?;
    let entries = decoded.entries.iter();
    Some(
        entries
            .map(|e| (e.filename.to_vec(), u32::from(e.mode.value()), e.oid.to_owned()))
            .collect(),
    )
}

/// Every path below `prefix` where the trees `old` and `new` differ, with `old`'s entry there,
/// into `out`; `None` past the budget, or at a submodule.
fn diff_trees(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    prefix: &mut Vec<u8>,
    out: &mut Vec<(Vec<u8>, Option<Held>)>,
    budget: &mut Budget,
) -> Option<()> {
    if old == new {
        return Some(());
    }
    budget.trees = budget.trees.checked_sub(1)?;
    let (old, new) = (entries(repo, old)?, entries(repo, new)?);
    // The two lists merge in the trees' own order; a file and a tree of one name are two entries.
    let (mut o, mut n) = (old.iter().peekable(), new.iter().peekable());
    loop {
        let (a, b) = match (o.peek(), n.peek()) {
            (None, None) => return Some(()),
            (Some(a), Some(b)) => match tree_order((&a.0, a.1 == TREE), (&b.0, b.1 == TREE)) {
                std::cmp::Ordering::Less => (o.next(), None),
                std::cmp::Ordering::Greater => (None, n.next()),
                std::cmp::Ordering::Equal => (o.next(), n.next()),
            },
            (Some(_), None) => (o.next(), None),
            (None, Some(_)) => (None, n.next()),
        };
        let (name, mode) = a.or(b).map(|(name, mode, _)| (name, *mode))?;
        if a.is_some_and(|a| a.1 == GITLINK) || b.is_some_and(|b| b.1 == GITLINK) {
            return None;
        }
        if a.map(|a| (a.1, a.2)) == b.map(|b| (b.1, b.2)) {
            continue;
        }
        let len = prefix.len();
        prefix.extend_from_slice(name);
        if mode == TREE {
            prefix.push(b'/');
            diff_trees(repo, a.map(|a| a.2), b.map(|b| b.2), prefix, out, budget)?;
        } else {
            budget.paths = budget.paths.checked_sub(1)?;
            out.push((prefix.clone(), a.map(|a| (a.1, a.2))));
        }
        prefix.truncate(len);
    }
}

/// git's order of a tree's entries (`base_name_compare`): by name, a tree's name as if it ended in
/// a slash, so `d.txt` comes before the tree `d` and `d0` after it.
fn tree_order((a, a_tree): (&[u8], bool), (b, b_tree): (&[u8], bool)) -> std::cmp::Ordering {
    let len = a.len().min(b.len());
    let end =
        |name: &[u8], tree: bool| name.get(len).copied().unwrap_or(if tree { b'/' } else { 0 });
    a[..len].cmp(&b[..len]).then_with(|| end(a, a_tree).cmp(&end(b, b_tree)))
}

/// When the narrowed diff is cut in two: never, or when the second part gets at least this many
/// paths. Each part is a git of its own, on its own private index and base tree, so neither
/// matches pathspecs: the second takes every path HEAD changed that the walk found clean and that
/// is a file or a link in the base as in HEAD (never one end of a rename), the first all the
/// rest. The second part's lines depend only on blob ids and what git reads besides them, so they
/// are kept for the next snapshot (see [`stat_cache`]), and while the base and HEAD stay put only
/// the first part runs. On a base 35 commits back on the generated 30k-file tree (974 paths to
/// diff), two cores, `bench/abx.py` with 21 rounds: 95.4 ms in one part, 96.5 in two run at once
/// (half of the 750 such paths in the second), 85.6 with those lines kept; the three git
/// commands 162 ms.
pub(super) const SECOND_PART_FROM: usize = 128;

/// From how many entries the first part of the narrowed diff is cut in two pieces, each diffed by
/// a git of its own, side by side (see [`Entries::pieces`](super::narrowed_parts::Entries::pieces)):
/// the diff of the files the walk doubted is most of what the snapshot waits for after the walk,
/// and one git does it on one core.
const PIECES_FROM: usize = 128;

/// From how many entries the first part is cut in pieces where the second part is cut off from
/// `second_from` paths: [`PIECES_FROM`], or two where the parts are asked for whatever their size.
fn pieces_from(second_from: usize) -> usize {
    if second_from <= 1 { 2 } else { PIECES_FROM }
}

/// What the configuration allows the narrowed diff.
pub(super) struct Allowed {
    /// Status's tracked letters may come from its raw records (see
    /// [`narrowed_status`](super::narrowed_status)).
    pub raw_letters: bool,
    /// `core.quotePath`: names outside ASCII are quoted in the stat (see
    /// [`stat_render::lays_out`]).
    pub quote_path_fully: bool,
}

/// The private index and the base's tree for the entries the walk doubted (`dirty`, one per
/// entry of `index`) and the paths in `since`; `None` when there are too many. With
/// `second_from`, in two parts where the second gets at least that many paths (see
/// [`SECOND_PART_FROM`]).
pub(super) fn narrowed(
    repo: &gix::Repository,
    index: &Index,
    dirty: &[bool],
    since: &Since,
    second_from: Option<usize>,
    untracked: Option<&[Vec<u8>]>,
    allowed: &Allowed,
) -> Result<Option<Narrowed>> {
    let hash = repo.object_hash();
    let candidates = candidates(&index.scan, dirty, since);
    let walked = (dirty, candidates.as_slice());
    let mut parts = match second_from {
        // In one part where the second would get too few paths or cannot be had.
        Some(from) => match entries_in_parts(index, walked, since, true, hash)? {
            Some(parts) if parts[1].count as usize >= from.max(1) => Some(parts),
            _ => entries_in_parts(index, walked, since, false, hash)?,
        },
        None => entries_in_parts(index, walked, since, false, hash)?,
    };
    let Some(parts) = parts.take() else { return Ok(None) };
    let [first, second] = parts;
    // git also reads a `.gitattributes` the index does not hold: with one among the untracked
    // names the walk found (or the names unknown), no lines are kept.
    let attributes_outside = untracked.is_none_or(|names| names.iter().any(|n| is_attributes(n)));
    let (keep, kept) = stat_cache::for_part(repo, &since.base, &second, attributes_outside);
    let objects = tempfile::Builder::new()
        .prefix("git-handoff-objects-")
        .tempdir()
        .context("creating the snapshot's object directory")?;
    let letters = (allowed.raw_letters && !first.doubted_since).then(|| {
        let mut changed: Vec<Vec<u8>> = since.changed.iter().map(|(p, _)| p.clone()).collect();
        changed.sort_unstable();
        changed
    });
    // The lines of the first part's files kept by an earlier snapshot, where the letters come
    // with them (they are read from the raw records): git diffs only the others.
    let keeps = second_from.is_some() && letters.is_some() && !attributes_outside;
    let keeps = keeps && lays_out(&first, allowed);
    let cached = keeps.then(|| worktree_cache::split(repo, &since.base, &first)).flatten();
    // The first part's index whole, for status's git where the letters cannot be read.
    let first_index = write_index(index, &first, hash)?;
    let objects_dir = objects.path();
    let first_diff = match &cached {
        Some((_, run)) if !run.has_lines() => Some(FirstDiff::Nothing),
        Some((_, run)) => first_diff(repo, index, run, second_from, allowed, objects_dir, true)?,
        None => first_diff(repo, index, &first, second_from, allowed, objects_dir, false)?,
    };
    let Some(first_diff) = first_diff else { return Ok(None) };
    let second = match (second.count, kept) {
        (0, _) => None,
        (_, Some(lines)) => Some(Second::Kept(lines)),
        (_, None) => match write_part(repo, index, &second, objects.path())? {
            Some(part) => Some(Second::Run { part, keep }),
            None => return Ok(None),
        },
    };
    let columns = std::env::var_os("COLUMNS");
    let width = stat_render::columns(columns.as_deref().map(OsStrExt::as_bytes));
    // Status's git, when it runs beside the first part's diff, reads a copy of its index: each
    // git may write back the index it refreshed while the other reads it.
    let status_index = match (&first_diff, &letters) {
        (FirstDiff::Whole(_), None) => Some(write_index(index, &first, hash)?),
        _ => None,
    };
    let (first, base, cache) = (first_index, since.base.clone(), cached.map(|(plan, _)| plan));
    Ok(Some(Narrowed {
        first,
        status_index,
        first_diff,
        second,
        objects,
        base,
        width,
        letters,
        cache,
    }))
}

/// Whether every name of a part has a stat line the layout can repeat (see
/// [`stat_render::lays_out`]).
fn lays_out(part: &Entries<'_>, allowed: &Allowed) -> bool {
    let mut paths = part.ids.iter().chain(&part.base).map(|(path, _)| *path);
    paths.all(|p| stat_render::lays_out(p, allowed.quote_path_fully))
}

/// How the first part is diffed: in two pieces where it may be (see [`PIECES_FROM`]), each written
/// with its index and tree, else whole against the base's tree of its paths, written into
/// `objects` (with an index of its own where it is `own`, a selection of the first part's
/// entries); `None` where a tree cannot hold an entry.
fn first_diff(
    repo: &gix::Repository,
    index: &Index,
    first: &Entries<'_>,
    second_from: Option<usize>,
    allowed: &Allowed,
    objects: &std::path::Path,
    own: bool,
) -> Result<Option<FirstDiff>> {
    // In pieces only where their lines can be laid out as git's: else the whole diff would run.
    let pieces = second_from
        .filter(|&from| first.count as usize >= pieces_from(from))
        .filter(|_| lays_out(first, allowed));
    Ok(match pieces.and_then(|_| first.pieces()) {
        Some([a, b]) => {
            let a = write_part(repo, index, &a, objects)?;
            let b = write_part(repo, index, &b, objects)?;
            a.zip(b).map(|pieces| FirstDiff::Pieces(Box::new(pieces.into())))
        }
        None if own => {
            write_part(repo, index, first, objects)?.map(|part| FirstDiff::Part(Box::new(part)))
        }
        None => write_tree(repo, first, objects)?.map(FirstDiff::Whole),
    })
}

/// Writes one part: its private index and the base's tree of its paths, into `objects`; `None`
/// where the tree cannot hold an entry.
fn write_part(
    repo: &gix::Repository,
    index: &Index,
    part: &Entries<'_>,
    objects: &std::path::Path,
) -> Result<Option<Part>> {
    let Some(tree) = write_tree(repo, part, objects)? else { return Ok(None) };
    Ok(Some(Part { index: write_index(index, part, repo.object_hash())?, tree }))
}

/// Writes a part's private index, dated as the real one.
fn write_index(index: &Index, part: &Entries<'_>, hash: gix::hash::Kind) -> Result<NamedTempFile> {
    let mut bytes = index.scan.bytes[..12].to_vec();
    bytes[4..8].copy_from_slice(&2u32.to_be_bytes());
    bytes[8..12].copy_from_slice(&part.count.to_be_bytes());
    bytes.extend_from_slice(&part.bytes);
    let mut hasher = gix::hash::hasher(hash);
    hasher.update(&bytes);
    bytes
        .extend_from_slice(hasher.try_finalize().context("hashing the narrowed index")?.as_slice());

    let mut file = tempfile::Builder::new()
        .prefix("git-handoff-narrow-")
        .tempfile()
        .context("creating the snapshot's narrowed index")?;
    file.write_all(&bytes).context("writing the snapshot's narrowed index")?;
    // git doubts the entries the real index holds racily clean, as there.
    let times = FileTimes::new().set_modified(index.modified);
    file.as_file().set_times(times).context("dating the snapshot's narrowed index")?;
    Ok(file)
}

/// Writes the base's tree of a part's paths into `objects`; `None` where it cannot hold an entry.
fn write_tree(
    repo: &gix::Repository,
    part: &Entries<'_>,
    objects: &std::path::Path,
) -> Result<Option<String>> {
    let hash = repo.object_hash();
    let mut editor = repo.edit_tree(ObjectId::empty_tree(hash))?.detach();
    for &(path, (mode, id)) in &part.base {
        // Submodules never get here (the index and the trees were checked for them).
        let Some(kind) = pack_write::entry_kind(mode) else { return Ok(None) };
        editor.upsert(path.split(|&b| b == b'/').map(gix::bstr::BStr::new), kind, id)?;
    }
    let root = pack_write::write_tree(&mut editor, objects, hash, pack_write::Pack::Temporary)?;
    Ok(Some(root.to_string()))
}

#[cfg(test)]
mod tests {
    use super::tree_order;

    #[test]
    fn entries_merge_in_gits_tree_order() {
        // As `git mktree` sorts them: a tree sorts as its name and a slash.
        let sorted: [(&[u8], bool); 6] = [
            (b"d-x", false),
            (b"d.txt", false),
            (b"d", true),
            (b"d0", false),
            (b"d0", true),
            (b"e", false),
        ];
        for (i, a) in sorted.iter().enumerate() {
            for (j, b) in sorted.iter().enumerate() {
                assert_eq!(tree_order(*a, *b), i.cmp(&j), "{a:?} {b:?}");
            }
        }
        assert!(tree_order((b"d", false), (b"d", true)).is_lt());
    }
}
