//! Sync: handoff records across machines over git remotes.
//!
//! git does not push or fetch notes refs by default, and two machines that both wrote records have
//! diverged notes refs that git cannot fast-forward. Many clones pushing one ref contend for it:
//! each push that loses the race is fetched, merged and pushed again, and the work grows with the
//! square of the writers. So each clone pushes its records to a ref of its own on the remote,
//! `refs/handoff/writers/<writer>` ([`writers`]), which no other clone writes: a sync fetches the
//! remote's notes ref and every writer's ref in one `git fetch`
//! (`refs/notes/remotes/<remote>/handoff`, `refs/handoff/remotes/<remote>/writers/*`), merges what
//! moved into the local notes ref so that no record of any side is lost, pushes to its own ref
//! (with a lease on its old value) a commit on that ref's last one that adds what the remote
//! lacked, and only then moves the local ref (a compare-and-swap): when the push fails, the local
//! notes stay as they were. A writer's ref holds only the records its clone brought, never those
//! it fetched, so a fetch of every writer's ref costs what the records do, not the writers times
//! the records. `sync --compact` folds every writer's
//! ref into the remote's notes ref and removes them, in one atomic push ([`compact`]).
//!
//! The merge is ours, at the level of notes trees (see [`merge`]); the network work runs through
//! the `git` binary (gix does not push), with `--no-verify` so the user's pre-push hook (and the
//! notes push it may itself run) is not started for a notes ref.

mod compact;
mod link;
mod merge;
mod remote;
mod round;
mod writers;

use std::time::Duration;

use anyhow::{Result, anyhow};
use gix::bstr::ByteSlice;

use crate::git::repo::Repo;
use crate::store::records;
use crate::util::error::{Kind, hinted};
use remote::Lost;
pub use round::{Joined, Report};
use round::{Names, Round};

/// How many rounds a sync tries before it gives up. A round is lost only when another process of
/// this clone (a worktree's sync) or a compaction moved the same ref first, or the remote refused.
pub const MAX_TRIES: u32 = 40;

/// How many times a push the remote refused (a hook, a forge under load) is tried again before
/// the sync reports the refusal.
const REFUSALS_RETRIED: u32 = 1;

/// A sync also gives up once it has tried this long, however many rounds that was.
const GIVE_UP_AFTER: Duration = Duration::from_secs(120);

/// The remote to sync with when none is named: the current branch's remote, else `origin`.
pub fn default_remote(repo: &Repo) -> Result<String> {
    let head = repo.head()?;
    if let Some(branch) = &head.branch
        && let Some(name) =
            repo.gix().branch_remote_name(branch.as_str(), gix::remote::Direction::Fetch)
    {
        let name = name.as_bstr().to_string();
        if name != "." && is_configured(repo, &name) {
            return Ok(name);
        }
    }
    if is_configured(repo, "origin") {
        return Ok("origin".into());
    }
    Err(hinted(
        Kind::Repository,
        "name the remote to sync with (`git handoff sync <remote>`; `git remote -v` lists them), \
         or add one with `git remote add origin <url>`",
        anyhow!(
            "{} has no remote `origin` and the current branch has no upstream remote",
            repo.git_dir.display()
        ),
    ))
}

fn is_configured(repo: &Repo, name: &str) -> bool {
    repo.gix().remote_names().iter().any(|r| r.to_str_lossy() == name)
}

