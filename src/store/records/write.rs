//! Writing records: every write a compare-and-swap on the notes ref, retried with backoff when
//! another writer moved it first, so parallel agents never lose a record; key blobs kept in the
//! notes tree so they travel with it.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;

use crate::git::identity::{FALLBACK_EMAIL, FALLBACK_NAME};
use crate::git::repo::Repo;

use super::key::{self, Key};
use super::record::{Record, parse, render};

/// How long a write keeps retrying while nobody moves the notes ref (a writer stuck holding it).
const GIVE_UP_UNMOVED: Duration = Duration::from_secs(30);

/// How long a write keeps retrying while other writers keep moving the notes ref first: on a
/// loaded machine many parallel writers each take their turn, slowly, and every turn taken is
/// progress, so this is far longer than [`GIVE_UP_UNMOVED`].
const GIVE_UP_AFTER: Duration = Duration::from_secs(300);

/// A notes ref lock unchanged this long, and held open by no process, is a dead writer's.
const STALE_REF_LOCK: Duration = Duration::from_secs(2);

/// Stores `record` on `object` (replacing what was there: one commit has one handoff) and on its
/// issue and branch keys (added to what was there, keeping one record per commit).
pub fn store(repo: &mut Repo, notes_ref: &str, object: ObjectId, record: &Record) -> Result<()> {
    store_replacing(repo, notes_ref, object, record, None)
}

/// [`store`], for a note commit that replaces `replaced` (a re-note of the same attempt): the
/// replaced commit's record of this kind goes, from its own note and from the keys, so records
/// stay as many as live handoffs however often an attempt is noted again. Every edit lands in one
/// notes commit, so an interruption leaves all of it or none.
pub fn store_replacing(
    repo: &mut Repo,
    notes_ref: &str,
    object: ObjectId,
    record: &Record,
    replaced: Option<ObjectId>,
) -> Result<()> {
    ensure_identity(repo);
    let replaced_hex = replaced.map(|r| r.to_string());
    let gone = |r: &Record| Some(&r.commit) == replaced_hex.as_ref() && r.kind == record.kind;
    // Another record on the same object (one from another machine, merged by sync, or an older
    // handoff of another kind) is kept; only this kind of record for this commit is replaced.
    let mut edits = vec![Edit::note(object, |existing| {
        let mut kept: Vec<Record> = existing
            .into_iter()
            .filter(|r| !(r.commit == record.commit && r.kind == record.kind))
            .collect();
        kept.push(record.clone());
        kept
    })];
    for key in keys_of(repo, record)? {
        edits.push(Edit::key(key, move |existing| {
            let mut kept: Vec<Record> =
                existing.into_iter().filter(|r| r.commit != record.commit && !gone(r)).collect();
            kept.push(record.clone());
            kept
        }));
    }
    if let Some(replaced) = replaced.filter(|r| *r != object) {
        edits.push(Edit::note(replaced, move |existing| {
            existing.into_iter().filter(|r| !gone(r)).collect()
        }));
    }
    write_with_retry(repo, notes_ref, &edits)
}

/// The key objects `record` is also stored on: its issue's and its branch's, written if new.
pub(super) fn keys_of(repo: &Repo, record: &Record) -> Result<Vec<ObjectId>> {
    let mut keys = Vec::new();
    if let Some(issue) = record.issue {
        keys.push(Key::Issue(issue).write(repo)?);
    }
    if let Some(branch) = &record.branch {
        keys.push(Key::Branch(branch).write(repo)?);
    }
    Ok(keys)
}

/// One object's records to rewrite: `update` decides the new list from the one found there. A key
/// blob (`is_key`) is also kept in the notes tree (see [`key::keep_entries`]).
pub(super) struct Edit<'a> {
    object: ObjectId,
    is_key: bool,
    update: Box<dyn Fn(Vec<Record>) -> Vec<Record> + 'a>,
}

impl<'a> Edit<'a> {
    pub(super) fn note(object: ObjectId, update: impl Fn(Vec<Record>) -> Vec<Record> + 'a) -> Self {
        Edit { object, is_key: false, update: Box::new(update) }
    }

    pub(super) fn key(object: ObjectId, update: impl Fn(Vec<Record>) -> Vec<Record> + 'a) -> Self {
        Edit { object, is_key: true, update: Box::new(update) }
    }
}

