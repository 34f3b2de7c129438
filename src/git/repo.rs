//! The repository an invocation works on: where its git dir, common dir and work tree are, what
//! HEAD is, and how to resolve a revision. Discovery follows git: the current directory (after
//! `-C`), `GIT_DIR`, `GIT_WORK_TREE`, linked worktrees.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;

use crate::git::Git;
use crate::git::notes_read;
use crate::git::pack_read::Packs;
use crate::git::plain_refs::PlainRefs;
use crate::git::quick_open::Quick;
use crate::git::walk::{Objects, Sources};

mod lent;
mod refs;

pub use lent::Lent;

/// Whether git's command line or environment carries config (`git -c`, `GIT_CONFIG_COUNT`),
/// which gix does not read: an answer taken from gix's config could then differ from git's.
pub fn config_on_command_line() -> bool {
    ["GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"].iter().any(|k| std::env::var_os(k).is_some())
}

/// An open repository and the paths every command needs.
pub struct Repo {
    /// Opened at once by [`Repo::discover`], on first use after [`Repo::discover_quick`].
    gix: std::cell::OnceCell<gix::Repository>,
    /// Where discovery began, for gix's own discovery when it is opened later.
    cwd: PathBuf,
    /// The refs read as files, when the quick look found the repository.
    plain: Option<PlainRefs>,
    /// This worktree's own git dir (`git rev-parse --git-dir`), absolute.
    pub git_dir: PathBuf,
    /// The git dir shared by all worktrees (`git rev-parse --git-common-dir`), absolute.
    pub common_dir: PathBuf,
    /// The top of the work tree, absolute; `None` in a bare repository.
    pub work_tree: Option<PathBuf>,
    /// Where objects are read from before gix, found on first use.
    sources: std::sync::OnceLock<Sources>,
    /// The tops of notes trees read so far, for the next lookup (see [`notes_read`]).
    pub notes_cache: notes_read::NotesCache,
    /// HEAD, once a command that never moves it asked to read it once ([`Repo::hold_head`]).
    held_head: std::sync::OnceLock<Head>,
    /// The object reader [`Repo::objects`] lends, between two loans.
    lent: std::sync::Mutex<Option<lent::Kept>>,
}

/// What HEAD points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The short branch name (`feature/x`), `None` when detached.
    pub branch: Option<String>,
    /// The full ref name (`refs/heads/feature/x`), `None` when detached.
    pub ref_name: Option<String>,
    /// The commit, `None` on an unborn branch.
    pub id: Option<ObjectId>,
}

impl Repo {
    /// Finds the repository from the current directory, honouring git's environment variables.
    pub fn discover() -> Result<Repo> {
        let cwd = std::env::current_dir().context("reading the current directory")?;
        let repo = discover_from(&cwd)?;
        let git_dir = absolute(repo.git_dir(), &cwd);
        let work_tree = repo.workdir().map(|p| absolute(p, &cwd));
        let common_dir = absolute(repo.common_dir(), &cwd);
        Ok(Repo {
            gix: std::cell::OnceCell::from(repo),
            cwd,
            plain: None,
            git_dir,
            common_dir,
            work_tree,
            sources: Default::default(),
            notes_cache: Default::default(),
            held_head: Default::default(),
            lent: Default::default(),
        })
    }

    /// [`Repo::discover`] for recall at every session start: a repository laid out the ordinary
    /// way is found by a quick look ([`Quick`]) and its refs read as files ([`PlainRefs`]); gix
    /// opens it, by its own discovery, only when something needs it. Anything unusual is found
    /// by [`Repo::discover`] itself.
    pub fn discover_quick() -> Result<Repo> {
        let cwd = std::env::current_dir().context("reading the current directory")?;
        let Some(found) = Quick::find(&cwd) else { return Repo::discover() };
        let Quick { git_dir, common_dir, work_tree, head } = found;
        Ok(Repo {
            gix: std::cell::OnceCell::new(),
            cwd,
            plain: Some(PlainRefs::new(git_dir.clone(), common_dir.clone()).with_head(head)),
            git_dir,
            common_dir,
            work_tree: Some(work_tree),
            sources: Default::default(),
            notes_cache: Default::default(),
            held_head: Default::default(),
            lent: Default::default(),
        })
    }

