//! What a handoff is made of, free of git and terminals: the note, configuration, claims and
//! checks, what a check run says, secrets and redaction, the TOML summary, the emergency note, and
//! the Markdown and English pieces they share.

pub mod checks;
pub mod claims;
pub mod config;
pub mod emergency;
pub mod markdown;
pub mod note;
pub mod redact;
pub mod seal_message;
pub mod secrets;
pub mod summary;
pub mod verdict;
