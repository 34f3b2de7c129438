//! Commit plumbing: `git commit-tree` without hooks or signing, and moving HEAD with a
//! compare-and-swap `git update-ref` (and undoing that move).

use std::io::{self, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use anyhow::{Context, Result};
use gix::ObjectId;
use gix::bstr::ByteSlice;

use crate::git::{self, Git};

/// `git commit-tree`: no hooks, no signing, the message verbatim.
pub fn commit_tree(
    git: &Git,
    tree: &str,
    parent: Option<ObjectId>,
    message: &str,
    identity: &[(String, String)],
) -> Result<String> {
    let parent = parent.map(|p| p.to_string());
    let mut args = vec!["commit-tree", "--no-gpg-sign", tree];
    if let Some(parent) = &parent {
        args.extend(["-p", parent.as_str()]);
    }
    let mut cmd = git.command(&args);
    cmd.envs(identity.iter().map(|(k, v)| (k, v)));
    let out = run_with_input(&mut cmd, message.as_bytes()).context("git commit-tree")?;
    Ok(out.trim_ascii().to_str_lossy().into_owned())
}

/// The commit `git commit-tree --no-gpg-sign <tree> [-p <parent>]` makes of `message` with the
/// identities `author` and `committer` (see [`commit_idents`](crate::git::identity::commit_idents)),
/// written here as a loose object into the object directory `objects_dir`: the same bytes, so the
/// same id, without starting git. Not for a repository whose `i18n.commitEncoding` is set (git
/// adds an `encoding` header then); the caller checks.
pub fn write_commit(
    objects_dir: &Path,
    hash: gix::hash::Kind,
    (tree, parent): (&str, Option<ObjectId>),
    [author, committer]: &[String; 2],
    message: &str,
) -> Result<String> {
    let tree = ObjectId::from_hex(tree.as_bytes()).with_context(|| format!("tree id {tree:?}"))?;
    let mut data = format!("tree {tree}\n");
    if let Some(parent) = parent {
        data.push_str(&format!("parent {parent}\n"));
    }
    data.push_str(&format!("author {author}\ncommitter {committer}\n\n{message}"));
    let store = gix::odb::loose::Store::at(objects_dir, hash);
    let id = gix::objs::Write::write_buf(&store, gix::objs::Kind::Commit, data.as_bytes())
        .map_err(|err| anyhow::anyhow!("writing the commit object: {err}"))?;
    Ok(id.to_string())
}

/// Moves HEAD (its branch, or HEAD itself when detached) from `old` to `new`, only if it still
/// points at `old` (an unborn branch must still be unborn).
pub fn move_head(git: &Git, new: &str, old: Option<ObjectId>, reflog: &str) -> Result<()> {
    let old = old.map(|o| o.to_string()).unwrap_or_else(|| "0".repeat(new.len()));
    // The point of no return: detached, so a signal to our process group never stops git holding
    // the ref's lock; killed, we leave the move whole, for the next run to complete what follows.
    let git = git.clone().detached();
    git.output(["update-ref", "-m", reflog, "HEAD", new, old.as_str()]).map(drop).with_context(
        || format!("moving HEAD from {old} to {new} failed (did HEAD move meanwhile?)"),
    )
}

/// Puts HEAD back where it was after a failure past [`move_head`].
pub fn undo_head(git: &Git, sealed: &str, old: Option<ObjectId>) -> Result<()> {
    match old {
        Some(old) => {
            let old = old.to_string();
            let args = ["update-ref", "-m", "handoff seal: undone", "HEAD", old.as_str(), sealed];
            git.output(args).map(drop)
        }
        None => git.output(["update-ref", "-d", "HEAD", sealed]).map(drop),
    }
}

/// Runs `cmd` with `input` on its stdin and returns stdout; a non-zero exit is an error.
pub fn run_with_input(cmd: &mut Command, input: &[u8]) -> Result<Vec<u8>> {
    let (output, written) = feed(cmd, input)?;
    let stdout = git::checked(cmd, output)?;
    // A failed write matters only when git did not fail first (then its message is the better one).
    written.with_context(|| format!("writing to {}", git::describe(cmd)))?;
    Ok(stdout)
}

/// Runs `cmd` with `input` on its stdin and returns what it printed whatever its exit, for a
/// command whose exit code is part of the answer (`git check-ignore` exits 1 for "none").
pub fn output_with_input(cmd: &mut Command, input: &[u8]) -> Result<Output> {
    let (output, written) = feed(cmd, input)?;
    if output.status.success() {
        written.with_context(|| format!("writing to {}", git::describe(cmd)))?;
    }
    Ok(output)
}

/// Spawns `cmd`, writes `input` to its stdin beside reading its output, and waits for it.
fn feed(cmd: &mut Command, input: &[u8]) -> Result<(Output, io::Result<()>)> {
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().with_context(|| format!("running {}", git::describe(cmd)))?;
    let mut stdin = child.stdin.take().context("stdin of a child process")?;
    // The writer runs beside the reader so neither side can fill a pipe and wait on the other.
    let (output, written) = std::thread::scope(|s| {
        let writer = s.spawn(move || stdin.write_all(input));
        let output = child.wait_with_output();
        let written = writer.join().unwrap_or_else(|_| Err(io::Error::other("writer thread")));
        (output, written)
    });
    let output = output.with_context(|| format!("waiting for {}", git::describe(cmd)))?;
    Ok((output, written))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commit written here is the one `git commit-tree` writes, byte for byte: with a parent
    /// and without, with a date git parses, an odd name, and a message of several paragraphs.
    #[test]
    fn a_commit_written_here_is_the_one_commit_tree_writes() {
        let dir = tempfile::tempdir().unwrap();
        let git_dir = dir.path().join("repo.git");
        let env = [
            ("GIT_CONFIG_GLOBAL", "/dev/null"),
            ("GIT_CONFIG_NOSYSTEM", "1"),
            ("GIT_AUTHOR_NAME", "Ann O'Hara"),
            ("GIT_AUTHOR_EMAIL", "ann@example.com"),
            ("GIT_AUTHOR_DATE", "2026-11-30 03:48:52 +0130"),
            ("GIT_COMMITTER_NAME", "Bot"),
            ("GIT_COMMITTER_EMAIL", "bot@example.com"),
            ("GIT_COMMITTER_DATE", "@1764468000 -0700"),
        ];
        let std_git = |args: &[&str]| {
            let out = Command::new("git").args(args).env("GIT_DIR", &git_dir).envs(env).output();
            let out = out.unwrap();
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        std_git(&["init", "-q", "--bare"]);
        let tree = std_git(&["mktree"]);
        let git =
            env.iter().fold(Git::new(git_dir.clone(), None), |git, (k, v)| git.with_env(k, v));
        let idents = crate::git::identity::commit_idents(&git, &[]).unwrap();
        let message =
            "Seal leftover work: issue #7\n\nbody\n\nHandoff-Seal: 2026-11-30T03:48:52Z\n";
        let objects = git_dir.join("objects");
        let first = write_commit(&objects, gix::hash::Kind::Sha1, (&tree, None), &idents, message);
        let first = first.unwrap();
        assert_eq!(first, commit_tree(&git, &tree, None, message, &[]).unwrap());
        let parent = ObjectId::from_hex(first.as_bytes()).unwrap();
        let second =
            write_commit(&objects, gix::hash::Kind::Sha1, (&tree, Some(parent)), &idents, "x\n");
        assert_eq!(second.unwrap(), commit_tree(&git, &tree, Some(parent), "x\n", &[]).unwrap());
        assert_eq!(std_git(&["cat-file", "-t", &first]), "commit");
    }
}
