//! Git access: the `git` process where bytes must be git's own, the repository opened in-process
//! with gix, the note commit's plumbing, and git's history walk.

pub mod identity;
pub mod index_scan;
pub mod note_commit;
pub mod pack_read;
pub mod pack_write;
pub mod plumbing;
pub mod process;
pub mod quote;
pub mod repo;
pub mod version;
pub mod walk;

pub use process::*;
