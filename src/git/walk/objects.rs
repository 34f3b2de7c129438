//! Object access for the walk: packed objects read as git reads them ([`PackReader`]), loose ones
//! inflated only as far as needed (the loose directories scanned once per walk), anything else
//! (alternates, replace refs, what the pack reader refuses) through gix.

use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::objs::Find;

use super::tree_entry::{Entry, find_entry};
use crate::git::pack_read::Packs;
use crate::git::pack_read::inflater::Inflater;
use crate::git::pack_read::reader::PackReader;

/// Reads objects for the walk: packed ones and loose ones with plain reads, the rest through
/// gix. (gix maps every loose object into memory and unmaps it again, and with two threads
/// reading, each unmap stalls both: a push's new commits are usually loose.)
pub struct Objects {
    gix: Gix,
    pub(super) packs: Option<PackReader>,
    pub(super) loose: Loose,
    /// The inflater for loose objects when there is no pack reader (whose inflater they use
    /// otherwise: one set up fewer, 22,000 instructions of every recall).
    inflate: Option<Inflater>,
    pub(super) file: Vec<u8>,
    pub(super) prefix: Vec<u8>,
    /// Loose objects are looked for before the packs ([`Objects::loose_first`]).
    loose_first: bool,
}

/// Where gix reads what the plain reads do not: a repository of the caller's (the walk's, with
/// its caches), or a handle on the object store made on first use, as cloning the repository
/// makes one (a clone sets up an inflater and a snapshot of the packs for nothing when every
/// object is packed or loose, as at recall).
enum Gix {
    Repo(Box<gix::Repository>),
    Store(Arc<gix::odb::Store>, Option<Box<gix::OdbHandle>>),
    /// The object directory of a repository gix has not opened (no replace refs apply there),
    /// its store opened on first use.
    At(std::path::PathBuf, gix::hash::Kind, Option<Box<gix::OdbHandle>>),
}

/// The objects directory, and which of its fan-out directories exist; `None` when there are no
/// loose objects, or when replace refs apply (gix honours them, these reads would not).
pub(super) type Loose = Option<std::sync::Arc<(std::path::PathBuf, [bool; 256])>>;

/// Where the walk reads objects from, besides gix: the packs and the loose objects, shared by
/// its threads.
#[derive(Clone)]
pub struct Sources {
    pub(super) packs: Option<Arc<Packs>>,
    pub(super) loose: Loose,
}

impl Sources {
    /// The packs (none when `packs` is `None`: gix reads them) and the loose objects of `repo`.
    pub fn of(repo: &gix::Repository, packs: Option<Arc<Packs>>) -> Sources {
        Sources { packs, loose: loose_objects(repo) }
    }

    /// [`Sources::of`] for the object directory `dir` of a repository without replace refs.
    pub fn at(dir: &std::path::Path, packs: Option<Arc<Packs>>) -> Sources {
        Sources { packs, loose: loose_at(dir) }
    }
}

pub(super) fn loose_objects(repo: &gix::Repository) -> Loose {
    let store = repo.objects.store_ref();
    if store.replacements().next().is_some() {
        return None;
    }
    loose_at(store.path())
}

