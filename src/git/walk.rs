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

use std::collections::BinaryHeap;

use anyhow::{Context, Result, anyhow, bail};
use commit::CommitFields;
pub use commit::Parents;
use gix::ObjectId;

use crate::git::pack_read::Packs;
pub use objects::{Objects, Sources};
use tree_entry::Entry;
use trees::{TreeLookup, TreeWork};

mod commit;
mod delta_cache;
mod objects;
mod tree_entry;
mod trees;

pub use delta_cache::with_delta_cache;
pub(crate) use tree_entry::find_entry;

/// How many uninteresting commits the walk still looks at once nothing interesting is left.
const SLOP: usize = 5;

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

/// A commit as the walk knows it: created when first named, parsed when first needed.
struct Node {
    id: ObjectId,
    parsed: Option<Parsed>,
    uninteresting: bool,
    seen: bool,
    added: bool,
}

struct Parsed {
    parents: Parents<usize>,
    date: i64,
    tree: ObjectId,
    message: Vec<u8>,
}

/// The walk's state: every commit named so far, by id.
struct Walk<'r> {
    objects: Objects,
    nodes: Vec<Node>,
    by_id: gix::hashtable::HashMap<ObjectId, usize>,
    shallow: gix::hashtable::HashSet<ObjectId>,
    buf: Vec<u8>,
    /// Where each parsed commit's tree goes to have the path looked up in it.
    trees: Option<&'r TreeWork>,
    /// Starts the thread that looks trees up, once a chunk of them waits (then `None`).
    start_helper: Option<&'r dyn Fn()>,
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
    // The path is looked up in each commit's tree on a second thread while the walk goes on: the
    // two cost about the same. The thread starts once a few trees are waiting: a push of a few
    // commits is over before a thread would have started.
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
    // The scope has joined the helper, if it started. The two threads' findings stay in two maps,
    // looked up in both rather than merged; of the two lookups, the one that read the first chunk
    // (the newest trees) is kept.
    let (entries, newest) = match (own, helped.into_inner().unwrap_or_else(|p| p.into_inner())) {
        (Ok((own, lookup)), Some(Ok((helped, helper_lookup)))) => {
            (Ok([own, helped]), helper_lookup.or(lookup))
        }
        (Ok((own, lookup)), None) => (Ok([own, Default::default()]), lookup),
        (Err(err), _) | (_, Some(Err(err))) => (Err(err), None),
    };
    let listed = listed?;
    let mut nodes = nodes;
    let [mut entries, helped] = entries?;
    // The walk hands out only the trees it expects to need; a commit reached first from an
    // uninteresting child and listed after all, or its parent, is looked up here.
    let mut late = None;
    for &n in &listed {
        let parsed = nodes[n].parsed.as_ref().expect("a listed commit is parsed");
        let parent = match parsed.parents[..] {
            [] => None,
            [p] => Some(nodes[p].parsed.as_ref().expect("a listed commit's parent is parsed").tree),
            _ => continue, // a merge: not asked
        };
        for tree in [Some(parsed.tree), parent].into_iter().flatten() {
            if !entries.contains_key(&tree) && !helped.contains_key(&tree) {
                let lookup = late.get_or_insert_with(|| TreeLookup::new(repo, sources, path));
                entries.insert(tree, lookup.entry(tree)?);
            }
        }
    }
    let entry = |tree: &ObjectId| -> Result<&Entry> {
        (entries.get(tree).or_else(|| helped.get(tree)))
            .ok_or_else(|| anyhow!("tree {tree} was not looked up"))
    };
    let mut out = Vec::with_capacity(listed.len());
    for n in topo_order(&nodes, &listed).into_iter().rev() {
        let node = &nodes[n];
        let parsed = node.parsed.as_ref().expect("a listed commit is parsed");
        let touches = match parsed.parents[..] {
            [] => Some(entry(&parsed.tree)?.is_some()),
            [p] => {
                let parent = nodes[p].parsed.as_ref().expect("a listed commit's parent is parsed");
                Some(parent.tree != parsed.tree && entry(&parent.tree)? != entry(&parsed.tree)?)
            }
            _ => None,
        };
        let (id, parents) = (node.id, parsed.parents.iter().map(|&p| nodes[p].id).collect());
        // Each message is handed out once, after any commit that needed it.
        let message = std::mem::take(
            &mut nodes[n].parsed.as_mut().expect("a listed commit is parsed").message,
        );
        out.push(Listed { id, parents, message, touches });
    }
    Ok(Walked { commits: out, objects: newest.or(late).map(|lookup| lookup.objects) })
}

/// A queue entry: newest committer date first, then first inserted first.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Queued {
    date: i64,
    order: std::cmp::Reverse<u64>,
    node: usize,
}

#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Queued>,
    counter: u64,
}

impl Queue {
    fn put(&mut self, node: usize, date: i64) {
        self.counter += 1;
        self.heap.push(Queued { date, order: std::cmp::Reverse(self.counter), node });
    }
}

