//! Git access: the `git` process where bytes must be git's own, the repository opened in-process
//! with gix, the note commit's plumbing, and git's history walk.
//!
//! - [`process`]: running `git` (re-exported here as `Git`); [`version`]: its version, asked once.
//! - [`repo`]: the repository opened in-process; [`location`]: where it is, found without
//!   opening it; [`identity`]: who commits.
//! - [`plumbing`], [`note_commit`]: commit-tree, update-ref, and the note commit; [`notes_read`]:
//!   one object's note looked up on its fanout path.
//! - [`index_scan`]: one pass over the index file for the snapshot; [`split_index`]: a split
//!   index made whole.
//! - [`pack_write`]: writing objects into a pack (seal's tree, the snapshot's);
//!   [`pack_read`]: reading objects from the repository's packs as git does.
//! - [`walk`]: the commits of a range and which of them change a path.
//! - [`quote`]: paths in git's C quoting.

pub mod identity;
pub mod index_scan;
pub mod location;
pub mod note_commit;
pub mod notes_read;
pub mod pack_read;
pub mod pack_write;
pub mod plain_refs;
pub mod plumbing;
pub mod process;
pub mod quick_open;
pub mod quote;
pub mod repo;
pub mod split_index;
#[cfg(test)]
pub mod test_repo;
pub mod untracked_cache;
pub mod version;
pub mod walk;

pub use process::*;
