//! The paths two trees differ in, as `git diff-tree -r --no-renames --name-only` lists them,
//! read with the plain object reads: recall names the files changed since a handoff (and a
//! seal's files) at every session start, where starting git cost more than the rest of recall.

use anyhow::{Result, anyhow, bail};
use gix::ObjectId;
use gix::objs::tree::EntryMode;

use super::objects::Objects;
use super::tree_entry::{entry_order, split_entry};

/// One entry of a tree: its name, mode and object.
struct TreeEntry {
    name: Vec<u8>,
    mode: EntryMode,
    id: ObjectId,
}

impl Objects {
    /// The paths (`/`-separated, raw bytes) that differ between the trees `old` and `new` (`None`:
    /// the empty tree), in git's order: every file of a subtree on one side only, a file whose
    /// mode or content changed, a file replaced by a directory as the file and then the
    /// directory's files. Submodule entries are listed, never entered.
    pub fn changed_paths(
        &mut self,
        old: Option<ObjectId>,
        new: Option<ObjectId>,
    ) -> Result<Vec<Vec<u8>>> {
        let mut out = Vec::new();
        self.diff(old, new, &mut Vec::new(), &mut out)?;
        Ok(out)
    }

    fn diff(
        &mut self,
        old: Option<ObjectId>,
        new: Option<ObjectId>,
        prefix: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
    ) -> Result<()> {
        if old == new {
            return Ok(());
        }
        let old = match old {
            Some(id) => self.entries(id)?,
            None => Vec::new(),
        };
        let new = match new {
            Some(id) => self.entries(id)?,
            None => Vec::new(),
        };
        let (mut a, mut b) = (old.into_iter().peekable(), new.into_iter().peekable());
        loop {
            let order = match (a.peek(), b.peek()) {
                (None, None) => return Ok(()),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (Some(x), Some(y)) => compare(x, y),
            };
            let (left, right) = match order {
                std::cmp::Ordering::Less => (a.next(), None),
                std::cmp::Ordering::Greater => (None, b.next()),
                std::cmp::Ordering::Equal => (a.next(), b.next()),
            };
            let entry = left.as_ref().or(right.as_ref()).ok_or_else(|| anyhow!("no entry"))?;
            let depth = prefix.len();
            prefix.extend_from_slice(&entry.name);
            if entry.mode.is_tree() {
                prefix.push(b'/');
                self.diff(left.map(|e| e.id), right.map(|e| e.id), prefix, out)?;
            } else if left.as_ref().map(|e| (e.mode.kind(), e.id))
                != right.as_ref().map(|e| (e.mode.kind(), e.id))
            {
                out.push(prefix.clone());
            }
            prefix.truncate(depth);
        }
    }

    /// The entries of the tree `id`, in the order git keeps them.
    fn entries(&mut self, id: ObjectId) -> Result<Vec<TreeEntry>> {
        let mut data = Vec::new();
        if self.read(id, &mut data)? != gix::object::Kind::Tree {
            bail!("object {id} is not a tree");
        }
        let id_len = id.kind().len_in_bytes();
        let mut entries = Vec::new();
        let mut rest = &data[..];
        while !rest.is_empty() {
            let (mode, name, object, after) =
                split_entry(rest, id_len).ok_or_else(|| anyhow!("tree {id} is malformed"))?;
            entries.push(TreeEntry { name: name.to_vec(), mode, id: object });
            rest = after;
        }
        Ok(entries)
    }
}

/// Git's order of two entries of the trees compared ([`entry_order`]).
fn compare(x: &TreeEntry, y: &TreeEntry) -> std::cmp::Ordering {
    entry_order(&x.name, x.mode.is_tree(), &y.name, y.mode.is_tree())
}
