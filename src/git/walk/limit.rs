//! The walk itself, git's `limit_list` (revision.c): every commit named so far, a queue ordered by
//! committer date, and the marking of uninteresting commits, stopped once nothing interesting is
//! left and [`SLOP`] more commits have been looked at. Each parsed commit's tree is handed to the
//! tree lookups ([`super::trees`]) as it goes.

use std::collections::BinaryHeap;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;

use super::commit::{CommitFields, Parents};
use super::objects::Objects;
use super::trees::TreeWork;

/// How many uninteresting commits the walk still looks at once nothing interesting is left.
const SLOP: usize = 5;

/// A commit as the walk knows it: created when first named, parsed when first needed.
pub(super) struct Node {
    pub(super) id: ObjectId,
    pub(super) parsed: Option<Parsed>,
    pub(super) uninteresting: bool,
    pub(super) seen: bool,
    pub(super) added: bool,
}

pub(super) struct Parsed {
    pub(super) parents: Parents<usize>,
    pub(super) date: i64,
    pub(super) tree: ObjectId,
    pub(super) message: Vec<u8>,
}

/// The walk's state: every commit named so far, by id.
pub(super) struct Walk<'r> {
    pub(super) objects: Objects,
    pub(super) nodes: Vec<Node>,
    pub(super) by_id: gix::hashtable::HashMap<ObjectId, usize>,
    pub(super) shallow: gix::hashtable::HashSet<ObjectId>,
    pub(super) buf: Vec<u8>,
    /// Where each parsed commit's tree goes to have the path looked up in it.
    pub(super) trees: Option<&'r TreeWork>,
    /// Starts the thread that looks trees up, once a chunk of them waits (then `None`).
    pub(super) start_helper: Option<&'r dyn Fn()>,
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
    pub(super) fn limit(
        &mut self,
        include: &[ObjectId],
        exclude: &[ObjectId],
    ) -> Result<Vec<usize>> {
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
