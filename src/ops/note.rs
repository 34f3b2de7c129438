//! Writing handoffs: the agent's checked note, the emergency note and the digest-only record.
//!
//! Each path gathers facts (attempt, digest, git), produces the note text, redacts it, commits the
//! note file alone ([`crate::git::note_commit`]), validates the result, and stores the record
//! ([`crate::store::records`]). Nothing here prints: the command renders the [`NoteOutcome`].
//!
//! `agent` checks and commits the agent's own note (`header` fills in and corrects its header),
//! `emergency_note` writes one from the log when the agent wrote none (`emergency_input` gathers
//! what it says), `digest_only` stores a record without a note; `commit` holds the steps they
//! share and `outcome` what goes in and comes out.

mod agent;
mod commit;
mod digest_only;
mod emergency_input;
mod emergency_note;
mod header;
mod outcome;

pub use agent::{agent_note, tag_note};
pub use digest_only::{DigestSession, digest_only};
pub use emergency_note::emergency_note;
pub use outcome::{NOT_COMMITTED, NoteOutcome, NoteSource};
