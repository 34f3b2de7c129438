//! The commits of a range, listed in-process the way `git rev-list <include> --not <exclude>`
//! lists them, and which of them change a path.
//!
//! The walk is git's own `limit_list` (revision.c): a queue ordered by committer date, newest
//! first, ties in insertion order; a commit reached from an excluded tip is uninteresting and
//! passes that on to every ancestor already parsed; the walk stops once the queue holds nothing
//! interesting and five more uninteresting commits have been looked at (git's `SLOP`), so a little
//! clock skew between commits gives the same answer as git.
//!
//! Which commits change the path is decided as `git rev-list --full-history -- <path>` decides it
//! for a commit with one parent (every commit counts, including those on side branches a merge
//! left out): the entry at the path differs from the first parent's. The path is looked up in
//! each tree on a second thread while the walk reads commits, the two costing about the same.
//! A lookup reads no more than it must: the search in a tree stops at the first entry past the
//! name (git sorts entries), a loose tree is inflated only that far, and trees are read in the
//! direction of their pack's delta chains, so each one's base is the tree read just before.
//!
//! This replaces two git processes (a listing and a path-limited walk) for `validate`, whose
//! pre-push run must stay close to the cost of `git rev-list` itself. Shallow clones are honoured
//! (a shallow commit has no parents, as git sees it), and so are replace refs.
//!
//! This file lists the range and decides which commits touch the path; its children: [`limit`]
//! (the walk itself), [`commit`] (reading a commit), [`objects`] (reading any object),
//! [`trees`] (the tree lookups on the second thread), [`tree_entry`] (one entry in a tree's
//! bytes) and [`delta_cache`] (the delta-base cache for gix's reads).

use anyhow::{Context, Result, anyhow};
pub use commit::{Commit, Parents};
use gix::ObjectId;

use crate::git::pack_read::Packs;
use limit::{Node, Walk};
pub use objects::{Objects, Sources};
use tree_entry::Entry;
use trees::{TreeLookup, TreeWork};

mod commit;
mod delta_cache;
mod limit;
mod objects;
mod tree_diff;
mod tree_entry;
mod trees;

pub use delta_cache::with_delta_cache;
pub(crate) use tree_entry::find_entry;

/// One commit of a range.
#[derive(Debug, Clone)]
pub struct Listed {
    pub id: ObjectId,
    pub parents: Parents<ObjectId>,
    /// The raw commit message.
    pub message: Vec<u8>,
    /// Whether the commit changes `path` (for a root commit: whether `path` exists in it), as
    /// `git rev-list -- <path>` decides for a commit with one parent. `None` for merges.
    pub touches: Option<bool>,
}

/// What [`range_in`] found.
pub struct Walked {
    /// The commits, parents before children.
    pub commits: Vec<Listed>,
    /// The tree reader that read the newest trees (a push's note commit's and its parent's), if
    /// any: its cache holds them, which saves reading them again through their delta chains.
    pub objects: Option<Objects>,
}

/// The commits reachable from `include` and from none of `exclude`, parents before children
/// (the order of `git rev-list --topo-order --reverse`), each with whether it changes `path` (a
/// `/`-separated path from the top of the tree).
pub fn range(
    repo: &gix::Repository,
    include: &[ObjectId],
    exclude: &[ObjectId],
    path: &str,
) -> Result<Vec<Listed>> {
    range_in(repo, &Sources::of(repo, Packs::open(repo)), include, exclude, path)
        .map(|walked| walked.commits)
}

/// [`range`], reading objects from `sources` (found once for the whole command).
pub fn range_in(
    repo: &gix::Repository,
    sources: &Sources,
    include: &[ObjectId],
    exclude: &[ObjectId],
    path: &str,
) -> Result<Walked> {
    let shallow = repo
        .shallow_commits()
        .context("reading the shallow file")?
        .map(|s| s.iter().copied().collect())
        .unwrap_or_default();
    let walked = walk_looking_up_trees(repo, sources, (include, exclude), path, shallow);
    let WalkedTrees { mut nodes, listed, entries, newest } = walked;
    let listed = listed?;
    let mut entries = entries?;
    let late = look_up_the_rest(repo, sources, path, &nodes, &listed, &mut entries)?;
    let commits = in_topo_order(&mut nodes, &listed, &entries)?;
    Ok(Walked { commits, objects: newest.or(late).map(|lookup| lookup.objects) })
}

/// The entry at the path in each tree looked up: in two maps, one per thread, looked up in both
/// rather than merged.
struct TreeEntries([gix::hashtable::HashMap<ObjectId, Entry>; 2]);

impl TreeEntries {
    fn contains(&self, tree: &ObjectId) -> bool {
        self.0.iter().any(|entries| entries.contains_key(tree))
    }

    fn get(&self, tree: &ObjectId) -> Result<&Entry> {
        (self.0[0].get(tree).or_else(|| self.0[1].get(tree)))
            .ok_or_else(|| anyhow!("tree {tree} was not looked up"))
    }
}

/// What the walk and the tree lookups beside it found: the commits read (`nodes`), those listed,
/// the entries at the path, and the lookup that read the newest trees.
struct WalkedTrees {
    nodes: Vec<Node>,
    listed: Result<Vec<usize>>,
    entries: Result<TreeEntries>,
    newest: Option<TreeLookup>,
}

