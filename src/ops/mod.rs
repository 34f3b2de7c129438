//! What each command does, one folder per operation: write a note, seal, validate, snapshot,
//! recall, sync, log, and the progress plan. Each stands on the store and the layers below it.

pub mod log;
pub mod note;
pub mod progress;
pub mod recall;
pub mod seal;
pub mod snapshot;
pub mod sync;
pub mod validate;
