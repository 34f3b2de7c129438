//! What every command gets besides its own arguments: the [`Ctx`] (the output format, where
//! warnings go), [`Ctx::open`] that finds the repository and loads its configuration (through
//! the one way in, [`crate::ops::open`], with the colours settled first), and
//! the attempt overrides several commands take ([`AttemptArgs`]). A leaf of the command layer: it
//! imports no command, so every command can import it.

use anyhow::Result;
use clap::Args;

use crate::cli::output;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::ops::open::{self, Configuration};

/// What every command gets besides its own arguments.
pub struct Ctx {
    pub json: bool,
}

impl Ctx {
    /// Prints a warning on the error stream (stdout stays the command's data).
    pub fn warn(&self, text: &str) {
        output::warn(text);
    }

    /// The repository the command runs in (found as git finds it, after `-C`) and its
    /// `.handoff.toml`, read strictly ([`Configuration::Strict`]). The colour is settled from the
    /// repository's config first, for the commands that asked for that
    /// ([`output::AskGit::FromRepo`]), so an error in the configuration is styled as git would
    /// style it.
    pub fn open(&self) -> Result<(Repo, Config)> {
        let repo = Self::repo()?;
        let (config, _) = open::configuration(&repo, Configuration::Strict)?;
        Ok((repo, config))
    }

    /// As [`Ctx::open`], for a command that saves work at the end (`start`, `seal`, `note`,
    /// `recall --hook`): a configuration it cannot take whole never stops it. What it could not
    /// use falls back to the defaults ([`Configuration::Saving`]), is warned of, and is returned
    /// for the emergency note.
    pub fn open_saving(&self) -> Result<(Repo, Config, Vec<String>)> {
        self.saving(Self::repo()?)
    }

    /// [`Ctx::open_saving`] for recall at every session start: the repository is found by a
    /// quick look where it is laid out the ordinary way, gix opened only when needed
    /// ([`open::repo_quick`]).
    pub fn open_saving_quick(&self) -> Result<(Repo, Config, Vec<String>)> {
        let repo = open::repo_quick()?;
        output::settle_color_from(&repo);
        self.saving(repo)
    }

    fn saving(&self, repo: Repo) -> Result<(Repo, Config, Vec<String>)> {
        let (config, problems) = open::configuration(&repo, Configuration::Saving)?;
        for problem in &problems {
            self.warn(problem);
        }
        Ok((repo, config, problems))
    }

    /// The repository, as [`Ctx::open`] finds it ([`open::repo`]), without its configuration.
    pub fn repo() -> Result<Repo> {
        let repo = open::repo()?;
        output::settle_color_from(&repo);
        Ok(repo)
    }
}

/// Overrides of the attempt state, so a runtime can stay stateless.
#[derive(Debug, Clone, Default, Args)]
pub struct AttemptArgs {
    /// The issue number this attempt works on (overrides the attempt state).
    #[arg(long, value_name = "N")]
    pub issue: Option<u64>,

    /// The base revision of the attempt (overrides the attempt state).
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,

    /// When the attempt began, RFC 3339 (overrides the attempt state).
    #[arg(long, value_name = "TIME")]
    pub started_at: Option<String>,
}

impl From<&AttemptArgs> for crate::agent::attempt::Overrides {
    fn from(args: &AttemptArgs) -> Self {
        Self { issue: args.issue, base: args.base.clone(), started_at: args.started_at.clone() }
    }
}
