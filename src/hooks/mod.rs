//! Installing git-handoff into what the user runs: the pre-push hook (or the snippet for the hook
//! manager that owns it), the agents' hook settings and skill, and `notes.rewriteRef`; and
//! undoing all of it.
//!
//! What each `hooks` subcommand does is one function here ([`install`],
//! [`uninstall`], [`status`]), which decides what to write, calls the installers for
//! each part (the pre-push hook, the agents' settings, the MCP server, `notes.rewriteRef`) and
//! returns a report; the command layer only parses flags and prints it. Every change is planned
//! first ([`change::FileChange`]) and applied only once every file has been read and checked, so an
//! invalid settings file stops an install with nothing changed.

pub mod agent_settings;
pub mod agent_status;
pub mod agent_uninstall;
pub mod change;
pub mod codex_review;
pub mod copilot;
pub mod gemini_trust;
pub mod git_hooks;
pub mod hook_failures;
pub mod install;
pub mod json_edit;
pub mod managers;
pub mod manifest;
pub mod mcp;
pub mod opencode;
pub mod report;
pub mod rewrite_ref;
pub mod status;
pub mod uninstall;

use std::path::PathBuf;

use serde::Serialize;

/// What installing or uninstalling did (or, in a dry run, would do) to one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A new file was written.
    Created,
    /// Our part was added to an existing file (or config key).
    Added,
    /// An older block was replaced.
    Updated,
    /// Everything was there already, as it is.
    Unchanged,
    /// Our part was removed; the rest of the file stays.
    Removed,
    /// Our part was removed and nothing else was left, so the file went too.
    RemovedFile,
    /// There was nothing of ours to remove.
    NotInstalled,
    /// A hook manager owns the hook: nothing was written; its snippet says what to add where.
    Managed,
    /// The file is the user's now (it differs from what we installed), so it was kept.
    Kept,
}

/// The things `hooks install` puts in place, each of which `hooks uninstall` can take out alone.
/// The MCP server's registration (`.mcp.json`, `.codex/config.toml`) goes with its agent's part:
/// `hooks uninstall` matches on these exhaustively.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    PrePush,
    Claude,
    Codex,
    Gemini,
    Copilot,
    Opencode,
}

/// One target and what happened to it.
#[derive(Debug, Clone, Serialize)]
pub struct TargetReport {
    /// What the target is: `pre-push`, `Claude Code`, `Codex`, `handoff skill`, ...
    pub hook: &'static str,
    pub path: PathBuf,
    pub action: Action,
    /// For [`Action::Managed`]: the manager, and the snippet for its configuration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manager: Option<managers::Manager>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<&'static str>,
    /// In a dry run: the change as a unified diff (the whole block for a new hook).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

impl TargetReport {
    pub fn new(hook: &'static str, path: PathBuf, action: Action) -> TargetReport {
        TargetReport { hook, path, action, manager: None, snippet: None, diff: None }
    }
}