fn loose_at(dir: &std::path::Path) -> Loose {
    let root = dir.to_path_buf();
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
pub(super) struct LooseStart {
    pub(super) path: std::path::PathBuf,
    pub(super) kind: gix::object::Kind,
    pub(super) size: usize,
    pub(super) header_size: usize,
    /// How much of the file the start took.
    pub(super) consumed_in: usize,
    /// The start is the whole object.
    pub(super) whole: bool,
}

impl Objects {
    /// How much of a loose object is inflated first: its header and, for a tree, the entries
    /// that usually decide a lookup.
    const PREFIX: usize = 256;
    /// Room made for a loose object's file before it is read: most commits and trees fit.
    const LOOSE_ROOM: usize = 4096;

    pub fn new(repo: &gix::Repository, sources: &Sources) -> Objects {
        Self::with(Gix::Repo(Box::new(repo.clone())), sources)
    }

    /// [`Self::new`] for one reader in the repository's own thread: gix's handle on the object
    /// store is made when a read first needs it.
    pub fn lazy(repo: &gix::Repository, sources: &Sources) -> Objects {
        Self::with(Gix::Store(repo.objects.store(), None), sources)
    }

    /// [`Self::lazy`] for a repository gix has not opened: its object directory `dir`, where no
    /// replace refs apply, is opened by gix when a read first needs it.
    pub fn deferred(dir: std::path::PathBuf, hash: gix::hash::Kind, sources: &Sources) -> Objects {
        Self::with(Gix::At(dir, hash, None), sources)
    }

    fn with(gix: Gix, sources: &Sources) -> Objects {
        let (inflate, file, prefix) = Default::default();
        let packs = sources.packs.clone().map(PackReader::new);
        let loose = sources.loose.clone();
        Objects { gix, packs, loose, inflate, file, prefix, loose_first: false }
    }

    /// This reader with loose objects looked for first, for what was most likely written
    /// lately (the notes ref's objects: a note commit's, a record's), as git would find them
    /// in the end: a loose object is the same object as its packed copy. The packs' indexes are
    /// then never opened (mapped and searched) where every object asked for is loose. A loose
    /// object that cannot be read is looked for in the packs after all.
    pub fn loose_first(mut self) -> Objects {
        self.loose_first = true;
        self
    }

    /// How many deltas the pack reader applied.
    pub(super) fn deltas(&self) -> usize {
        self.packs.as_ref().map_or(0, |p| p.deltas)
    }

    /// Reads the object `id` into `out` and returns its kind.
    pub fn read(&mut self, id: ObjectId, out: &mut Vec<u8>) -> Result<gix::object::Kind> {
        // Looked for already: not loose (an unreadable one is tried again after the packs).
        let mut not_loose = false;
        if self.loose_first {
            match self.read_loose(id, out) {
                Ok(Some(kind)) => return Ok(kind),
                Ok(None) => not_loose = true,
                Err(_) => {}
            }
        }
        if let Some(kind) = self.read_packed(id, out) {
            return Ok(kind);
        }
        if !not_loose && let Some(kind) = self.read_loose(id, out)? {
            return Ok(kind);
        }
        self.read_gix(id, out)
    }

    /// The object `id` as gix reads it (alternates, replace refs), or gix's report of why not.
    fn read_gix(&mut self, id: ObjectId, out: &mut Vec<u8>) -> Result<gix::object::Kind> {
        let odb = match &mut self.gix {
            Gix::Repo(repo) => &repo.objects,
            Gix::Store(store, handle) => handle.get_or_insert_with(|| {
                // As `gix::Repository::clone` makes its handle.
                Box::new(
                    gix::odb::memory::Proxy::from(gix::odb::Cache::from(store.to_handle()))
                        .with_write_passthrough(),
                )
            }),
            Gix::At(dir, hash, handle) => match handle {
                Some(handle) => handle,
                None => {
                    let store = gix::odb::at(dir.as_path(), *hash)
                        .with_context(|| format!("opening the objects of {}", dir.display()))?;
                    let proxy = gix::odb::memory::Proxy::from(store).with_write_passthrough();
                    handle.insert(Box::new(proxy))
                }
            },
        };
        let data = odb
            .try_find(&id, out)
            .map_err(|e| anyhow!("{e}"))?
            .ok_or_else(|| anyhow!("object {id} is missing from the object database"))?;
        Ok(data.kind)
    }

    /// The loose object `id`, if there is one in the repository's own objects directory.
    pub(super) fn read_loose(
        &mut self,
        id: ObjectId,
        out: &mut Vec<u8>,
    ) -> Result<Option<gix::object::Kind>> {
        let Some(start) = self.open_loose(id)? else { return Ok(None) };
        self.finish_loose(&start, out)?;
        Ok(Some(start.kind))
    }

    /// The entry called `name` in the tree `id`. A loose tree is inflated only as far as the
    /// search needs: entries are sorted by name, so the first few usually decide it.
    pub(super) fn find_in_tree(
        &mut self,
        id: ObjectId,
        name: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Entry> {
        // In place: a tree built from a delta is searched where the cache keeps it.
        let packed = self.packs.as_mut().and_then(|p| p.read_in_place(&id, out).ok().flatten());
        let Some((kind, data)) = packed else {
            return self.find_in_loose_tree(id, name, out);
        };
        if kind != gix::object::Kind::Tree {
            bail!("object {id} is a {kind}, not a tree");
        }
        find_entry(data, name, id.kind(), true)
            .ok_or_else(|| anyhow!("tree {id} cannot be parsed: an entry is malformed"))
    }

    /// The object `id` from the packs; `None` when no pack has it, or the entry cannot be read
    /// (gix is left to read it, or to report).
    fn read_packed(&mut self, id: ObjectId, out: &mut Vec<u8>) -> Option<gix::object::Kind> {
        self.packs.as_mut()?.read(&id, out).ok().flatten()
    }

    /// [`Self::find_in_tree`] for a tree not in the packs: loose, inflated only as far as the
    /// search needs; else read by gix.
    fn find_in_loose_tree(
        &mut self,
        id: ObjectId,
        name: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Entry> {
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
            None => self.read_gix(id, out)?,
        };
        if kind != gix::object::Kind::Tree {
            bail!("object {id} is a {kind}, not a tree");
        }
        find_entry(out, name, id.kind(), true).ok_or_else(malformed)
    }

    /// Opens the loose object `id` and inflates its start into `self.prefix`; `None` when it is
    /// not loose here.
    pub(super) fn open_loose(&mut self, id: ObjectId) -> Result<Option<LooseStart>> {
        let Some(loose) = &self.loose else { return Ok(None) };
        let (root, fanout) = &**loose;
        if !fanout[usize::from(id.as_bytes()[0])] {
            return Ok(None);
        }
        let hex = id.to_hex().to_string();
        let path = root.join(&hex[..2]).join(&hex[2..]);
        self.file.clear();
        match std::fs::File::open(&path) {
            Ok(file) => {
                use std::io::Read as _;
                // Read into room made first, without asking the file's size and position (a
                // `File`'s own read_to_end does: two system calls of six an object).
                self.file.reserve(Self::LOOSE_ROOM);
                file.take(u64::MAX)
                    .read_to_end(&mut self.file)
                    .with_context(|| format!("reading {}", path.display()))?;
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err).with_context(|| format!("opening {}", path.display())),
        }
        let corrupt = || format!("the loose object {} is corrupt", path.display());
        self.prefix.resize(Self::PREFIX, 0);
        let inflate = inflater(&mut self.packs, &mut self.inflate);
        inflate.reset();
        let (status, consumed_in, consumed_out) = inflate
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
    pub(super) fn finish_loose(&mut self, start: &LooseStart, out: &mut Vec<u8>) -> Result<()> {
        let corrupt = || format!("the loose object {} is corrupt", start.path.display());
        let n = inflater(&mut self.packs, &mut self.inflate)
            .rest(&self.file[start.consumed_in..], &self.prefix, start.header_size, out, start.size)
            .map_err(|e| anyhow!("{e}"))
            .with_context(corrupt)?;
        if n != start.size {
            bail!("{}: its header says {} bytes, its content is {n}", corrupt(), start.size);
        }
        Ok(())
    }
}

/// The inflater for loose objects: the pack reader's when there is one, else `own`. A loose
/// object's start and rest are inflated with no pack read in between ([`Objects::open_loose`],
/// then [`Objects::finish_loose`]), so the two never share a stream.
fn inflater<'a>(
    packs: &'a mut Option<PackReader>,
    own: &'a mut Option<Inflater>,
) -> &'a mut gix::zlib::Inflate {
    match packs {
        Some(packs) => packs.inflater(),
        None => own.get_or_insert_with(Inflater::new),
    }
}
