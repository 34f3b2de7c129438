//! One file per subcommand: each has clap `Args` (whose doc comments are the help text) and a
//! `run` that writes to the `out` it is given. This module holds the dispatching `match` and the
//! context every command shares.

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

use anyhow::Result;

use crate::cli::output::{self, AskGit};
use crate::cli::{Cli, Command};

/// What every command gets besides its own arguments.
pub struct Ctx {
    pub json: bool,
}

impl Ctx {
    /// Prints a warning on the error stream (stdout stays the command's data).
    pub fn warn(&self, text: &str) {
        output::warn(text);
    }
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
    // timed against `git rev-list`, and the child took a fifth of its time. `snapshot` and `seal`
    // read the setting from the config of the repository they open.
    let ask = match cli.command {
        _ if cli.global.json => AskGit::Never,
        Command::Record(_) | Command::Recall(_) => AskGit::Never,
        Command::Validate(_) | Command::Sync(_) | Command::Mcp(_) | Command::Completions(_) => {
            AskGit::WhenStyled
        }
        // Timed against plain git: their repository's config has the answer, with no git start.
        Command::Snapshot(_) | Command::Seal(_) => AskGit::FromRepo,
        _ => AskGit::Now,
    };
    output::init_color(cli.global.color, ask);
    let ctx = Ctx { json: cli.global.json };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = dispatch(&ctx, cli.command, !cli.global.chdir.is_empty(), &mut out);
    // Warnings the layers below collected (they never print) go to the error stream, after
    // whatever the command printed and whether or not it succeeded.
    for warning in crate::util::warnings::drain() {
        ctx.warn(&warning);
    }
    result?;
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
        Command::InstallMan(args) => install_man::run(ctx, args, out)?,
        Command::Mcp(args) => mcp::run(ctx, args, out)?,
        Command::Completions(args) => completions::run(ctx, args, out)?,
    }
    Ok(())
}
