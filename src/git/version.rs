//! git's version, asked of `git version` once per git binary and kept in the repository.
//!
//! A git started only to print its version costs a whole process start (1-2 ms on a 2-core VM),
//! and the snapshot needs the version on every run of a large tree, while its walk keeps both
//! cores busy. So the answer is kept in `<git dir>/handoff-git-version` with the identity of the
//! binary that gave it: its path, and the device, inode, size, change and modification times of
//! the file it leads to. A git upgraded or replaced in place is another file, or the same one with
//! a new change time (which cannot be set back), and is asked again. The file is only ever
//! replaced whole (a rename); one that cannot be read, or is in another shape, is asked again, and
//! one that cannot be written is not kept. A script (a version manager's shim) is asked every
//! time: the git it runs can change while the script does not.

use std::fs::Metadata;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::Git;

/// The name of the kept answer in the git directory.
pub const KEPT: &str = "handoff-git-version";
const MAGIC: &str = "git-handoff git-version 1\n";

/// git's version as (major, minor): kept in `git_dir` for the binary children run, else asked.
pub fn version(git: &Git, git_dir: &Path) -> Option<(u32, u32)> {
    let ask = || parse(&String::from_utf8_lossy(&git.output(["version"]).ok()?));
    match super::process::program_path() {
        Some(binary) => kept_or_asked(binary, &git_dir.join(KEPT), ask),
        None => ask(),
    }
}

/// The version kept at `kept` for `binary`, or `ask`ed and kept there.
fn kept_or_asked(
    binary: &Path,
    kept: &Path,
    ask: impl FnOnce() -> Option<(u32, u32)>,
) -> Option<(u32, u32)> {
    let Ok(meta) = std::fs::metadata(binary) else { return ask() };
    if is_script(binary) {
        return ask();
    }
    let identity = identity(binary, &meta);
    let read = std::fs::read(kept).ok();
    if let Some(version) = read.as_deref().and_then(|bytes| decode(bytes, &identity)) {
        return Some(version);
    }
    let version = ask()?;
    let _ = crate::util::fs::replace_unsynced(kept, &encode(&identity, version));
    Some(version)
}

/// Whether `binary` is a script (`#!`): a shim (asdf, mise, a wrapper) that runs some other git,
/// which can change while the script stays the same file, so its answer is never kept.
fn is_script(binary: &Path) -> bool {
    let mut start = [0; 2];
    std::fs::File::open(binary)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut start))
        .is_ok_and(|()| &start == b"#!")
}

/// What names the binary: its path, then what the file it leads to is now.
fn identity(binary: &Path, meta: &Metadata) -> Vec<u8> {
    let mut out = format!(
        "{} {} {} {}.{} {}.{}\n",
        meta.dev(),
        meta.ino(),
        meta.size(),
        meta.ctime(),
        meta.ctime_nsec(),
        meta.mtime(),
        meta.mtime_nsec()
    )
    .into_bytes();
    out.extend_from_slice(binary.as_os_str().as_bytes());
    out
}

/// The file: the magic line, the version line, then the identity (which ends the file, so a
/// path may hold any byte).
fn encode(identity: &[u8], (major, minor): (u32, u32)) -> Vec<u8> {
    let mut out = format!("{MAGIC}{major}.{minor}\n").into_bytes();
    out.extend_from_slice(identity);
    out
}

