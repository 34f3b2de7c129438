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
use gix::ObjectId;
use gix::objs::Find;
use gix::objs::tree::EntryMode;

/// How many uninteresting commits the walk still looks at once nothing interesting is left.
const SLOP: usize = 5;

/// One commit of a range.
#[derive(Debug, Clone)]
pub struct Listed {
    pub id: ObjectId,
    pub parents: Vec<ObjectId>,
    /// The raw commit message.
    pub message: Vec<u8>,
    /// Whether the commit changes `path` (for a root commit: whether `path` exists in it), as
    /// `git rev-list -- <path>` decides for a commit with one parent. `None` for merges.
    pub touches: Option<bool>,
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
    parents: Vec<usize>,
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
    let shallow = repo
        .shallow_commits()
        .context("reading the shallow file")?
        .map(|s| s.iter().copied().collect())
        .unwrap_or_default();
    // The path is looked up in each commit's tree on a second thread while the walk goes on: the
    // two cost about the same.
    let work = TreeWork::default();
    let loose = loose_objects(repo);
    let lookup_repo = repo.clone();
    let (nodes, listed, entries) = std::thread::scope(|s| {
        let work = &work;
        let helper_loose = loose.clone();
        let lookup = s.spawn(move || work.run(&lookup_repo, &helper_loose, path));
        let mut walk = Walk {
            objects: Objects::new(repo, loose.clone()),
            // Room for a push of a thousand commits without growing.
            nodes: Vec::with_capacity(1024),
            by_id: gix::hashtable::HashMap::with_capacity_and_hasher(1024, Default::default()),
            shallow,
            buf: Vec::new(),
            trees: Some(work),
        };
        let listed = walk.limit(include, exclude);
        work.finish();
        // Once the walk is done this thread looks up trees too, a chunk at a time.
        let own = match &listed {
            Ok(_) => work.run(repo, &loose, path),
            Err(_) => Ok(Default::default()),
        };
        let helped = lookup.join().map_err(|_| anyhow!("the tree lookup thread panicked"));
        let entries = match (own, helped) {
            (Ok(mut own), Ok(Ok(helped))) => {
                own.extend(helped);
                Ok(own)
            }
            (Err(err), _) | (_, Ok(Err(err))) | (_, Err(err)) => Err(err),
        };
        (walk.nodes, listed, entries)
    });
    let listed = listed?;
    let entries = entries?;
    let entry = |tree: &ObjectId| -> Result<&Entry> {
        entries.get(tree).ok_or_else(|| anyhow!("tree {tree} was not looked up"))
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
        out.push(Listed {
            id: node.id,
            parents: parsed.parents.iter().map(|&p| nodes[p].id).collect(),
            message: parsed.message.clone(),
            touches,
        });
    }
    Ok(out)
}

