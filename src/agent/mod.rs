//! What the agent did: hook payloads turned into events ([`payload`]), the event log ([`events`]),
//! the digest computed from it ([`digest`]), the attempt's state ([`attempt`]), the progress plan
//! ([`progress`]) and the change summary written from it ([`change_summary`]), and the sessions
//! within an attempt as the log sees them ([`session`]).

pub mod attempt;
pub mod change_summary;
pub mod digest;
pub mod events;
pub mod payload;
pub mod progress;
pub mod session;
