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
//! entries, more paths to give than a quarter of the index (see [`max_paths`]). The narrowed
//! index is written in version 2 whatever the real one's version: a version 4 index's entries
//! (`feature.manyFiles`) are spelled out.

use std::fs::FileTimes;
use std::io::Write;

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;
use tempfile::{NamedTempFile, TempDir};

use super::tracked_walk::Index;
use crate::git::index_scan::Scan;
use crate::git::{Git, pack_write};

/// The most paths the narrowed diff is given for an index of `entries` entries: a quarter of
/// them (at least 1,024). Past that, reading the trees of that many paths here and writing the
/// base's tree of them costs about what the whole diff's visit of the index does, which
/// narrowing saves; below it, the narrowed diff is the quicker whatever the size of the change.
fn max_paths(entries: usize) -> usize {
    (entries / 4).max(1024)
}
const TREE: u32 = 0o040000;
const GITLINK: u32 = 0o160000;

/// A mode and an object id, as a tree or the index holds them.
type Held = (u32, ObjectId);

/// What HEAD changed since the base: each path where their trees differ, with the base's entry
/// there (`None` where the base has none).
pub(super) struct Since {
    changed: Vec<(Vec<u8>, Option<Held>)>,
    base: String,
}

/// What HEAD changed since `base` (a commit, given to git as `base_arg`), when the index `scan`
/// is HEAD's tree; `None` where the diff must run whole.
pub(super) fn since(
    repo: &gix::Repository,
    base: ObjectId,
    base_arg: &str,
    scan: &Scan,
) -> Option<Since> {
    if scan.special || scan.entries.iter().any(|e| e.extended) {
        return None;
    }
    let head_tree = repo.head_tree_id().ok()?.detach();
    if cache_tree_root(scan, repo.object_hash())? != head_tree {
        return None;
    }
    let base_tree = repo.find_commit(base).ok()?.tree_id().ok()?.detach();
    let mut changed = Vec::new();
    let most = max_paths(scan.entries.len());
    let mut budget = Budget { paths: most, trees: 2 * most };
    let (old, new) = (Some(base_tree), Some(head_tree));
    diff_trees(repo, old, new, &mut Vec::new(), &mut changed, &mut budget)?;
    Some(Since { changed, base: base_arg.to_string() })
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

/// The private index and the base's tree that narrow the diff, kept until git has run.
pub(super) struct Narrowed {
    index: NamedTempFile,
    objects: TempDir,
    tree: String,
    base: String,
}

impl Narrowed {
    /// `git` reading the private index and the new tree's object directory.
    pub(super) fn git(&self, git: &Git) -> Git {
        // No monitor: the few entries are stat'ed by git, and a configured hook would cost a
        // process for nothing. `git diff` may write the index it refreshed back, here the private
        // one: never as a split index, whose shared part would be left in the git dir.
        git.clone()
            .with_env("GIT_INDEX_FILE", self.index.path())
            .with_env(
                "GIT_ALTERNATE_OBJECT_DIRECTORIES",
                pack_write::alternates_with(self.objects.path()),
            )
            .with_config("core.fsmonitor=false")
            .with_config("core.preloadIndex=false")
            .with_config("core.splitIndex=false")
    }

    /// The diff's arguments with the base's tree in place of the base.
    pub(super) fn args(&self, diff_args: &[String]) -> Vec<String> {
        let swap = |arg: &String| if *arg == self.base { self.tree.clone() } else { arg.clone() };
        diff_args.iter().map(swap).collect()
    }
}

/// The private index and the base's tree for the entries the walk doubted (`dirty`, one per
/// entry of `index`) and the paths in `since`; `None` when there are too many.
pub(super) fn narrowed(
    repo: &gix::Repository,
    index: &Index,
    dirty: &[bool],
    since: &Since,
) -> Result<Option<Narrowed>> {
    let scan = &index.scan;
    // The paths HEAD changed, in the index's order (byte by byte), to meet its entries in one pass.
    let mut changed: Vec<&[u8]> = since.changed.iter().map(|(path, _)| path.as_slice()).collect();
    changed.sort_unstable();
    let mut changed = changed.into_iter().peekable();
    // The base's entries at the paths given: those HEAD changed, then those the index holds as
    // the base does.
    let mut base: Vec<(&[u8], Held)> =
        since.changed.iter().filter_map(|(path, held)| Some((path.as_slice(), (*held)?))).collect();
    let mut bytes = scan.bytes[..12].to_vec();
    bytes[4..8].copy_from_slice(&2u32.to_be_bytes());
    let hash = repo.object_hash();
    let most = max_paths(scan.entries.len());
    let mut count = 0u32;
    let mut extra = 0usize;
    for (i, entry) in scan.entries.iter().enumerate() {
        let path = scan.path(entry);
        while changed.next_if(|c| *c < path).is_some() {}
        let head_changed = changed.peek() == Some(&path);
        let attributes = path == b".gitattributes" || path.ends_with(b"/.gitattributes");
        if !(head_changed || attributes || dirty.get(i).copied().unwrap_or(true)) {
            continue;
        }
        if !head_changed {
            let id = scan.id(entry, hash).ok_or_else(|| anyhow!("an index entry cut short"))?;
            base.push((path, (entry.mode, id)));
        }
        // Written as a version 2 entry: its stat data, id and flags (whose low bits are the
        // path's length in every version), the whole path, NULs to a multiple of eight bytes. A
        // version 4 index's paths are each cut against the one before, which is not here.
        let at = entry.at();
        let head_len = 40 + hash.len_in_bytes() + 2;
        let start = bytes.len();
        bytes.extend_from_slice(&scan.bytes[at..at + head_len]);
        bytes.extend_from_slice(path);
        bytes.resize(start + ((head_len + path.len() + 8) & !7), 0);
        count += 1;
        // The paths HEAD changed are counted once, in `since`.
        extra += usize::from(!head_changed);
        if extra + since.changed.len() > most {
            return Ok(None);
        }
    }
    bytes[8..12].copy_from_slice(&count.to_be_bytes());
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

    let mut editor = repo.edit_tree(ObjectId::empty_tree(hash))?.detach();
    for (path, (mode, id)) in base {
        // Submodules never get here (the index and the trees were checked for them).
        let Some(kind) = pack_write::entry_kind(mode) else { return Ok(None) };
        editor.upsert(path.split(|&b| b == b'/').map(gix::bstr::BStr::new), kind, id)?;
    }
    let objects = tempfile::Builder::new()
        .prefix("git-handoff-objects-")
        .tempdir()
        .context("creating the snapshot's object directory")?;
    let root = pack_write::write_tree(&mut editor, objects.path(), hash, false)?;
    Ok(Some(Narrowed { index: file, objects, tree: root.to_string(), base: since.base.clone() }))
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
