//! The command line, as clap definitions. Doc comments here are the `--help` text and feed the
//! generated man pages and completions, so they are written for users.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::cli::commands;

/// Keep AI coding agents' handoffs next to git state.
///
/// git-handoff snapshots the repository for a prompt, seals leftover work losslessly, checks a
/// handoff note's claims against what the agent really did, writes an emergency note when the agent
/// wrote none, and recalls the last handoff for the next session.
#[derive(Debug, Parser)]
#[command(name = "git-handoff", bin_name = "git handoff", version, propagate_version = true)]
#[command(max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Run as if started in <PATH> (like `git -C`); may be given more than once.
    #[arg(short = 'C', value_name = "PATH", global = true, action = clap::ArgAction::Append)]
    pub chdir: Vec<PathBuf>,

    /// Print one JSON document on stdout instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    /// When to colour human output.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Start(commands::start::Args),
    Snapshot(commands::snapshot::Args),
    Seal(commands::seal::Args),
    Note(commands::note::Args),
    Progress(commands::progress::Args),
    Record(commands::record::Args),
    Digest(commands::digest::Args),
    Validate(commands::validate::Args),
    Sync(commands::sync::Args),
    Recall(commands::recall::Args),
    Show(commands::show::Args),
    Log(commands::log::Args),
    Mcp(commands::mcp::Args),
    /// Install, remove or show git-handoff's hooks (pre-push check, agent hooks), keeping what
    /// is there.
    #[command(subcommand)]
    Hooks(commands::hooks::Command),
    Demo(commands::demo::Args),
    InstallMan(commands::install_man::Args),
    Completions(commands::completions::Args),
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
