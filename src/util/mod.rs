//! Small utilities every layer may use: times, signal handling, the exit-code error type.

pub mod error;
pub mod interrupt;
pub mod time;
