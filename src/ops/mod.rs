//! What each command does, one folder per operation: write a note, seal, validate, snapshot,
//! recall, sync, log, the progress plan, and what a session's start does to the attempt; and the
//! one way every command opens the repository ([`open`]). Each stands on the store and the layers below it.

pub mod log;
pub mod note;
pub mod open;
pub mod progress;
pub mod recall;
pub mod record;
pub mod seal;
pub mod show;
pub mod snapshot;
pub mod start;
pub mod sync;
pub mod validate;
