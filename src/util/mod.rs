//! Small utilities every layer may use: times ([`time`]), signal handling ([`interrupt`]), the
//! exit-code error type ([`error`]), paths that stay inside the work tree ([`paths`]), files
//! written whole ([`fs`]), words quoted for a shell ([`shell`]), a killed process's leftovers told from a live one's ([`leftovers`]) and
//! text helpers ([`text`]).

pub mod error;
pub mod fs;
pub mod interrupt;
pub mod leftovers;
pub mod paths;
pub mod shell;
pub mod text;
pub mod time;