    /// The repository as gix opened it: for a repository found by the quick look, opened now by
    /// gix's own discovery from the same place, which finds the same repository (checked). An
    /// error is what discovery would have said at the start (a broken `~/.gitconfig`, say, which
    /// the quick look never reads); a command that writes asks this before its first write.
    pub fn try_gix(&self) -> Result<&gix::Repository> {
        if let Some(repo) = self.gix.get() {
            return Ok(repo);
        }
        let repo = discover_from(&self.cwd)?;
        let found = absolute(repo.git_dir(), &self.cwd);
        if found != self.git_dir {
            let err = anyhow!(
                "gix found the repository at {} where git-handoff's quick look found {}; run \
                 git-handoff with GIT_DIR set to the one git uses (`git rev-parse --git-dir`)",
                found.display(),
                self.git_dir.display()
            );
            return Err(crate::util::error::kinded(crate::util::error::Kind::Repository, err));
        }
        Ok(self.gix.get_or_init(|| repo))
    }

    /// [`Repo::try_gix`], for the many readers that cannot fail: opened already unless the quick
    /// look found the repository, and then only an unreadable config stops it, which ends the
    /// command as discovery would have ended it. Commands that write ask [`Repo::try_gix`] first.
    pub fn gix(&self) -> &gix::Repository {
        match self.try_gix() {
            Ok(repo) => repo,
            Err(err) => {
                let text = format!("error: {err:#}");
                eprintln!("{}", crate::util::text::escape_controls(&text, true));
                std::process::exit(i32::from(crate::util::error::Kind::Repository.exit_code()));
            }
        }
    }

    /// The repository as gix opened it, to change its in-memory configuration.
    pub fn gix_mut(&mut self) -> &mut gix::Repository {
        let _ = self.gix();
        self.gix.get_mut().expect("opened just above")
    }

    /// The hash the repository's objects are named by.
    pub fn object_hash(&self) -> gix::hash::Kind {
        match &self.plain {
            // The quick look found no `extensions.objectFormat`.
            Some(_) => gix::hash::Kind::Sha1,
            None => self.gix().object_hash(),
        }
    }

    /// The directory of the repository's objects.
    pub fn objects_dir(&self) -> PathBuf {
        match &self.plain {
            Some(_) => self.common_dir.join("objects"),
            None => self.gix().objects.store_ref().path().to_path_buf(),
        }
    }

    /// Whether objects are read plainly without gix at hand: the quick look found the repository
    /// and no replace refs apply (gix honours them).
    fn plain_objects(&self) -> bool {
        self.plain.as_ref().is_some_and(PlainRefs::no_replace_refs)
    }

    /// The top of the work tree, or an error for a bare repository.
    pub fn top(&self) -> Result<&Path> {
        self.work_tree.as_deref().ok_or_else(|| {
            let err = anyhow!(
                "{} is a bare repository; this command needs a work tree",
                self.git_dir.display()
            );
            crate::util::error::kinded(crate::util::error::Kind::Repository, err)
        })
    }

    /// `top/rel` for a file git-handoff reads or writes for the user (the note, the progress file,
    /// the rules): inside the work tree, through no symbolic link, and outside every git
    /// directory, also one kept in the work tree under another name (`--git-dir=.repo`).
    pub fn inside_work_tree(&self, rel: &str, what: &str) -> Result<PathBuf> {
        let top = self.top()?;
        // The deepest part that exists, through no link below the top (`paths::inside`). Where
        // the file system ignores case or normalises Unicode (macOS), `.REPO/hooks` names the git
        // dir `.repo` in other bytes: a git dir kept in the work tree is also compared as a file
        // (`kept_in_work_tree`). Resolving the path link by link, as before, took a `readlink`
        // a component at every recall.
        let (path, existing) = crate::util::paths::inside(top, rel, what)?;
        for dir in [&self.git_dir, &self.common_dir] {
            // A work tree kept inside its git directory: `..` is refused, so nothing gets out.
            if top.starts_with(dir) {
                continue;
            }
            if existing.starts_with(dir) || kept_in_work_tree(top, &existing, dir) {
                bail!(
                    "{what} {rel:?} is inside the git directory {}, where git keeps its config, \
                     index and hooks; git-handoff never writes there: choose a path in the work \
                     tree proper, like \".agent/progress.md\"",
                    dir.display()
                );
            }
        }
        Ok(path)
    }

