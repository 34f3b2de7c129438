//! A quick look for the repository of a directory, for recall at every session start: in the
//! ordinary layout (a `.git` directory, or the `gitdir:` file of a linked worktree or submodule,
//! and a plain config) the repository's paths take a few system calls, and gix is opened only
//! when something needs it (its discovery and opening were half of recall's own time: three
//! config files, HEAD twice, every parent of the objects directory).
//!
//! Whatever is not ordinary is left to gix's discovery, which knows git's every rule:
//! [`Quick::find`] then says `None`. Not ordinary: git's environment steering discovery or the
//! object store, config given on git's command line, a `.git` that is a symbolic link, a directory
//! on the way up that could itself be a git directory, a filesystem boundary, a repository another
//! user owns (git's `safe.directory`), and a config that sets `core.worktree` or `core.bare`, has
//! includes or extensions (another hash, reftable, per-worktree config), or holds a line this
//! look does not read plainly.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A repository found by the quick look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quick {
    /// This worktree's own git dir, canonical.
    pub git_dir: PathBuf,
    /// The git dir all worktrees share, canonical.
    pub common_dir: PathBuf,
    /// The top of the work tree, canonical.
    pub work_tree: PathBuf,
    /// HEAD's content as the look read it, for the first read of HEAD after it.
    pub head: Vec<u8>,
}

/// Git's environment that changes where the repository, its objects or its refs are, or what its
/// config says: any of it set leaves discovery to gix.
const STEERING: [&str; 11] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_REPLACE_REF_BASE",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
];

/// The most of a `.git` file, `commondir` file or config the look reads; larger is not ordinary.
const MAX_READ: u64 = 256 << 10;

impl Quick {
    /// The repository `cwd` (as `getcwd` gives it: absolute, every link resolved) is in, when it
    /// is laid out the ordinary way; `None` leaves it to gix.
    pub fn find(cwd: &Path) -> Option<Quick> {
        if STEERING.iter().any(|key| std::env::var_os(key).is_some()) || !cwd.is_absolute() {
            return None;
        }
        let uid = rustix::process::geteuid().as_raw();
        let mut device = None;
        for dir in cwd.ancestors() {
            let dir_meta = std::fs::metadata(dir).ok()?;
            if *device.get_or_insert(dir_meta.dev()) != dir_meta.dev() {
                return None;
            }
            let dot_git = dir.join(".git");
            let meta = match std::fs::symlink_metadata(&dot_git) {
                Ok(meta) => meta,
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                    // A directory with a HEAD may be a git directory itself (a bare repository,
                    // or the inside of `.git`): gix tells.
                    if std::fs::symlink_metadata(dir.join("HEAD")).is_ok() {
                        return None;
                    }
                    continue;
                }
                Err(_) => return None,
            };
            if dir_meta.uid() != uid || meta.uid() != uid {
                return None;
            }
            let git_dir = if meta.is_dir() {
                dot_git
            } else if meta.is_file() {
                let git_dir = dir.join(gitdir_of(&read_small(&dot_git)?)?);
                let git_dir = std::fs::canonicalize(git_dir).ok()?;
                if std::fs::metadata(&git_dir).ok()?.uid() != uid {
                    return None;
                }
                git_dir
            } else {
                return None;
            };
            return Self::at(git_dir, dir.to_path_buf());
        }
        None
    }

    /// The repository whose git dir is `git_dir` (canonical), with its work tree at `work_tree`,
    /// when it is a valid one (as git's `is_git_directory` asks) and ordinary.
    fn at(git_dir: PathBuf, work_tree: PathBuf) -> Option<Quick> {
        let common_dir = match std::fs::read(git_dir.join("commondir")) {
            Ok(bytes) => {
                let text = std::str::from_utf8(&bytes).ok()?.trim_end_matches(['\n', '\r']);
                if text.is_empty() || text.contains('\n') {
                    return None;
                }
                std::fs::canonicalize(git_dir.join(text)).ok()?
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => git_dir.clone(),
            Err(_) => return None,
        };
        let head = valid_head(&git_dir.join("HEAD"))?;
        if !std::fs::metadata(common_dir.join("objects")).ok()?.is_dir()
            || !std::fs::metadata(common_dir.join("refs")).ok()?.is_dir()
            || !config_is_plain(&read_small(&common_dir.join("config"))?)
        {
            return None;
        }
        Some(Quick { git_dir, common_dir, work_tree, head })
    }
}

