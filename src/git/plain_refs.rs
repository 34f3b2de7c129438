//! Refs read as git's files backend keeps them (a loose ref's file, then `packed-refs`), for a
//! repository the quick look found ([`crate::git::quick_open`]): recall reads HEAD, its branch and
//! the notes refs without opening gix.
//!
//! Each reader answers only what it can read plainly and says `None` for the rest: a name with
//! anything unusual in it, a per-worktree ref, a file it cannot parse, a symbolic ref that leads
//! nowhere, a listing with a link in it. The caller then asks gix, so an answer never differs
//! from gix's.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use gix::ObjectId;

/// The refs of one worktree of a repository found by the quick look.
#[derive(Debug)]
pub struct PlainRefs {
    git_dir: PathBuf,
    common_dir: PathBuf,
    /// `packed-refs` as last read, with the stat data it was read at: read again when that
    /// changed (a `git pack-refs` beside us moves loose refs into it).
    packed: Mutex<Option<Packed>>,
    /// Whether there are no replace refs, once asked.
    unreplaced: OnceLock<bool>,
    /// HEAD's content as already read (by the quick look), for the first read of HEAD.
    first_head: Mutex<Option<Vec<u8>>>,
}

/// `packed-refs` as read: its identity and time when read (`None`: there was none), and its
/// bytes (empty when there was none).
#[derive(Debug)]
struct Packed {
    stamp: Option<(u64, u64, i64, i64)>,
    bytes: Arc<[u8]>,
}

/// What HEAD holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlainHead {
    /// On a branch (`refs/heads/...`), with its commit when it is born.
    Branch(String, Option<ObjectId>),
    Detached(ObjectId),
}

/// A loose ref file's content.
enum Content<'a> {
    Id(ObjectId),
    Symbolic(&'a str),
}

/// How many symbolic refs a lookup follows (git's own limit is 5).
const MAX_DEPTH: usize = 5;

impl PlainRefs {
    pub fn new(git_dir: PathBuf, common_dir: PathBuf) -> PlainRefs {
        let (packed, unreplaced, first_head) = Default::default();
        PlainRefs { git_dir, common_dir, packed, unreplaced, first_head }
    }

    /// These refs with HEAD's content `head` as just read, so the first read of HEAD is not made
    /// again.
    pub fn with_head(self, head: Vec<u8>) -> PlainRefs {
        *self.first_head.lock().unwrap_or_else(|e| e.into_inner()) = Some(head);
        self
    }

    /// Whether no replace ref exists (`refs/replace/`): gix honours them, reading objects
    /// plainly would not.
    pub fn no_replace_refs(&self) -> bool {
        let none = || self.names_under("refs/replace/").is_some_and(|names| names.is_empty());
        *self.unreplaced.get_or_init(none)
    }

    /// HEAD: the branch it names (a branch's file missing everywhere is an unborn branch), or the
    /// commit it holds.
    pub fn head(&self) -> Option<PlainHead> {
        let first = self.first_head.lock().unwrap_or_else(|e| e.into_inner()).take();
        let bytes = match first {
            Some(bytes) => bytes,
            None => std::fs::read(self.git_dir.join("HEAD")).ok()?,
        };
        match content(&bytes)? {
            Content::Id(id) => Some(PlainHead::Detached(id)),
            Content::Symbolic(name) if name.starts_with("refs/heads/") && plain_name(name) => {
                Some(PlainHead::Branch(name.to_string(), self.resolve(name, 0)?))
            }
            Content::Symbolic(_) => None,
        }
    }

    /// The object the ref `name` leads to, symbolic refs followed; `Some(None)` when there is no
    /// such ref.
    pub fn id(&self, name: &str) -> Option<Option<ObjectId>> {
        self.resolve(name, 0)
    }

    fn resolve(&self, name: &str, depth: usize) -> Option<Option<ObjectId>> {
        if depth > MAX_DEPTH || !plain_name(name) {
            return None;
        }
        let found = match std::fs::read(self.common_dir.join(name)) {
            Ok(bytes) => match content(&bytes)? {
                Content::Id(id) => Some(id),
                Content::Symbolic(target) => return self.resolve(target, depth + 1),
            },
            Err(err) if is_absent(&err) => self.packed_id(name)?,
            Err(_) => return None,
        };
        // A symbolic ref to nothing: gix says why.
        if found.is_none() && depth > 0 {
            return None;
        }
        Some(found)
    }

