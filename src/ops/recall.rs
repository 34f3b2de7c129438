//! Recall: the last handoff given back to the next session before its first turn, in at most ten
//! short lines (one line on a fresh start), plus the project rules as their own capped block.
//!
//! Finding the handoff is one or two notes lookups on the record keys (branch, then issue; see
//! `records`) in the local notes ref and its remote-tracking copies, never a history walk and
//! never a status run, so it stays fast on any history. `session` finds and assembles it, `lines`
//! renders its lines, `since_line` says what happened since it, `budget` fits them, `unsealed`
//! tells agent work from set-up.

mod budget;
mod for_session;
mod lines;
mod since_line;
mod unsealed;

pub use for_session::{Asked, SessionSource, for_session};
pub use lines::{digest_files, headline};
pub use since_line::dated;
