//! Committing one file alone on top of HEAD: the note commit.
//!
//! The note commit must hold the note and nothing else, whatever else the agent left staged, and
//! it must not run commit hooks (a failing pre-commit hook must not cost the handoff). So it is
//! built from plumbing on a private index: HEAD's tree plus the note's blob (hashed by git from the
//! work-tree file, so clean filters and eol attributes apply), `commit-tree`, then `update-ref`
//! with a compare-and-swap on the old HEAD. The real index only gets the note's entry, so other
//! staged work stays staged for the seal.

use anyhow::{Context, Result, bail};
use gix::ObjectId;

use crate::git::Git;
use crate::repo::Repo;

/// The identity used when git has none configured (also for seal commits).
pub const FALLBACK_NAME: &str = "git-handoff";
pub const FALLBACK_EMAIL: &str = "git-handoff@localhost";

/// Environment that gives `commit-tree` an identity when git has none: the caller's
/// `GIT_AUTHOR_*`/`GIT_COMMITTER_*` and the repository's `user.*` win when present.
pub fn identity_env(git: &Git) -> Vec<(&'static str, &'static str)> {
    let mut env = Vec::new();
    for (var, name, email) in [
        ("GIT_AUTHOR_IDENT", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"),
        ("GIT_COMMITTER_IDENT", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"),
    ] {
        let ok = git.command(["var", var]).output().map(|o| o.status.success()).unwrap_or(false);
        if !ok {
            env.push((name, FALLBACK_NAME));
            env.push((email, FALLBACK_EMAIL));
        }
    }
    env
}

/// Writes `content` to `rel` in the work tree and commits that file alone on top of HEAD with
/// `message`. Returns the new commit.
pub fn commit_file(repo: &Repo, rel: &str, content: &[u8], message: &str) -> Result<ObjectId> {
    let top = repo.top()?;
    let git = repo.git();
    let old = repo.head()?.id;
    crate::attempt::write_atomic(&top.join(rel), content)?;

    let blob = git.text(["hash-object", "-w", "--", rel])?;
    let cacheinfo = format!("100644,{blob},{rel}");
    let tmp = tempfile::Builder::new()
        .prefix("handoff-note-index")
        .tempfile_in(&repo.git_dir)
        .context("creating a private index in the git dir")?;
    let tmp_path = tmp.path().to_path_buf();
    let with_index = |args: &[&str]| -> Result<String> {
        let mut cmd = git.command(args);
        cmd.env("GIT_INDEX_FILE", &tmp_path);
        let out = crate::git::run(&mut cmd)?;
        let stdout = crate::git::checked(&cmd, out)?;
        Ok(String::from_utf8_lossy(&stdout).trim().to_string())
    };
    match old {
        Some(head) => with_index(&["read-tree", &head.to_string()])?,
        None => with_index(&["read-tree", "--empty"])?,
    };
    with_index(&["update-index", "--add", "--cacheinfo", &cacheinfo])?;
    let tree = with_index(&["write-tree"])?;

    let mut args = vec!["commit-tree".to_string(), "--no-gpg-sign".into(), tree, "-m".into()];
    args.push(message.to_string());
    if let Some(head) = old {
        args.push("-p".into());
        args.push(head.to_string());
    }
    let mut cmd = git.command(&args);
    cmd.envs(identity_env(&git));
    let out = crate::git::run(&mut cmd)?;
    let commit = String::from_utf8_lossy(&crate::git::checked(&cmd, out)?).trim().to_string();
    let commit_id = ObjectId::from_hex(commit.as_bytes())
        .with_context(|| format!("git commit-tree printed {commit:?}"))?;

    // The real index learns the note first: if that fails (index.lock held), nothing has moved.
    git.output(["update-index", "--add", "--cacheinfo", &cacheinfo]).context(
        "updating the index with the note (is another git process running? wait and retry)",
    )?;
    let zero = "0".repeat(commit.len());
    let old_hex = old.map(|id| id.to_string()).unwrap_or(zero);
    let result = git.output(["update-ref", "-m", message, "HEAD", &commit, &old_hex]);
    if let Err(err) = result {
        bail!("HEAD moved while the note was committed ({err}); run the command again");
    }
    drop(tmp);
    Ok(commit_id)
}
