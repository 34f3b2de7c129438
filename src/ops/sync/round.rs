//! One fetch–merge–push round of a sync: fetch the remote's notes ref and every writer's ref in one
//! go, merge what moved into the local notes ref, push what the remote lacked to this clone's own
//! writer ref (which no other clone writes, so it is not contended), and only then move the local
//! notes ref.

use anyhow::{Result, anyhow};
use gix::ObjectId;

use super::link::Link;
use super::merge;
use super::remote::{self, Lost, Update, ref_id, refs_under};
use super::writers::{self, Merged};
use crate::git::repo::Repo;
use serde::Serialize;

/// What a sync did.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The remote synced with.
    pub remote: String,
    /// The local notes ref (`refs/notes/handoff`).
    pub notes_ref: String,
    /// Where the remote's notes ref was fetched to (`refs/notes/remotes/<remote>/handoff`).
    pub tracking_ref: String,
    /// This clone's own ref on the remote, which its syncs push to
    /// (`refs/handoff/writers/<writer>`).
    pub writer_ref: String,
    pub outcome: Joined,
    /// Records this repository received that it did not hold.
    pub fetched: usize,
    /// Records the remote received that it did not hold.
    pub pushed: usize,
    /// The two-parent merge commit, when both sides had records the other lacked.
    pub merge_commit: Option<String>,
    /// The local notes ref after the sync (null when neither side has records).
    pub local: Option<String>,
    /// Writers' refs on the remote, as fetched (before a compaction).
    pub writers: usize,
    /// Fetch–merge–push rounds it took (more than one when a push was rejected or another
    /// process of this clone moved a ref first).
    pub tries: u32,
    /// Connections made again because the server dropped or hung up on one (a busy server); they
    /// are part of a round, not rounds of their own.
    pub reconnects: u32,
    /// Pushes the remote rejected: lost races on this clone's own ref and refusals.
    pub rejected: u32,
    /// With `--compact`: how many writers' refs were folded into the remote's notes ref.
    pub compacted: Option<usize>,
}

impl Report {
    /// A report of `outcome` with the names of `names` and nothing counted yet.
    fn new(names: &Names, outcome: Joined) -> Report {
        Report {
            remote: names.remote.clone(),
            notes_ref: names.notes_ref.clone(),
            tracking_ref: names.tracking.clone(),
            writer_ref: names.writer_ref.clone(),
            outcome,
            fetched: 0,
            pushed: 0,
            merge_commit: None,
            local: None,
            writers: 0,
            tries: 0,
            reconnects: 0,
            rejected: 0,
            compacted: None,
        }
    }
}

/// How the two notes refs were brought together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Joined {
    /// Both sides already held the same notes.
    UpToDate,
    /// The remote had records this clone lacked: the local ref took them; nothing was pushed.
    FastForward,
    /// This clone had records the remote lacked (and took none): they were pushed.
    Pushed,
    /// Both sides had new records: a merge commit holds them all and was pushed.
    Merged,
}

/// Where a sync reads and writes, for one remote.
pub struct Names {
    pub notes_ref: String,
    pub remote: String,
    /// The local copy of the remote's notes ref (`refs/notes/remotes/<remote>/handoff`).
    pub tracking: String,
    /// This clone's ref on the remote (`refs/handoff/writers/<writer>`) and its local copy.
    pub writer_ref: String,
    pub writer_tracking: String,
    /// Where the local copies of every writer's ref live.
    pub writers_tracking: String,
}

impl Names {
    /// The fetch's refspecs: the notes ref (as a glob, so a remote without it is no error) and
    /// every writer's ref.
    pub fn refspecs(&self) -> Vec<String> {
        let name = self.notes_ref.strip_prefix("refs/notes/").unwrap_or(&self.notes_ref);
        let tracking_base = self.tracking.strip_suffix(name).unwrap_or(&self.tracking);
        vec![
            format!("+{}*:{tracking_base}{name}*", self.notes_ref),
            format!("+{}*:{}*", writers::remote_prefix(&self.notes_ref), self.writers_tracking),
        ]
    }
}

/// How a round ended.
pub enum Round {
    /// Merged (and pushed when this clone held records the remote lacked): the report, and what
    /// was fetched.
    Done(Box<Report>, Fetched),
    /// Another process moved a local ref or held its lock first; try again.
    Local(String),
    /// The push did not land: a lost race or a refusal. The local notes ref did not move.
    Rejected(Lost),
}

/// What a round fetched: the remote's notes ref and writers' refs, as tracking refs.
pub struct Fetched {
    pub notes: Option<ObjectId>,
    pub writers: Vec<(String, ObjectId)>,
}

