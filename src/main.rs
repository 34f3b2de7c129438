//! The `git-handoff` binary: parse the command line, run it, and map the outcome to an exit code
//! in this one place (0 success, 1 the thing checked does not pass, 2 an error).

use std::process::ExitCode;

fn main() -> ExitCode {
    git_handoff::main_with_args(std::env::args_os())
}
