//! Paths from payloads made repository-relative: lexically, then through the canonical prefix when
//! the agent names a path through a symlink; paths outside the repository are dropped.

use std::path::{Component, Path, PathBuf};

/// Where paths are resolved: the session's directory and the top of the work tree.
pub struct SessionDirs<'a> {
    pub cwd: &'a Path,
    pub top: &'a Path,
}

/// The files a Codex `apply_patch` envelope adds, updates, deletes or moves to.
pub(super) fn patch_paths(patch: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end();
        for prefix in ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "]
        {
            if let Some(path) = line.strip_prefix(prefix) {
                let path = path.trim().to_string();
                if !path.is_empty() && !out.contains(&path) {
                    out.push(path);
                }
            }
        }
    }
    out
}

/// A payload path made repository-relative, redacted BEFORE it is normalized: normalizing
/// collapses `//`, and `postgres://u:PW@host` would no longer read as a URL with credentials.
pub fn relative_clean(
    raw: &str,
    dirs: &SessionDirs<'_>,
    clean: &dyn Fn(&str, usize) -> String,
) -> Option<String> {
    repo_relative(&clean(raw, usize::MAX), dirs)
}

/// `raw` (absolute, or relative to the session's directory) relative to the top of the work tree;
/// `None` for paths outside it or inside `.git`.
pub fn repo_relative(raw: &str, dirs: &SessionDirs<'_>) -> Option<String> {
    if raw.is_empty() {
        return None;
    }
    let path = Path::new(raw);
    let absolute = if path.is_absolute() { path.to_path_buf() } else { dirs.cwd.join(path) };
    let absolute = lexical(&absolute);
    let rel = match absolute.strip_prefix(dirs.top) {
        Ok(rel) => rel.to_path_buf(),
        // The session may name the repository through a symlink (/tmp -> /private/tmp).
        Err(_) => canonical_prefix(&absolute)?.strip_prefix(dirs.top).ok()?.to_path_buf(),
    };
    let mut parts = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?),
            _ => return None,
        }
    }
    if parts.is_empty() || parts[0] == ".git" {
        return None;
    }
    Some(parts.join("/"))
}

/// Resolves `.` and `..` without touching the file system.
pub(super) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Canonicalizes the longest existing ancestor of `path` and appends the rest.
pub(super) fn canonical_prefix(path: &Path) -> Option<PathBuf> {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return Some(out);
        }
        rest.push(existing.file_name()?);
        existing = existing.parent()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_relative_to_the_top() {
        let dirs = SessionDirs { cwd: Path::new("/repo/sub"), top: Path::new("/repo") };
        assert_eq!(repo_relative("/repo/src/a.rs", &dirs).as_deref(), Some("src/a.rs"));
        assert_eq!(repo_relative("b.rs", &dirs).as_deref(), Some("sub/b.rs"));
        assert_eq!(repo_relative("../c.rs", &dirs).as_deref(), Some("c.rs"));
        assert_eq!(repo_relative("/etc/passwd", &dirs), None);
        assert_eq!(repo_relative("/repo2/x", &dirs), None);
        assert_eq!(repo_relative("/repo/.git/config", &dirs), None);
        assert_eq!(repo_relative("../../x", &dirs), None);
        assert_eq!(repo_relative("/repo", &dirs), None);
    }

    #[test]
    fn patch_envelopes() {
        let patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: src/b.rs\n\
                     *** Move to: src/c.rs\n@@\n-x\n+y\n*** Delete File: d.md\n*** End Patch";
        assert_eq!(patch_paths(patch), ["a.txt", "src/b.rs", "src/c.rs", "d.md"]);
    }
}
