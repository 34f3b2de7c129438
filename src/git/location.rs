//! Where the repository of a directory is, found cheaply without opening it ([`Location`]), for
//! `record`, which runs on every agent tool call.

use std::path::{Path, PathBuf};

/// A repository found cheaply, without opening it: for `record`, which runs on every agent tool
/// call. Walks up from a directory to the first `.git` directory or `gitdir:` file (a linked
/// worktree or submodule), as git does in the ordinary case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// This worktree's own git dir, canonical.
    pub git_dir: PathBuf,
    /// The top of the work tree, canonical.
    pub work_tree: PathBuf,
}

impl Location {
    /// `None` when git's environment steers discovery (`GIT_DIR`, `GIT_WORK_TREE`,
    /// `GIT_CEILING_DIRECTORIES`, `GIT_DISCOVERY_ACROSS_FILESYSTEM`) or no `.git` is found above
    /// `start`: the caller then opens the repository with [`Repo::discover`], which knows them
    /// all.
    ///
    /// [`Repo::discover`]: crate::git::repo::Repo::discover
    pub fn find(start: &Path) -> Option<Location> {
        const STEERING: [&str; 4] = [
            "GIT_DIR",
            "GIT_WORK_TREE",
            "GIT_CEILING_DIRECTORIES",
            "GIT_DISCOVERY_ACROSS_FILESYSTEM",
        ];
        if STEERING.iter().any(|key| std::env::var_os(key).is_some()) {
            return None;
        }
        let start = std::fs::canonicalize(start).ok()?;
        for dir in start.ancestors() {
            let dot_git = dir.join(".git");
            let Ok(meta) = std::fs::metadata(&dot_git) else { continue };
            let git_dir = if meta.is_dir() {
                dot_git
            } else {
                let bytes = crate::util::fs::read_regular(&dot_git, 64 << 10, "the .git file");
                let text = String::from_utf8(bytes.ok()?).ok()?;
                let target = text.lines().next()?.strip_prefix("gitdir:")?.trim();
                dir.join(target)
            };
            let git_dir = std::fs::canonicalize(git_dir).ok()?;
            return Some(Location { git_dir, work_tree: dir.to_path_buf() });
        }
        None
    }
}
