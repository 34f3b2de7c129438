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
//!
//! This replaces two git processes (a listing and a path-limited walk) for `validate`, whose
//! pre-push run must stay close to the cost of `git rev-list` itself. Shallow clones are honoured
//! (a shallow commit has no parents, as git sees it), and so are replace refs.

use std::collections::{BinaryHeap, HashMap, HashSet};

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
    shallow: HashSet<ObjectId>,
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
            nodes: Vec::new(),
            by_id: Default::default(),
            shallow,
            buf: Vec::new(),
            trees: Some(work),
        };
        let listed = walk.limit(include, exclude);
        work.finish();
        // Once the walk is done this thread looks up trees too, a chunk at a time.
        let own = match &listed {
            Ok(_) => work.run(repo, &loose, path),
            Err(_) => Ok(HashMap::new()),
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
            let commit = gix::objs::CommitRef::from_bytes(&buf, id.kind())
                .map_err(|e| anyhow!("commit {id} cannot be parsed: {e}"))?;
            let tree = ObjectId::from_hex(commit.tree)
                .map_err(|_| anyhow!("commit {id} names a bad tree id"))?;
            let parent_ids = if self.shallow.contains(&id) {
                Vec::new()
            } else {
                commit
                    .parents
                    .iter()
                    .map(|p| ObjectId::from_hex(p))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| anyhow!("commit {id} names a bad parent id"))?
            };
            let date = committer_date(commit.committer);
            let message = commit.message.to_vec();
            drop(commit);
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
    let mut indegree: HashMap<usize, usize> = listed.iter().map(|&n| (n, 1)).collect();
    for &n in listed {
        for p in parents(n) {
            if let Some(d) = indegree.get_mut(p) {
                *d += 1;
            }
        }
    }
    let mut stack: Vec<usize> = listed.iter().copied().filter(|n| indegree[n] == 1).collect();
    stack.reverse();
    let mut out = Vec::with_capacity(listed.len());
    while let Some(n) = stack.pop() {
        for p in parents(n) {
            if let Some(d) = indegree.get_mut(p)
                && *d > 0
            {
                *d -= 1;
                if *d == 1 {
                    stack.push(*p);
                }
            }
        }
        indegree.insert(n, 0);
        out.push(n);
    }
    out
}

