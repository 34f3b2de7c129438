//! What a handoff is made of, free of git and terminals: the note ([`note`]), configuration
//! ([`config`]), claims ([`claims`]) and checks ([`checks`]: which shell commands run a configured
//! check), what a check run says ([`verdict`]), secrets ([`secrets`]) and redaction ([`redact`]),
//! the patterns a configuration adds to them, capped and compiled once ([`patterns`]),
//! the TOML summary ([`summary`]), the emergency note ([`emergency`]), a seal commit's message
//! ([`seal_message`]), and the Markdown and English pieces they share ([`markdown`]).

pub mod checks;
pub mod claims;
pub mod config;
pub mod emergency;
pub mod markdown;
pub mod note;
pub mod patterns;
pub mod redact;
pub mod seal_message;
pub mod secrets;
pub mod summary;
pub mod verdict;
