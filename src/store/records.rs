//! Records: the machine-readable TOML that every handoff stores in the notes ref
//! (`refs/notes/handoff` by default), so tools and later sessions read facts, not prose.
//!
//! A record is attached to its commit (the note commit, or HEAD for a digest-only handoff) and,
//! so that squash merges and rebases without `notes.rewriteRef` cannot strand it, also to two key
//! objects: small blobs whose content names the issue (`git-handoff issue 179`) and the branch
//! (`git-handoff branch refs/heads/x`). Looking up the latest handoff of a branch or issue is then
//! one notes lookup, never a history walk. Each key blob is also kept in the notes tree itself, as
//! an entry that is not a note (`handoff-key-<id>`), so it travels with the notes ref and `git
//! notes prune` in any clone keeps its note.
//!
//! A note blob holds one or more records as a TOML array of tables (`[[record]]`). Two writers
//! that annotate the same object on different machines are merged by keeping both records
//! (see `sync`); readers take the newest by `written_at`.
//!
//! Every write is a compare-and-swap on the notes ref (gix updates the ref only if it did not move)
//! retried with backoff when another writer won, so parallel agents in linked worktrees never lose
//! a record. `git notes add` has no such guard.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use serde::{Deserialize, Serialize};

use crate::git::repo::Repo;

pub use crate::agent::progress::ProgressItem;
pub use crate::model::claims::Tag;
pub use crate::model::summary::Summary;

use crate::git::identity::{FALLBACK_EMAIL, FALLBACK_NAME};

/// How long a write keeps retrying while other writers move the notes ref first.
const GIVE_UP_AFTER: Duration = Duration::from_secs(30);

/// What wrote a record. Stored as its name; a kind this version does not know (a record from a
/// newer git-handoff) is kept as written, so rewriting a record list never changes it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum RecordKind {
    /// The agent's checked note.
    #[default]
    Agent,
    /// The note git-handoff wrote because the agent wrote none.
    Emergency,
    /// The digest alone, on HEAD, when the agent wrote no note.
    Digest,
    Other(String),
}

impl RecordKind {
    pub fn as_str(&self) -> &str {
        match self {
            RecordKind::Agent => "agent",
            RecordKind::Emergency => "emergency",
            RecordKind::Digest => "digest",
            RecordKind::Other(name) => name,
        }
    }
}

impl From<String> for RecordKind {
    fn from(name: String) -> Self {
        match name.as_str() {
            "agent" => RecordKind::Agent,
            "emergency" => RecordKind::Emergency,
            "digest" => RecordKind::Digest,
            _ => RecordKind::Other(name),
        }
    }
}

impl From<RecordKind> for String {
    fn from(kind: RecordKind) -> Self {
        kind.as_str().to_string()
    }
}

impl From<crate::model::note::Kind> for RecordKind {
    fn from(kind: crate::model::note::Kind) -> Self {
        match kind {
            crate::model::note::Kind::Agent => RecordKind::Agent,
            crate::model::note::Kind::Emergency => RecordKind::Emergency,
        }
    }
}

impl std::fmt::Display for RecordKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One handoff record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Record {
    pub version: u32,
    pub kind: RecordKind,
    pub issue: Option<u64>,
    pub branch: Option<String>,
    pub started_at: Option<String>,
    pub reason: Option<String>,
    pub written_at: String,
    /// The commit the record describes (the note commit, or HEAD for a digest-only record).
    pub commit: String,
    pub note_path: Option<String>,
    pub seal_commit: Option<String>,
    pub digest_line: Option<String>,
    /// The digest as computed when the record was written.
    pub digest: Option<toml::Table>,
    pub summary: Option<Summary>,
    pub tags: Vec<Tag>,
    pub progress: Vec<ProgressItem>,
}

/// The blob format: every record of one annotated object.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Blob {
    #[serde(default)]
    record: Vec<Record>,
}

/// Renders records as a note blob.
pub fn render(records: &[Record]) -> Result<String> {
    toml::to_string(&Blob { record: records.to_vec() }).context("serialising a record")
}

