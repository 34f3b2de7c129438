//! How a session ended when it ended abruptly: the API error of its last turn.

use serde::Serialize;

/// The API error a turn ended on: its kind (`rate_limit`, `server_error`, `max_output_tokens`
/// ...), what the agent said of it, and when.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct EndedOnError {
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    pub at: String,
}
