//! The repository an invocation works on: where its git dir, common dir and work tree are, what
//! HEAD is, and how to resolve a revision. Discovery follows git: the current directory (after
//! `-C`), `GIT_DIR`, `GIT_WORK_TREE`, linked worktrees.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use gix::ObjectId;

use crate::git::Git;
use crate::git::notes_read;
use crate::git::pack_read::Packs;
use crate::git::walk::{Objects, Sources};

/// Whether git's command line or environment carries config (`git -c`, `GIT_CONFIG_COUNT`),
/// which gix does not read: an answer taken from gix's config could then differ from git's.
pub fn config_on_command_line() -> bool {
    ["GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"].iter().any(|k| std::env::var_os(k).is_some())
}

/// An open repository and the paths every command needs.
pub struct Repo {
    gix: gix::Repository,
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
        let repo = gix::ThreadSafeRepository::discover_with_environment_overrides(&cwd)
            .map_err(|err| {
                let err = anyhow!(
                    "not a git repository (or any parent up to /): {}: {err}; \
                     run this inside a work tree or pass -C <path>",
                    cwd.display()
                );
                crate::util::error::kinded(crate::util::error::Kind::Repository, err)
            })?
            .to_thread_local();
        let git_dir = absolute(repo.git_dir(), &cwd);
        let work_tree = repo.workdir().map(|p| absolute(p, &cwd));
        let common_dir = absolute(repo.common_dir(), &cwd);
        let sources = std::sync::OnceLock::new();
        let notes_cache = notes_read::NotesCache::default();
        let held_head = std::sync::OnceLock::new();
        Ok(Repo { gix: repo, git_dir, common_dir, work_tree, sources, notes_cache, held_head })
    }

    /// The repository as gix opened it.
    pub fn gix(&self) -> &gix::Repository {
        &self.gix
    }

    /// The repository as gix opened it, to change its in-memory configuration.
    pub fn gix_mut(&mut self) -> &mut gix::Repository {
        &mut self.gix
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
        let path = crate::util::paths::inside(self.top()?, rel, what)?;
        // The deepest part that exists, resolved: what lies below it does not exist yet.
        let mut existing = path.as_path();
        while !existing.exists() {
            let Some(parent) = existing.parent() else { break };
            existing = parent;
        }
        if existing == self.top()? {
            // Nothing of `rel` exists yet (a rules file not written, say): the deepest part that
            // does is the top, which the check below always passes. Three paths fewer resolved
            // link by link (27 system calls at every recall).
            return Ok(path);
        }
        let resolved = existing.canonicalize().unwrap_or_else(|_| existing.to_path_buf());
        let top = self.top()?.canonicalize().unwrap_or_else(|_| path.clone());
        for dir in [&self.git_dir, &self.common_dir] {
            let dir = dir.canonicalize().unwrap_or_else(|_| dir.clone());
            // A work tree kept inside its git directory: `..` is refused, so nothing gets out.
            if resolved.starts_with(&dir) && !top.starts_with(&dir) {
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

    /// Reads HEAD once for the rest of the command, for one that never moves it: recall asks
    /// for HEAD in four places, each a read of HEAD and of its branch's ref (14 system calls).
    /// A HEAD that cannot be read is not held: each place then reads it, and fails, as before.
    pub fn hold_head(&self) {
        if let Ok(head) = self.head() {
            let _ = self.held_head.set(head);
        }
    }

    /// Reads HEAD: branch (if any) and commit (if born); as first read, once it is held
    /// ([`Repo::hold_head`]).
    pub fn head(&self) -> Result<Head> {
        if let Some(held) = self.held_head.get() {
            return Ok(held.clone());
        }
        let head = self.gix().head().context("reading HEAD")?;
        let ref_name = head.referent_name().map(|n| n.as_bstr().to_string());
        let branch = head.referent_name().map(|n| n.shorten().to_string());
        let id = head.id().map(|id| id.detach());
        Ok(Head { branch, ref_name, id })
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
        self.sources.get_or_init(|| Sources::of(self.gix(), Packs::open(self.gix())))
    }

    /// An object reader: the packs and loose objects read plainly, gix for anything else.
    pub fn objects(&self) -> Objects {
        Objects::lazy(self.gix(), self.sources())
    }

    /// Resolves `rev` to a commit id as git does (`git rev-parse --verify REV^{commit}`).
    pub fn resolve_commit(&self, rev: &str) -> Result<ObjectId> {
        // A full object id names that object whatever refs exist (git only warns when a ref has
        // the same name), so it is resolved here, without starting git.
        if rev.len() == self.gix().object_hash().len_in_hex()
            && let Ok(id) = ObjectId::from_hex(rev.as_bytes())
            && let Some(commit) = self.commit_of(id)
        {
            return Ok(commit);
        }
        if let Some(found) = self.resolve_ref_name(rev) {
            return found.ok_or_else(|| {
                anyhow!(
                    "{rev:?} names a ref that is not a commit in {}; pass a branch, tag or \
                     commit id (see `git log --oneline`)",
                    self.git_dir.display()
                )
            });
        }
        let spec = format!("{rev}^{{commit}}");
        let out = self
            .git()
            .text(["rev-parse", "--verify", "--quiet", "--end-of-options", spec.as_str()])
            .ok()
            .filter(|s| !s.is_empty());
        let Some(hex) = out else {
            let err = anyhow!(
                "{rev:?} does not name a commit in {}; pass a branch, tag or commit id \
                 (see `git log --oneline`)",
                self.git_dir.display()
            );
            return Err(crate::util::error::kinded(crate::util::error::Kind::Input, err));
        };
        ObjectId::from_hex(hex.trim().as_bytes())
            .with_context(|| format!("git rev-parse printed {hex:?} for {rev:?}"))
    }

    /// A plain ref name (`main`, `v1.0`, `origin/main`, `refs/heads/x`) resolved as git's
    /// `rev-parse` resolves it, without starting git: the first of `refs/<rev>`,
    /// `refs/tags/<rev>`, `refs/heads/<rev>`, `refs/remotes/<rev>` and `refs/remotes/<rev>/HEAD`
    /// that exists wins (`<rev>` itself is first when it starts with `refs/`). `Some(None)` when
    /// the winning ref does not lead to a commit. `None` leaves the name to git: anything with
    /// revision syntax in it, a name that could be an abbreviated object id or a root ref such as
    /// `FETCH_HEAD` (`HEAD` itself is read here), config given on git's command line, refs not
    /// kept in files (reftable), and any ref that cannot be read cleanly.
    fn resolve_ref_name(&self, rev: &str) -> Option<Option<ObjectId>> {
        let plain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/');
        let bytes = rev.as_bytes();
        let risky = bytes.is_empty()
            || !bytes.iter().all(|&b| plain(b))
            || bytes.iter().all(u8::is_ascii_hexdigit)
            || bytes.iter().all(|&b| b.is_ascii_uppercase() || b == b'_')
            || matches!(bytes[0], b'-' | b'.' | b'/')
            || rev.ends_with(['/', '.'])
            || rev.ends_with(".lock")
            || rev.contains("..")
            || rev.contains("//")
            || rev.contains("/.");
        let from_command_line = config_on_command_line();
        let config = self.gix().config_snapshot();
        let storage = config.string("extensions.refStorage");
        if from_command_line || storage.is_some_and(|s| s.as_slice() != b"files") {
            return None;
        }
        if rev == "HEAD" {
            // This worktree's HEAD, which git reads before any ref of that name; an unborn one
            // is left to git, to say so.
            return self.gix().head_id().ok().map(|id| self.commit_of(id.detach()));
        }
        if risky {
            return None;
        }
        let direct = rev.starts_with("refs/").then(|| rev.to_string());
        let candidates = direct.into_iter().chain([
            format!("refs/{rev}"),
            format!("refs/tags/{rev}"),
            format!("refs/heads/{rev}"),
            format!("refs/remotes/{rev}"),
            format!("refs/remotes/{rev}/HEAD"),
        ]);
        for name in candidates {
            match self.gix().try_find_reference(name.as_str()) {
                Ok(None) => continue,
                Ok(Some(mut reference)) => {
                    // A symbolic ref that leads nowhere, or any other doubt: git decides.
                    let id = reference.peel_to_id().ok()?.detach();
                    return Some(self.commit_of(id));
                }
                Err(_) => return None,
            }
        }
        // No such ref: git may still read the name as something else.
        None
    }

    /// The merge-base of HEAD with its upstream, if there is an upstream.
    pub fn upstream_merge_base(&self) -> Option<ObjectId> {
        if !self.may_have_upstream() {
            return None;
        }
        let hex = self.git().text(["merge-base", "HEAD", "@{upstream}"]).ok()?;
        ObjectId::from_hex(hex.trim().as_bytes()).ok()
    }

    /// Whether HEAD's branch may have an upstream: false, without starting git, when HEAD is
    /// detached or its branch has no `branch.<name>.merge` (what `@{upstream}` needs).
    fn may_have_upstream(&self) -> bool {
        if config_on_command_line() {
            return true;
        }
        let Ok(head) = self.gix().head_name() else { return true };
        let Some(name) = head else { return false };
        let Some(branch) = name.as_bstr().strip_prefix(b"refs/heads/") else { return true };
        let config = self.gix().config_snapshot();
        config.string_by("branch", Some(branch.into()), "merge").is_some()
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
        ObjectId::empty_tree(self.gix().object_hash())
    }
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
    use super::absolute;

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
