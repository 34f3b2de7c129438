//! Records: the machine-readable TOML that every handoff stores in the notes ref
//! (`refs/notes/handoff` by default), so tools and later sessions read facts, not prose.
//!
//! A record is attached to its commit (the note commit, or HEAD for a digest-only handoff) and,
//! so that squash merges and rebases without `notes.rewriteRef` cannot strand it, also to two key
//! objects: small blobs whose content names the issue (`git-handoff issue 179`) and the branch
//! (`git-handoff branch refs/heads/x`). Looking up the latest handoff of a branch or issue is then
//! one notes lookup, never a history walk. Each key blob is also kept in the notes tree itself, in
//! a folder that is not a note (`handoff-keys/ab/cdef…`), so it travels with the notes ref and
//! `git notes prune` in any clone keeps its note.
//!
//! A note blob holds one or more records as a TOML array of tables (`[[record]]`). Two writers
//! that annotate the same object on different machines are merged by keeping both records
//! (see `sync`); readers take the newest by `written_at`.
//!
//! A handoff's record, its keys' records and the record it replaces are written in one notes
//! commit. Every write is a compare-and-swap on the notes ref (gix updates the ref only if it did not move)
//! retried with backoff when another writer won, so parallel agents in linked worktrees never lose
//! a record. `git notes add` has no such guard.
//!
//! [`record`] holds the record and its blob format, [`key`] the issue and branch key objects,
//! [`read`] what readers find on an object, [`write`] the compare-and-swap writes, [`begun`] the
//! records that travel with the notes ref to say where a later attempt began, and each session's
//! digest-only record.

mod begun;
mod key;
mod read;
mod record;
mod write;

pub use crate::agent::progress::ProgressItem;
pub use crate::model::claims::Tag;
pub use crate::model::summary::Summary;

pub use begun::{began_on, mark_begun, store_session_digest};
pub use key::Key;
pub use read::{latest, read_lenient, readable_refs, tracking_ref};
pub use record::{Record, RecordKind, merge, parse, render};
pub use write::{ensure_identity, store, store_replacing};
