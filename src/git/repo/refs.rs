//! Refs and revisions: HEAD, a ref name or revision resolved to its commit as git's `rev-parse`
//! resolves it, and HEAD's upstream.

use anyhow::{Context, Result, anyhow};
use gix::ObjectId;

use super::{Head, Repo, config_on_command_line};
use crate::git::plain_refs::{PlainHead, PlainRefs};

impl Repo {
    /// The object the ref `name` (a full name: `refs/notes/handoff`) leads to, symbolic refs
    /// followed; `None` when there is no such ref.
    pub fn ref_id(&self, name: &str) -> Result<Option<ObjectId>> {
        if let Some(found) = self.plain.as_ref().and_then(|refs| refs.id(name)) {
            return Ok(found);
        }
        let Some(mut reference) = self.gix().try_find_reference(name)? else { return Ok(None) };
        Ok(Some(reference.follow_to_object()?.detach()))
    }

    /// The full names of the refs under `prefix` (ending in `/`), sorted; one that cannot be
    /// read is left out, for git to report.
    pub fn ref_names_under(&self, prefix: &str) -> Result<Vec<String>> {
        if let Some(names) = self.plain.as_ref().and_then(|refs| refs.names_under(prefix)) {
            return Ok(names);
        }
        let platform = self.gix().references()?;
        let names = platform.prefixed(prefix)?.flatten();
        Ok(names.map(|reference| reference.name().as_bstr().to_string()).collect())
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
        if let Some(head) = self.plain.as_ref().and_then(PlainRefs::head) {
            return Ok(match head {
                PlainHead::Branch(name, id) => {
                    let branch = name.strip_prefix("refs/heads/").map(str::to_string);
                    Head { branch, ref_name: Some(name), id }
                }
                PlainHead::Detached(id) => Head { branch: None, ref_name: None, id: Some(id) },
            });
        }
        let head = self.gix().head().context("reading HEAD")?;
        let ref_name = head.referent_name().map(|n| n.as_bstr().to_string());
        let branch = head.referent_name().map(|n| n.shorten().to_string());
        let id = head.id().map(|id| id.detach());
        Ok(Head { branch, ref_name, id })
    }

    /// Resolves `rev` to a commit id as git does (`git rev-parse --verify REV^{commit}`).
    pub fn resolve_commit(&self, rev: &str) -> Result<ObjectId> {
        // A full object id names that object whatever refs exist (git only warns when a ref has
        // the same name), so it is resolved here, without starting git.
        if rev.len() == self.object_hash().len_in_hex()
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
}
