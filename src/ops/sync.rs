//! Sync: handoff records across machines over git remotes.
//!
//! git does not push or fetch notes refs by default, and two machines that both wrote records have
//! diverged notes refs that git cannot fast-forward. `sync` fetches the remote's notes ref into
//! `refs/notes/remotes/<remote>/<name>`, merges it with the local one so that no record of either
//! side is lost, pushes the result with a lease on the remote's old value, and only then moves the
//! local ref (a compare-and-swap): when the push fails, the local notes stay as they were. Another
//! writer winning a race (on the remote or locally) starts the fetch–merge–push over, a bounded
//! number of times with backoff.
//!
//! The merge is ours, at the level of notes trees (see [`merge`]); the network work runs through
//! the `git` binary (gix does not push), with `--no-verify` so the user's pre-push hook (and the
//! notes push it may itself run) is not started for a notes ref.

mod merge;
mod remote;

use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;
use serde::Serialize;

use crate::git::repo::Repo;
use crate::store::records;
use remote::{fetch, push, ref_id};

/// How many fetch–merge–push rounds a sync tries before it gives up on a busy remote. Each round
/// some racing writer wins; with the backoff below, 32 syncs started at the same moment all got
/// through in at most 14 rounds (issue 48), so this leaves room for slower remotes.
pub const MAX_TRIES: u32 = 40;

/// A sync also gives up once it has tried this long, however many rounds that was.
const GIVE_UP_AFTER: Duration = Duration::from_secs(120);

/// What a sync did.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The remote synced with.
    pub remote: String,
    /// The local notes ref (`refs/notes/handoff`).
    pub notes_ref: String,
    /// Where the remote's notes ref was fetched to (`refs/notes/remotes/<remote>/handoff`).
    pub tracking_ref: String,
    pub outcome: Joined,
    /// Records this repository received that it did not hold.
    pub fetched: usize,
    /// Records the remote received that it did not hold.
    pub pushed: usize,
    /// The two-parent merge commit, when both sides had records the other lacked.
    pub merge_commit: Option<String>,
    /// The local notes ref after the sync (null when neither side has records).
    pub local: Option<String>,
    /// Fetch–merge–push rounds it took (more than one when another writer won a race).
    pub tries: u32,
}

/// How the two notes refs were brought together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Joined {
    /// Both sides already held the same notes.
    UpToDate,
    /// The remote was ahead: the local ref moved to its tip; nothing was pushed.
    FastForward,
    /// The local ref was ahead (or the remote had none): it was pushed as it is.
    Pushed,
    /// Both sides had new records: a merge commit holds them all and was pushed.
    Merged,
}

/// The remote to sync with when none is named: the current branch's remote, else `origin`.
pub fn default_remote(repo: &Repo) -> Result<String> {
    let head = repo.head()?;
    if let Some(branch) = &head.branch
        && let Some(name) =
            repo.gix.branch_remote_name(branch.as_str(), gix::remote::Direction::Fetch)
    {
        let name = name.as_bstr().to_string();
        if name != "." && is_configured(repo, &name) {
            return Ok(name);
        }
    }
    if is_configured(repo, "origin") {
        return Ok("origin".into());
    }
    bail!(
        "{} has no remote `origin` and the current branch has no upstream remote; name the \
         remote to sync with (`git handoff sync <remote>`; `git remote -v` lists them)",
        repo.git_dir.display()
    )
}

fn is_configured(repo: &Repo, name: &str) -> bool {
    repo.gix.remote_names().iter().any(|r| r.to_str_lossy() == name)
}

/// Fetches `remote`'s records, merges them with the local ones and pushes the result, retrying
/// when another writer wins a race.
pub fn sync(repo: &mut Repo, notes_ref: &str, remote: &str) -> Result<Report> {
    if !is_configured(repo, remote) {
        bail!(
            "no remote named {remote:?} in {}; `git remote -v` lists the remotes, and `git remote \
             add {} <url>` adds one",
            repo.git_dir.display(),
            crate::util::shell::quote(remote)
        );
    }
    let tracking = records::tracking_ref(notes_ref, remote);
    if gix::refs::FullName::try_from(tracking.as_str()).is_err() {
        bail!(
            "the remote name {remote:?} cannot be part of a ref name ({tracking}); rename the \
             remote with `git remote rename`"
        );
    }
    records::ensure_identity(repo);
    let mut last_race = String::new();
    let started = std::time::Instant::now();
    let mut tries = 0;
    while tries < MAX_TRIES && (tries == 0 || started.elapsed() < GIVE_UP_AFTER) {
        tries += 1;
        match round(repo, notes_ref, remote, &tracking)? {
            Round::Done(mut report) => {
                report.tries = tries;
                return Ok(report);
            }
            Round::Race(why) => {
                last_race = why;
                if tries < MAX_TRIES {
                    std::thread::sleep(backoff(tries));
                }
            }
        }
    }
    bail!(
        "gave up after {tries} tries in {}s: each time another writer moved {notes_ref} first or held \
         a ref lock (the last: {last_race}); nothing was lost and the local notes are whole; run \
         `git handoff sync {}` again, and look for a stale `.lock` file if this persists",
        started.elapsed().as_secs(),
        crate::util::shell::quote(remote)
    )
}

/// One fetch–merge–push round.
enum Round {
    Done(Report),
    /// Another writer moved a ref first; try again.
    Race(String),
}

