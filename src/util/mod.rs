//! Small utilities every layer may use: times, signal handling, the exit-code error type.

pub mod error;
pub mod fs;
pub mod interrupt;
pub mod text;
pub mod time;
pub mod warnings;
