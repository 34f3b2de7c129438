//! The narrowed diff's entries (see [`narrowed_diff`](super::narrowed_diff)), in one part or
//! two: which index entries and which of the base's entries each part's private index and tree
//! hold; and what both files speak of: what HEAD changed since the base, and how many paths
//! narrowing takes.

use anyhow::{Result, anyhow};
use gix::ObjectId;

use super::tracked_walk::Index;
use crate::git::index_scan::Scan;

/// The most paths the narrowed diff is given for an index of `entries` entries, in one part, or in
/// its first part when it runs in two: a quarter of them (at least 1,024). Past that, reading the
/// trees of that many paths here and writing the base's tree of them costs about what the whole
/// diff's visit of the index does, which narrowing saves; below it, the narrowed diff is the
/// quicker whatever the size of the change. The second part is not bounded: its lines are kept
/// between snapshots, so however many paths HEAD changed, the diff is run over them once. (With
/// 12,954 paths changed since the base on the generated 30k-file tree, the snapshot took 470 ms
/// the first time, where the whole diff took 500, and 81 ms each time after; the three git
/// commands 469 ms.)
pub(super) fn max_paths(entries: usize) -> usize {
    (entries / 4).max(1024)
}
/// A mode and an object id, as a tree or the index holds them.
pub(super) type Held = (u32, ObjectId);

/// What HEAD changed since the base: each path where their trees differ, with the base's entry
/// there (`None` where the base has none).
pub(super) struct Since {
    pub changed: Vec<(Vec<u8>, Option<Held>)>,
    pub base: String,
}

