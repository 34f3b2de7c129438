//! The network half of a sync, through the `git` binary (gix does not push): one fetch of the
//! remote's notes ref and every writer's ref into their tracking refs, and pushes with a lease on
//! each ref's old value, telling a lost race from a refusal in what git says.

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;

use super::link::{Attempt, Link, Purpose};
use crate::git::repo::Repo;

/// Fetches, in one `git fetch` (one connection; protocol v2 asks only for refs under these
/// prefixes), every ref of `refspecs` (`+<src>:<dst>`, globs). A glob that matches nothing is no
/// error, so a remote without records fetches nothing; `--prune` drops the tracking refs of
/// writer refs a compaction removed. A connection the server dropped is made again ([`Link`]).
/// `Ok(Err(Lost::Race))` is a fetch that failed though the remote answered (another process held
/// a tracking ref's lock); `Ok(Err(Lost::Unreachable))` one whose remote did not answer, however
/// often it was asked (a wrong URL never answers).
pub fn fetch(
    repo: &Repo,
    link: &mut Link,
    remote: &str,
    refspecs: &[String],
) -> Result<std::result::Result<(), Lost>> {
    let mut args = vec![
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--recurse-submodules=no",
        "--prune",
        "--end-of-options",
        remote,
    ];
    args.extend(refspecs.iter().map(String::as_str));
    let output = loop {
        match link.connect(&mut fetcher(repo).command(&args), Purpose::Fetch)? {
            Attempt::Answered(output) => break output,
            Attempt::Dropped(output) if link.wait_to_reconnect(&output) => continue,
            Attempt::Dropped(output) => {
                return Ok(Err(Lost::Unreachable(format!(
                    "could not fetch the handoff records from {remote} ({}){}: {}; the local \
                     notes are unchanged",
                    url_of(repo, remote),
                    asked(link.reconnects),
                    one_line(&String::from_utf8_lossy(&output.stderr)),
                ))));
            }
        }
    };
    if output.status.success() {
        return Ok(Ok(()));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    Ok(Err(Lost::Race(format!("fetching from {remote}: {}", one_line(&stderr)))))
}

/// git for a sync's fetch: without the automatic maintenance a fetch starts when it ends (one more
/// process, and a `gc` in the middle of a fleet's syncs when it finds work), which the next `git
/// commit` or `git fetch` of the user's own still runs; on the command line, the user's config is
/// left alone.
fn fetcher(repo: &Repo) -> crate::git::Git {
    repo.git().with_config("maintenance.auto=false")
}

/// How many times the remote was asked, for a message: empty for once.
fn asked(reconnects: u32) -> String {
    match reconnects {
        0 => String::new(),
        n => format!(", asked {} times", n + 1),
    }
}

/// One ref to push: `new` (`None` deletes it) to `dst`, with a lease on `old` (`None`: the ref
/// must not exist).
pub struct Update {
    pub dst: String,
    pub new: Option<ObjectId>,
    pub old: Option<ObjectId>,
}

/// Why a push did not land.
#[derive(Debug, Clone)]
pub enum Lost {
    /// Another writer moved a ref first (or held its lock): fetch again and retry.
    Race(String),
    /// The remote refused (a hook, a protection rule, a full disk): its words, for the user.
    Refused(String),
    /// The remote did not answer: the whole message for the user, should it stay silent.
    Unreachable(String),
}

/// Pushes `updates` in one `git push`, all or none with `atomic`. `Ok(Err(lost))` is a lost race
/// or a refusal (nothing of an atomic push landed); `Err` is a remote that cannot be reached.
pub fn push(
    repo: &Repo,
    link: &mut Link,
    remote: &str,
    updates: &[Update],
    atomic: bool,
) -> Result<std::result::Result<(), Lost>> {
    let mut args: Vec<String> = [
        "push",
        "--porcelain",
        "--no-verify",
        "--recurse-submodules=no",
        "--no-follow-tags",
        "--no-signed",
    ]
    .map(String::from)
    .to_vec();
    if atomic {
        args.push("--atomic".into());
    }
    for update in updates {
        let old = update.old.map(|id| id.to_string()).unwrap_or_default();
        args.push(format!("--force-with-lease={}:{old}", update.dst));
    }
    args.push("--end-of-options".into());
    args.push(remote.into());
    for update in updates {
        let src = update.new.map(|id| id.to_string()).unwrap_or_default();
        args.push(format!("{src}:{}", update.dst));
    }
    // A push the server dropped is made again as it was: had it landed, the ref now holds `new`,
    // and git finds it up to date before it checks the lease.
    let output = loop {
        match link.connect(&mut repo.git().command(&args), Purpose::Push)? {
            Attempt::Answered(output) => break output,
            Attempt::Dropped(output) if has_refusal(&output) => break output,
            Attempt::Dropped(output) if link.wait_to_reconnect(&output) => continue,
            Attempt::Dropped(output) => {
                return Ok(Err(Lost::Unreachable(format!(
                    "could not push the handoff records to {remote} ({}){}: {}; the local notes \
                     are unchanged",
                    url_of(repo, remote),
                    asked(link.reconnects),
                    one_line(&String::from_utf8_lossy(&output.stderr)),
                ))));
            }
        }
    };
    if output.status.success() {
        return Ok(Ok(()));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // `--porcelain` prints `!<TAB><from>:<to><TAB>[rejected] (<why>)` for a refused ref; an atomic
    // push names the others `(atomic push failed)`.
    let refused: Vec<String> = stdout
        .lines()
        .filter(|l| l.starts_with('!'))
        .map(|l| l.split('\t').nth(2).unwrap_or(l).to_string())
        .filter(|why| !why.contains("atomic push failed"))
        .collect();
    let said = remote_said(&stderr);
    if let Some(why) = refused.iter().find(|why| is_race(why)) {
        return Ok(Err(Lost::Race(why.clone())));
    }
    if let Some(why) = refused.first() {
        let why = if said.is_empty() { why.clone() } else { format!("{why}: {said}") };
        return Ok(Err(Lost::Refused(why)));
    }
    Ok(Err(Lost::Unreachable(format!(
        "could not push the handoff records to {remote} ({}): {}; the local notes are unchanged",
        url_of(repo, remote),
        one_line(&stderr)
    ))))
}

/// True when `--porcelain` names a ref the remote refused: the server answered.
fn has_refusal(output: &std::process::Output) -> bool {
    output.stdout.split(|b| *b == b'\n').any(|line| line.starts_with(b"!"))
}

/// True for refusals that mean another writer moved the remote ref first.
fn is_race(why: &str) -> bool {
    let why = why.to_ascii_lowercase();
    [
        "stale info",
        "fetch first",
        "non-fast-forward",
        "failed to update ref",
        "cannot lock",
        "failed to lock",
        "incorrect old value",
    ]
    .iter()
    .any(|word| why.contains(word))
}

/// What the remote's hooks printed (`remote: ...` lines), on one line.
fn remote_said(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("remote:"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" / ")
}

/// The commit a ref points at, if the ref exists.
pub fn ref_id(repo: &Repo, name: &str) -> Result<Option<ObjectId>> {
    let found = repo.gix().try_find_reference(name).with_context(|| format!("reading {name}"))?;
    let Some(mut reference) = found else { return Ok(None) };
    let id = reference.peel_to_id().map_err(|err| anyhow!("reading {name}: {err}"))?;
    Ok(Some(id.detach()))
}

/// Every ref under `prefix` (ending in `/`) and the commit it points at, by full name.
pub fn refs_under(repo: &Repo, prefix: &str) -> Result<Vec<(String, ObjectId)>> {
    let platform = repo.gix().references().with_context(|| format!("listing {prefix}*"))?;
    let mut out = Vec::new();
    for reference in platform.prefixed(prefix).with_context(|| format!("listing {prefix}*"))? {
        // A broken ref is git's to report; the sync reads the others.
        let Ok(mut reference) = reference else { continue };
        let name = reference.name().as_bstr().to_string();
        if let Ok(id) = reference.peel_to_id() {
            out.push((name, id.detach()));
        }
    }
    Ok(out)
}

pub fn url_of(repo: &Repo, remote: &str) -> String {
    repo.git().text(["remote", "get-url", "--", remote]).unwrap_or_else(|_| "no URL".into())
}

/// git's message on one line, without its `fatal:`/`error:` prefixes.
fn one_line(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim())
        .map(|l| l.strip_prefix("fatal: ").or_else(|| l.strip_prefix("error: ")).unwrap_or(l))
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() { "git gave no reason".into() } else { lines.join(" / ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn races_are_told_from_refusals() {
        assert!(is_race("[rejected] (stale info)"));
        assert!(is_race("[rejected] (fetch first)"));
        assert!(is_race("[remote rejected] (failed to update ref)"));
        assert!(!is_race("[remote rejected] (pre-receive hook declined)"));
    }

    #[test]
    fn git_messages_fold_to_one_line() {
        assert_eq!(
            one_line(
                "fatal: 'nowhere' does not appear to be a git repository\nfatal: Could not read\n"
            ),
            "'nowhere' does not appear to be a git repository / Could not read"
        );
        assert_eq!(one_line("\n"), "git gave no reason");
        assert_eq!(remote_said("remote: busy, try later\nremote: \nTo x\n"), "busy, try later");
    }
}
