//! What each command does: write a note, seal, validate, snapshot, recall, sync, and the store of
//! records in the notes ref.

pub mod recall;
pub mod record_store;
pub mod seal;
pub mod snapshot;
pub mod sync;
pub mod validate;
pub mod write_note;
