//! Committing one file alone on top of HEAD: the note commit.
//!
//! The note commit must hold the note and nothing else, whatever else the agent left staged, and
//! it must not run commit hooks (a failing pre-commit hook must not cost the handoff). So it is
//! built from plumbing: the parent's tree plus the note's blob (hashed by git, so clean filters
//! and eol attributes apply), edited in-process and written as loose objects (or, where git may
//! judge the path or the repository otherwise, on a private index by `read-tree`, `update-index`
//! and `write-tree`), `commit-tree`, then `update-ref` with a compare-and-swap on the old HEAD.
//! The real index only gets the note's entry, so other staged work stays staged for the seal.
//! Ctrl-C, SIGTERM and SIGHUP are caught until HEAD moves ([`crate::util::interrupt`]), so an
//! interrupted note commit moves nothing and leaves no private index behind.

use anyhow::{Context, Result, bail};
use gix::ObjectId;

use crate::git::Git;
use crate::git::plumbing::{commit_tree, move_head};
use crate::git::repo::Repo;
use crate::util::interrupt::Interrupt;

/// How long a note commit waits for another process's `index.lock` to go.
pub const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The private index of a note commit is `<git dir>/<this><pid>-<random>`.
pub const NOTE_INDEX_PREFIX: &str = crate::util::leftovers::NOTE_INDEX_PREFIX;

/// Commits `content` as the file `rel` alone on top of HEAD with `message`, then writes the same
/// bytes to the work tree. Returns the new commit.
///
/// Until HEAD moves (a compare-and-swap), nothing the user can see has changed: the blob is hashed
/// from memory with the path's filters, the tree is built beside the real index. Only then are the
/// work-tree copy and the index entry brought up to date; should either fail, the error says the
/// note is committed and how to bring them in line.
///
/// The new commit goes on `parent` (its tree plus the file), and HEAD moves to it from wherever it
/// is: with HEAD's own parent, the note commit at HEAD is replaced.
pub fn commit_file_on(
    repo: &Repo,
    rel: &str,
    content: &[u8],
    message: &str,
    parent: Option<ObjectId>,
) -> Result<ObjectId> {
    // A signal must not kill us half-way (holding a private index): the steps fail, and stop.
    let interrupt = Interrupt::catch();
    let path = repo.inside_work_tree(rel, "the note")?;
    let git = repo.git();
    let old = repo.head()?.id;
    let lock = repo.git_dir.join("index.lock");
    if !crate::util::leftovers::lock_cleared_within(&lock, LOCK_WAIT) {
        bail!(
            "{} exists: another git process is running in this repository; wait for it to \
             finish (or remove the lock if no git process is running) and run the command again",
            lock.display()
        );
    }

    let blob = hash_blob(&git, rel, content)?;
    let cacheinfo = format!("100644,{blob},{rel}");
    let tree = match tree_with_file(repo, parent, rel, &blob)? {
        Some(tree) => tree.to_string(),
        None => tree_on_private_index(repo, parent, &cacheinfo)?,
    };

    let identity = crate::git::identity::identity_env(&git)?;
    // As `git commit-tree -m` writes it: the message and a newline.
    let commit = commit_tree(&git, &tree, parent, &format!("{message}\n"), &identity)?;
    let commit_id = ObjectId::from_hex(commit.as_bytes())
        .with_context(|| format!("git commit-tree printed {commit:?}"))?;

    // The last moment to stop with nothing changed: past it, the note commit completes.
    interrupt.check("the note commit")?;
    if let Err(err) = move_head(&git, &commit, old, message) {
        bail!("{err:#}; nothing changed, run the command again");
    }

    // HEAD has the note; the work tree and the index follow.
    // The temporary copy is made in the git dir: a kill must not leave it in the work tree.
    crate::util::fs::write_atomic_in(&path, content, &repo.handoff_dir()).with_context(|| {
        format!("the note is committed in {commit}, but its work-tree copy could not be written; run `git checkout -- {}`", crate::util::shell::quote(rel))
    })?;
    // Past the point of no return: git updating the index must not die holding index.lock.
    let git = git.clone().detached();
    set_index_entry(&git, &cacheinfo).with_context(|| {
        format!("the note is committed in {commit}, but the index could not be updated (another git process?); run `git reset -q -- {}`", crate::util::shell::quote(rel))
    })?;
    Ok(commit_id)
}