/// One part's private index entries (version 2, without the header's count and the checksum)
/// and the base's entries at its paths.
#[derive(Default)]
pub(super) struct Entries<'a> {
    pub bytes: Vec<u8>,
    pub count: u32,
    pub base: Vec<(&'a [u8], Held)>,
    /// The index's entries (mode and id) at its paths.
    pub ids: Vec<(&'a [u8], Held)>,
    /// Where each entry's bytes end in `bytes`.
    ends: Vec<usize>,
    /// Whether the part must be diffed by one git (see [`Entries::pieces`]): it holds an
    /// addition, or an attributes file that changed.
    whole: bool,
    /// Whether an attributes file that changed makes it whole.
    pub attributes_changed: bool,
    /// Whether the walk doubted a path HEAD changed since the base, where the diff's letter is
    /// not status's (see [`narrowed_status`](super::narrowed_status)).
    pub doubted_since: bool,
}

/// The entries the narrowed diff may be given, in the index's order: those the walk doubted
/// (`dirty`), those at paths HEAD changed, and the attributes files. Each part is made from these
/// alone, rather than from a pass over the whole index (about 1 ms on the generated 30k-file tree).
pub(super) fn candidates(scan: &Scan, dirty: &[bool], since: &Since) -> Vec<usize> {
    let mut at: Vec<usize> =
        (0..scan.entries.len()).filter(|&i| dirty.get(i).copied().unwrap_or(true)).collect();
    for (path, _) in &since.changed {
        if let Ok(i) = scan.entries.binary_search_by(|e| scan.path(e).cmp(path)) {
            at.push(i);
        }
    }
    let entries = scan.entries.iter().enumerate();
    at.extend(entries.filter(|(_, e)| is_attributes(scan.path(e))).map(|(i, _)| i));
    at.sort_unstable();
    at.dedup();
    at
}

/// The entries of the narrowed diff, in one part (the second empty) or, with `in_two`, in two;
/// `None` when there are too many, or (in two) when an attributes file differs, which both
/// parts must read alike. `candidates` are the entries that may go to either (see
/// [`candidates`]).
pub(super) fn entries_in_parts<'a>(
    index: &'a Index,
    (dirty, candidates): (&[bool], &[usize]),
    since: &'a Since,
    in_two: bool,
    hash: gix::hash::Kind,
) -> Result<Option<[Entries<'a>; 2]>> {
    let scan = &index.scan;
    // The paths HEAD changed, in the index's order (byte by byte), to meet its entries in one pass.
    let mut changed: Vec<(&[u8], Option<Held>)> =
        since.changed.iter().map(|(path, held)| (path.as_slice(), *held)).collect();
    changed.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut changed = changed.into_iter().peekable();
    let most = max_paths(scan.entries.len());
    let mut parts: [Entries<'a>; 2] = std::array::from_fn(|_| Entries::default());
    // One part: every path given counts against the most. Two: the first part's paths only.
    let mut extra = 0usize;
    let mut first = 0usize;
    for &i in candidates {
        let Some(entry) = scan.entries.get(i) else { continue };
        let path = scan.path(entry);
        while changed.next_if(|c| c.0 < path).is_some() {}
        let head_changed = changed.next_if(|c| c.0 == path);
        let attributes = is_attributes(path);
        let doubted = dirty.get(i).copied().unwrap_or(true);
        if !(head_changed.is_some() || attributes || doubted) {
            continue;
        }
        if attributes && (doubted || head_changed.is_some()) {
            if in_two {
                return Ok(None);
            }
            parts[0].whole = true;
            parts[0].attributes_changed = true;
        }
        parts[0].doubted_since |= doubted && head_changed.is_some();
        let id = scan.id(entry, hash).ok_or_else(|| anyhow!("an index entry cut short"))?;
        // The base's entry: from `since` where HEAD changed the path, else the index's (which
        // holds it as the base does).
        let held = match head_changed {
            Some((_, held)) => held,
            None => Some((entry.mode, id)),
        };
        let second = in_two && !doubted && in_second_part(entry.mode, head_changed);
        let to = match (attributes && in_two, second) {
            (true, _) => &mut parts[..],
            (false, true) => &mut parts[1..],
            (false, false) => &mut parts[..1],
        };
        for part in to {
            part.push(&scan.bytes[entry.at()..], path, held, (entry.mode, id), hash);
        }
        // The paths HEAD changed are counted once, in `since`.
        extra += usize::from(head_changed.is_none());
        first += usize::from(!second);
        if (in_two && first > most) || (!in_two && extra + since.changed.len() > most) {
            return Ok(None);
        }
    }
    first += base_outside_the_index(scan, since, &mut parts[0]);
    if in_two && first > most {
        return Ok(None);
    }
    // Only attributes files in the second part: nothing to diff there.
    if in_two && parts[1].count > 0 && parts[1].base.iter().all(|(p, _)| is_attributes(p)) {
        parts[1].count = 0;
    }
    Ok(Some(parts))
}

impl<'a> Entries<'a> {
    /// Adds the entry at `path` (`raw`: its bytes in the index, from its stat data on), with the
    /// base's entry there when it has one.
    fn push(
        &mut self,
        raw: &[u8],
        path: &'a [u8],
        held: Option<Held>,
        ids: Held,
        hash: gix::hash::Kind,
    ) {
        match held {
            Some(held) => self.base.push((path, held)),
            // An addition, which rename detection may pair with any deletion.
            None => self.whole = true,
        }
        self.ids.push((path, ids));
        // Written as a version 2 entry: its stat data, id and flags (whose low bits are the
        // path's length in every version), the whole path, NULs to a multiple of eight bytes. A
        // version 4 index's paths are each cut against the one before, which is not here.
        let head_len = 40 + hash.len_in_bytes() + 2;
        let start = self.bytes.len();
        self.bytes.extend_from_slice(&raw[..head_len]);
        self.bytes.extend_from_slice(path);
        self.bytes.resize(start + ((head_len + path.len() + 8) & !7), 0);
        self.ends.push(self.bytes.len());
        self.count += 1;
    }

    /// The entries dealt in turn into two pieces, each in the index's order, for two gits to diff
    /// side by side; the attributes files go to both, so each reads the same attributes. `None`
    /// where a piece's lines could differ from the whole's: an addition, which rename detection
    /// may pair with a deletion in the other piece, or an attributes file that may have changed.
    /// (Without them, every path's line is its own; copies, which take any file as a source, are
    /// never looked for where the diff runs in parts, see
    /// [`diff_split::config_allows`](super::diff_split::config_allows).)
    pub fn pieces(&self) -> Option<[Entries<'a>; 2]> {
        if self.whole {
            return None;
        }
        let mut pieces: [Entries<'a>; 2] = std::array::from_fn(|_| Entries::default());
        let mut turn = 0;
        let mut start = 0;
        // Without additions, each entry has the base's entry at its path, in the same order;
        // the paths HEAD deleted follow them.
        let (at_entries, deleted) = self.base.split_at_checked(self.ids.len())?;
        for ((&id, &base), &end) in self.ids.iter().zip(at_entries).zip(&self.ends) {
            let raw = &self.bytes[start..end];
            start = end;
            let to = match is_attributes(id.0) {
                true => &mut pieces[..],
                false => {
                    turn += 1;
                    &mut pieces[turn % 2..turn % 2 + 1]
                }
            };
            for piece in to {
                piece.copy(raw, id);
                piece.base.push(base);
            }
        }
        for &base in deleted {
            turn += 1;
            pieces[turn % 2].base.push(base);
        }
        Some(pieces)
    }

    /// The entries at the paths `diffed` says git must diff, and the attributes files, so git
    /// reads the same attributes; whole where this part is (see [`Entries::pieces`]).
    pub fn select(&self, diffed: impl Fn(&[u8]) -> bool) -> Entries<'a> {
        let mut part = Entries { whole: self.whole, ..Entries::default() };
        part.attributes_changed = self.attributes_changed;
        let mut start = 0;
        for (&id, &end) in self.ids.iter().zip(&self.ends) {
            let raw = &self.bytes[start..end];
            start = end;
            if is_attributes(id.0) || diffed(id.0) {
                part.copy(raw, id);
            }
        }
        let base = self.base.iter().filter(|(path, _)| is_attributes(path) || diffed(path));
        part.base.extend(base);
        part
    }

    /// The flags of each index entry, in the order of `ids` (`hash_len`: the length of an id):
    /// where git keeps assume-unchanged.
    pub fn flags(&self, hash_len: usize) -> impl Iterator<Item = u16> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(move |(start, _)| {
            let at = start + 40 + hash_len;
            u16::from_be_bytes([self.bytes[at], self.bytes[at + 1]])
        })
    }

    /// Adds an entry another part already wrote (`raw`, its bytes there) at the index's `id`.
    fn copy(&mut self, raw: &[u8], id: (&'a [u8], Held)) {
        self.bytes.extend_from_slice(raw);
        self.ends.push(self.bytes.len());
        self.count += 1;
        self.ids.push(id);
    }

    /// Whether the part must be diffed by one git, all of it (see [`Entries::pieces`]).
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// Whether git has anything to diff here: a path that is not an attributes file (those are
    /// the same in the base, the index and the work tree where the part is not whole).
    pub fn has_lines(&self) -> bool {
        self.base.len() > self.ids.len() || self.ids.iter().any(|(path, _)| !is_attributes(path))
    }
}

/// Whether an entry of `mode` the walk found clean goes to the second part, whose lines are kept
/// between snapshots: every file or link HEAD changed, the same kind of file in the base.
fn in_second_part(mode: u32, head_changed: Option<(&[u8], Option<Held>)>) -> bool {
    let kind = |mode: u32| mode & 0o170000;
    matches!(kind(mode), 0o100000 | 0o120000)
        && head_changed
            .is_some_and(|(_, held)| held.is_some_and(|(base, _)| kind(base) == kind(mode)))
}

/// The paths HEAD changed that the index does not hold: the base's entries, added to `first`;
/// returns how many.
fn base_outside_the_index<'a>(scan: &Scan, since: &'a Since, first: &mut Entries<'a>) -> usize {
    let mut added = 0;
    for (path, held) in &since.changed {
        let in_index = scan.entries.binary_search_by(|e| scan.path(e).cmp(path)).is_ok();
        if let (Some(held), false) = (held, in_index) {
            first.base.push((path.as_slice(), *held));
            added += 1;
        }
    }
    added
}

/// Whether `path` names a `.gitattributes` file.
pub(super) fn is_attributes(path: &[u8]) -> bool {
    path == b".gitattributes" || path.ends_with(b"/.gitattributes")
}
