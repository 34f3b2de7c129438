//! The untracked half of the split status: the `?? path` lines `git status` prints, listed by
//! `git ls-files --others` (of the whole tree, or of only the names the walk found outside the
//! index) and `git check-ignore`, quoted as status quotes them.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use anyhow::Result;

use super::git_read::git_command;
use crate::git::quote::quote_status_path;
use crate::git::{self, Git};

/// How status lists untracked files (`status.showUntrackedFiles`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Untracked {
    No,
    Normal,
    All,
}

/// How the untracked files are listed and quoted.
#[derive(Debug, Clone, Copy)]
pub struct Listing {
    pub untracked: Untracked,
    /// `core.quotePath`: bytes above 0x7f quoted too.
    pub quote_path_fully: bool,
}

/// The `?? path` lines status prints for untracked files: of the whole work tree, or of only the
/// `names` the walk found outside the index (see [`untracked_names`](super::untracked_names)). When the index has
/// no entry at or under any of them, they are read against an empty index (`no_index`, the path of
/// a file that does not exist): it has nothing to tell git about them, and loading a large index
/// (with the name hash git builds to look names up in it) was two thirds of what listing them
/// cost. The index stays for a name it knows by another type (a tracked file become a directory:
/// git lists no such directory), for an index with skip-worktree entries (a sparse checkout's
/// `.gitignore` is read from it), and for a git older than 2.27, which does not look inside a
/// directory a pathspec only leads into, and would list `src/` for `src/new.rs`.
pub fn untracked_lines(
    git: &Git,
    listing: Listing,
    names: Option<(Vec<Vec<u8>>, Option<PathBuf>)>,
) -> Result<Vec<u8>> {
    if listing.untracked == Untracked::No {
        return Ok(Vec::new());
    }
    let listed = match &names {
        Some((names, _)) if names.is_empty() => return Ok(Vec::new()),
        Some((names, Some(no_index))) => listed_against_no_index(git, listing, names, no_index)?,
        Some((names, None)) => list_others(git, listing, Some(names), None)?,
        None => list_others(git, listing, None, None)?,
    };
    let mut lines = Vec::with_capacity(listed.len() + listed.len() / 8);
    for path in listed.split(|&b| b == 0).filter(|p| !p.is_empty()) {
        lines.extend_from_slice(b"?? ");
        lines.extend_from_slice(&quote_status_path(path, listing.quote_path_fully));
        lines.push(b'\n');
    }
    Ok(lines)
}