/// Reads the records on every object of `edits`, lets each `update` decide the new list, and
/// writes them all in one commit with a compare-and-swap on the ref, against the very commit the
/// records were read from: when another writer moved the ref in between, nothing is written and it
/// starts over from a fresh read, so a record another writer added is never dropped.
pub(super) fn write_with_retry(repo: &Repo, notes_ref: &str, edits: &[Edit<'_>]) -> Result<()> {
    let mut patience = Patience::new(Instant::now());
    loop {
        let raced = match replace_notes(repo, notes_ref, edits)? {
            None => return Ok(()),
            Some(raced) => raced,
        };
        let tries = patience.lost(raced.read_from, Instant::now());
        // A writer killed while it held the ref's lock never lets go of it: a lock nobody holds
        // open, unchanged for a while, is cleared (a live writer holds it for microseconds).
        if tries.is_multiple_of(8) {
            let lock = repo.gix().common_dir().join(format!("{notes_ref}.lock"));
            crate::util::leftovers::clear_lock_older_than(&lock, STALE_REF_LOCK);
        }
        if let Some(waited) = patience.exhausted(Instant::now()) {
            bail!(
                "could not update {notes_ref} after {tries} tries in {}s: {:#}; {waited}, run \
                 the command again",
                patience.started.elapsed().as_secs(),
                raced.why,
            );
        }
        // Another writer won the race: back off for a random while, longer as the tries go on,
        // so many writers spread out instead of colliding again in lockstep.
        // Exponential, capped at a quarter second ("full jitter"): 32 writers converge.
        let cap = (4u64 << tries.min(6)).min(250);
        std::thread::sleep(Duration::from_millis(1 + jitter() % cap));
    }
}

/// A lost race, from [`replace_notes`]: why, and the notes commit the write was built on.
struct Raced {
    why: anyhow::Error,
    read_from: Option<ObjectId>,
}

/// When a writer that keeps losing the race gives up: once the notes ref has not moved for
/// [`GIVE_UP_UNMOVED`] (nobody is making progress: a stuck writer holds it), or after
/// [`GIVE_UP_AFTER`] in all; not while other writers are taking their turns, however slowly.
struct Patience {
    started: Instant,
    tries: u32,
    /// The ref as last read, and since when it has not moved.
    seen: Option<ObjectId>,
    unmoved_since: Instant,
}

impl Patience {
    fn new(now: Instant) -> Patience {
        Patience { started: now, tries: 0, seen: None, unmoved_since: now }
    }

    /// Counts a lost race whose write was built on `read_from`; returns the tries so far.
    fn lost(&mut self, read_from: Option<ObjectId>, now: Instant) -> u32 {
        if self.tries == 0 || read_from != self.seen {
            self.seen = read_from;
            self.unmoved_since = now;
        }
        self.tries += 1;
        self.tries
    }

    /// Why to stop retrying, if it is time to.
    fn exhausted(&self, now: Instant) -> Option<String> {
        let unmoved = now.duration_since(self.unmoved_since);
        if unmoved > GIVE_UP_UNMOVED {
            Some(format!(
                "it has not moved for {}s, so a process is stuck holding it",
                unmoved.as_secs()
            ))
        } else if now.duration_since(self.started) > GIVE_UP_AFTER {
            Some("other processes keep moving it".to_owned())
        } else {
            None
        }
    }
}

/// A cheap random number: the clock's nanoseconds mixed with the process id.
fn jitter() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::from(d.subsec_nanos()));
    (nanos ^ u64::from(std::process::id()).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_mul(0x2545_F491_4F6C_DD1D)
        >> 32
}