impl Walk<'_> {
    fn node(&mut self, id: ObjectId) -> usize {
        if let Some(&n) = self.by_id.get(&id) {
            return n;
        }
        let n = self.nodes.len();
        self.nodes.push(Node { id, parsed: None, uninteresting: false, seen: false, added: false });
        self.by_id.insert(id, n);
        n
    }

    /// Parses commit `n` once; with `want_tree`, its tree goes to the lookup thread: whether a
    /// commit changes the path is wanted for the commits listed, and needs their parents' trees
    /// too, not those of the commits past the edge of the range that the walk still reads.
    fn parse(&mut self, n: usize, want_tree: bool) -> Result<&Parsed> {
        if self.nodes[n].parsed.is_none() {
            let id = self.nodes[n].id;
            let mut buf = std::mem::take(&mut self.buf);
            let kind =
                self.objects.read(id, &mut buf).with_context(|| format!("reading commit {id}"))?;
            if kind != gix::object::Kind::Commit {
                bail!("object {id} is a {kind}, not a commit");
            }
            let Some(commit) = CommitFields::parse(&buf, id.kind()) else {
                bail!("commit {id} cannot be parsed: it does not start with a tree line");
            };
            let CommitFields { tree, parents: parent_ids, date, message } = commit;
            let parent_ids = parent_ids.ok_or_else(|| {
                anyhow!("commit {id} cannot be parsed: a parent line is malformed")
            })?;
            let parent_ids = if self.shallow.contains(&id) { Parents::new() } else { parent_ids };
            let message = message.to_vec();
            self.buf = buf;
            if let Some(trees) = self.trees.filter(|_| want_tree)
                && trees.push(tree) >= TreeWork::START
                && let Some(start) = self.start_helper.take()
            {
                start();
            }
            let parents = parent_ids.into_iter().map(|p| self.node(p)).collect();
            self.nodes[n].parsed = Some(Parsed { parents, date, tree, message });
        }
        Ok(self.nodes[n].parsed.as_ref().expect("parsed above"))
    }

    fn parents(&self, n: usize) -> &[usize] {
        self.nodes[n].parsed.as_ref().map_or(&[], |p| &p.parents)
    }

    fn date(&self, n: usize) -> i64 {
        self.nodes[n].parsed.as_ref().map_or(0, |p| p.date)
    }

    /// git's `mark_parents_uninteresting`: the parents of `n`, and every ancestor of theirs
    /// already parsed, become uninteresting.
    fn mark_parents_uninteresting(&mut self, n: usize) {
        let mut stack: Vec<usize> = self.parents(n).to_vec();
        while let Some(p) = stack.pop() {
            if self.nodes[p].uninteresting {
                continue;
            }
            self.nodes[p].uninteresting = true;
            stack.extend_from_slice(self.parents(p));
        }
    }

    /// git's `process_parents` for the limited walk.
    fn process_parents(&mut self, n: usize, queue: &mut Queue) -> Result<()> {
        if self.nodes[n].added {
            return Ok(());
        }
        self.nodes[n].added = true;
        let uninteresting = self.nodes[n].uninteresting;
        // By index: parsing a parent adds nodes, which `self.parents(n)` would borrow across.
        for at in 0..self.parents(n).len() {
            let p = self.parents(n)[at];
            if uninteresting {
                self.nodes[p].uninteresting = true;
            }
            self.parse(p, !uninteresting)?;
            if uninteresting && !self.parents(p).is_empty() {
                self.mark_parents_uninteresting(p);
            }
            if !self.nodes[p].seen {
                self.nodes[p].seen = true;
                queue.put(p, self.date(p));
            }
        }
        Ok(())
    }

    /// git's `limit_list`: the interesting commits, in the order the walk met them.
    fn limit(&mut self, include: &[ObjectId], exclude: &[ObjectId]) -> Result<Vec<usize>> {
        let mut tips = Vec::new();
        for (ids, uninteresting) in [(include, false), (exclude, true)] {
            for &id in ids {
                let n = self.node(id);
                // An excluded tip's tree is wanted when it is a listed commit's parent.
                self.parse(n, true)?;
                if uninteresting {
                    self.nodes[n].uninteresting = true;
                    self.mark_parents_uninteresting(n);
                }
                if !self.nodes[n].seen {
                    self.nodes[n].seen = true;
                    tips.push(n);
                }
            }
        }
        let mut queue = Queue::default();
        // A stable sort by date, newest first, as git sorts its start list.
        tips.sort_by_key(|&n| std::cmp::Reverse(self.date(n)));
        for n in tips {
            queue.put(n, self.date(n));
        }

        let mut slop = SLOP;
        let mut date = i64::MAX;
        let mut listed = Vec::new();
        let mut interesting_cache: Option<usize> = None;
        while let Some(Queued { node: n, .. }) = queue.heap.pop() {
            if interesting_cache == Some(n) {
                interesting_cache = None;
            }
            self.process_parents(n, &mut queue)?;
            if self.nodes[n].uninteresting {
                self.mark_parents_uninteresting(n);
                slop = self.still_interesting(&queue, date, slop, &mut interesting_cache);
                if slop > 0 {
                    continue;
                }
                break;
            }
            date = self.date(n);
            listed.push(n);
        }
        // A commit listed early may have turned out to be reachable from an excluded tip.
        listed.retain(|&n| !self.nodes[n].uninteresting);
        Ok(listed)
    }

    fn still_interesting(
        &self,
        queue: &Queue,
        date: i64,
        slop: usize,
        cache: &mut Option<usize>,
    ) -> usize {
        let Some(head) = queue.heap.peek() else { return 0 };
        if date <= head.date {
            return SLOP;
        }
        if let Some(c) = *cache
            && !self.nodes[c].uninteresting
        {
            return SLOP;
        }
        if let Some(q) = queue.heap.iter().find(|q| !self.nodes[q.node].uninteresting) {
            *cache = Some(q.node);
            return SLOP;
        }
        slop - 1
    }
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
