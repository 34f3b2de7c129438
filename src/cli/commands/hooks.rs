//! `git handoff hooks install|uninstall|status` (moving: see print.rs).

mod install;
mod print;
mod status;
mod uninstall;

pub use print::*;