/// Fetches `remote`'s records, merges them with the local ones and pushes what the remote lacked to
/// this clone's writer ref, retrying when a push is rejected; with `compact`, then folds every writer's
/// ref into the remote's notes ref.
pub fn sync(repo: &mut Repo, notes_ref: &str, remote: &str, compact: bool) -> Result<Report> {
    let names = names(repo, notes_ref, remote)?;
    let quoted = crate::util::shell::quote(remote);
    let mut link = link::Link::new(repo, remote);
    let mut last_race = String::new();
    let started = std::time::Instant::now();
    let (mut tries, mut rejected, mut refusals) = (0, 0, 0);
    while tries < MAX_TRIES && (tries == 0 || started.elapsed() < GIVE_UP_AFTER) {
        tries += 1;
        let lost = one_round(repo, &mut link, &names, compact)?;
        // A push the remote answered with a no: a lost race on a ref, or a refusal.
        if let Err((Lost::Race(_) | Lost::Refused(_), true)) = &lost {
            rejected += 1;
        }
        match lost.map_err(|(lost, _)| lost) {
            Ok(mut report) => {
                report.tries = tries;
                report.reconnects = link.reconnects;
                report.rejected = rejected;
                return Ok(*report);
            }
            Err(Lost::Race(why)) => last_race = why,
            // The link asked again already, as often as a busy server needs.
            Err(Lost::Unreachable(why)) => {
                let hint = format!(
                    "check the remote's URL (`git remote get-url {quoted}`), the network and your \
                     access (`git ls-remote {quoted}` shows what git says), then run `git handoff \
                     sync {quoted}` again"
                );
                return Err(hinted(Kind::Git, hint, anyhow!("{why}")));
            }
            Err(Lost::Refused(why)) => {
                refusals += 1;
                if refusals > REFUSALS_RETRIED {
                    return Err(refused(repo, &names, compact, tries, &why));
                }
                last_race = why;
            }
        }
        if tries < MAX_TRIES {
            std::thread::sleep(backoff(tries));
        }
    }
    Err(hinted(
        Kind::Git,
        format!(
            "run `git handoff sync {quoted}` again; if this persists, look for a stale `.lock` \
             file under the git directory's refs/"
        ),
        anyhow!(
            "gave up after {tries} tries in {}s: each time another process moved a ref first or \
             held a ref lock (the last: {last_race}); nothing was lost and the local notes are \
             whole",
            started.elapsed().as_secs(),
        ),
    ))
}
/// One round, and with `compact` the fold after it: the report, or what was lost and whether it
/// was a push the remote answered with a no.
fn one_round(
    repo: &Repo,
    link: &mut link::Link,
    names: &Names,
    compact: bool,
) -> Result<std::result::Result<Box<Report>, (Lost, bool)>> {
    Ok(match round::round(repo, link, names, !compact)? {
        Round::Done(mut report, fetched) if compact => {
            match compact::fold(repo, link, names, &fetched)? {
                Err(lost) => Err((lost, true)),
                Ok(count) => {
                    report.compacted = Some(count);
                    Ok(report)
                }
            }
        }
        Round::Done(report, _) => Ok(report),
        Round::Local(why) => Err((Lost::Race(why), false)),
        Round::Rejected(lost) => Err((lost, true)),
    })
}

/// The names a sync of `notes_ref` with `remote` reads and writes; an error when the remote is not
/// configured or its name cannot be part of a ref name.
fn names(repo: &mut Repo, notes_ref: &str, remote: &str) -> Result<Names> {
    let quoted = crate::util::shell::quote(remote);
    if !is_configured(repo, remote) {
        return Err(hinted(
            Kind::Usage,
            format!(
                "`git remote -v` lists the remotes, and `git remote add {quoted} <url>` adds one"
            ),
            anyhow!("no remote named {remote:?} in {}", repo.git_dir.display()),
        ));
    }
    let tracking = records::tracking_ref(notes_ref, remote);
    let writers_tracking = writers::tracking_prefix(notes_ref, remote);
    for name in [&tracking, &writers_tracking] {
        if gix::refs::FullName::try_from(format!("{name}x").as_str()).is_err() {
            return Err(hinted(
                Kind::Usage,
                format!("rename the remote with `git remote rename {quoted} <new-name>`"),
                anyhow!("the remote name {remote:?} cannot be part of a ref name ({name})"),
            ));
        }
    }
    records::ensure_identity(repo);
    let writer = writers::writer(repo).map_err(|err| {
        let hint = "set it with `git config handoff.writer <name>`, or unset it for a random one";
        hinted(Kind::Config, hint, err)
    })?;
    Ok(Names {
        notes_ref: notes_ref.to_owned(),
        remote: remote.to_owned(),
        tracking,
        writer_ref: format!("{}{writer}", writers::remote_prefix(notes_ref)),
        writer_tracking: format!("{writers_tracking}{writer}"),
        writers_tracking,
    })
}

/// The error of a push the remote refused every time it was tried.
fn refused(repo: &Repo, names: &Names, compact: bool, tries: u32, why: &str) -> anyhow::Error {
    let remote = &names.remote;
    let quoted = crate::util::shell::quote(remote);
    hinted(
        Kind::Git,
        format!(
            "look at the remote's hooks or rules for refs/handoff/* and {}, then run `git handoff \
             sync {quoted}` again",
            names.notes_ref
        ),
        anyhow!(
            "the remote {remote} ({}) refused the push of {} after {tries} tries: {why}; nothing \
             was lost: the local notes ref is unchanged and holds every record, and the remote \
             keeps what it had",
            remote::url_of(repo, remote),
            if compact { "the compacted notes" } else { names.writer_ref.as_str() },
        ),
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
