//! git-handoff keeps AI coding agents' handoffs next to git state.
//!
//! The binary is thin: [`main_with_args`] parses the command line ([`cli`]), hands it to the one
//! file per command under [`commands`], and maps the outcome to an exit code. The domain modules
//! (repository access, configuration, attempt state, snapshot ...) know nothing of clap or
//! terminals; commands know nothing of git internals.

pub mod agent;
pub mod cli;
pub mod git;
pub mod install;
pub mod model;
pub mod ops;
pub mod util;

pub use agent::payload as record;
pub use agent::{attempt, digest, events, progress};
pub use cli::{commands, docs, output};
pub use git::{note_commit, repo, walk};
pub use install::agent_settings as agent_hooks;
pub use install::git_hooks as hooks;
pub use model::{checks, claims, config, emergency, note, redact, secrets, summary};
pub use ops::record_store as records;
pub use ops::write_note as handoff;
pub use ops::{recall, seal, snapshot, sync, validate};
pub use util::{error, interrupt, time};

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Parser;

/// Parses `args`, runs the command and returns the process exit code. Never panics on input.
pub fn main_with_args(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { 2 } else { 0 };
            // Printing help to a closed pipe is not worth a second error.
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.is::<error::CheckFailed>() => ExitCode::from(1),
        Err(err) if error::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("{}", output::paint_error(&error::render(&err)));
            ExitCode::from(2)
        }
    }
}
