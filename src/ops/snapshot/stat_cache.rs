//! The lines of the narrowed diff's second part, kept for the next snapshot in
//! `<git dir>/handoff-snapshot-stat` (beside the directory names of [`dir_cache`](super::dir_cache)).
//!
//! The second part (see [`narrowed_diff`](super::narrowed_diff)) holds only files HEAD changed
//! since the base that the walk found clean: for each, git diffs the base's blob against the
//! index's, both named by their ids. So its lines are known from the ids, the paths and what
//! git's diff reads besides them: the attributes (every `.gitattributes` in the index, by id, and
//! `info/attributes` and `core.attributesFile`, by size and time), the `diff.*` config, and git
//! itself (its binary, by size and time). All of these go into the key; a `.gitattributes` the
//! index does not hold, which git reads too, keeps anything from being kept (see
//! [`narrowed`](super::narrowed_diff::narrowed)). An attempt's base stays
//! put while the agent works and HEAD moves only when it commits, so from the second snapshot on
//! the paths HEAD changed cost nothing but the key: on a base 35 commits back on the generated
//! 30k-file tree, 750 of the 974 paths diffed.
//!
//! The file is only ever replaced whole (a rename) and ends in a checksum; one that cannot be
//! read, is cut short or torn, is of another version or holds another key is ignored, and one
//! that cannot be written is not.

use std::path::{Path, PathBuf};

use gix::ObjectId;

const MAGIC: &[u8] = b"git-handoff snapshot-stat 1\n";
/// The name of the kept lines in the git directory.
pub(super) const FILE: &str = "handoff-snapshot-stat";
/// Lines longer than this are not kept (a diff of that many files is rare, and costly anyway).
const MAX_BYTES: usize = 8 << 20;

/// What the second part's lines depend on, fed in as the part is made; [`Key::finish`] gives the
/// key.
pub(super) struct Key {
    hasher: gix::hash::Hasher,
}

impl Key {
    /// A key for a diff against `base` in the repository whose git dir is `git_dir`, beginning
    /// with what the diff reads besides the paths: config, attributes files outside the index,
    /// and git itself.
    pub(super) fn new(repo: &gix::Repository, base: &str) -> Key {
        let mut key = Key { hasher: gix::hash::hasher(repo.object_hash()) };
        key.feed(MAGIC);
        key.feed(base.as_bytes());
        // Every `diff`, `core` and `attr` section as written (drivers, algorithm, quoting, the
        // attributes file, `attr.tree`, ...).
        key.feed_sections(repo, &[b"diff", b"core", b"attr"]);
        let config = repo.config_snapshot();
        for var in ["GIT_ATTR_SOURCE", "GIT_ATTR_NOSYSTEM"] {
            key.feed(std::env::var_os(var).unwrap_or_default().as_encoded_bytes());
        }
        // The attributes files outside the index: the repository's, the user's (as set, or
        // git's default under XDG_CONFIG_HOME or ~/.config), the system's beside git's prefix.
        let mut files = vec![repo.common_dir().join("info/attributes")];
        files.extend(config.trusted_path("core.attributesFile").ok().flatten());
        let xdg = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config"));
        files.extend(xdg.or(home).map(|dir| dir.join("git/attributes")));
        if let Some(git) = crate::git::process::program_path() {
            files.push(git.to_path_buf());
            let prefix = git.parent().and_then(Path::parent);
            files.extend(prefix.map(|p| p.join("etc/gitattributes")));
            files.push(PathBuf::from("/etc/gitattributes"));
        }
        for path in &files {
            key.feed_file(path);
        }
        key
    }

    /// Feeds every config section of one of these names, as written.
    pub(super) fn feed_sections(&mut self, repo: &gix::Repository, names: &[&[u8]]) {
        let config = repo.config_snapshot();
        for section in config.plumbing().sections() {
            let name = section.header().name();
            if names.iter().any(|n| name.eq_ignore_ascii_case(n)) {
                self.feed(section.to_bstring().as_ref());
            }
        }
    }

    /// Feeds `bytes`, with its length so that no two feeds run together.
    pub(super) fn feed(&mut self, bytes: &[u8]) {
        self.hasher.update(&(bytes.len() as u64).to_be_bytes());
        self.hasher.update(bytes);
    }

    /// Feeds a path, a mode and an id.
    pub(super) fn feed_entry(&mut self, path: &[u8], mode: u32, id: &ObjectId) {
        self.feed(path);
        self.hasher.update(&mode.to_be_bytes());
        self.hasher.update(id.as_bytes());
    }