/// Fetches everything; `Err(lost)` is a lost race for a local lock or a remote that did not answer.
pub fn fetch(
    repo: &Repo,
    link: &mut Link,
    names: &Names,
) -> Result<std::result::Result<Fetched, Lost>> {
    // A tracking ref the remote no longer backs still holds records seen there: kept as input.
    let notes_before = ref_id(repo, &names.tracking)?;
    if let Err(lost) = remote::fetch(repo, link, &names.remote, &names.refspecs())? {
        return Ok(Err(lost));
    }
    let notes = ref_id(repo, &names.tracking)?.or(notes_before);
    let writers = refs_under(repo, &names.writers_tracking)?;
    Ok(Ok(Fetched { notes, writers }))
}

/// One round; with `push_own` false (a compaction follows) nothing is pushed.
pub fn round(repo: &Repo, link: &mut Link, names: &Names, push_own: bool) -> Result<Round> {
    let last = writers::merged(repo, &names.remote);
    let fetched = match fetch(repo, link, names)? {
        Ok(fetched) => fetched,
        Err(Lost::Race(race)) => return Ok(Round::Local(race)),
        Err(lost) => return Ok(Round::Rejected(lost)),
    };
    let own_old = fetched.writers.iter().find(|(n, _)| *n == names.writer_tracking).map(|w| w.1);
    let (inputs, mut now) = moved_since(&last, names, &fetched);
    let inputs = heads(repo, inputs);
    let input_trees = inputs.iter().map(|c| tree_of(repo, *c)).collect::<Result<Vec<_>>>()?;
    let local = ref_id(repo, &names.notes_ref)?;
    let local_tree = local.map(|c| tree_of(repo, c)).transpose()?;
    // Everything the remote holds, as far as this clone knows.
    let remote_view = merge::fold(repo, last.remote_view, &input_trees)?;
    let union = match (local_tree, remote_view) {
        (Some(l), Some(r)) => Some(merge::fold_two(repo, l, r)?),
        (l, r) => l.or(r),
    };
    let fetched_count = merge::new_records(repo, local_tree, union)?;
    let pushed = merge::new_records(repo, remote_view, union)?;
    let (new, merge_commit) = match union {
        None => (None, None),
        Some(tree) if Some(tree) == local_tree => (local, None),
        Some(tree) => new_local(repo, names, tree, local, &inputs, &input_trees)?,
    };
    let push = push_own && pushed > 0;
    if let Some(union) = union.filter(|_| push)
        && let Some(own) = own_commit(repo, names, remote_view, union, own_old)?
        && let Err(lost) = publish(repo, link, names, own, own_old, &mut now)?
    {
        return Ok(Round::Rejected(lost));
    }
    if let Some(new) = new
        && Some(new) != local
        && let Err(race) = move_ref(repo, &names.notes_ref, new, local)
    {
        return Ok(Round::Local(race));
    }
    now.remote_view = if push { union } else { remote_view };
    writers::save_merged(repo, &names.remote, &now);
    let outcome = match (new, fetched_count > 0, push) {
        (None, _, _) => Joined::UpToDate,
        (_, true, true) => Joined::Merged,
        (_, true, false) => Joined::FastForward,
        (_, false, true) => Joined::Pushed,
        (_, false, false) => Joined::UpToDate,
    };
    let report = Report {
        fetched: fetched_count,
        pushed: if push { pushed } else { 0 },
        merge_commit: merge_commit.map(|id| id.to_string()),
        local: new.map(|id| id.to_string()),
        writers: fetched.writers.len(),
        ..Report::new(names, outcome)
    };
    Ok(Round::Done(Box::new(report), fetched))
}

/// The fetched refs that moved since the last sync (only those are merged: the rest is in the
/// local notes already), and what every fetched ref now points at.
fn moved_since(last: &Merged, names: &Names, fetched: &Fetched) -> (Vec<ObjectId>, Merged) {
    let mut inputs: Vec<ObjectId> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut now = Merged::default();
    let tracked = fetched.notes.map(|id| (names.tracking.clone(), id));
    for (name, id) in tracked.iter().chain(fetched.writers.iter()) {
        if last.refs.get(name) != Some(id) && seen.insert(*id) {
            inputs.push(*id);
        }
        now.refs.insert(name.clone(), *id);
    }
    (inputs, now)
}

/// The commit for this clone's own ref: what the ref held (`own_old`) and every record of `union`
/// the remote lacked (`remote_view`), on `own_old`; `None` when the ref holds them all already.
/// Not the union: what this clone fetched from other writers is on the remote already, and a ref
/// that carried it would make every writer's ref hold every record, so that a fetch of all of
/// them (every sync's, in a fleet) would grow with the writers times the records.
fn own_commit(
    repo: &Repo,
    names: &Names,
    remote_view: Option<ObjectId>,
    union: ObjectId,
    own_old: Option<ObjectId>,
) -> Result<Option<ObjectId>> {
    let Some(lacking) = merge::difference(repo, remote_view, union)? else { return Ok(None) };
    let old_tree = own_old.map(|c| tree_of(repo, c)).transpose()?;
    let tree = match old_tree {
        Some(old) => merge::fold(repo, Some(old), &[lacking])?.unwrap_or(old),
        None => lacking,
    };
    if Some(tree) == old_tree {
        return Ok(None);
    }
    let message = format!("git-handoff: new records for {}\n", names.writer_ref);
    let commit = repo
        .gix()
        .new_commit(message, tree, own_old)
        .map_err(|err| anyhow!("writing the commit of {}: {err}", names.writer_ref))?;
    Ok(Some(commit.id))
}