    /// The ref named `name` in `packed-refs`, if it is there.
    fn packed_id(&self, name: &str) -> Option<Option<ObjectId>> {
        let packed = self.packed()?;
        for entry in packed_entries(&packed) {
            let (hex, listed) = entry?;
            if listed == name.as_bytes() {
                return Some(Some(ObjectId::from_hex(hex).ok()?));
            }
        }
        Some(None)
    }

    /// `packed-refs` (empty when there is none), read again only when its stat data changed;
    /// `None` when it cannot be read.
    fn packed(&self) -> Option<Arc<[u8]>> {
        use std::os::unix::fs::MetadataExt;
        let path = self.common_dir.join("packed-refs");
        let stamp = match std::fs::metadata(&path) {
            Ok(meta) => Some((meta.ino(), meta.len(), meta.mtime(), meta.mtime_nsec())),
            Err(err) if err.kind() == ErrorKind::NotFound => None,
            Err(_) => return None,
        };
        let mut kept = self.packed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(packed) = kept.as_ref().filter(|p| p.stamp == stamp) {
            return Some(packed.bytes.clone());
        }
        let bytes: Arc<[u8]> = match stamp {
            Some(_) => std::fs::read(&path).ok()?.into(),
            None => Arc::from(Vec::new()),
        };
        *kept = Some(Packed { stamp, bytes: bytes.clone() });
        Some(bytes)
    }

    /// The names of every ref under `prefix` (which ends in `/`), loose and packed, sorted.
    pub fn names_under(&self, prefix: &str) -> Option<Vec<String>> {
        if !prefix.ends_with('/') || !plain_name(prefix.trim_end_matches('/')) {
            return None;
        }
        let mut names = Vec::new();
        self.loose_under(&self.common_dir.join(prefix), prefix, &mut names)?;
        let packed = self.packed()?;
        for entry in packed_entries(&packed) {
            let name = std::str::from_utf8(entry?.1).ok()?;
            if name.starts_with(prefix) {
                if !plain_name(name) {
                    return None;
                }
                names.push(name.to_string());
            }
        }
        names.sort();
        names.dedup();
        Some(names)
    }

    /// The loose refs in `dir` (named `prefix`) and below it, each a file that holds a ref.
    fn loose_under(&self, dir: &Path, prefix: &str, names: &mut Vec<String>) -> Option<()> {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) if is_absent(&err) => return Some(()),
            Err(_) => return None,
        };
        for entry in entries {
            let entry = entry.ok()?;
            let name = format!("{prefix}{}", entry.file_name().to_str()?);
            let kind = entry.file_type().ok()?;
            if kind.is_dir() {
                self.loose_under(&entry.path(), &format!("{name}/"), names)?;
            } else if kind.is_file() && plain_name(&name) {
                content(&std::fs::read(entry.path()).ok()?)?;
                names.push(name);
            } else {
                return None;
            }
        }
        Some(())
    }
}

/// The refs `packed-refs` lists, each its object id's hex and its name (the header and the peeled
/// lines left out); `None` for a line git would not have written (CRLF, say), which is gix's to
/// read.
fn packed_entries(packed: &[u8]) -> impl Iterator<Item = Option<(&[u8], &[u8])>> {
    let listed = packed.split(|&b| b == b'\n');
    listed.filter(|line| !line.is_empty() && line[0] != b'#' && line[0] != b'^').map(|line| {
        let (hex, rest) = line.split_at_checked(40)?;
        let name = rest.strip_prefix(b" ").filter(|name| !name.ends_with(b"\r"))?;
        Some((hex, name))
    })
}

/// Whether reading the ref's file failed because it is not there (nothing, a directory, or a
/// file where a directory of its path should be).
fn is_absent(err: &std::io::Error) -> bool {
    matches!(err.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory | ErrorKind::IsADirectory)
}

/// A loose ref file's content: an object id, or `ref: <name>`, each with its newline.
fn content(bytes: &[u8]) -> Option<Content<'_>> {
    let text = std::str::from_utf8(bytes.strip_suffix(b"\n")?).ok()?;
    match text.strip_prefix("ref: ") {
        Some(name) => plain_name(name).then_some(Content::Symbolic(name)),
        None if text.len() == 40 => ObjectId::from_hex(text.as_bytes()).ok().map(Content::Id),
        None => None,
    }
}

