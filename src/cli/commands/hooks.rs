//! `git handoff hooks install|uninstall|status`: the pre-push check in git's hooks (or the snippet
//! for the hook manager that owns them), the agents' hook settings and skill, `notes.rewriteRef`.
//! Each subcommand parses its flags, calls one function of [`crate::hooks`], and prints what it
//! reports ([`print`] for install and uninstall).

mod install;
mod print;
mod status;
mod uninstall;

use std::io::Write;

use anyhow::Result;

use crate::cli::context::Ctx;

pub use install::InstallArgs;
pub use status::StatusArgs;
pub use uninstall::UninstallArgs;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    Install(InstallArgs),
    Uninstall(UninstallArgs),
    Status(StatusArgs),
}

pub fn run(ctx: &Ctx, command: Command, out: &mut impl Write) -> Result<()> {
    match command {
        Command::Install(args) => install::run(ctx, args, out),
        Command::Uninstall(args) => uninstall::run(ctx, args, out),
        Command::Status(args) => status::run(ctx, args, out),
    }
}