/// Parses a note blob; `origin` names it in errors.
pub fn parse(bytes: &[u8], origin: &str) -> Result<Vec<Record>> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| anyhow!("{origin}: the record is not UTF-8 text"))?;
    let blob: Blob = toml::from_str(text)
        .map_err(|err| anyhow!("{origin}: not a git-handoff record: {}", err.message()))?;
    Ok(blob.record)
}

/// Merges two record lists: every record kept once, oldest first (ties in a fixed order, so both
/// machines of a sync write the same blob).
pub fn merge(mut ours: Vec<Record>, theirs: Vec<Record>) -> Vec<Record> {
    for record in theirs {
        if !ours.contains(&record) {
            ours.push(record);
        }
    }
    ours.sort_by(|a, b| {
        (&a.written_at, &a.commit, a.kind.as_str(), &a.started_at).cmp(&(
            &b.written_at,
            &b.commit,
            b.kind.as_str(),
            &b.started_at,
        ))
    });
    ours
}

/// What a key object stands for.
pub enum Key<'a> {
    Issue(u64),
    Branch(&'a str),
}

impl Key<'_> {
    fn content(&self) -> String {
        match self {
            Key::Issue(n) => format!("git-handoff issue {n}\n"),
            Key::Branch(name) => format!("git-handoff branch {name}\n"),
        }
    }

    /// The id of the key object (a blob) in this repository's hash, without writing it.
    pub fn id(&self, repo: &Repo) -> Result<ObjectId> {
        let content = self.content();
        gix::objs::compute_hash(repo.gix.object_hash(), gix::objs::Kind::Blob, content.as_bytes())
            .context("hashing a record key")
    }

    fn write(&self, repo: &Repo) -> Result<ObjectId> {
        Ok(repo.gix.write_blob(self.content().as_bytes()).context("writing a record key")?.detach())
    }
}

/// Reads every record attached to `object` in any of `refs`, for readers: a note that is not a
/// record list (hand-written, or fetched from elsewhere) is skipped with a warning, so one bad note
/// cannot stop recall at session start. (Writers read the note they replace in [`replace_note`],
/// where one they cannot read is an error: they must not replace what they cannot read.)
pub fn read_lenient(repo: &Repo, refs: &[String], object: ObjectId) -> Result<Vec<Record>> {
    let what = refs.join(", ");
    let mut notes = repo
        .gix
        .notes()
        .and_then(|n| n.with_refs(refs.iter().map(String::as_str)))
        .map_err(|err| anyhow!("reading {what}: {err}"))?;
    let found = notes.get(object).map_err(|err| anyhow!("reading {what}: {err}"))?;
    let mut out = Vec::new();
    for note in found {
        let origin = format!("{}:{object}", note.reference.as_bstr());
        match parse(&note.blob.data, &origin) {
            Ok(records) => out.extend(records),
            Err(err) => crate::util::warnings::push(format!("{err:#}; skipped")),
        }
    }
    Ok(out)
}

/// The newest record attached to `object` in `notes_ref`, if any.
pub fn latest(repo: &Repo, notes_ref: &str, object: ObjectId) -> Result<Option<Record>> {
    latest_in(repo, &[notes_ref.to_string()], object)
}

/// The newest record attached to `object` in any of `refs`, if any.
pub fn latest_in(repo: &Repo, refs: &[String], object: ObjectId) -> Result<Option<Record>> {
    let records = read_lenient(repo, refs, object)?;
    Ok(records.into_iter().max_by(|a, b| a.written_at.cmp(&b.written_at)))
}

/// The newest record for an issue or branch key in any of `refs`.
pub fn latest_for(repo: &Repo, refs: &[String], key: Key<'_>) -> Result<Option<Record>> {
    latest_in(repo, refs, key.id(repo)?)
}

/// Where `sync` keeps its copy of a remote's records: `refs/notes/remotes/<remote>/<name>` for
/// the notes ref `refs/notes/<name>` (`refs/notes/remotes/origin/handoff` by default).
pub fn tracking_ref(notes_ref: &str, remote: &str) -> String {
    let name = notes_ref.strip_prefix("refs/notes/").unwrap_or(notes_ref);
    format!("{TRACKING_PREFIX}{remote}/{name}")
}

