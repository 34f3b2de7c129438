//! What a handoff is made of, free of git and terminals: the note, configuration, claims and
//! checks, secrets and redaction, the TOML summary and the emergency note.

pub mod checks;
pub mod claims;
pub mod config;
pub mod emergency;
pub mod note;
pub mod redact;
pub mod secrets;
pub mod summary;
