//! Small utilities every layer may use: times, signal handling, the exit-code error type, and
//! paths that stay inside the work tree.

pub mod error;
pub mod fs;
pub mod interrupt;
pub mod paths;
pub mod text;
pub mod time;
pub mod warnings;