/// Writes the notes of `edits` in one new commit on `notes_ref`, which moves only if no other
/// writer moved it first (as `gix`'s notes editing does). Key blobs are also put in the notes tree
/// (see [`key::keep_entries`]), so they are reachable, travel with the notes ref to other clones,
/// and survive `git gc` and `git notes prune` there and here.
///
/// The records already on each object are read from the very notes commit the new one is built on,
/// and the ref moves only if it still points there: so every `update` sees every record written
/// before and none is lost to a race. Returns `None` when written (or when nothing changed),
/// `Some(raced)` when another writer won the race (nothing was written; read again and retry); an
/// error is one that retrying cannot mend.
fn replace_notes(repo: &Repo, notes_ref: &str, edits: &[Edit<'_>]) -> Result<Option<Raced>> {
    use gix::refs::transaction::PreviousValue;
    let gix = repo.gix();
    let (parent, tree, ref_name) = match gix.try_find_reference(notes_ref)? {
        Some(mut reference) => {
            // A symbolic notes ref is followed; the ref it ends at is the one that moves.
            let parent = reference.follow_to_object()?.detach();
            let tree = gix.find_commit(parent)?.tree_id()?.detach();
            (Some(parent), tree, reference.name().to_owned())
        }
        None => {
            let name = gix::refs::FullName::try_from(notes_ref)
                .with_context(|| format!("{notes_ref} is not a valid ref name"))?;
            (None, ObjectId::empty_tree(gix.object_hash()), name)
        }
    };
    let mut state = gix::note::plumbing::State::new(tree, gix)
        .map_err(|err| anyhow!("reading the notes tree {tree}: {err}"))?;
    let mut changed = false;
    for edit in edits {
        changed |= apply(repo, notes_ref, &mut state, edit)?;
    }
    let mut new_tree = if changed {
        state.write(gix).map_err(|err| anyhow!("writing the notes tree: {err}"))?
    } else {
        tree
    };
    let keys: Vec<ObjectId> = edits.iter().filter(|e| e.is_key).map(|e| e.object).collect();
    new_tree = key::keep_entries(repo, new_tree, &keys)?;
    if new_tree == tree {
        return Ok(None);
    }
    let message = match edits.first() {
        Some(edit) => format!("git-handoff: record for {}", edit.object),
        None => "git-handoff: records".to_owned(),
    };
    let commit = gix.new_commit(message.as_str(), new_tree, parent)?;
    let expected = match parent {
        Some(parent) => PreviousValue::MustExistAndMatch(gix::refs::Target::Object(parent)),
        None => PreviousValue::MustNotExist,
    };
    match gix.reference(ref_name, commit.id, expected, format!("notes: {message}")) {
        Ok(_) => Ok(None),
        Err(err) => Ok(Some(Raced { why: err.into(), read_from: parent })),
    }
}

/// Applies one edit to the notes tree being built; true when it changed a note.
fn apply(
    repo: &Repo,
    notes_ref: &str,
    state: &mut gix::note::plumbing::State,
    edit: &Edit<'_>,
) -> Result<bool> {
    let gix = repo.gix();
    let object = edit.object;
    let found =
        state.get(&object, gix).map_err(|err| anyhow!("reading the note on {object}: {err}"))?;
    let existing = match found {
        // An unreadable existing note is an error, never silently overwritten.
        Some(blob) => {
            let blob =
                gix.find_blob(blob).with_context(|| format!("reading the note on {object}"))?;
            let name = crate::util::shell::quote(notes_ref);
            parse(&blob.data, &format!("{notes_ref}:{object}")).map_err(|err| {
                err.context(format!(
                    "mend: look at it with `git notes --ref={name} show {object}` and remove it \
                     with `git notes --ref={name} remove {object}` if it is not needed"
                ))
            })?
        }
        None => Vec::new(),
    };
    let records = (edit.update)(existing);
    if records.is_empty() {
        if found.is_none() {
            return Ok(false);
        }
        state
            .edit(object, None, gix)
            .map_err(|err| anyhow!("removing the note on {object}: {err}"))?;
        return Ok(true);
    }
    let data = render(&records)?;
    let blob = gix.write_blob(data.as_bytes()).context("writing a record")?.detach();
    if found == Some(blob) {
        return Ok(false);
    }
    state
        .edit(object, Some(blob), gix)
        .map_err(|err| anyhow!("writing the note on {object}: {err}"))?;
    Ok(true)
}

/// Installs a fallback identity in memory when git has none, so records can always be written.
pub fn ensure_identity(repo: &mut Repo) {
    use gix::config::tree::gitoxide;
    let mut config = gix::config::File::new(gix::config::file::Metadata::api());
    let mut any = false;
    if repo.gix().committer().is_none() {
        let _ = config.set_raw_value(gitoxide::Committer::NAME_FALLBACK, FALLBACK_NAME);
        let _ = config.set_raw_value(gitoxide::Committer::EMAIL_FALLBACK, FALLBACK_EMAIL);
        any = true;
    }
    if repo.gix().author().is_none() {
        let _ = config.set_raw_value(gitoxide::Author::NAME_FALLBACK, FALLBACK_NAME);
        let _ = config.set_raw_value(gitoxide::Author::EMAIL_FALLBACK, FALLBACK_EMAIL);
        any = true;
    }
    if any {
        let mut snapshot = repo.gix_mut().config_snapshot_mut();
        let _ = snapshot.append(config);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(byte: u8) -> Option<ObjectId> {
        Some(ObjectId::from_bytes_or_panic(&[byte; 20]))
    }

    #[test]
    fn a_writer_waits_while_others_move_the_ref() {
        let start = Instant::now();
        let mut patience = Patience::new(start);
        // Every lost race finds the ref moved: progress, however slow, for up to GIVE_UP_AFTER.
        for (i, second) in (0..290).step_by(20).enumerate() {
            let now = start + Duration::from_secs(second);
            patience.lost(id(i as u8), now);
            assert_eq!(patience.exhausted(now), None, "at {second}s");
        }
        let late = start + GIVE_UP_AFTER + Duration::from_secs(1);
        patience.lost(id(200), late);
        assert!(patience.exhausted(late).unwrap().contains("keep moving"));
    }

    #[test]
    fn a_writer_gives_up_when_the_ref_stops_moving() {
        let start = Instant::now();
        let mut patience = Patience::new(start);
        assert_eq!(patience.lost(None, start), 1);
        patience.lost(id(1), start + Duration::from_secs(5));
        let still = start + Duration::from_secs(34);
        assert_eq!(patience.lost(id(1), still), 3);
        assert_eq!(patience.exhausted(still), None, "29 s unmoved");
        let stuck = start + Duration::from_secs(36);
        patience.lost(id(1), stuck);
        let why = patience.exhausted(stuck).unwrap();
        assert!(why.contains("not moved for 31s"), "{why}");
    }
}
