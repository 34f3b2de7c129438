//! The command line, the top layer: nothing below it parses arguments or prints.
//!
//! Imports point one way. [`commands`] holds the clap definitions of the command line (its doc
//! comments are the `--help` text, the man pages and the completions), the dispatching `match` and
//! one file per command; each command stands on [`context`] (what every command shares) and
//! [`output`] (colour, JSON, where text goes), which import no command. [`fast`] parses the few
//! argument shapes that hooks run on every tool call without building clap's tree, into the same
//! values. [`docs`] renders man pages and completions from the clap tree it is handed.

pub mod commands;
pub mod context;
pub mod docs;
pub mod fast;
pub mod output;
