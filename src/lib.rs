//! git-handoff keeps AI coding agents' handoffs next to git state.
//!
//! The binary is thin: [`main_with_args`] parses the command line ([`cli`]), hands it to the one
//! file per command under [`commands`], and maps the outcome to an exit code. The domain modules
//! (repository access, configuration, attempt state, snapshot ...) know nothing of clap or
//! terminals; commands know nothing of git internals.

pub mod agent_hooks;
pub mod attempt;
pub mod checks;
pub mod claims;
pub mod cli;
pub mod commands;
pub mod config;
pub mod digest;
pub mod docs;
pub mod emergency;
pub mod error;
pub mod events;
pub mod git;
pub mod handoff;
pub mod hooks;
pub mod interrupt;
pub mod note;
pub mod note_commit;
pub mod output;
pub mod progress;
pub mod recall;
pub mod record;
pub mod records;
pub mod redact;
pub mod repo;
pub mod seal;
pub mod secrets;
pub mod snapshot;
pub mod summary;
pub mod sync;
pub mod time;
pub mod validate;
pub mod walk;

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
