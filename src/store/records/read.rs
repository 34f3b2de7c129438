//! Reading records for readers (recall, show, log): from the notes ref and every remote-tracking
//! copy of it, a note that is not a record list skipped with a warning.

use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;

use crate::git::notes_read;
use crate::git::repo::Repo;
use crate::git::walk::Objects;

use super::record::{Record, parse};

/// What readers find on one object: its records, and a warning for each note on it that is not a
/// record list (skipped, so one bad note cannot stop a reader). The warnings are for the command
/// to print.
#[derive(Debug, Default)]
pub struct Attached {
    pub records: Vec<Record>,
    pub warnings: Vec<String>,
}

/// Reads every record attached to `object` in any of `refs`, for readers: a note that is not a
/// record list (hand-written, or fetched from elsewhere) is skipped with a warning, so one bad note
/// cannot stop recall at session start. (Writers read the note they replace in `write`, where
/// one they cannot read is an error: they must not replace what they cannot read.)
pub fn read_lenient(repo: &Repo, refs: &[String], object: ObjectId) -> Result<Attached> {
    let mut attached = Attached::default();
    for name in refs {
        let origin = format!("{name}:{object}");
        let note = repo
            .notes_cache
            .with(
                || repo.new_objects().loose_first(),
                |objects, kept| records_on(repo, objects, kept, name, object, &origin),
            )
            .with_context(|| format!("reading {name}"))?;
        match note {
            None => {}
            Some(Ok(records)) => attached.records.extend(records.iter().cloned()),
            Some(Err(err)) => attached.warnings.push(format!("{err:#}; skipped")),
        }
    }
    Ok(attached)
}

/// The records of the note on `object` in the notes ref `name`, if the ref exists and has one;
/// the inner error is a note that is not a record list. A blob's records are parsed once per
/// process ([`notes_read::Roots::made_of`]): the note commit's, the branch's and the keys
/// share one blob, and recall reads all three.
fn records_on(
    repo: &Repo,
    objects: &mut Objects,
    kept: &mut notes_read::Roots<'_>,
    name: &str,
    object: ObjectId,
    origin: &str,
) -> Result<Option<Result<Arc<Vec<Record>>>>> {
    let Some(tip) = repo.ref_id(name)? else { return Ok(None) };
    let root = kept.root_of(objects, tip)?;
    let Some(blob) = notes_read::note_in_tree(objects, kept, root, &object)? else {
        return Ok(None);
    };
    if let Some(records) = kept.made_of::<Vec<Record>>(blob) {
        return Ok(Some(Ok(records)));
    }
    let mut data = Vec::new();
    match objects.read(blob, &mut data)? {
        gix::object::Kind::Blob => {}
        kind => return Err(anyhow!("the note {blob} on {object} is a {kind}, not a blob")),
    }
    Ok(Some(parse(&data, origin).map(|records| {
        let records = Arc::new(records);
        kept.keep_made(blob, records.clone());
        records
    })))
}

/// The newest of `records` by `written_at`, if any.
pub fn latest(records: impl IntoIterator<Item = Record>) -> Option<Record> {
    records.into_iter().max_by(|a, b| a.written_at.cmp(&b.written_at))
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
    // A broken ref is git's to report; recall still reads the others.
    let tracking =
        repo.ref_names_under(TRACKING_PREFIX).context("listing the remote-tracking notes refs")?;
    for full in tracking {
        let remote = full.strip_prefix(TRACKING_PREFIX).and_then(|r| r.strip_suffix(&suffix));
        if remote.is_some_and(|r| !r.is_empty()) {
            refs.push(full);
        }
    }
    Ok(refs)
}
