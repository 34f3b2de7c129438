//! What `git handoff hooks status` reports: the pre-push hook git runs and whether it holds
//! git-handoff's block, `notes.rewriteRef`, each agent's hook entries and MCP server, and the
//! handoff skill, in the shape `--json` prints.

use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::git::repo::Repo;
use crate::hooks::agent_settings::Agent;
use crate::hooks::agent_status::{self, AgentStatus, SkillState};
use crate::hooks::git_hooks::{self, PrePushStatus};
use crate::hooks::mcp;
use crate::hooks::rewrite_ref;
use crate::model::config::Config;

/// What is installed where; the agents' parts are `None` in a bare repository.
#[derive(Serialize)]
pub struct Status {
    pub pre_push: PrePushStatus,
    pub rewrite_ref: RewriteRefStatus,
    pub claude: Option<AgentStatus>,
    pub codex: Option<AgentStatus>,
    pub gemini: Option<AgentStatus>,
    /// GitHub Copilot CLI's hooks file, and whether Copilot trusts the folder.
    pub copilot: Option<crate::hooks::copilot::Status>,
    /// opencode's plugin.
    pub opencode: Option<crate::hooks::opencode::Status>,
    /// The skill where Claude Code reads it.
    pub skill: Option<Skill>,
    /// The skill where Codex (and Gemini CLI, Copilot CLI, opencode) read it.
    pub codex_skill: Option<Skill>,
    pub claude_mcp: Option<mcp::Status>,
    pub codex_mcp: Option<mcp::Status>,
    pub gemini_mcp: Option<mcp::Status>,
    /// Once Gemini CLI hooks of ours are installed: whether Gemini CLI trusts the folder, without
    /// which it runs none of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gemini_trust: Option<crate::hooks::gemini_trust::Trust>,
    /// The agent hooks' last failures (at most 20, oldest first): each let the agent go on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hook_failures: Vec<String>,
    /// What of `.handoff.toml` cannot be used (file:line): the hooks run on with the defaults.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_problem: Option<String>,
}

/// Whether `notes.rewriteRef` includes the notes ref.
#[derive(Serialize)]
pub struct RewriteRefStatus {
    pub key: &'static str,
    pub value: String,
    pub set: bool,
}

/// Where the handoff skill is, and whether it is still the one git-handoff ships.
#[derive(Serialize)]
pub struct Skill {
    pub path: PathBuf,
    pub state: SkillState,
}

/// What git-handoff has installed in `repo`, whose configuration is `config`.
pub fn status(repo: &Repo, config: &Config, config_problem: Option<String>) -> Result<Status> {
    let top = repo.top().ok().map(|p| p.to_path_buf());
    let set = rewrite_ref::covers(repo, &config.notes_ref)?;
    let agent = |agent| top.as_deref().map(|t| agent_status::status(t, agent)).transpose();
    let skill = |agent: Agent| match top.as_deref() {
        Some(t) => Ok::<_, anyhow::Error>(Some(Skill {
            path: t.join(agent.skill_path()),
            state: agent_status::skill_state(t, agent)?,
        })),
        None => Ok(None),
    };
    Ok(Status {
        pre_push: git_hooks::status(repo)?,
        rewrite_ref: RewriteRefStatus {
            key: rewrite_ref::KEY,
            value: config.notes_ref.clone(),
            set,
        },
        claude: agent(Agent::Claude)?,
        codex: agent(Agent::Codex)?,
        gemini: agent(Agent::Gemini)?,
        copilot: top.as_deref().map(crate::hooks::copilot::status).transpose()?,
        opencode: top.as_deref().map(crate::hooks::opencode::status).transpose()?,
        skill: skill(Agent::Claude)?,
        codex_skill: skill(Agent::Codex)?,
        claude_mcp: top.as_deref().map(|t| mcp::status(t, Agent::Claude)).transpose()?,
        codex_mcp: top.as_deref().map(|t| mcp::status(t, Agent::Codex)).transpose()?,
        gemini_mcp: top.as_deref().map(|t| mcp::status(t, Agent::Gemini)).transpose()?,
        gemini_trust: None,
        hook_failures: crate::hooks::hook_failures::read(&repo.git_dir),
        config_problem,
    })
    .map(|mut status| {
        let installed = status.gemini.as_ref().is_some_and(|g| !g.installed.is_empty());
        if let (true, Some(top)) = (installed, top.as_deref()) {
            status.gemini_trust = Some(crate::hooks::gemini_trust::trust(top));
        }
        status
    })
}
