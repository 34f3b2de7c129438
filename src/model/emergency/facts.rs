//! The facts a runtime hands to the emergency note with `--facts FILE` (JSON). Every key is
//! optional; the event log fills in what the facts leave out. `soft_threshold_crossed` is a
//! boolean, or a string saying where it was crossed (`"turn 41 at 750,112 tokens"`).

use serde::Deserialize;

/// What the runtime knows and hands in with `--facts FILE` (JSON). Every key is optional; the
/// event log fills in what the facts leave out.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Facts {
    pub last_assistant_text: Option<String>,
    pub handoff_skill_invoked: Option<bool>,
    pub budget: Budget,
    pub archive_dir: Option<String>,
    pub session_id: Option<String>,
    pub baseline_check: Option<BaselineCheck>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Budget {
    pub budget_tokens: Option<u64>,
    pub max_budget_tokens: Option<u64>,
    pub soft_threshold_crossed: Option<SoftThreshold>,
    pub peak_main_context_tokens: Option<u64>,
    pub cache_hit_rate: Option<f64>,
    pub turns: Option<u64>,
    pub elapsed_seconds: Option<f64>,
}

/// Whether the soft threshold was crossed, or where (`"turn 41 at 750,112 tokens"`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    untagged,
    expecting = "soft_threshold_crossed as true, false, or a string saying where it was crossed"
)]
pub enum SoftThreshold {
    Crossed(bool),
    At(String),
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct BaselineCheck {
    pub command: String,
    pub ok: bool,
}
