//! `notes.rewriteRef`: git has no default for it, so without it records stay on the old commits
//! after `git commit --amend` and `git rebase`. Installing adds the notes ref to the multi-valued
//! key (other values kept); uninstalling removes exactly that value again.

use anyhow::{Context, Result};
use serde::Serialize;

use crate::git::repo::Repo;
use crate::hooks::Action;

pub const KEY: &str = "notes.rewriteRef";

/// `notes.rewriteRef` and what installing or uninstalling did (or would do) to it.
#[derive(Debug, Clone, Serialize)]
pub struct RewriteRef {
    pub key: &'static str,
    pub value: String,
    pub action: Action,
}

/// The values of `notes.rewriteRef` in every config git reads.
fn values(repo: &Repo) -> Result<Vec<String>> {
    let mut cmd = repo.git().command(["config", "--get-all", KEY]);
    let output = crate::git::run(&mut cmd)?;
    match output.status.code() {
        Some(0) => {
            Ok(String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect())
        }
        Some(1) => Ok(Vec::new()), // not set
        _ => {
            crate::git::checked(&cmd, output)?;
            Ok(Vec::new())
        }
    }
}

/// True when a value (or a glob such as `refs/notes/*`) covers `notes_ref`.
pub fn covers(repo: &Repo, notes_ref: &str) -> Result<bool> {
    Ok(values(repo)?.iter().map(|v| v.trim()).any(|value| match value.strip_suffix('*') {
        Some(prefix) => notes_ref.starts_with(prefix),
        None => value == notes_ref,
    }))
}

/// Adds `notes_ref` to `notes.rewriteRef` unless a value covers it; `dry_run` only tells.
pub fn add(repo: &Repo, notes_ref: &str, dry_run: bool) -> Result<RewriteRef> {
    let action = if covers(repo, notes_ref)? {
        Action::Unchanged
    } else {
        if !dry_run {
            repo.git().output(["config", "--add", KEY, notes_ref]).with_context(|| {
                format!(
                    "adding {notes_ref} to {KEY}; set it by hand: `git config --add {KEY} {}`",
                    crate::util::shell::quote(notes_ref)
                )
            })?;
        }
        Action::Added
    };
    Ok(RewriteRef { key: KEY, value: notes_ref.to_string(), action })
}

/// Removes the value `notes_ref` from the repository's own `notes.rewriteRef`, keeping the others.
pub fn remove(repo: &Repo, notes_ref: &str, dry_run: bool) -> Result<RewriteRef> {
    let mut cmd = repo.git().command(["config", "--local", "--get-all", KEY]);
    let output = crate::git::run(&mut cmd)?;
    let local = String::from_utf8_lossy(&output.stdout).into_owned();
    let action = if !local.lines().any(|v| v.trim() == notes_ref) {
        Action::NotInstalled
    } else {
        if !dry_run {
            repo.git()
                .output(["config", "--local", "--fixed-value", "--unset-all", KEY, notes_ref])
                .with_context(|| {
                    format!(
                        "removing {notes_ref} from {KEY}; remove it by hand: git config \
                         --fixed-value --unset-all {KEY} {notes_ref}"
                    )
                })?;
        }
        Action::Removed
    };
    Ok(RewriteRef { key: KEY, value: notes_ref.to_string(), action })
}
