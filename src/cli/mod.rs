//! The command line: clap definitions, one file per command, output helpers, man pages and
//! completions. Nothing below this layer parses arguments or prints.

pub mod args;
pub mod commands;
pub mod docs;
pub mod fast;
pub mod output;

pub use args::*;
