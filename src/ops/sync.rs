//! Sync: handoff records across machines over git remotes.
//!
//! git does not push or fetch notes refs by default, and two machines that both wrote records have
//! diverged notes refs that git cannot fast-forward. Many clones pushing one ref contend for it:
//! each push that loses the race is fetched, merged and pushed again, and the work grows with the
//! square of the writers. So each clone pushes its records to a ref of its own on the remote,
//! `refs/handoff/writers/<writer>` ([`writers`]), which no other clone writes: a sync fetches the
//! remote's notes ref and every writer's ref in one `git fetch`
//! (`refs/notes/remotes/<remote>/handoff`, `refs/handoff/remotes/<remote>/writers/*`), merges what
//! moved into the local notes ref so that no record of any side is lost, pushes the result to its
//! own ref with a lease on its old value, and only then moves the local ref (a compare-and-swap):
//! when the push fails, the local notes stay as they were. `sync --compact` folds every writer's
//! ref into the remote's notes ref and removes them, in one atomic push ([`compact`]).
//!
//! The merge is ours, at the level of notes trees (see [`merge`]); the network work runs through
//! the `git` binary (gix does not push), with `--no-verify` so the user's pre-push hook (and the
//! notes push it may itself run) is not started for a notes ref.

mod compact;
mod merge;
mod remote;
mod round;
mod writers;

use std::time::Duration;

use anyhow::{Result, bail};
use gix::bstr::ByteSlice;

use crate::git::repo::Repo;
use crate::store::records;
use remote::Lost;
pub use round::{Joined, Report};
use round::{Names, Round};

/// How many rounds a sync tries before it gives up. A round is lost only when another process of
/// this clone (a worktree's sync) or a compaction moved the same ref first, or the remote refused.
pub const MAX_TRIES: u32 = 40;

/// How many times a push the remote refused (a hook, a forge under load) is tried again before
/// the sync reports the refusal.
const REFUSALS_RETRIED: u32 = 1;

/// How many times a remote that did not answer (a busy server drops connections) is tried again
/// before the sync reports it.
const SILENCES_RETRIED: u32 = 3;

/// A sync also gives up once it has tried this long, however many rounds that was.
const GIVE_UP_AFTER: Duration = Duration::from_secs(120);

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

/// Fetches `remote`'s records, merges them with the local ones and pushes the result to this
/// clone's writer ref, retrying when a push is rejected; with `compact`, then folds every writer's
/// ref into the remote's notes ref.
pub fn sync(repo: &mut Repo, notes_ref: &str, remote: &str, compact: bool) -> Result<Report> {
    if !is_configured(repo, remote) {
        bail!(
            "no remote named {remote:?} in {}; `git remote -v` lists the remotes, and `git remote \
             add {} <url>` adds one",
            repo.git_dir.display(),
            crate::util::shell::quote(remote)
        );
    }
    let tracking = records::tracking_ref(notes_ref, remote);
    let writers_tracking = writers::tracking_prefix(notes_ref, remote);
    for name in [&tracking, &writers_tracking] {
        if gix::refs::FullName::try_from(format!("{name}x").as_str()).is_err() {
            bail!(
                "the remote name {remote:?} cannot be part of a ref name ({name}); rename the \
                 remote with `git remote rename`"
            );
        }
    }
    records::ensure_identity(repo);
    let writer = writers::writer(repo)?;
    let names = Names {
        notes_ref: notes_ref.to_owned(),
        remote: remote.to_owned(),
        tracking,
        writer_ref: format!("{}{writer}", writers::remote_prefix(notes_ref)),
        writer_tracking: format!("{writers_tracking}{writer}"),
        writers_tracking,
    };
    let quoted = crate::util::shell::quote(remote);
    let mut last_race = String::new();
    let started = std::time::Instant::now();
    let (mut tries, mut rejected, mut refusals, mut silences) = (0, 0, 0, 0);
    while tries < MAX_TRIES && (tries == 0 || started.elapsed() < GIVE_UP_AFTER) {
        tries += 1;
        let lost = match round::round(repo, &names, !compact)? {
            Round::Done(mut report, fetched) => {
                let folded =
                    if compact { Some(compact::fold(repo, &names, &fetched)?) } else { None };
                match folded {
                    Some(Err(lost)) => {
                        rejected += 1;
                        Err(lost)
                    }
                    Some(Ok(count)) => {
                        report.compacted = Some(count);
                        Ok(report)
                    }
                    None => Ok(report),
                }
            }
            Round::Local(why) => Err(Lost::Race(why)),
            Round::Rejected(Lost::Unreachable(why)) => Err(Lost::Unreachable(why)),
            Round::Rejected(lost) => {
                rejected += 1;
                Err(lost)
            }
        };
        match lost {
            Ok(mut report) => {
                report.tries = tries;
                report.rejected = rejected;
                return Ok(*report);
            }
            Err(Lost::Race(why)) => last_race = why,
            Err(Lost::Unreachable(why)) => {
                silences += 1;
                if silences > SILENCES_RETRIED {
                    bail!("{why}");
                }
                last_race = why;
            }
            Err(Lost::Refused(why)) => {
                refusals += 1;
                if refusals > REFUSALS_RETRIED {
                    bail!(
                        "the remote {remote} ({}) refused the push of {} after {tries} tries: \
                         {why}; nothing was lost: the local notes ref is unchanged and holds \
                         every record, and the remote keeps what it had; look at the remote's \
                         hooks or rules for refs/handoff/* and {notes_ref}, then run `git \
                         handoff sync {quoted}` again",
                        remote::url_of(repo, remote),
                        if compact { "the compacted notes" } else { names.writer_ref.as_str() },
                    );
                }
                last_race = why;
            }
        }
        if tries < MAX_TRIES {
            std::thread::sleep(backoff(tries));
        }
    }
    bail!(
        "gave up after {tries} tries in {}s: each time another process moved a ref first or held \
         a ref lock (the last: {last_race}); nothing was lost and the local notes are whole; run \
         `git handoff sync {quoted}` again, and look for a stale `.lock` file if this persists",
        started.elapsed().as_secs(),
    )
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
