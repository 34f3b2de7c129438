//! Installing git-handoff into what the user runs: the pre-push hook and the agents' settings.

pub mod agent_settings;
pub mod git_hooks;
pub mod json_edit;
pub mod managers;