const TRACKING_PREFIX: &str = "refs/notes/remotes/";

/// The notes refs that readers (recall, show) look in: `notes_ref` itself, then every
/// remote-tracking copy of it (see [`tracking_ref`]), so a handoff written on another machine is
/// found after one `sync` or a fetch with the documented refspec. Listing them reads only the refs
/// under `refs/notes/remotes/`, never history.
pub fn readable_refs(repo: &Repo, notes_ref: &str) -> Result<Vec<String>> {
    let mut refs = vec![notes_ref.to_string()];
    let name = notes_ref.strip_prefix("refs/notes/").unwrap_or(notes_ref);
    let suffix = format!("/{name}");
    let platform = repo.gix.references().context("listing the remote-tracking notes refs")?;
    let tracking =
        platform.prefixed(TRACKING_PREFIX).context("listing the remote-tracking notes refs")?;
    for reference in tracking {
        // A broken ref is git's to report; recall still reads the others.
        let Ok(reference) = reference else { continue };
        let full = reference.name().as_bstr().to_string();
        let remote = full.strip_prefix(TRACKING_PREFIX).and_then(|r| r.strip_suffix(&suffix));
        if remote.is_some_and(|r| !r.is_empty()) {
            refs.push(full);
        }
    }
    Ok(refs)
}

/// Stores `record` on `object` (replacing what was there: one commit has one handoff) and on its
/// issue and branch keys (added to what was there, keeping one record per commit).
pub fn store(repo: &mut Repo, notes_ref: &str, object: ObjectId, record: &Record) -> Result<()> {
    ensure_identity(repo);
    // Another record on the same object (one from another machine, merged by sync, or an older
    // handoff of another kind) is kept; only this kind of record for this commit is replaced.
    write_with_retry(repo, notes_ref, object, false, |existing| {
        let mut kept: Vec<Record> = existing
            .into_iter()
            .filter(|r| !(r.commit == record.commit && r.kind == record.kind))
            .collect();
        kept.push(record.clone());
        kept
    })?;
    let mut keys = Vec::new();
    if let Some(issue) = record.issue {
        keys.push(Key::Issue(issue).write(repo)?);
    }
    if let Some(branch) = &record.branch {
        keys.push(Key::Branch(branch).write(repo)?);
    }
    for key in keys {
        write_with_retry(repo, notes_ref, key, true, |existing| {
            let mut kept: Vec<Record> =
                existing.into_iter().filter(|r| r.commit != record.commit).collect();
            kept.push(record.clone());
            kept
        })?;
    }
    Ok(())
}

