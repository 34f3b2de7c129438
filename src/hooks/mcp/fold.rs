//! Gemini CLI reads its MCP servers from the file that holds its hooks (`.gemini/settings.json`):
//! the registration is folded into the hooks' planned change, so one file is planned once.

use anyhow::Result;

use crate::hooks::Action;
use crate::hooks::agent_settings::Agent;
use crate::hooks::change::FileChange;

use super::{Removal, config_path, is_empty, merge_json, unmerge_json};

/// Registers the server in `change`, the planned change of the file that also holds the agent's
/// hooks (Gemini CLI's `.gemini/settings.json`), on top of what the hooks' change writes.
pub fn fold_install(change: &mut FileChange, agent: Agent) -> Result<Action> {
    let current = change.after.clone().or_else(|| change.before.clone());
    match merge_json(current.as_deref(), config_path(agent))? {
        None => Ok(Action::Unchanged),
        Some(after) => {
            let action = if current.is_some() { Action::Added } else { Action::Created };
            change.after = Some(after);
            Ok(action)
        }
    }
}

/// Takes the server out of `change`, as [`fold_install`] put it in; the file is not removed here
/// (the hooks' change decides that).
pub fn fold_uninstall(change: &mut FileChange, agent: Agent) -> Result<Action> {
    let Some(current) = change.after.clone() else { return Ok(Action::NotInstalled) };
    match unmerge_json(&current, config_path(agent))? {
        Removal::NotThere => Ok(Action::NotInstalled),
        Removal::Changed => Ok(Action::Kept),
        Removal::Removed(after) if is_empty(&after, agent) => {
            change.after = None;
            Ok(Action::RemovedFile)
        }
        Removal::Removed(after) => {
            change.after = Some(after);
            Ok(Action::Removed)
        }
    }
}