fn round(repo: &Repo, notes_ref: &str, remote: &str, tracking: &str) -> Result<Round> {
    let remote_old = match fetch(repo, remote, notes_ref, tracking)? {
        Ok(tip) => tip,
        Err(busy) => return Ok(Round::Race(busy)),
    };
    let local = ref_id(repo, notes_ref)?;
    // A tracking ref the remote no longer backs still holds records seen there: merge them too.
    let theirs = match remote_old {
        Some(id) => Some(id),
        None => ref_id(repo, tracking)?,
    };
    let (new, outcome, merge_commit) = combine(repo, notes_ref, remote, local, theirs)?;
    let fetched = merge::new_records(repo, tree_of(repo, local)?, tree_of(repo, theirs)?)?;
    let pushed = merge::new_records(repo, tree_of(repo, remote_old)?, tree_of(repo, new)?)?;
    let report = Report {
        remote: remote.to_string(),
        notes_ref: notes_ref.to_string(),
        tracking_ref: tracking.to_string(),
        outcome,
        fetched,
        pushed,
        merge_commit: merge_commit.map(|id| id.to_string()),
        local: new.map(|id| id.to_string()),
        tries: 0,
    };
    if let Some(new) = new
        && Some(new) != remote_old
    {
        if let Err(race) = push(repo, remote, notes_ref, new, remote_old)? {
            return Ok(Round::Race(race));
        }
        // Like git after a push: the remote-tracking ref shows what the remote now holds. It is
        // only a copy, so a failure here (another sync fetching) changes nothing that matters.
        let _ = repo.gix.reference(
            tracking,
            new,
            gix::refs::transaction::PreviousValue::Any,
            "git-handoff: sync (pushed)",
        );
    }
    if let Some(new) = new
        && Some(new) != local
        && let Err(race) = move_ref(repo, notes_ref, new, local)
    {
        return Ok(Round::Race(race));
    }
    Ok(Round::Done(report))
}

/// The notes ref that holds the records of both sides, how it was reached, and the merge commit
/// when one was made.
fn combine(
    repo: &Repo,
    notes_ref: &str,
    remote: &str,
    local: Option<ObjectId>,
    theirs: Option<ObjectId>,
) -> Result<(Option<ObjectId>, Joined, Option<ObjectId>)> {
    let (local_id, theirs_id) = match (local, theirs) {
        (None, None) => return Ok((None, Joined::UpToDate, None)),
        (Some(l), None) => return Ok((Some(l), Joined::Pushed, None)),
        (None, Some(t)) => return Ok((Some(t), Joined::FastForward, None)),
        (Some(l), Some(t)) if l == t => return Ok((Some(l), Joined::UpToDate, None)),
        (Some(l), Some(t)) => (l, t),
    };
    match merge_base(repo, local_id, theirs_id)? {
        Some(base) if base == theirs_id => return Ok((Some(local_id), Joined::Pushed, None)),
        Some(base) if base == local_id => {
            return Ok((Some(theirs_id), Joined::FastForward, None));
        }
        _ => {}
    }
    let ours_tree = tree_of(repo, Some(local_id))?.unwrap_or_else(|| repo.empty_tree());
    let theirs_tree = tree_of(repo, Some(theirs_id))?.unwrap_or_else(|| repo.empty_tree());
    let tree = merge::trees(repo, ours_tree, theirs_tree)?;
    let message = format!("git-handoff: merge {notes_ref} from {remote}\n");
    let commit = repo
        .gix
        .new_commit(message, tree, [local_id, theirs_id])
        .map_err(|err| anyhow!("writing the merge commit of {notes_ref}: {err}"))?;
    Ok((Some(commit.id), Joined::Merged, Some(commit.id)))
}

/// Moves the local notes ref from `old` to `new`, unless another writer moved it first.
fn move_ref(
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
    repo.gix
        .reference(notes_ref, new, expected, "git-handoff: sync")
        .map(|_| ())
        .map_err(|err| format!("{notes_ref} moved locally: {err}"))
}

/// The tree of a notes commit.
fn tree_of(repo: &Repo, commit: Option<ObjectId>) -> Result<Option<ObjectId>> {
    let Some(commit) = commit else { return Ok(None) };
    let tree = repo
        .gix
        .find_commit(commit)
        .map_err(|err| anyhow!("reading the notes commit {commit}: {err}"))?
        .tree_id()
        .map_err(|err| anyhow!("reading the tree of the notes commit {commit}: {err}"))?;
    Ok(Some(tree.detach()))
}

/// The merge base of two commits, if they share history.
fn merge_base(repo: &Repo, a: ObjectId, b: ObjectId) -> Result<Option<ObjectId>> {
    let (a, b) = (a.to_string(), b.to_string());
    let mut cmd = repo.git().command(["merge-base", a.as_str(), b.as_str()]);
    let output = crate::git::run(&mut cmd)?;
    if output.status.code() == Some(1) && output.stdout.is_empty() {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&crate::git::checked(&cmd, output)?).trim().to_string();
    ObjectId::from_hex(text.as_bytes())
        .map(Some)
        .map_err(|_| anyhow!("`git merge-base {a} {b}` printed {text:?}, not a commit id"))
}

/// Exponential backoff with full jitter: a random wait in 0–100 ms, then 0–200, 0–400 ... up to
/// 0–3.2 s, so racing syncs spread out over a growing window instead of colliding again in
/// lockstep (a fixed floor kept 32 syncs in step: 5 gave up after 10 rounds).
fn backoff(tries: u32) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let cap = 100u64 << tries.saturating_sub(1).min(5);
    let mixed = (u64::from(nanos)
        ^ u64::from(std::process::id()).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    .wrapping_mul(0x2545_F491_4F6C_DD1D)
        >> 33;
    Duration::from_millis(10 + mixed % cap)
}
