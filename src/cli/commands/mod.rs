//! The command line and its dispatch: the top-level clap definitions ([`Cli`], the [`Command`]
//! enum of subcommands, the options every command takes) and the `match` that runs one. Below it,
//! one file per subcommand: each has clap `Args` (whose doc comments are the `--help` text and feed
//! the man pages and completions, so they are written for users) and a `run` that writes to the
//! `out` it is given. Commands import the shared [`Ctx`](crate::cli::context) and
//! [`output`](crate::cli::output), never this module.

pub mod completions;
pub mod demo;
pub mod digest;
pub mod hooks;
pub mod install_man;
pub mod log;
pub mod mcp;
pub mod note;
pub mod progress;
pub mod recall;
pub mod record;
pub mod seal;
pub mod show;
pub mod snapshot;
pub mod start;
pub mod sync;
pub mod validate;

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::cli::context::Ctx;
use crate::cli::output::{self, AskGit, ColorChoice};

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

#[derive(Debug, Subcommand)]
pub enum Command {
    Start(start::Args),
    Snapshot(snapshot::Args),
    Seal(seal::Args),
    Note(note::Args),
    Progress(progress::Args),
    Record(record::Args),
    Digest(digest::Args),
    Validate(validate::Args),
    Sync(sync::Args),
    Recall(recall::Args),
    Show(show::Args),
    Log(log::Args),
    Mcp(mcp::Args),
    /// Install, remove or show git-handoff's hooks (pre-push check, agent hooks), keeping what
    /// is there.
    #[command(subcommand)]
    Hooks(hooks::Command),
    Demo(demo::Args),
    InstallMan(install_man::Args),
    Completions(completions::Args),
}

/// Applies the global options, then runs the command.
pub fn run(cli: Cli) -> Result<()> {
    for dir in &cli.global.chdir {
        std::env::set_current_dir(dir).map_err(|err| {
            anyhow::anyhow!(
                "cannot change to {:?}: {err}; check the -C path",
                dir.display().to_string()
            )
        })?;
    }
    // `record` prints nothing to colour, and runs on every tool call; `recall` prints lines for an
    // agent's context, where colour codes never belong, at every session start: no git start for
    // either (it cost recall more than finding the handoff). Nor for `--json`, read by programs:
    // the git child competed with a large snapshot's own for the cores. Commands whose normal
    // output is plain ask only when they style an error or a warning: a pre-push `validate` is
    // timed against `git rev-list`, and the child took a fifth of its time. Every other command
    // reads the setting from the config of the repository it opens (git is asked only for what
    // is styled before that, or when `git -c` set config gix does not read): a `git config` child
    // per command was one git start in four of a `progress set`.
    let ask = match cli.command {
        _ if cli.global.json => AskGit::Never,
        Command::Record(_) | Command::Recall(_) => AskGit::Never,
        Command::Validate(_) | Command::Sync(_) | Command::Mcp(_) | Command::Completions(_) => {
            AskGit::WhenStyled
        }
        _ => AskGit::FromRepo,
    };
    output::init_color(cli.global.color, ask);
    let ctx = Ctx { json: cli.global.json };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    dispatch(&ctx, cli.command, !cli.global.chdir.is_empty(), &mut out)?;
    out.flush()?;
    Ok(())
}

fn dispatch(ctx: &Ctx, command: Command, chdir: bool, out: &mut impl Write) -> Result<()> {
    match command {
        Command::Start(args) => start::run(ctx, args, out)?,
        Command::Snapshot(args) => snapshot::run(ctx, args, out)?,
        Command::Seal(args) => seal::run(ctx, args, out)?,
        Command::Note(args) => note::run(ctx, args, out)?,
        Command::Progress(args) => progress::run(ctx, args, out)?,
        Command::Record(args) => record::run(ctx, args, chdir, out)?,
        Command::Digest(args) => digest::run(ctx, args, out)?,
        Command::Validate(args) => validate::run(ctx, args, out)?,
        Command::Sync(args) => sync::run(ctx, args, out)?,
        Command::Recall(args) => recall::run(ctx, args, out)?,
        Command::Show(args) => show::run(ctx, args, out)?,
        Command::Log(args) => log::run(ctx, args, out)?,
        Command::Hooks(command) => hooks::run(ctx, command, out)?,
        Command::Demo(args) => demo::run(ctx, args, out)?,
        Command::InstallMan(args) => install_man::run(ctx, args, Cli::command(), out)?,
        Command::Mcp(args) => mcp::run(ctx, args, out)?,
        Command::Completions(args) => completions::run(ctx, args, Cli::command(), out)?,
    }
    Ok(())
}