/// The committer timestamp as git's `parse_commit_date` reads it: the number after the last `>`
/// of the committer line; 0 when there is none.
fn committer_date(committer: &gix::bstr::BStr) -> i64 {
    let Some(end) = committer.iter().rposition(|&b| b == b'>') else { return 0 };
    let rest = committer[end + 1..].trim_ascii_start();
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&rest[..digits]).ok().and_then(|d| d.parse().ok()).unwrap_or(0)
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
    ) -> Result<HashMap<ObjectId, Entry>> {
        let mut entries = HashMap::new();
        let mut sort = false;
        let mut lookup = None;
        while let Some(mut chunk) = self.take() {
            let lookup = lookup.get_or_insert_with(|| TreeLookup::new(repo, loose.clone(), path));
            if sort {
                lookup.sort_by_pack_position(&mut chunk);
            }
            let deltas_before = lookup.deltas();
            for tree in chunk {
                if let std::collections::hash_map::Entry::Vacant(slot) = entries.entry(tree) {
                    slot.insert(lookup.entry(tree)?);
                }
            }
            // Once trees cost more than a delta or two each, the chunks are read in pack order.
            sort = sort || lookup.deltas() - deltas_before > 2 * Self::CHUNK;
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
    /// A handle that may ask the packs where an object sits, made when first needed.
    locate: Option<gix::odb::store::Handle<std::sync::Arc<gix::odb::Store>>>,
    components: Vec<Vec<u8>>,
    /// (tree id, depth) to the entry of the next path component in that tree.
    memo: HashMap<(ObjectId, usize), Entry>,
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
            locate: None,
            components,
            memo: HashMap::new(),
            buf: Vec::new(),
        }
    }

    /// How many deltas were resolved so far (delta-base cache misses).
    fn deltas(&self) -> usize {
        self.misses.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Orders trees as they sit in their pack. A delta's base always comes before it in the pack,
    /// so in this order each tree's base, when it is one of these trees, is already in the
    /// delta-base cache, whichever way the pack's chains run (git's repacks keep the newest tree
    /// whole and store older ones against it, `git fast-import` the reverse; gix caches the
    /// objects it is asked for, not the chain below them). Loose trees come first.
    fn sort_by_pack_position(&mut self, trees: &mut [ObjectId]) {
        use gix::odb::pack::Find as _;
        let locate = self.locate.get_or_insert_with(|| {
            let mut locate = (**self.objects.repo.objects).clone();
            // What `location_by_oid` requires; replacements do not matter for an order.
            locate.prevent_pack_unload();
            locate.ignore_replacements = true;
            locate
        });
        let mut keyed: Vec<(Option<(u32, u64)>, ObjectId)> = trees
            .iter()
            .map(|&tree| {
                let at = locate.location_by_oid(&tree, &mut self.buf).ok().flatten();
                (at.map(|l| (l.pack_id, l.pack_offset)), tree)
            })
            .collect();
        keyed.sort();
        for (slot, (_, tree)) in trees.iter_mut().zip(keyed) {
            *slot = tree;
        }
    }

    /// The type and id of the entry at the path in `tree`, if there is one.
    fn entry(&mut self, tree: ObjectId) -> Result<Entry> {
        let mut at = tree;
        for depth in 0..self.components.len() {
            let entry = match self.memo.get(&(at, depth)) {
                Some(entry) => *entry,
                None => {
                    let entry = self.find(at, depth)?;
                    self.memo.insert((at, depth), entry);
                    entry
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
        let kind = self
            .objects
            .read(tree, &mut self.buf)
            .with_context(|| format!("reading tree {tree}"))?;
        if kind != gix::object::Kind::Tree {
            bail!("object {tree} is a {kind}, not a tree");
        }
        let name = &self.components[depth];
        for entry in gix::objs::TreeRefIter::from_bytes(&self.buf, tree.kind()) {
            let entry = entry.map_err(|e| anyhow!("tree {tree} cannot be parsed: {e}"))?;
            if **entry.filename == *name.as_slice() {
                return Ok(Some((entry.mode, entry.oid.to_owned())));
            }
        }
        Ok(None)
    }
}

/// Reads objects for the walk: loose ones with plain file reads, packed ones through gix. (gix
/// maps every loose object into memory and unmaps it again, and with two threads reading, each
/// unmap stalls both: a push's new commits are usually loose.)
struct Objects {
    repo: gix::Repository,
    loose: Loose,
    inflate: gix::zlib::Inflate,
    file: Vec<u8>,
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

impl Objects {
    fn new(repo: &gix::Repository, loose: Loose) -> Objects {
        Objects { repo: repo.clone(), loose, inflate: Default::default(), file: Vec::new() }
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
        let mut header = [0u8; 64];
        self.inflate.reset();
        let (status, consumed_in, consumed_out) = self
            .inflate
            .prefix(&self.file, &mut header)
            .map_err(|e| anyhow!("{e}"))
            .with_context(corrupt)?;
        let (kind, size, header_size) = gix::objs::decode::loose_header(&header[..consumed_out])
            .map_err(|e| anyhow!("{e}"))
            .with_context(corrupt)?;
        let size = usize::try_from(size).with_context(corrupt)?;
        let n = self
            .inflate
            .rest(&self.file[consumed_in..], &header[..consumed_out], header_size, out, size)
            .map_err(|e| anyhow!("{e}"))
            .with_context(corrupt)?;
        if n != size
            || (status == gix::zlib::Status::StreamEnd && consumed_out - header_size != size)
        {
            bail!("{}: its header says {size} bytes, its content is {n}", corrupt());
        }
        Ok(Some(kind))
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

/// A byte-capped FIFO cache of decoded pack entries, keyed by pack and offset.
#[derive(Default)]
struct DeltaBaseCache {
    entries: HashMap<(u32, u64), (gix::object::Kind, Vec<u8>, usize)>,
    order: std::collections::VecDeque<(u32, u64)>,
    bytes: usize,
    /// Counts the lookups that found nothing.
    misses: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
}

impl DeltaBaseCache {
    const CAP: usize = 1 << 20;
}

impl gix::odb::pack::cache::DecodeEntry for DeltaBaseCache {
    fn put(&mut self, pack: u32, offset: u64, data: &[u8], kind: gix::object::Kind, size: usize) {
        if data.len() > Self::CAP / 8 || self.entries.contains_key(&(pack, offset)) {
            return;
        }
        self.entries.insert((pack, offset), (kind, data.to_vec(), size));
        self.order.push_back((pack, offset));
        self.bytes += data.len();
        while self.bytes > Self::CAP {
            let Some(old) = self.order.pop_front() else { break };
            if let Some((_, data, _)) = self.entries.remove(&old) {
                self.bytes -= data.len();
            }
        }
    }

    fn get(
        &mut self,
        pack: u32,
        offset: u64,
        out: &mut Vec<u8>,
    ) -> Option<(gix::object::Kind, usize)> {
        let Some((kind, data, size)) = self.entries.get(&(pack, offset)) else {
            if let Some(misses) = &self.misses {
                misses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            return None;
        };
        out.clear();
        out.extend_from_slice(data);
        Some((*kind, *size))
    }
}
