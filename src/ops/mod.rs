//! What each command does: write a note, seal, validate, snapshot, recall, sync, log, the store of
//! records in the notes ref, and the one lookup of an attempt's handoff on the branch (`handoff`).

pub mod log;
pub mod mcp;
pub mod progress;
pub mod recall;
pub mod seal;
pub mod snapshot;
pub mod sync;
pub mod validate;
pub mod write_note;