fn decode(bytes: &[u8], identity: &[u8]) -> Option<(u32, u32)> {
    let rest = bytes.strip_prefix(MAGIC.as_bytes())?;
    let end = rest.iter().position(|&b| b == b'\n')?;
    if &rest[end + 1..] != identity {
        return None;
    }
    let (major, minor) = std::str::from_utf8(&rest[..end]).ok()?.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// (major, minor) from what `git version` prints.
pub fn parse(text: &str) -> Option<(u32, u32)> {
    let mut numbers = text.strip_prefix("git version ")?.split(['.', ' ', '\n']);
    Some((numbers.next()?.parse().ok()?, numbers.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn versions_read_as_git_prints_them() {
        assert_eq!(parse("git version 2.47.3\n"), Some((2, 47)));
        assert_eq!(parse("git version 2.39.3 (Apple Git-145)\n"), Some((2, 39)));
        assert_eq!(parse("git version 2.45.1.windows.1\n"), Some((2, 45)));
        assert_eq!(parse("git version 3.0\n"), Some((3, 0)));
        assert_eq!(parse("hub version 2.14.2\n"), None);
    }

    #[test]
    fn the_answer_is_kept_until_the_binary_changes() {
        let dir = tempfile::tempdir().unwrap();
        let binary = dir.path().join("git with\nnewline");
        let kept = dir.path().join(KEPT);
        std::fs::write(&binary, "one").unwrap();
        let asked = Cell::new(0);
        let ask = |version| {
            asked.set(asked.get() + 1);
            Some(version)
        };
        assert_eq!(kept_or_asked(&binary, &kept, || ask((2, 47))), Some((2, 47)));
        assert_eq!(kept_or_asked(&binary, &kept, || ask((9, 9))), Some((2, 47)));
        assert_eq!(asked.get(), 1, "the second answer was the kept one");

        // Replaced in place: another size and change time.
        std::fs::write(&binary, "another").unwrap();
        assert_eq!(kept_or_asked(&binary, &kept, || ask((2, 20))), Some((2, 20)));
        assert_eq!(asked.get(), 2);
        // Another path to the same file.
        let other = dir.path().join("git2");
        std::fs::hard_link(&binary, &other).unwrap();
        assert_eq!(kept_or_asked(&other, &kept, || ask((2, 21))), Some((2, 21)));
        assert_eq!(asked.get(), 3);
    }

    #[test]
    fn a_damaged_or_unwritable_file_is_asked_again() {
        let dir = tempfile::tempdir().unwrap();
        let binary = dir.path().join("git");
        std::fs::write(&binary, "git").unwrap();
        let kept = dir.path().join(KEPT);
        assert_eq!(kept_or_asked(&binary, &kept, || Some((2, 47))), Some((2, 47)));
        let whole = std::fs::read(&kept).unwrap();
        for cut in [0, 5, MAGIC.len() + 2, whole.len() - 1] {
            std::fs::write(&kept, &whole[..cut]).unwrap();
            assert_eq!(kept_or_asked(&binary, &kept, || Some((2, 30))), Some((2, 30)), "{cut}");
            assert_eq!(kept_or_asked(&binary, &kept, || None), Some((2, 30)));
        }
        // No answer from git is not kept, and says nothing.
        std::fs::remove_file(&kept).unwrap();
        assert_eq!(kept_or_asked(&binary, &kept, || None), None);
        assert!(!kept.exists());
        // Nowhere to keep it (under a file): asked every time.
        let nowhere = binary.join(KEPT);
        assert_eq!(kept_or_asked(&binary, &nowhere, || Some((2, 1))), Some((2, 1)));
        assert_eq!(kept_or_asked(&binary, &nowhere, || Some((2, 2))), Some((2, 2)));
        // A script, which may run another git each time: asked every time.
        let shim = dir.path().join("shim");
        std::fs::write(&shim, "#!/bin/sh\nexec /usr/bin/git \"$@\"\n").unwrap();
        let shim_kept = dir.path().join("shim-kept");
        assert_eq!(kept_or_asked(&shim, &shim_kept, || Some((2, 3))), Some((2, 3)));
        assert_eq!(kept_or_asked(&shim, &shim_kept, || Some((2, 4))), Some((2, 4)));
        assert!(!shim_kept.exists());
        // No binary there: asked.
        assert_eq!(kept_or_asked(&dir.path().join("none"), &kept, || Some((1, 0))), Some((1, 0)));
    }
}