/// The walk of the range, with the path looked up in each commit's tree on a second thread while
/// the walk goes on: the two cost about the same. The thread starts once a few trees are waiting:
/// a push of a few commits is over before a thread would have started.
fn walk_looking_up_trees(
    repo: &gix::Repository,
    sources: &Sources,
    (include, exclude): (&[ObjectId], &[ObjectId]),
    path: &str,
    shallow: gix::hashtable::HashSet<ObjectId>,
) -> WalkedTrees {
    let work = TreeWork::default();
    let helped = std::sync::Mutex::new(None);
    let (nodes, listed, own) = std::thread::scope(|s| {
        let work = &work;
        let helped = &helped;
        let start_helper = || {
            let lookup_repo = repo.clone();
            s.spawn(move || {
                let entries = work.run(&lookup_repo, sources, path);
                *helped.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(entries);
            });
        };
        let mut walk = Walk {
            objects: Objects::new(repo, sources),
            // Room for a push of a thousand commits without growing.
            nodes: Vec::with_capacity(1024),
            by_id: gix::hashtable::HashMap::with_capacity_and_hasher(1024, Default::default()),
            shallow,
            buf: Vec::new(),
            trees: Some(work),
            start_helper: Some(&start_helper),
        };
        let listed = walk.limit(include, exclude);
        work.finish();
        // Once the walk is done this thread looks up trees too, a chunk at a time.
        let own = match &listed {
            Ok(_) => work.run(repo, sources, path),
            Err(_) => Ok(Default::default()),
        };
        (walk.nodes, listed, own)
    });
    // The scope has joined the helper, if it started. Of the two lookups, the one that read the
    // first chunk (the newest trees) is kept.
    let (entries, newest) = match (own, helped.into_inner().unwrap_or_else(|p| p.into_inner())) {
        (Ok((own, lookup)), Some(Ok((helped, helper_lookup)))) => {
            (Ok(TreeEntries([own, helped])), helper_lookup.or(lookup))
        }
        (Ok((own, lookup)), None) => (Ok(TreeEntries([own, Default::default()])), lookup),
        (Err(err), _) | (_, Some(Err(err))) => (Err(err), None),
    };
    WalkedTrees { nodes, listed, entries, newest }
}

/// The walk hands out only the trees it expects to need; a commit reached first from an
/// uninteresting child and listed after all, or its parent, is looked up here. Returns the lookup
/// made here, if one was.
fn look_up_the_rest(
    repo: &gix::Repository,
    sources: &Sources,
    path: &str,
    nodes: &[Node],
    listed: &[usize],
    entries: &mut TreeEntries,
) -> Result<Option<TreeLookup>> {
    let mut late = None;
    for &n in listed {
        let parsed = nodes[n].parsed.as_ref().expect("a listed commit is parsed");
        let parent = match parsed.parents[..] {
            [] => None,
            [p] => Some(nodes[p].parsed.as_ref().expect("a listed commit's parent is parsed").tree),
            _ => continue, // a merge: not asked
        };
        for tree in [Some(parsed.tree), parent].into_iter().flatten() {
            if !entries.contains(&tree) {
                let lookup = late.get_or_insert_with(|| TreeLookup::new(repo, sources, path));
                entries.0[0].insert(tree, lookup.entry(tree)?);
            }
        }
    }
    Ok(late)
}

/// The listed commits, parents before children, each with whether it changes the path (decided
/// from `entries`) and its message, handed out once, after any commit that needed it.
fn in_topo_order(
    nodes: &mut [Node],
    listed: &[usize],
    entries: &TreeEntries,
) -> Result<Vec<Listed>> {
    let mut out = Vec::with_capacity(listed.len());
    for n in topo_order(nodes, listed).into_iter().rev() {
        let node = &nodes[n];
        let parsed = node.parsed.as_ref().expect("a listed commit is parsed");
        let touches = match parsed.parents[..] {
            [] => Some(entries.get(&parsed.tree)?.is_some()),
            [p] => {
                let parent = nodes[p].parsed.as_ref().expect("a listed commit's parent is parsed");
                Some(
                    parent.tree != parsed.tree
                        && entries.get(&parent.tree)? != entries.get(&parsed.tree)?,
                )
            }
            _ => None,
        };
        let (id, parents) = (node.id, parsed.parents.iter().map(|&p| nodes[p].id).collect());
        let message = std::mem::take(
            &mut nodes[n].parsed.as_mut().expect("a listed commit is parsed").message,
        );
        out.push(Listed { id, parents, message, touches });
    }
    Ok(out)
}

/// git's `sort_in_topological_order` in graph order: children before parents, tips in the
/// order the walk listed them, each line of history kept together.
fn topo_order(nodes: &[Node], listed: &[usize]) -> Vec<usize> {
    let parents = |n: usize| nodes[n].parsed.as_ref().map_or(&[][..], |p| &p.parents[..]);
    // 0 for a commit not listed (or already placed), else 1 + its listed children not yet placed.
    let mut indegree = vec![0usize; nodes.len()];
    for &n in listed {
        indegree[n] = 1;
    }
    for &n in listed {
        for &p in parents(n) {
            if indegree[p] > 0 {
                indegree[p] += 1;
            }
        }
    }
    let mut stack: Vec<usize> = listed.iter().copied().filter(|&n| indegree[n] == 1).collect();
    stack.reverse();
    let mut out = Vec::with_capacity(listed.len());
    while let Some(n) = stack.pop() {
        for &p in parents(n) {
            if indegree[p] > 0 {
                indegree[p] -= 1;
                if indegree[p] == 1 {
                    stack.push(p);
                }
            }
        }
        indegree[n] = 0;
        out.push(n);
    }
    out
}

#[cfg(test)]
mod tests;