    /// A runner for the real git binary bound to this repository.
    pub fn git(&self) -> Git {
        Git::new(self.git_dir.clone(), self.work_tree.clone())
    }

    /// Where the attempt state of this worktree lives: `<git dir>/handoff/`.
    pub fn handoff_dir(&self) -> PathBuf {
        self.git_dir.join("handoff")
    }

    /// The commit an object id names (peeling tags), if the repository has it and it is one.
    pub fn commit_of(&self, id: ObjectId) -> Option<ObjectId> {
        if id.is_null() {
            return None;
        }
        // Read as git reads it, without gix's store (which checks every pack index whole on
        // opening it): `validate --pre-push` asks this first of all.
        let mut objects = self.objects();
        let mut buf = Vec::new();
        let mut at = id;
        for _ in 0..16 {
            match objects.read(at, &mut buf).ok()? {
                gix::object::Kind::Commit => return Some(at),
                gix::object::Kind::Tag => {
                    at = gix::objs::TagRefIter::from_bytes(&buf, id.kind()).target_id().ok()?;
                }
                _ => return None,
            }
        }
        Some(self.gix().find_object(id).ok()?.peel_to_commit().ok()?.id)
    }

    /// Where objects are read from besides gix (see [`Objects`]), shared by every reader.
    pub fn sources(&self) -> &Sources {
        self.sources.get_or_init(|| {
            if self.plain_objects() {
                let dir = self.objects_dir();
                return Sources::at(&dir, Packs::at(&dir, self.object_hash()));
            }
            Sources::of(self.gix(), Packs::open(self.gix()))
        })
    }

    /// An object reader: the packs and loose objects read plainly, gix for anything else. The
    /// same reader is lent to each caller in turn ([`Lent`]), with the commits it read.
    pub fn objects(&self) -> Lent<'_> {
        Lent::from(&self.lent, || self.new_objects())
    }

    /// An object reader of its own, for a caller that keeps it.
    pub fn new_objects(&self) -> Objects {
        if self.gix.get().is_none() && self.plain_objects() {
            return Objects::deferred(self.objects_dir(), self.object_hash(), self.sources());
        }
        Objects::lazy(self.gix(), self.sources())
    }

    /// The index file git uses here: `GIT_INDEX_FILE` (relative to the current directory, as git
    /// reads it), else `<git dir>/index`.
    pub fn index_path(&self) -> Result<PathBuf> {
        match std::env::var_os("GIT_INDEX_FILE").filter(|v| !v.is_empty()) {
            Some(path) => {
                let path = PathBuf::from(path);
                if path.is_absolute() {
                    return Ok(path);
                }
                Ok(std::env::current_dir().context("reading the current directory")?.join(path))
            }
            None => Ok(self.git_dir.join("index")),
        }
    }

    /// The id of the empty tree in this repository's hash.
    pub fn empty_tree(&self) -> ObjectId {
        ObjectId::empty_tree(self.object_hash())
    }
}

/// The repository gix's discovery finds from `cwd`, git's environment honoured.
fn discover_from(cwd: &Path) -> Result<gix::Repository> {
    let found = gix::ThreadSafeRepository::discover_with_environment_overrides(cwd);
    let repo = found.map_err(|err| {
        let err = anyhow!(
            "not a git repository (or any parent up to /): {}: {err}; run this inside a work \
             tree or pass -C <path>",
            cwd.display()
        );
        crate::util::error::kinded(crate::util::error::Kind::Repository, err)
    })?;
    Ok(repo.to_thread_local())
}