/// The whole of a small regular file, `None` when it cannot be read or is not small.
fn read_small(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_READ {
        return None;
    }
    std::fs::read(path).ok()
}

/// The path a `.git` file names (`gitdir: <path>`): a file of that one line (git reads the whole
/// file as the line, so anything after it is left to gix).
fn gitdir_of(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?.trim_end_matches(['\n', '\r']);
    let path = text.strip_prefix("gitdir: ")?;
    (!path.is_empty() && !path.contains(['\n', '\r'])).then_some(path)
}

/// HEAD as git accepts it in a git directory: a regular file holding `ref: refs/...` or an
/// object id (a symbolic link, git's older form, is left to gix).
fn valid_head(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > 1024 {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let text = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    let valid = match text.strip_prefix(b"ref: ") {
        Some(name) => name.starts_with(b"refs/") && !name.iter().any(|b| b.is_ascii_whitespace()),
        None => text.len() == 40 && text.iter().all(u8::is_ascii_hexdigit),
    };
    valid.then_some(bytes)
}

/// Whether the repository's config is one the quick look may go by: every line blank, a
/// comment, a plain section header or a `key = value` line, no include, no extension (its hash,
/// refs storage and per-worktree config are then git's defaults), `core.bare` false and no
/// `core.worktree` (the work tree is then where `.git` is), and format version 0 or 1.
pub fn config_is_plain(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else { return false };
    let mut section = String::new();
    for line in text.split('\n') {
        let line = line.trim_matches([' ', '\t', '\r']);
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let Some(inside) = header.strip_suffix(']') else { return false };
            let name = match inside.split_once(' ') {
                Some((name, sub)) if plain_subsection(sub) => name,
                Some(_) => return false,
                None => inside,
            };
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                return false;
            }
            section = name.to_ascii_lowercase();
            if matches!(section.as_str(), "include" | "includeif" | "extensions") {
                return false;
            }
            continue;
        }
        if section.is_empty() || line.ends_with('\\') {
            return false;
        }
        let (key, value) = match line.split_once('=') {
            Some((key, value)) => (key.trim_end_matches([' ', '\t']), Some(value.trim())),
            None => (line, None),
        };
        // A key starts with a letter; a value with a quote or a backslash in it (which git
        // reads, or refuses, by rules of its own) is left to gix.
        if !key.starts_with(|c: char| c.is_ascii_alphabetic())
            || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            || value.is_some_and(|v| v.contains(['"', '\\']))
        {
            return false;
        }
        if section != "core" {
            continue;
        }
        let value = value.map(str::to_ascii_lowercase);
        let plain = match key.to_ascii_lowercase().as_str() {
            "bare" => value.is_some_and(|v| matches!(v.as_str(), "false" | "no" | "off" | "0")),
            "worktree" => false,
            "repositoryformatversion" => value.is_some_and(|v| v == "0" || v == "1"),
            _ => true,
        };
        if !plain {
            return false;
        }
    }
    true
}

/// A section header's subsection as the plainest spelling has it: `"name"`, no quote or
/// backslash inside.
fn plain_subsection(sub: &str) -> bool {
    let inside = sub.strip_prefix('"').and_then(|s| s.strip_suffix('"'));
    inside.is_some_and(|s| !s.contains(['"', '\\']))
}

#[cfg(test)]
mod tests;
