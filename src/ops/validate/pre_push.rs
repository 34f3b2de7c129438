//! Pre-push mode: which commits a push would add.

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::git::repo::Repo;

use super::report::Range;

/// The range a push adds, from git's pre-push stdin (`<local ref> <local oid> <remote ref>
/// <remote oid>` lines). Deletions add nothing; a new branch (all-zero remote oid) adds what
/// no remote-tracking ref of `remote` already has.
pub fn range_from_stdin(repo: &Repo, remote: Option<&str>, stdin: &str) -> Result<Range> {
    let mut range = Range::default();
    for (n, line) in stdin.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let [_, local, _, remote_oid] = words[..] else {
            bail!(
                "pre-push input line {}: {line:?} is not `<local ref> <local oid> <remote ref> \
                 <remote oid>`; run this as git's pre-push hook (`git handoff hooks install \
                 --pre-push`)",
                n + 1
            );
        };
        let local = oid(local, n + 1)?;
        let remote_oid = oid(remote_oid, n + 1)?;
        // A deletion adds nothing; a pushed tag of a tree or blob adds no commits.
        let Some(local) = repo.commit_of(local) else { continue };
        range.include.push(local);
        if let Some(remote) = repo.commit_of(remote_oid) {
            range.exclude.push(remote);
        }
    }
    exclude_remote(repo, remote, &mut range);
    Ok(range)
}

/// The range from the pre-commit framework's `PRE_COMMIT_FROM_REF`/`PRE_COMMIT_TO_REF`, when
/// `PRE_COMMIT_TO_REF` is set.
pub fn range_from_env(
    repo: &Repo,
    remote: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<Option<Range>> {
    let Some(to) = to.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
    let mut range = Range::default();
    if is_all_zeros(to) {
        return Ok(Some(range));
    }
    range.include.push(repo.resolve_commit(to).context("PRE_COMMIT_TO_REF")?);
    if let Some(from) = from.map(str::trim).filter(|f| !f.is_empty() && !is_all_zeros(f))
        && let Ok(id) = repo.resolve_commit(from)
    {
        range.exclude.push(id);
    }
    exclude_remote(repo, remote, &mut range);
    Ok(Some(range))
}

/// The range of a push the pre-commit framework describes without FROM/TO: a first push (the
/// remote has no ref yet, the root commit is included). pre-commit then passes only the local
/// branch, and its hooks get an empty stdin; what the push adds is the local branch less what
/// `remote` already has (`<local> --not --remotes=<remote>`), as the plain hook computes it.
pub fn range_from_local_branch(repo: &Repo, remote: Option<&str>, local: &str) -> Result<Range> {
    let local = local.trim();
    let id = repo.resolve_commit(local).with_context(|| {
        format!(
            "PRE_COMMIT_LOCAL_BRANCH names {local:?}, which is not a commit here; run this \
             from the pre-commit framework's pre-push stage"
        )
    })?;
    let mut range = Range { include: vec![id], ..Range::default() };
    exclude_remote(repo, remote, &mut range);
    Ok(range)
}

fn exclude_remote(repo: &Repo, remote: Option<&str>, range: &mut Range) {
    if range.include.is_empty() {
        return;
    }
    // Only a configured remote has remote-tracking refs; a URL would be read as a pattern.
    // A push to a URL or a remote never fetched adds what that remote lacks, which may be all
    // history: that is what the push sends, so that is what is checked.
    if let Some(name) = remote
        && repo.gix().remote_names().iter().any(|r| r.to_str_lossy() == name)
    {
        range.exclude_remotes.push(name.to_string());
    }
}

fn oid(text: &str, line: usize) -> Result<ObjectId> {
    if is_all_zeros(text) {
        return Ok(ObjectId::null(gix::hash::Kind::Sha1));
    }
    ObjectId::from_hex(text.as_bytes())
        .map_err(|_| anyhow!("pre-push input line {line}: {text:?} is not an object id"))
}

/// All-zero object ids mean "none", in SHA-1 (40) or SHA-256 (64) repositories alike.
pub fn is_all_zeros(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b == b'0')
}