    /// Feeds a file's path, size and modification time (nothing of it where there is none).
    fn feed_file(&mut self, path: &Path) {
        use std::os::unix::fs::MetadataExt;
        self.feed(path.as_os_str().as_encoded_bytes());
        if let Ok(meta) = std::fs::metadata(path) {
            self.hasher.update(&meta.len().to_be_bytes());
            self.hasher.update(&meta.mtime().to_be_bytes());
            self.hasher.update(&meta.mtime_nsec().to_be_bytes());
            self.hasher.update(&meta.ino().to_be_bytes());
        }
    }

    /// The key, as hex; `None` if hashing failed (a SHA-1 collision attack detected).
    pub(super) fn finish(self) -> Option<String> {
        self.hasher.try_finalize().ok().map(|id| id.to_string())
    }
}

/// Where the second part's (`second`'s) lines are kept (the git dir and their key), and the lines an earlier
/// snapshot kept there under the same key; neither with `attributes_outside`.
pub(super) fn for_part(
    repo: &gix::Repository,
    base: &str,
    second: &super::narrowed_parts::Entries<'_>,
    attributes_outside: bool,
) -> (Option<(PathBuf, String)>, Option<Vec<u8>>) {
    let keep = (second.count > 0 && !attributes_outside).then(|| {
        let mut key = Key::new(repo, base);
        for (path, (mode, id)) in second.base.iter().chain(&second.ids) {
            key.feed_entry(path, *mode, id);
        }
        key.finish().map(|key| (repo.git_dir().to_path_buf(), key))
    });
    let keep = keep.flatten();
    let kept = keep.as_ref().and_then(|(git_dir, key)| read(git_dir, key));
    (keep, kept)
}

/// The lines kept under `key` in `git_dir`, if those are the ones kept.
pub(super) fn read(git_dir: &Path, key: &str) -> Option<Vec<u8>> {
    let path = git_dir.join(FILE);
    let data =
        crate::util::fs::read_regular(&path, MAX_BYTES as u64 + 4096, "the snapshot's kept stat")
            .ok()?;
    let body = verified(&data)?;
    let rest = body.strip_prefix(MAGIC)?;
    let rest = rest.strip_prefix(key.as_bytes())?;
    let lines = rest.strip_prefix(b"\n")?;
    Some(lines.to_vec())
}

/// Keeps `lines` under `key` in `git_dir`, replacing what was kept; failing, keeps nothing.
pub(super) fn write(git_dir: &Path, key: &str, lines: &[u8]) {
    if lines.len() > MAX_BYTES {
        return;
    }
    let mut data = Vec::with_capacity(MAGIC.len() + key.len() + lines.len() + 80);
    data.extend_from_slice(MAGIC);
    data.extend_from_slice(key.as_bytes());
    data.push(b'\n');
    data.extend_from_slice(lines);
    let sum = checksum(&data);
    data.extend_from_slice(sum.as_bytes());
    let _ = crate::util::fs::replace_unsynced(&git_dir.join(FILE), &data);
}

/// The bytes before the checksum at the end of `data`, if it is theirs.
pub(super) fn verified(data: &[u8]) -> Option<&[u8]> {
    let at = data.len().checked_sub(CHECKSUM_LEN)?;
    let (body, sum) = data.split_at(at);
    (checksum(body).as_bytes() == sum).then_some(body)
}

const CHECKSUM_LEN: usize = 40;

/// The SHA-1 of `data`, in hex (whatever the repository's hash: it only tells a torn file).
pub(super) fn checksum(data: &[u8]) -> String {
    let mut hasher = gix::hash::hasher(gix::hash::Kind::Sha1);
    hasher.update(data);
    hasher.try_finalize().map(|id| id.to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_lines_come_back_only_under_their_key_and_whole() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "k1", b"1\t2\ta.txt\0");
        assert_eq!(read(dir.path(), "k1").as_deref(), Some(&b"1\t2\ta.txt\0"[..]));
        assert_eq!(read(dir.path(), "k2"), None);
        let path = dir.path().join(FILE);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[MAGIC.len() + 3] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read(dir.path(), "k1"), None, "torn");
        std::fs::write(&path, &bytes[..10]).unwrap();
        assert_eq!(read(dir.path(), "k1"), None, "cut short");
    }
}