/// `parent`'s tree (the empty tree without one) with the blob `blob` at `rel`, built in-process
/// and its new trees written as loose objects, as `read-tree`, `update-index --add --cacheinfo`
/// and `write-tree` on a private index would leave them, without starting those three gits.
/// `None` leaves it to them: a path git may judge otherwise (a component that is not plainly a
/// name; a file, link or submodule where the path needs a directory, or a directory where the
/// note goes, which git refuses; a case-insensitive work tree), a tree on the path whose entries
/// are out of git's order, or a repository whose objects are shared or redirected
/// (`core.sharedRepository`, git's object-directory variables), where git sets the modes and
/// places of what it writes. Entries beside the note's path are kept as they are, also where
/// git's plumbing would rewrite them (a legacy `100664` mode becomes `100644` in its index): the
/// note commit changes the note and nothing else.
fn tree_with_file(
    repo: &Repo,
    parent: Option<ObjectId>,
    rel: &str,
    blob: &str,
) -> Result<Option<ObjectId>> {
    let plain = |name: &str| {
        let lower = name.to_ascii_lowercase();
        !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
            && !matches!(lower.as_str(), "." | ".." | ".git" | "git~1")
            && !name.ends_with('.')
    };
    let redirected = [
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_QUARANTINE_PATH",
        "GIT_COMMON_DIR",
    ]
    .iter()
    .any(|key| std::env::var_os(key).is_some());
    let config = repo.gix().config_snapshot();
    // A case-insensitive work tree: git may match a directory's name to one of another case.
    let shared = config.string("core.sharedRepository").is_some()
        || config.boolean("core.ignoreCase") == Some(true);
    let components: Vec<&str> = rel.split('/').collect();
    if !components.iter().all(|c| plain(c))
        || redirected
        || shared
        || crate::git::repo::config_on_command_line()
    {
        return Ok(None);
    }
    let base = match parent {
        Some(commit) => repo.gix().find_commit(commit)?.tree_id()?.detach(),
        None => repo.empty_tree(),
    };
    // The trees the edit rewrites, looked up in the parent's tree itself (an editor sees only
    // the trees it has loaded).
    let mut tree = parent.map(|_| repo.gix().find_tree(base)).transpose()?;
    for (depth, name) in components.iter().enumerate() {
        let Some(current) = tree.take() else { break };
        if !in_git_order(&current)? {
            return Ok(None);
        }
        let found = current.find_entry(*name).map(|entry| (entry.mode(), entry.id().detach()));
        match found {
            None => break,
            Some((mode, _)) if depth + 1 == components.len() => {
                if mode.is_tree() {
                    return Ok(None);
                }
            }
            Some((mode, id)) if mode.is_tree() => tree = Some(repo.gix().find_tree(id)?),
            Some(_) => return Ok(None),
        }
    }
    let blob = ObjectId::from_hex(blob.as_bytes())
        .with_context(|| format!("git hash-object printed {blob:?}"))?;
    let mut editor = repo.gix().edit_tree(base)?;
    editor.upsert(rel, gix::object::tree::EntryKind::Blob, blob)?;
    Ok(Some(editor.write()?.detach()))
}

/// Whether `tree`'s entries are in git's order, each name once (a directory's name compared as
/// if it ended in `/`, as gix orders entries), which gix's editor needs of the trees it
/// rewrites; git's plumbing sorts them.
fn in_git_order(tree: &gix::Tree<'_>) -> Result<bool> {
    let entries = tree.decode()?.entries;
    Ok(entries.windows(2).all(|pair| pair[0] < pair[1]))
}

