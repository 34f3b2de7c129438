//! The network half of a sync, through the `git` binary (gix does not push): fetching the
//! remote's notes ref into its tracking ref, pushing with a lease on the remote's old value, and
//! telling a lost race from a refusal in what git says.

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;

use crate::git::repo::Repo;

/// Fetches the remote's notes ref into `tracking`; returns its value there, or `None` when the
/// remote has no such ref (not an error: nobody pushed records there yet). `Ok(Err(why))` is a
/// fetch that failed though the remote answered: another process held the tracking ref's lock.
pub fn fetch(
    repo: &Repo,
    remote: &str,
    notes_ref: &str,
    tracking: &str,
) -> Result<std::result::Result<Option<ObjectId>, String>> {
    let refspec = format!("+{notes_ref}:{tracking}");
    let mut cmd = repo.git().command([
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--recurse-submodules=no",
        "--end-of-options",
        remote,
        refspec.as_str(),
    ]);
    let output = crate::git::run(&mut cmd)?;
    if output.status.success() {
        return ref_id(repo, tracking).map(Ok);
    }
    // Tell "the remote has no notes yet" from a failure, without reading git's (translated) words.
    let mut probe =
        repo.git().command(["ls-remote", "--exit-code", "--end-of-options", remote, notes_ref]);
    let probed = crate::git::run(&mut probe)?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    match probed.status.code() {
        Some(2) => return Ok(Ok(None)),
        Some(0) => return Ok(Err(format!("fetching into {tracking}: {}", one_line(&stderr)))),
        _ => {}
    }
    bail!(
        "could not fetch {notes_ref} from {remote} ({}): {}; check the remote's URL \
         (`git remote get-url {quoted}`), the network and your access, then run the sync \
         again; the local notes are unchanged",
        url_of(repo, remote),
        one_line(&stderr),
        quoted = crate::util::shell::quote(remote),
    )
}

/// Pushes `new` to the remote's notes ref with a lease on `old` (the value that was merged).
/// `Ok(Err(why))` is a lost race; `Err` is a failure that trying again will not mend.
pub fn push(
    repo: &Repo,
    remote: &str,
    notes_ref: &str,
    new: ObjectId,
    old: Option<ObjectId>,
) -> Result<std::result::Result<(), String>> {
    let lease = format!(
        "--force-with-lease={notes_ref}:{}",
        old.map(|id| id.to_string()).unwrap_or_default()
    );
    let refspec = format!("{new}:{notes_ref}");
    let mut cmd = repo.git().command([
        "push",
        "--porcelain",
        "--no-verify",
        "--recurse-submodules=no",
        "--no-follow-tags",
        "--no-signed",
        lease.as_str(),
        "--end-of-options",
        remote,
        refspec.as_str(),
    ]);
    let output = crate::git::run(&mut cmd)?;
    if output.status.success() {
        return Ok(Ok(()));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // `--porcelain` prints `!<TAB><from>:<to><TAB>[rejected] (<why>)` for a refused ref.
    let refused = stdout
        .lines()
        .find(|l| l.starts_with('!'))
        .map(|l| l.split('\t').nth(2).unwrap_or(l).to_string());
    if let Some(why) = &refused
        && is_race(why)
    {
        return Ok(Err(why.clone()));
    }
    let hint = match &refused {
        Some(_) if !stderr.trim().is_empty() => format!(" ({})", one_line(&stderr)),
        _ => String::new(),
    };
    let why = refused.unwrap_or_else(|| one_line(&stderr));
    bail!(
        "could not push {notes_ref} to {remote} ({}): {why}{hint}; the remote refused or could \
         not be reached, the local notes are unchanged; check your access to the remote and its \
         hooks, then run the sync again",
        url_of(repo, remote)
    )
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
    ]
    .iter()
    .any(|word| why.contains(word))
}

/// The commit a ref points at, if the ref exists.
pub fn ref_id(repo: &Repo, name: &str) -> Result<Option<ObjectId>> {
    let found = repo.gix.try_find_reference(name).with_context(|| format!("reading {name}"))?;
    let Some(mut reference) = found else { return Ok(None) };
    let id = reference.peel_to_id().map_err(|err| anyhow!("reading {name}: {err}"))?;
    Ok(Some(id.detach()))
}

fn url_of(repo: &Repo, remote: &str) -> String {
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
    }
}