/// A ref name the files backend keeps under the common dir, in the plainest spelling: `refs/`
/// and components of letters, digits and `-_.+`, none starting with a dot or ending in `.lock`;
/// not a per-worktree ref (`refs/bisect/`, `refs/worktree/`, `refs/rewritten/`).
fn plain_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("refs/") else { return false };
    let per_worktree = ["bisect/", "worktree/", "rewritten/"];
    !rest.is_empty()
        && !per_worktree.iter().any(|p| rest.starts_with(p))
        && rest.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && !part.ends_with(".lock")
                && !part.contains("..")
                && part.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.+".contains(&b))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "1111111111111111111111111111111111111111";
    const B: &str = "2222222222222222222222222222222222222222";

    fn refs() -> (tempfile::TempDir, PlainRefs) {
        let dir = tempfile::tempdir().expect("temp dir");
        let git = dir.path().to_path_buf();
        std::fs::create_dir_all(git.join("refs/heads")).expect("dirs");
        (dir, PlainRefs::new(git.clone(), git))
    }

    fn id(hex: &str) -> ObjectId {
        ObjectId::from_hex(hex.as_bytes()).expect("hex")
    }

    #[test]
    fn loose_refs_come_before_packed_ones_and_symbolic_refs_are_followed() {
        let (dir, refs) = refs();
        let git = dir.path();
        let packed =
            format!("# pack-refs with: peeled\n{B} refs/heads/main\n{B} refs/tags/v1\n^{A}\n");
        std::fs::write(git.join("packed-refs"), packed).expect("packed");
        std::fs::write(git.join("refs/heads/main"), format!("{A}\n")).expect("loose");
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").expect("HEAD");
        assert_eq!(refs.id("refs/heads/main"), Some(Some(id(A))));
        assert_eq!(refs.id("refs/tags/v1"), Some(Some(id(B))));
        assert_eq!(refs.id("refs/tags/v2"), Some(None));
        assert_eq!(refs.head(), Some(PlainHead::Branch("refs/heads/main".into(), Some(id(A)))));
        std::fs::write(git.join("refs/heads/alias"), "ref: refs/tags/v1\n").expect("symbolic");
        assert_eq!(refs.id("refs/heads/alias"), Some(Some(id(B))));
        // To nothing, or unreadable: gix is asked.
        std::fs::write(git.join("refs/heads/gone"), "ref: refs/heads/none\n").expect("dangling");
        assert_eq!(refs.id("refs/heads/gone"), None);
        std::fs::write(git.join("refs/heads/bad"), "not a ref\n").expect("bad");
        assert_eq!(refs.id("refs/heads/bad"), None);
        assert_eq!(refs.id("refs/heads/a b"), None);
        assert_eq!(refs.id("refs/worktree/x"), None);
        assert_eq!(refs.id("HEAD"), None);
        // A line git would not have written: gix reads it.
        std::fs::write(git.join("packed-refs"), format!("{B} refs/tags/v3\r\n")).expect("crlf");
        assert_eq!(refs.id("refs/tags/v3"), None);
        assert_eq!(refs.names_under("refs/tags/"), None);
    }

    #[test]
    fn head_on_an_unborn_branch_or_detached() {
        let (dir, refs) = refs();
        std::fs::write(dir.path().join("HEAD"), "ref: refs/heads/new\n").expect("HEAD");
        assert_eq!(refs.head(), Some(PlainHead::Branch("refs/heads/new".into(), None)));
        std::fs::write(dir.path().join("HEAD"), format!("{B}\n")).expect("HEAD");
        assert_eq!(refs.head(), Some(PlainHead::Detached(id(B))));
        std::fs::write(dir.path().join("HEAD"), "ref: refs/remotes/origin/x\n").expect("HEAD");
        assert_eq!(refs.head(), None);
    }

    #[test]
    fn names_under_a_prefix_are_loose_and_packed_merged_and_sorted() {
        let (dir, refs) = refs();
        let git = dir.path();
        assert_eq!(refs.names_under("refs/notes/remotes/"), Some(vec![]));
        std::fs::create_dir_all(git.join("refs/notes/remotes/b")).expect("dirs");
        std::fs::write(git.join("refs/notes/remotes/b/handoff"), format!("{A}\n")).expect("b");
        let packed =
            format!("{B} refs/notes/remotes/a/handoff\n{B} refs/notes/remotes/b/handoff\n");
        std::fs::write(git.join("packed-refs"), packed).expect("packed");
        let names = refs.names_under("refs/notes/remotes/").expect("plain");
        assert_eq!(names, ["refs/notes/remotes/a/handoff", "refs/notes/remotes/b/handoff"]);
        std::fs::write(git.join("refs/notes/remotes/b/broken"), "x\n").expect("broken");
        assert_eq!(refs.names_under("refs/notes/remotes/"), None);
    }
}