/// The mode and id of the entry at the path, if the tree has one.
type Entry = Option<(EntryMode, ObjectId)>;

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

    fn parse(&mut self, n: usize) -> Result<&Parsed> {
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
            let parent_ids = if self.shallow.contains(&id) { Vec::new() } else { parent_ids };
            let message = message.to_vec();
            self.buf = buf;
            if let Some(trees) = self.trees {
                trees.push(tree);
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
        for p in self.parents(n).to_vec() {
            if uninteresting {
                self.nodes[p].uninteresting = true;
            }
            self.parse(p)?;
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
                self.parse(n)?;
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

/// What the walk reads of a raw commit, as git's `parse_commit_buffer` reads it: the tree line
/// first, then the parent lines, the committer date, and the message after the first empty line.
struct CommitFields<'a> {
    tree: ObjectId,
    /// `None` when a parent line is malformed.
    parents: Option<Vec<ObjectId>>,
    date: i64,
    message: &'a [u8],
}

impl<'a> CommitFields<'a> {
    /// `None` when the commit does not start with `tree <id>`.
    fn parse(data: &'a [u8], hash: gix::hash::Kind) -> Option<CommitFields<'a>> {
        let hex_len = hash.len_in_hex();
        let id_line = |rest: &[u8], key: &[u8]| -> Option<Option<ObjectId>> {
            let hex = rest.strip_prefix(key)?;
            Some(
                (hex.get(hex_len) == Some(&b'\n'))
                    .then(|| ObjectId::from_hex(&hex[..hex_len]).ok())
                    .flatten(),
            )
        };
        let tree = id_line(data, b"tree ")??;
        let mut rest = &data[5 + hex_len + 1..];
        let mut parents = Some(Vec::new());
        while let Some(parent) = id_line(rest, b"parent ") {
            let Some(parent) = parent else {
                parents = None;
                break;
            };
            parents.as_mut().expect("set above").push(parent);
            rest = &rest[7 + hex_len + 1..];
        }
        // The header ends at the first empty line, which tree and parent lines cannot hold: the
        // search starts at the newline ending the last of them.
        let header_end = data.len() - rest.len() - 1;
        let message = match data[header_end..].windows(2).position(|w| w == b"\n\n") {
            Some(at) => &data[header_end + at + 2..],
            None => &[],
        };
        Some(CommitFields { tree, parents, date: committer_date(rest), message })
    }
}

/// The committer date as git's `parse_commit_date` reads it from what follows the parent lines:
/// an author line, then a committer line, whose date is the number after its last `>`; 0 when
/// any of that is missing.
fn committer_date(rest: &[u8]) -> i64 {
    let Some(author) = rest.strip_prefix(b"author") else { return 0 };
    let Some(eol) = author.iter().position(|&b| b == b'\n') else { return 0 };
    let Some(committer) = author[eol + 1..].strip_prefix(b"committer") else { return 0 };
    let Some(eol) = committer.iter().position(|&b| b == b'\n') else { return 0 };
    let line = &committer[..eol];
    let Some(end) = line.iter().rposition(|&b| b == b'>') else { return 0 };
    let date = line[end + 1..].trim_ascii_start();
    let digits = date.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&date[..digits]).ok().and_then(|d| d.parse().ok()).unwrap_or(0)
}

/// The trees whose entry at the path is wanted: the walk adds them as it parses commits (newest
/// first), and a second thread looks them up a chunk at a time.
#[derive(Default)]
struct TreeWork {
    state: std::sync::Mutex<TreeQueue>,
    added: std::sync::Condvar,
}

#[derive(Default)]
struct TreeQueue {
    trees: Vec<ObjectId>,
    /// Where the next chunk starts.
    next: usize,
    /// No more trees will come.
    finished: bool,
    /// The lookup thread waits for a chunk to fill.
    waiting: bool,
}

impl TreeWork {
    const CHUNK: usize = 64;

    fn lock(&self) -> std::sync::MutexGuard<'_, TreeQueue> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn push(&self, tree: ObjectId) {
        let mut queue = self.lock();
        queue.trees.push(tree);
        // The waiting thread is woken for a whole chunk: a wake-up costs more than a lookup.
        if queue.waiting && queue.trees.len() - queue.next >= Self::CHUNK {
            queue.waiting = false;
            drop(queue);
            self.added.notify_one();
        }
    }

    fn finish(&self) {
        self.lock().finished = true;
        self.added.notify_one();
    }

    /// The next chunk of trees, or `None` once every tree has been handed out.
    fn take(&self) -> Option<Vec<ObjectId>> {
        let mut queue = self.lock();
        loop {
            let available = queue.trees.len() - queue.next;
            if available >= Self::CHUNK || (queue.finished && available > 0) {
                let start = queue.next;
                queue.next += available.min(Self::CHUNK);
                return Some(queue.trees[start..queue.next].to_vec());
            }
            if queue.finished {
                return None;
            }
            queue.waiting = true;
            queue = self.added.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Looks the path up in every tree handed out, until the walk is done; stops early (leaving
    /// the rest unlooked-up) on the first error.
    fn run(
        &self,
        repo: &gix::Repository,
        loose: &Loose,
        path: &str,
    ) -> Result<gix::hashtable::HashMap<ObjectId, Entry>> {
        let mut entries = gix::hashtable::HashMap::default();
        // Which way the pack's delta chains run: git's repacks keep the newest tree whole and
        // store older ones against newer ones, so trees are best read newest first, the walk's
        // order; `git fast-import` stores each tree against its parent's, so parents first is
        // best. gix caches the objects it was asked for, not the chain below them, so reading
        // against the chains' direction resolves whole chains, up to 50 deltas a tree.
        let mut parents_first = false;
        let mut lookup = None;
        while let Some(mut chunk) = self.take() {
            let lookup = lookup.get_or_insert_with(|| TreeLookup::new(repo, loose.clone(), path));
            entries.reserve(chunk.len());
            let mut look_up = |tree: ObjectId, lookup: &mut TreeLookup| -> Result<()> {
                if let gix::hashtable::hash_map::Entry::Vacant(slot) = entries.entry(tree) {
                    slot.insert(lookup.entry(tree)?);
                }
                Ok(())
            };
            let mut next = 0;
            // Newest first until two trees in a row cost more than a couple of deltas each: their
            // bases are older trees. (One such tree may just follow a tree read out of order.)
            let mut costly = 0;
            while !parents_first && next < chunk.len() {
                let deltas = lookup.deltas();
                look_up(chunk[next], lookup)?;
                next += 1;
                costly = if lookup.deltas() - deltas > 2 { costly + 1 } else { 0 };
                parents_first = costly == 2;
            }
            let rest = &mut chunk[next..];
            rest.reverse();
            let deltas_before = lookup.deltas();
            for &tree in rest.iter() {
                look_up(tree, lookup)?;
            }
            // Back to newest first when parents first costs more than a couple of deltas a tree
            // (the first tree read parents first resolves its whole chain, up to 50 deltas).
            if lookup.deltas() - deltas_before > 50 + 2 * rest.len() {
                parents_first = false;
            }
        }
        Ok(entries)
    }
}

/// Looks up one path in trees, remembering what it read: the trees along the path rarely change
/// from one commit to the next.
struct TreeLookup {
    objects: Objects,
    /// How many deltas the cache did not have.
    misses: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    components: Vec<Vec<u8>>,
    /// For each depth below the root, tree id to the entry of the next path component in it.
    memo: Vec<gix::hashtable::HashMap<ObjectId, Entry>>,
    buf: Vec<u8>,
}

impl TreeLookup {
    fn new(repo: &gix::Repository, loose: Loose, path: &str) -> Self {
        let components =
            path.split('/').filter(|c| !c.is_empty()).map(|c| c.as_bytes().to_vec()).collect();
        let misses = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut cached = repo.clone();
        let counter = misses.clone();
        cached.objects.set_pack_cache(move || {
            Box::new(DeltaBaseCache { misses: Some(counter.clone()), ..Default::default() })
        });
        TreeLookup {
            objects: Objects::new(&cached, loose),
            misses,
            components,
            memo: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// How many deltas were resolved so far (delta-base cache misses).
    fn deltas(&self) -> usize {
        self.misses.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The type and id of the entry at the path in `tree`, if there is one.
    fn entry(&mut self, tree: ObjectId) -> Result<Entry> {
        let mut at = tree;
        for depth in 0..self.components.len() {
            // Each root tree is looked up once (the caller keeps what it found); the trees below
            // it rarely change from one commit to the next, and are remembered.
            let entry = if depth == 0 {
                self.find(at, depth)?
            } else {
                if self.memo.len() < depth {
                    self.memo.resize_with(depth, Default::default);
                }
                match self.memo[depth - 1].get(&at) {
                    Some(entry) => *entry,
                    None => {
                        let entry = self.find(at, depth)?;
                        self.memo[depth - 1].insert(at, entry);
                        entry
                    }
                }
            };
            match entry {
                None => return Ok(None),
                Some(found) if depth + 1 == self.components.len() => return Ok(Some(found)),
                Some((mode, id)) if mode.is_tree() => at = id,
                Some(_) => return Ok(None),
            }
        }
        // An empty path names the whole tree.
        Ok(Some((EntryMode::from(gix::objs::tree::EntryKind::Tree), tree)))
    }

    fn find(&mut self, tree: ObjectId, depth: usize) -> Result<Entry> {
        self.objects
            .find_in_tree(tree, &self.components[depth], &mut self.buf)
            .with_context(|| format!("reading tree {tree}"))
    }
}

/// The entry called `name` in the raw tree `data`, as git's `find_tree_entry` finds it: entries
/// are sorted by name, a directory's name read with a `/` after it, so the search stops at the
/// first entry that sorts after `name/`. `None` when an entry before that point is malformed or
/// cut short, or when `data` is only the start of the tree (not `whole`) and ends before that
/// point: the search is then undecided.
fn find_entry(data: &[u8], name: &[u8], hash: gix::hash::Kind, whole: bool) -> Option<Entry> {
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

/// Reads objects for the walk: loose ones with plain file reads, packed ones through gix. (gix
/// maps every loose object into memory and unmaps it again, and with two threads reading, each
/// unmap stalls both: a push's new commits are usually loose.)
struct Objects {
    repo: gix::Repository,
    loose: Loose,
    inflate: gix::zlib::Inflate,
    file: Vec<u8>,
    prefix: Vec<u8>,
}

/// The objects directory, and which of its fan-out directories exist; `None` when there are no
/// loose objects, or when replace refs apply (gix honours them, these reads would not).
type Loose = Option<std::sync::Arc<(std::path::PathBuf, [bool; 256])>>;

fn loose_objects(repo: &gix::Repository) -> Loose {
    let store = repo.objects.store_ref();
    if store.replacements().next().is_some() {
        return None;
    }
    let root = store.path().to_path_buf();
    let mut fanout = [false; 256];
    for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str().filter(|n| n.len() == 2) else { continue };
        if let Ok(byte) = u8::from_str_radix(name, 16) {
            fanout[usize::from(byte)] = true;
        }
    }
    fanout.iter().any(|&d| d).then(|| std::sync::Arc::new((root, fanout)))
}

/// A loose object opened, its header read and its start inflated.
struct LooseStart {
    path: std::path::PathBuf,
    kind: gix::object::Kind,
    size: usize,
    header_size: usize,
    /// How much of the file the start took.
    consumed_in: usize,
    /// The start is the whole object.
    whole: bool,
}

impl Objects {
    /// How much of a loose object is inflated first: its header and, for a tree, the entries
    /// that usually decide a lookup.
    const PREFIX: usize = 256;

    fn new(repo: &gix::Repository, loose: Loose) -> Objects {
        let (inflate, file, prefix) = Default::default();
        Objects { repo: repo.clone(), loose, inflate, file, prefix }
    }

    /// Reads the object `id` into `out` and returns its kind.
    fn read(&mut self, id: ObjectId, out: &mut Vec<u8>) -> Result<gix::object::Kind> {
        if let Some(kind) = self.read_loose(id, out)? {
            return Ok(kind);
        }
        let data = self
            .repo
            .objects
            .try_find(&id, out)
            .map_err(|e| anyhow!("{e}"))?
            .ok_or_else(|| anyhow!("object {id} is missing from the object database"))?;
        Ok(data.kind)
    }

    /// The loose object `id`, if there is one in the repository's own objects directory.
    fn read_loose(&mut self, id: ObjectId, out: &mut Vec<u8>) -> Result<Option<gix::object::Kind>> {
        let Some(start) = self.open_loose(id)? else { return Ok(None) };
        self.finish_loose(&start, out)?;
        Ok(Some(start.kind))
    }

    /// The entry called `name` in the tree `id`. A loose tree is inflated only as far as the
    /// search needs: entries are sorted by name, so the first few usually decide it.
    fn find_in_tree(&mut self, id: ObjectId, name: &[u8], out: &mut Vec<u8>) -> Result<Entry> {
        let malformed = || anyhow!("tree {id} cannot be parsed: an entry is malformed");
        let kind = match self.open_loose(id)? {
            Some(start) => {
                if start.kind == gix::object::Kind::Tree {
                    let content = &self.prefix[start.header_size..];
                    // An entry cut short at the end of the prefix leaves the search undecided.
                    if let Some(entry) = find_entry(content, name, id.kind(), start.whole) {
                        return Ok(entry);
                    }
                    if start.whole {
                        return Err(malformed());
                    }
                }
                self.finish_loose(&start, out)?;
                start.kind
            }
            None => self.read(id, out)?,
        };
        if kind != gix::object::Kind::Tree {
            bail!("object {id} is a {kind}, not a tree");
        }
        find_entry(out, name, id.kind(), true).ok_or_else(malformed)
    }

    /// Opens the loose object `id` and inflates its start into `self.prefix`; `None` when it is
    /// not loose here.
    fn open_loose(&mut self, id: ObjectId) -> Result<Option<LooseStart>> {
        let Some(loose) = &self.loose else { return Ok(None) };
        let (root, fanout) = &**loose;
        if !fanout[usize::from(id.as_bytes()[0])] {
            return Ok(None);
        }
        let hex = id.to_hex().to_string();
        let path = root.join(&hex[..2]).join(&hex[2..]);
        self.file.clear();
        match std::fs::File::open(&path) {
            Ok(mut file) => {
                use std::io::Read as _;
                file.read_to_end(&mut self.file)
                    .with_context(|| format!("reading {}", path.display()))?;
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err).with_context(|| format!("opening {}", path.display())),
        }
        let corrupt = || format!("the loose object {} is corrupt", path.display());
        self.prefix.resize(Self::PREFIX, 0);
        self.inflate.reset();
        let (status, consumed_in, consumed_out) = self
            .inflate
            .prefix(&self.file, &mut self.prefix)
            .map_err(|e| anyhow!("{e}"))
            .with_context(corrupt)?;
        self.prefix.truncate(consumed_out);
        let (kind, size, header_size) = gix::objs::decode::loose_header(&self.prefix)
            .map_err(|e| anyhow!("{e}"))
            .with_context(corrupt)?;
        let size = usize::try_from(size).with_context(corrupt)?;
        let whole = status == gix::zlib::Status::StreamEnd;
        if whole && consumed_out - header_size != size {
            bail!(
                "{}: its header says {size} bytes, its content is {}",
                corrupt(),
                consumed_out - header_size
            );
        }
        Ok(Some(LooseStart { path, kind, size, header_size, consumed_in, whole }))
    }

    /// Inflates the rest of the loose object `open_loose` started into `out`.
    fn finish_loose(&mut self, start: &LooseStart, out: &mut Vec<u8>) -> Result<()> {
        let corrupt = || format!("the loose object {} is corrupt", start.path.display());
        let n = self
            .inflate
            .rest(&self.file[start.consumed_in..], &self.prefix, start.header_size, out, start.size)
            .map_err(|e| anyhow!("{e}"))
            .with_context(corrupt)?;
        if n != start.size {
            bail!("{}: its header says {} bytes, its content is {n}", corrupt(), start.size);
        }
        Ok(())
    }
}

/// A clone of the repository handle with a delta-base cache: gix is built without its LRU pack
/// caches, and without one every tree read (a note commit's changed files, the note's entry in a
/// seal) resolves its whole delta chain, up to 50 deltas in an ordinary pack.
pub fn with_delta_cache(repo: &gix::Repository) -> gix::Repository {
    let mut odb = repo.clone();
    odb.objects.set_pack_cache(|| Box::<DeltaBaseCache>::default());
    odb
}

/// A small cache of decoded pack entries, keyed by pack and offset: the last few objects a delta
/// chain produced, which is where the next object's base is when objects are read in delta order.
/// Its buffers are reused, so reading many trees allocates (and faults in) little memory.
#[derive(Default)]
struct DeltaBaseCache {
    slots: Vec<CachedEntry>,
    /// The slot the next entry goes to, once all are in use.
    next: usize,
    /// Counts the lookups that found nothing.
    misses: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
}

struct CachedEntry {
    key: (u32, u64),
    kind: gix::object::Kind,
    data: Vec<u8>,
    compressed_size: usize,
}

impl DeltaBaseCache {
    const SLOTS: usize = 16;
    /// Larger entries are not kept.
    const MAX_ENTRY: usize = 1 << 20;
}

impl gix::odb::pack::cache::DecodeEntry for DeltaBaseCache {
    fn put(&mut self, pack: u32, offset: u64, data: &[u8], kind: gix::object::Kind, size: usize) {
        let key = (pack, offset);
        if data.len() > Self::MAX_ENTRY || self.slots.iter().any(|slot| slot.key == key) {
            return;
        }
        let entry = if self.slots.len() < Self::SLOTS {
            self.slots.push(CachedEntry { key, kind, data: Vec::new(), compressed_size: size });
            self.slots.last_mut().expect("just pushed")
        } else {
            let entry = &mut self.slots[self.next];
            self.next = (self.next + 1) % Self::SLOTS;
            entry
        };
        entry.key = key;
        entry.kind = kind;
        entry.compressed_size = size;
        entry.data.clear();
        entry.data.extend_from_slice(data);
    }

    fn get(
        &mut self,
        pack: u32,
        offset: u64,
        out: &mut Vec<u8>,
    ) -> Option<(gix::object::Kind, usize)> {
        let Some(entry) = self.slots.iter().find(|slot| slot.key == (pack, offset)) else {
            if let Some(misses) = &self.misses {
                misses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            return None;
        };
        out.clear();
        out.extend_from_slice(&entry.data);
        Some((entry.kind, entry.compressed_size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA1: gix::hash::Kind = gix::hash::Kind::Sha1;
    const TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    const PARENT: &str = "0123456789012345678901234567890123456789";

    #[test]
    fn a_commit_is_read_as_git_reads_it() {
        let raw = format!(
            "tree {TREE}\nparent {PARENT}\nparent {TREE}\nauthor A <a@x> 5 +0000\n\
             committer C <c@x>  1764471600 +0100\ngpgsig -----BEGIN-----\n \n -----END-----\n\n\
             Handoff note: issue #3\n\nbody\n"
        );
        let commit = CommitFields::parse(raw.as_bytes(), SHA1).expect("parses");
        assert_eq!(commit.tree.to_string(), TREE);
        let parents: Vec<String> =
            commit.parents.expect("parents parse").iter().map(ToString::to_string).collect();
        assert_eq!(parents, [PARENT, TREE]);
        assert_eq!(commit.date, 1764471600);
        assert_eq!(commit.message, b"Handoff note: issue #3\n\nbody\n");
    }

    #[test]
    fn odd_commits_read_as_git_reads_them() {
        // No author or committer: date 0, and the message still starts after the empty line.
        let bare = format!("tree {TREE}\n\nmessage");
        let commit = CommitFields::parse(bare.as_bytes(), SHA1).expect("parses");
        assert_eq!((commit.date, commit.message), (0, &b"message"[..]));
        // A committer line without a date, or with no `>`.
        for line in ["committer C <c@x>\n", "committer C c@x 17 +0000\n"] {
            let raw = format!("tree {TREE}\nauthor A <a@x> 5 +0000\n{line}\nm");
            assert_eq!(CommitFields::parse(raw.as_bytes(), SHA1).expect("parses").date, 0);
        }
        // No empty line: no message.
        let raw = format!("tree {TREE}\nauthor A <a@x> 5 +0000\ncommitter C <c@x> 9 +0000\n");
        let commit = CommitFields::parse(raw.as_bytes(), SHA1).expect("parses");
        assert_eq!((commit.date, commit.message), (9, &b""[..]));
        // A malformed parent line, and a commit without a tree line.
        let raw = format!("tree {TREE}\nparent {}\n\nm", &PARENT[..39]);
        assert!(CommitFields::parse(raw.as_bytes(), SHA1).expect("parses").parents.is_none());
        assert!(CommitFields::parse(b"parent x\n\nm", SHA1).is_none());
        assert!(CommitFields::parse(format!("tree {TREE}").as_bytes(), SHA1).is_none());
    }

    #[test]
    fn the_delta_base_cache_keeps_the_last_entries_it_was_given() {
        use gix::odb::pack::cache::DecodeEntry;
        let mut cache = DeltaBaseCache::default();
        let blob = gix::object::Kind::Blob;
        for offset in 0..20u64 {
            cache.put(1, offset, &[u8::try_from(offset).expect("small"); 3], blob, 7);
        }
        let mut out = Vec::new();
        assert_eq!(cache.get(1, 3, &mut out), None, "the oldest entries make room");
        assert_eq!(cache.get(2, 19, &mut out), None, "entries are per pack");
        assert_eq!(cache.get(1, 19, &mut out), Some((blob, 7)));
        assert_eq!(out, [19, 19, 19]);
        assert_eq!(cache.get(1, 4, &mut out), Some((blob, 7)));
        assert_eq!(out, [4, 4, 4]);
    }

    fn tree(entries: &[(&str, &str)]) -> Vec<u8> {
        let mut out = Vec::new();
        for (n, (mode, name)) in entries.iter().enumerate() {
            out.extend_from_slice(format!("{mode} {name}\0").as_bytes());
            out.extend_from_slice(&[u8::try_from(n).expect("small"); 20]);
        }
        out
    }

    #[test]
    fn an_entry_is_found_in_tree_order_and_the_search_stops_past_it() {
        // git's order: `a.b` (a file) sorts before the directory `a`, read as `a/`; `a0` after.
        let data = tree(&[("100644", "a.b"), ("40000", "a"), ("100644", "a0"), ("100644", "b")]);
        let found =
            |name: &str| find_entry(&data, name.as_bytes(), SHA1, true).expect("well formed");
        let (mode, id) = found("a").expect("a is there");
        assert!(mode.is_tree());
        assert_eq!(id.as_bytes()[0], 1);
        assert_eq!(found("b").expect("b is there").1.as_bytes()[0], 3);
        assert_eq!(found(".agent"), None);
        assert_eq!(found("a1"), None);
        // The search stops at the first entry past the name: what follows is not read.
        let mut cut = tree(&[("100644", "f0.txt")]);
        cut.extend_from_slice(b"garbage");
        assert_eq!(find_entry(&cut, b".agent", SHA1, true), Some(None));
        assert_eq!(find_entry(&cut, b"g", SHA1, true), None, "a cut entry before the name");
        // The start of a tree that ends before the search passes the name decides nothing, even
        // when it ends between two entries.
        let start = tree(&[("100644", "a"), ("100644", "b")]);
        assert_eq!(find_entry(&start, b"c", SHA1, false), None);
        assert_eq!(find_entry(&start, b"c", SHA1, true), Some(None));
        assert_eq!(find_entry(&start, b"a0", SHA1, false), Some(None), "`b` is past `a0`");
        assert_eq!(find_entry(&start, b"b", SHA1, false).map(|e| e.is_some()), Some(true));
    }
}
