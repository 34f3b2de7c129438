//! What the agent did: hook payloads turned into events, the event log, the digest computed from
//! it, the attempt's state and the progress plan.

pub mod attempt;
pub mod change_summary;
pub mod digest;
pub mod events;
pub mod payload;
pub mod progress;