/// The tree of [`tree_with_file`] made by git: `parent`'s tree read into a private index, the
/// entry `cacheinfo` added, `write-tree`.
fn tree_on_private_index(repo: &Repo, parent: Option<ObjectId>, cacheinfo: &str) -> Result<String> {
    let git = repo.git();
    let tmp = tempfile::Builder::new()
        .prefix(&crate::util::leftovers::tagged(NOTE_INDEX_PREFIX))
        .tempfile_in(&repo.git_dir)
        .context("creating a private index in the git dir")?;
    let with_index = |args: &[&str]| -> Result<String> {
        let mut cmd = git.command(args);
        cmd.env("GIT_INDEX_FILE", tmp.path());
        let out = crate::git::run(&mut cmd)?;
        let stdout = crate::git::checked(&cmd, out)?;
        Ok(String::from_utf8_lossy(&stdout).trim().to_string())
    };
    match parent {
        Some(parent) => with_index(&["read-tree", &parent.to_string()])?,
        None => with_index(&["read-tree", "--empty"])?,
    };
    with_index(&["update-index", "--add", "--cacheinfo", cacheinfo])?;
    with_index(&["write-tree"])
}

/// Brings the work-tree copy and the index entry of the note at `rel` in line with `commit`, as a
/// note commit killed past HEAD's move may have left them: a missing work-tree file is written, and
/// an index entry that is not the committed blob is set to it while the work-tree file holds that
/// blob's bytes. A file the user changed since is left as it is.
pub fn complete(repo: &Repo, rel: &str, commit: ObjectId) -> Result<()> {
    let spec = format!("{commit}:{rel}");
    let Ok(id) = repo.gix().rev_parse_single(spec.as_str()) else { return Ok(()) };
    let blob = id.detach();
    let data = id.object().context("reading the committed note")?.data.clone();
    let path = repo.inside_work_tree(rel, "the note")?;
    if path.symlink_metadata().is_err() {
        crate::util::fs::write_atomic_in(&path, &data, &repo.handoff_dir())?;
    }
    let git = repo.git().with_env("GIT_LITERAL_PATHSPECS", "1").detached();
    let staged = git.text(["ls-files", "-s", "--", rel])?;
    let in_index = staged.split_whitespace().nth(1) == Some(blob.to_string().as_str());
    if !in_index && std::fs::read(&path).is_ok_and(|bytes| bytes == data) {
        set_index_entry(&git, &format!("100644,{blob},{rel}"))?;
    }
    Ok(())
}

/// Sets the note's index entry (`update-index --add --cacheinfo`) with `git`, which runs in a
/// process group of its own. A signal meant for ours can still reach it in the moment between its
/// start and its leaving our group; the entry is the same whenever it is set, so a git killed by a
/// signal is run once more.
fn set_index_entry(git: &Git, cacheinfo: &str) -> Result<()> {
    use std::os::unix::process::ExitStatusExt;
    let mut tries = 0;
    loop {
        tries += 1;
        let mut cmd = git.command(["update-index", "--add", "--cacheinfo", cacheinfo]);
        let out = crate::git::run(&mut cmd)?;
        if out.status.signal().is_none() || tries == 2 {
            crate::git::checked(&cmd, out)?;
            return Ok(());
        }
    }
}

/// Hashes `content` as the blob git would store for `rel` (its clean filters and eol
/// attributes applied) and writes it to the object database.
fn hash_blob(git: &Git, rel: &str, content: &[u8]) -> Result<String> {
    use std::io::Write;
    let mut cmd = git.command(["hash-object", "-w", "--stdin", "--path", rel]);
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().context("running git hash-object; is git on PATH?")?;
    let mut stdin = child.stdin.take().context("git hash-object has a stdin")?;
    let written = stdin.write_all(content);
    drop(stdin);
    let out = child.wait_with_output().context("waiting for git hash-object")?;
    written.context("feeding the note to git hash-object")?;
    Ok(String::from_utf8_lossy(&crate::git::checked(&cmd, out)?).trim().to_string())
}
