//! Paths git-handoff reads or writes for the user: they stay inside the work tree, and never pass
//! through a symbolic link (a linked `.agent/handoff` would make `note` write elsewhere; a linked
//! note file would copy its target, a credentials file perhaps, into a committed note). Reading them
//! is [`crate::util::fs`]'s: regular files only, each with a size bound.

use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::{Result, bail};

/// True when `rel` is a relative path that stays inside the directory it is relative to and
/// never enters a git directory: the work tree holds `.git/` (and a submodule's), but writing
/// there is writing git's config, index or hooks, which a cloned repository must never reach.
pub fn stays_inside(rel: &str) -> bool {
    let path = Path::new(rel);
    !rel.trim().is_empty()
        && !path.is_absolute()
        && path.components().all(|c| match c {
            Component::Normal(name) => !names_git_dir(&name.to_string_lossy()),
            Component::CurDir => true,
            _ => false,
        })
}

/// True when a path component is one that git itself takes for `.git` on some file system: any
/// letter case, the trailing dots and spaces NTFS drops, NTFS's short name `git~1` and a stream
/// suffix (`.git::$INDEX_ALLOCATION`), and the invisible characters HFS+ ignores (git's
/// `is_ntfs_dotgit` and `is_hfs_dotgit`).
pub fn names_git_dir(name: &str) -> bool {
    let hfs_ignored = |c: char| {
        matches!(c, '\u{200c}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{206a}'..='\u{206f}')
            || c == '\u{feff}'
    };
    let name: String = name.chars().filter(|c| !hfs_ignored(*c)).collect();
    let name = name.split(':').next().unwrap_or_default().trim_end_matches(['.', ' ']);
    name.eq_ignore_ascii_case(".git") || name.eq_ignore_ascii_case("git~1")
}

/// `top/rel` when `rel` stays inside `top` and no part of it that exists is a symbolic link,
/// with the deepest part of it that exists (`top` itself when none does): every part of that was
/// looked at and is no link, so where `top` is canonical, so is it. `what` names the file in
/// errors ("the note", "the progress file").
pub fn inside(top: &Path, rel: &str, what: &str) -> Result<(PathBuf, PathBuf)> {
    if !stays_inside(rel) {
        bail!(
            "{what} {rel:?} is not inside the work tree; give a path relative to its top, without \
             `..`, like \".agent/progress.md\""
        );
    }
    let mut path = top.to_path_buf();
    for component in Path::new(rel).components() {
        let Component::Normal(name) = component else { continue };
        path.push(name);
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = path.strip_prefix(top).unwrap_or(&path).display().to_string();
                bail!(
                    "{link} is a symbolic link, so {what} ({rel}) could be read from or written to \
                     outside the work tree; git-handoff refuses to follow it: replace the link with a \
                     real directory or file (`rm {}`) and run the command again",
                    crate::util::shell::quote(&link)
                );
            }
            Ok(_) => {}
            // Nothing below a missing part exists, so nothing below it can be a link.
            Err(_) => {
                path.pop();
                break;
            }
        }
    }
    Ok((top.join(rel), path))
}

/// A byte count for messages: `4 MiB`, `512 KiB`.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        1 => "1 byte".to_string(),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_only() {
        for ok in [".agent/progress.md", "x", "./a/b"] {
            assert!(stays_inside(ok), "{ok}");
        }
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a/.."] {
            assert!(!stays_inside(bad), "{bad}");
        }
    }

    #[test]
    fn git_directories_by_any_spelling_are_refused() {
        for bad in [
            ".git/hooks/pre-push",
            "./.git/config",
            ".GIT/index",
            ".Git./HEAD",
            ".git /x",
            "GIT~1/config",
            ".git::$INDEX_ALLOCATION/config",
            ".g\u{200c}it/hooks/pre-push",
            "\u{feff}.git/config",
            "sub/.git/config",
            "vendor/lib/.git/modules/x/hooks/pre-push",
        ] {
            assert!(!stays_inside(bad), "{bad:?}");
        }
        for ok in [".github/workflows/ci.yml", ".gitignore", "git/x", "a.git/x", ".gitx/y"] {
            assert!(stays_inside(ok), "{ok:?}");
        }
    }

    #[test]
    fn links_on_the_way_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path();
        fs::create_dir_all(top.join("real")).unwrap();
        std::os::unix::fs::symlink("/tmp", top.join("link")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", top.join("real/file.md")).unwrap();
        let (path, existing) = inside(top, "real/new/x.md", "the note").unwrap();
        assert_eq!((path, existing), (top.join("real/new/x.md"), top.join("real")));
        fs::write(top.join("real/a.md"), "a").unwrap();
        let (path, existing) = inside(top, "./real//a.md", "the note").unwrap();
        assert_eq!((path, existing), (top.join("./real//a.md"), top.join("real/a.md")));
        assert_eq!(inside(top, "new/x.md", "the note").unwrap().1, top);
        assert!(inside(top, "link/x.md", "the note").unwrap_err().to_string().contains("link"));
        assert!(inside(top, "real/file.md", "the note").is_err());
    }
}