/// Whether the git directory `dir`, kept in the work tree `top` under a name other than `.git`,
/// is `existing` or a directory above it (below `top`), compared as files (device and inode):
/// its name may be spelled in other bytes there. `.git` itself, in any spelling, is refused in
/// every path already (`paths::stays_inside`), so the usual layout costs no `stat`.
fn kept_in_work_tree(top: &Path, existing: &Path, dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(below) = dir.strip_prefix(top) else { return false };
    let mut parts = below.components();
    if let (Some(name), None) = (parts.next(), parts.next())
        && crate::util::paths::names_git_dir(&name.as_os_str().to_string_lossy())
    {
        return false;
    }
    let Ok(git_dir) = std::fs::metadata(dir) else { return false };
    let same = |m: std::fs::Metadata| m.dev() == git_dir.dev() && m.ino() == git_dir.ino();
    existing
        .ancestors()
        .take_while(|at| *at != top && at.starts_with(top))
        .any(|at| std::fs::symlink_metadata(at).is_ok_and(same))
}

fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    let joined = if path.is_absolute() { path.to_path_buf() } else { cwd.join(path) };
    // `cwd` comes from getcwd, which gives it with every symlink resolved, and so are the
    // directories above it: below the nearest of them, only the components `path` adds can be
    // symlinks, which one lstat each tells (a full canonicalize reads every component of the
    // path as a link, for three paths at every start).
    let mut ancestors = cwd.ancestors();
    let found = ancestors.find_map(|a| Some((a, joined.strip_prefix(a).ok()?)));
    if let Some((top, below)) = found
        && below.components().all(|c| matches!(c, std::path::Component::Normal(_)))
    {
        let mut at = top.to_path_buf();
        let plain = below.components().all(|c| {
            at.push(c);
            std::fs::symlink_metadata(&at).is_ok_and(|m| !m.file_type().is_symlink())
        });
        if plain {
            return at;
        }
    }
    std::fs::canonicalize(&joined).unwrap_or(joined)
}

#[cfg(test)]
mod tests {
    use super::{absolute, kept_in_work_tree};

    #[test]
    fn a_git_dir_kept_in_the_work_tree_is_found_as_a_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let top = std::fs::canonicalize(dir.path()).expect("canonical");
        for made in [".repo/hooks", ".git/hooks", "src", "outside"] {
            std::fs::create_dir_all(top.join(made)).expect("dirs");
        }
        let repo = top.join(".repo");
        assert!(kept_in_work_tree(&top, &top.join(".repo/hooks"), &repo));
        assert!(kept_in_work_tree(&top, &repo, &repo));
        assert!(!kept_in_work_tree(&top, &top.join("src"), &repo));
        assert!(!kept_in_work_tree(&top, &top, &repo));
        // `.git` is refused in every path already; a git dir outside the work tree is not in it.
        assert!(!kept_in_work_tree(&top, &top.join(".git/hooks"), &top.join(".git")));
        let outside = top.join("outside");
        assert!(!kept_in_work_tree(&top.join("src"), &top.join("src"), &outside));
    }

    #[cfg(unix)]
    #[test]
    fn a_path_is_made_absolute_as_canonicalize_makes_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let top = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::create_dir_all(top.join("real/sub")).expect("dirs");
        std::os::unix::fs::symlink(top.join("real"), top.join("link")).expect("symlink");
        let cwd = top.join("real/sub");
        for path in ["x", "../sub", "../../link/sub", ".", "missing/y"] {
            let joined = cwd.join(path);
            let expected = std::fs::canonicalize(&joined).unwrap_or(joined);
            assert_eq!(absolute(std::path::Path::new(path), &cwd), expected, "{path}");
        }
        std::fs::create_dir(cwd.join("x")).expect("dir");
        assert_eq!(absolute(std::path::Path::new("x"), &cwd), cwd.join("x"));
        // Absolute paths: above the working directory, and through a symlink.
        assert_eq!(absolute(&top.join("real"), &cwd), top.join("real"));
        assert_eq!(absolute(&top.join("link/sub"), &cwd), top.join("real/sub"));
    }
}