/// What `git ls-files --others` lists of `names` against no index, NUL-separated in its order.
/// A name that is a file or a symlink is listed unless an ignore rule excludes it, which
/// `git check-ignore` tells (its rules are ls-files's: the same patterns, a file under an excluded
/// directory excluded with it); only the other names (directories, which git may collapse or find
/// empty, and whatever else) go to ls-files. Given many files in many directories as pathspecs,
/// ls-files read each of those directories whole and matched every name in them against every
/// pathspec: on the generated 30k-file tree, 4 to 10 ms of CPU for 52 names, where check-ignore
/// and ls-files take 2.3 ms together for the 50 files and the two directories among them.
fn listed_against_no_index(
    git: &Git,
    listing: Listing,
    names: &[Vec<u8>],
    no_index: &std::path::Path,
) -> Result<Vec<u8>> {
    let top = git.work_tree.as_deref().unwrap_or(&git.git_dir);
    // check-ignore takes its paths as pathspecs without `literal` magic: a name that starts with
    // `:` would read as magic, so it goes to ls-files. (Glob characters do no harm there: it
    // looks up the path, it does not match files against it.)
    let (files, rest): (Vec<&Vec<u8>>, Vec<&Vec<u8>>) = names.iter().partition(|name| {
        !name.starts_with(b":")
            && std::fs::symlink_metadata(top.join(OsStr::from_bytes(name)))
                .is_ok_and(|m| m.is_file() || m.file_type().is_symlink())
    });
    // The two gits run at once: each is mostly its own start and the reading of the rules, and
    // the listing is often the last thing the snapshot waits for.
    let rest: Vec<Vec<u8>> = rest.into_iter().cloned().collect();
    let (ignored, others) = std::thread::scope(|s| {
        let others = (!rest.is_empty())
            .then(|| s.spawn(|| list_others(git, listing, Some(&rest), Some(no_index))));
        let ignored = (!files.is_empty()).then(|| ignored_files(git, &files, no_index));
        (ignored, others.map(super::git_read::join))
    });
    let mut listed: Vec<Vec<u8>> = Vec::with_capacity(names.len());
    match ignored {
        // A failure of check-ignore (a path it refuses, say) leaves every name to ls-files, as
        // before this shortcut.
        Some(None) => return list_others(git, listing, Some(names), Some(no_index)),
        Some(Some(ignored)) => {
            let ignored: std::collections::HashSet<&[u8]> =
                ignored.split(|&b| b == 0).filter(|p| !p.is_empty()).collect();
            let kept = files.iter().filter(|f| !ignored.contains(f.as_slice()));
            listed.extend(kept.map(|f| f.to_vec()));
        }
        None => {}
    }
    if let Some(out) = others {
        let out = out?;
        listed.extend(out.split(|&b| b == 0).filter(|p| !p.is_empty()).map(<[u8]>::to_vec));
    }
    // git's order: byte by byte, a directory with its trailing slash.
    listed.sort();
    listed.dedup();
    let mut out = Vec::new();
    for path in listed {
        out.extend_from_slice(&path);
        out.push(0);
    }
    Ok(out)
}

/// Which of `files` an ignore rule excludes, as `git check-ignore` says against the index at
/// `no_index` (NUL-separated); `None` when it fails otherwise than finding none.
fn ignored_files(git: &Git, files: &[&Vec<u8>], no_index: &std::path::Path) -> Option<Vec<u8>> {
    let mut input = Vec::new();
    for file in files {
        input.extend_from_slice(file);
        input.push(0);
    }
    let args = ["check-ignore", "-z", "--stdin"];
    let mut cmd = git_command(git, &args);
    cmd.env("GIT_INDEX_FILE", no_index);
    literal_only(&mut cmd);
    cmd.env_remove("GIT_LITERAL_PATHSPECS");
    // Exit 1 says that none of them is ignored.
    let output = crate::git::plumbing::output_with_input(&mut cmd, &input);
    match output.map(|o| (o.status.code(), o.stdout)) {
        Ok((Some(0), ignored)) => Some(ignored),
        Ok((Some(1), _)) => Some(Vec::new()),
        _ => None,
    }
}

/// `git ls-files -z --others --exclude-standard` as status lists untracked files, of `names`
/// only when given, against the index at `no_index` when given.
fn list_others(
    git: &Git,
    listing: Listing,
    names: Option<&[Vec<u8>]>,
    no_index: Option<&std::path::Path>,
) -> Result<Vec<u8>> {
    let mut args: Vec<&OsStr> = Vec::new();
    if names.is_some() {
        args.push("--literal-pathspecs".as_ref());
    }
    args.extend(["ls-files", "-z", "--others", "--exclude-standard"].map(OsStr::new));
    if listing.untracked == Untracked::Normal {
        args.extend(["--directory", "--no-empty-directory"].map(OsStr::new));
    }
    if let Some(names) = names {
        args.push("--".as_ref());
        args.extend(names.iter().map(|name| OsStr::from_bytes(name)));
    }
    let mut cmd = git_command(git, &args);
    if let Some(no_index) = no_index {
        cmd.env("GIT_INDEX_FILE", no_index);
    }
    literal_only(&mut cmd);
    let output = git::run(&mut cmd)?;
    git::checked(&cmd, output)
}

/// The names are literal (`--literal-pathspecs`), which git refuses beside these.
fn literal_only(cmd: &mut std::process::Command) {
    for key in ["GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS"] {
        cmd.env_remove(key);
    }
}
