//! One entry found in a tree's raw bytes, as git's `find_tree_entry` finds it: the search stops at
//! the first entry sorting after the name, so a tree is read only as far as needed. Both the
//! object reader ([`super::objects`]) and the tree lookups ([`super::trees`]) stand on it.

use gix::ObjectId;
use gix::objs::tree::EntryMode;

/// The mode and id of the entry at the path, if the tree has one.
pub(super) type Entry = Option<(EntryMode, ObjectId)>;

/// The entry called `name` in the raw tree `data`, as git's `find_tree_entry` finds it: entries
/// are sorted by name, a directory's name read with a `/` after it, so the search stops at the
/// first entry that sorts after `name/`. `None` when an entry before that point is malformed or
/// cut short, or when `data` is only the start of the tree (not `whole`) and ends before that
/// point: the search is then undecided.
pub(crate) fn find_entry(
    data: &[u8],
    name: &[u8],
    hash: gix::hash::Kind,
    whole: bool,
) -> Option<Entry> {
    let id_len = hash.len_in_bytes();
    let mut rest = data;
    while !rest.is_empty() {
        let (mode, entry, id, after) = split_entry(rest, id_len)?;
        rest = after;
        if entry == name {
            return Some(Some((mode, id)));
        }
        // A directory sorts as its name and a `/`: once an entry sorts after `name/`, neither a
        // file nor a directory called `name` can follow.
        if sorts_after(entry, mode.is_tree(), name) {
            return Some(None);
        }
    }
    whole.then_some(None)
}

/// The first entry of the raw tree bytes `rest`: its mode, name and object, and the bytes after
/// it; `None` when it is malformed or cut short.
pub(super) fn split_entry(
    rest: &[u8],
    id_len: usize,
) -> Option<(EntryMode, &[u8], ObjectId, &[u8])> {
    let space = memchr::memchr(b' ', rest)?;
    let mode = EntryMode::from_bytes(&rest[..=space])?;
    let after = &rest[space + 1..];
    let nul = memchr::memchr(0, after)?;
    let id = after.get(nul + 1..nul + 1 + id_len)?;
    Some((mode, &after[..nul], ObjectId::from_bytes_or_panic(id), &after[nul + 1 + id_len..]))
}

/// Git's order of tree entries (`base_name_compare`): by name, a directory's name read with a
/// `/` after it, so a file and a directory of the same name are two entries.
pub(super) fn entry_order(a: &[u8], a_tree: bool, b: &[u8], b_tree: bool) -> std::cmp::Ordering {
    let slash = |tree: bool| if tree { &b"/"[..] } else { &b""[..] };
    a.iter().chain(slash(a_tree)).cmp(b.iter().chain(slash(b_tree)))
}

/// Whether the tree entry `entry` (a directory when `is_tree`) sorts after `name/` in git's tree
/// order.
fn sorts_after(entry: &[u8], is_tree: bool, name: &[u8]) -> bool {
    entry_order(entry, is_tree, name, true) == std::cmp::Ordering::Greater
}