/// Reads the records on `object`, lets `update` decide the new list, and writes it with a
/// compare-and-swap on the ref, against the very commit the records were read from: when another
/// writer moved the ref in between, nothing is written and it starts over from a fresh read, so a
/// record another writer added is never dropped. With `is_key`, `object` is a key blob, kept in
/// the notes tree too (see [`replace_note`]).
fn write_with_retry(
    repo: &Repo,
    notes_ref: &str,
    object: ObjectId,
    is_key: bool,
    update: impl Fn(Vec<Record>) -> Vec<Record>,
) -> Result<()> {
    let started = Instant::now();
    let mut tries = 0u32;
    loop {
        tries += 1;
        let raced = match replace_note(repo, notes_ref, object, is_key, &update)? {
            None => return Ok(()),
            Some(raced) => raced,
        };
        if started.elapsed() > GIVE_UP_AFTER {
            bail!(
                "could not update {notes_ref} after {tries} tries in {}s: {raced:#}; another \
                 process keeps moving it, run the command again",
                GIVE_UP_AFTER.as_secs()
            );
        }
        // Another writer won the race: back off for a random while, longer as the tries go on,
        // so many writers spread out instead of colliding again in lockstep.
        let cap = 2 + u64::from(tries.min(20)) * 3;
        std::thread::sleep(Duration::from_millis(1 + jitter() % cap));
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

/// Where a key blob sits in the notes tree: a top-level entry whose name is not an object id,
/// which git (and gix) keep as a non-note entry through every note edit and `git notes prune`.
const KEY_ENTRY_PREFIX: &str = "handoff-key-";

/// Writes `data` as the note on `object` in one new commit on `notes_ref`, which moves only if no
/// other writer moved it first (as `gix`'s notes editing does). A key blob (`is_key`) is also put
/// in the notes tree as `handoff-key-<id>`: so it is reachable, travels with the notes ref to
/// other clones, and survives `git gc` there and here; without it `git notes prune` in a clone
/// that lacks the blob would drop the key's note, and with it every lookup by issue and branch.
///
/// The records already on `object` are read from the very notes commit the new one is built on, and
/// the ref moves only if it still points there: so `update` always sees every record written before
/// and none is lost to a race. Returns `None` when written, `Some(why)` when another writer won the
/// race (nothing was written; read again and retry); an error is one that retrying cannot mend.
fn replace_note(
    repo: &Repo,
    notes_ref: &str,
    object: ObjectId,
    is_key: bool,
    update: &dyn Fn(Vec<Record>) -> Vec<Record>,
) -> Result<Option<anyhow::Error>> {
    use gix::refs::transaction::PreviousValue;
    let gix = &repo.gix;
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
    let existing = match state
        .get(&object, gix)
        .map_err(|err| anyhow!("reading the note on {object}: {err}"))?
    {
        // An unreadable existing note is an error, never silently overwritten.
        Some(blob) => {
            let blob =
                gix.find_blob(blob).with_context(|| format!("reading the note on {object}"))?;
            let name = notes_ref.trim_start_matches("refs/notes/");
            parse(&blob.data, &format!("{notes_ref}:{object}")).map_err(|err| {
                err.context(format!(
                    "mend: look at it with `git notes --ref={name} show {object}` and remove it \
                     with `git notes --ref={name} remove {object}` if it is not needed"
                ))
            })?
        }
        None => Vec::new(),
    };
    let data = render(&update(existing))?;
    let blob = gix.write_blob(data.as_bytes()).context("writing a record")?.detach();
    let edit = state
        .replace(object, blob, gix)
        .map_err(|err| anyhow!("writing the note on {object}: {err}"))?;
    let mut tree = edit.tree;
    if is_key {
        let mut editor = gix.edit_tree(tree)?;
        editor.upsert(
            format!("{KEY_ENTRY_PREFIX}{object}"),
            gix::objs::tree::EntryKind::Blob,
            object,
        )?;
        tree = editor.write()?.detach();
    }
    let message = format!("git-handoff: record for {object}");
    let commit = gix.new_commit(message.as_str(), tree, parent)?;
    let expected = match parent {
        Some(parent) => PreviousValue::MustExistAndMatch(gix::refs::Target::Object(parent)),
        None => PreviousValue::MustNotExist,
    };
    match gix.reference(ref_name, commit.id, expected, format!("notes: {message}")) {
        Ok(_) => Ok(None),
        Err(err) => Ok(Some(err.into())),
    }
}

/// Installs a fallback identity in memory when git has none, so records can always be written.
pub fn ensure_identity(repo: &mut Repo) {
    use gix::config::tree::gitoxide;
    let mut config = gix::config::File::new(gix::config::file::Metadata::api());
    let mut any = false;
    if repo.gix.committer().is_none() {
        let _ = config.set_raw_value(gitoxide::Committer::NAME_FALLBACK, FALLBACK_NAME);
        let _ = config.set_raw_value(gitoxide::Committer::EMAIL_FALLBACK, FALLBACK_EMAIL);
        any = true;
    }
    if repo.gix.author().is_none() {
        let _ = config.set_raw_value(gitoxide::Author::NAME_FALLBACK, FALLBACK_NAME);
        let _ = config.set_raw_value(gitoxide::Author::EMAIL_FALLBACK, FALLBACK_EMAIL);
        any = true;
    }
    if any {
        let mut snapshot = repo.gix.config_snapshot_mut();
        let _ = snapshot.append(config);
    }
}
