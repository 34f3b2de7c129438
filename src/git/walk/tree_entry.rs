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
        let space = rest.iter().position(|&b| b == b' ')?;
        let mode = EntryMode::from_bytes(&rest[..=space])?;
        let after = &rest[space + 1..];
        let nul = after.iter().position(|&b| b == 0)?;
        let entry = &after[..nul];
        let id = after.get(nul + 1..nul + 1 + id_len)?;
        rest = &after[nul + 1 + id_len..];
        if entry == name {
            return Some(Some((mode, ObjectId::from_bytes_or_panic(id))));
        }
        // A directory sorts as its name and a `/`: once an entry sorts after `name/`, neither a
        // file nor a directory called `name` can follow.
        if sorts_after(entry, mode.is_tree(), name) {
            return Some(None);
        }
    }
    whole.then_some(None)
}

/// Whether the tree entry `entry` (a directory when `is_tree`) sorts after `name/` in git's tree
/// order.
fn sorts_after(entry: &[u8], is_tree: bool, name: &[u8]) -> bool {
    let slash: &[u8] = if is_tree { b"/" } else { b"" };
    entry.iter().chain(slash).cmp(name.iter().chain(b"/")) == std::cmp::Ordering::Greater
}
