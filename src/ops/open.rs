//! The one way in: every command, the MCP server's tools and the hooks open the repository here.
//! It is discovered from the current directory (git's environment honoured: `GIT_DIR`,
//! `GIT_WORK_TREE`, linked worktrees), what a killed seal or note left is swept first (a
//! quarantine may hold a secret's blob), and `.handoff.toml` is read one of two ways:
//!
//! - [`Configuration::Strict`]: a configuration that cannot be used whole is an error of kind
//!   `config` (exit 2, `file:line`, how to mend) — for commands that only read or report;
//! - [`Configuration::Saving`]: for what saves work at the end of a session (`start`, `seal`,
//!   `note`, `recall --hook`, the MCP note): every key that parses is kept, the rest falls back to
//!   the defaults, and the problems (`file:line`, the same words) are returned to be told.
//!
//! `record` alone takes a shorter path (`Location::find`, no sweep): it runs on every tool call,
//! and reads the configuration the `Saving` way.

use anyhow::Result;

use crate::git::repo::Repo;
use crate::model::config::Config;

/// How the configuration is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Configuration {
    Strict,
    Saving,
}

/// The repository and its configuration, as opened.
pub struct Opened {
    pub repo: Repo,
    pub config: Config,
    /// What of the configuration could not be used (only when opened for saving).
    pub problems: Vec<String>,
}

/// Opens the repository of the current directory with its configuration.
pub fn open(how: Configuration) -> Result<Opened> {
    let repo = repo()?;
    let (config, problems) = configuration(&repo, how)?;
    Ok(Opened { repo, config, problems })
}

/// The configuration of `repo`, read `how`; for a caller that needs the repository first (the
/// command line settles its colours from git's config before a configuration error is shown).
pub fn configuration(repo: &Repo, how: Configuration) -> Result<(Config, Vec<String>)> {
    let top = repo.top().ok();
    Ok(match how {
        Configuration::Strict => (Config::load(top)?, Vec::new()),
        Configuration::Saving => Config::load_for_saving(top),
    })
}

/// The repository of the current directory, without its configuration, swept of what killed
/// commands left.
pub fn repo() -> Result<Repo> {
    swept(Repo::discover()?)
}

/// [`repo`] for recall at every session start, found by a quick look where it is laid out the
/// ordinary way ([`Repo::discover_quick`]: gix opened only when needed).
pub fn repo_quick() -> Result<Repo> {
    swept(Repo::discover_quick()?)
}

fn swept(repo: Repo) -> Result<Repo> {
    crate::util::leftovers::clear_repository(&repo.git_dir, &repo.objects_dir());
    Ok(repo)
}