/// Pushes `new` to this clone's own writer ref (with a lease on what the fetch saw there), and
/// moves the tracking ref as git does after a push.
fn publish(
    repo: &Repo,
    link: &mut Link,
    names: &Names,
    new: ObjectId,
    own_old: Option<ObjectId>,
    now: &mut Merged,
) -> Result<Result<(), Lost>> {
    let update = Update { dst: names.writer_ref.clone(), new: Some(new), old: own_old };
    if let Err(lost) = remote::push(repo, link, &names.remote, &[update], false)? {
        return Ok(Err(lost));
    }
    // Only a copy, so a failure here (another sync fetching) changes nothing that matters.
    let _ = repo.gix().reference(
        names.writer_tracking.as_str(),
        new,
        gix::refs::transaction::PreviousValue::Any,
        "git-handoff: sync (pushed)",
    );
    now.refs.insert(names.writer_tracking.clone(), new);
    Ok(Ok(()))
}

/// The local notes commit for the merged `tree`: an input commit with that very tree (a fast
/// forward), else a new commit on the local one with every input as a parent.
fn new_local(
    repo: &Repo,
    names: &Names,
    tree: ObjectId,
    local: Option<ObjectId>,
    inputs: &[ObjectId],
    input_trees: &[ObjectId],
) -> Result<(Option<ObjectId>, Option<ObjectId>)> {
    if let Some(i) = input_trees.iter().position(|t| *t == tree) {
        return Ok((Some(inputs[i]), None));
    }
    let parents: Vec<ObjectId> = local.into_iter().chain(inputs.iter().copied()).collect();
    let message = format!("git-handoff: merge {} from {}\n", names.notes_ref, names.remote);
    let commit = repo
        .gix()
        .new_commit(message, tree, parents.clone())
        .map_err(|err| anyhow!("writing the merge commit of {}: {err}", names.notes_ref))?;
    Ok((Some(commit.id), (parents.len() > 1).then_some(commit.id)))
}

/// The `inputs` that no other input descends from: a writer's commit merged what it fetched (its
/// parents), so it holds every record of those, and they need not be merged again. A short walk
/// from the inputs' parents finds them (bounded: an ancestor it misses is merged, at some cost).
fn heads(repo: &Repo, inputs: Vec<ObjectId>) -> Vec<ObjectId> {
    if inputs.len() < 2 {
        return inputs;
    }
    let mut reached = std::collections::HashSet::new();
    let mut queue: std::collections::VecDeque<ObjectId> = std::collections::VecDeque::new();
    let parents = |id: ObjectId| -> Vec<ObjectId> {
        repo.gix()
            .find_commit(id)
            .map(|c| c.parent_ids().map(|p| p.detach()).collect())
            .unwrap_or_default()
    };
    for input in &inputs {
        queue.extend(parents(*input));
    }
    let mut budget = 64 + 8 * inputs.len();
    while let Some(id) = queue.pop_front() {
        if budget == 0 {
            break;
        }
        if !reached.insert(id) {
            continue;
        }
        budget -= 1;
        queue.extend(parents(id));
    }
    inputs.into_iter().filter(|i| !reached.contains(i)).collect()
}

/// Moves the local notes ref from `old` to `new`, unless another writer moved it first.
pub fn move_ref(
    repo: &Repo,
    notes_ref: &str,
    new: ObjectId,
    old: Option<ObjectId>,
) -> std::result::Result<(), String> {
    use gix::refs::transaction::PreviousValue;
    let expected = match old {
        Some(old) => PreviousValue::MustExistAndMatch(gix::refs::Target::Object(old)),
        None => PreviousValue::MustNotExist,
    };
    repo.gix()
        .reference(notes_ref, new, expected, "git-handoff: sync")
        .map(|_| ())
        .map_err(|err| format!("{notes_ref} moved locally: {err}"))
}

/// The tree of a notes commit.
pub fn tree_of(repo: &Repo, commit: ObjectId) -> Result<ObjectId> {
    let tree = repo
        .gix()
        .find_commit(commit)
        .map_err(|err| anyhow!("reading the notes commit {commit}: {err}"))?
        .tree_id()
        .map_err(|err| anyhow!("reading the tree of the notes commit {commit}: {err}"))?;
    Ok(tree.detach())
}
