//! What `hooks status` reports for the agents: which of git-handoff's hook entries an agent's
//! settings hold (and which are in the older `git handoff` form), and whether the installed skill
//! is still the one we shipped.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;
use serde_json::Value;

use crate::hooks::agent_settings::{self, Agent, SKILL};
use crate::hooks::change::read_text;
use crate::hooks::codex_review::{self, Review};

/// Which of our entries an agent's settings hold.
#[derive(Debug, Clone, Serialize)]
pub struct AgentStatus {
    pub path: PathBuf,
    pub exists: bool,
    /// Events whose git-handoff hook is in place.
    pub installed: Vec<&'static str>,
    /// Events whose git-handoff hook is missing.
    pub missing: Vec<&'static str>,
    /// Events among `installed` whose hook is in the older form (`git handoff ...`, through git's
    /// dispatch): it runs, one git start slower; installing again rewrites it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub outdated: Vec<&'static str>,
    /// Why the file could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// Codex only, once a hook of ours is installed: whether Codex will run them, from its own
    /// configuration (trusted project, approved hooks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review: Option<Review>,
}

pub fn status(top: &Path, agent: Agent) -> Result<AgentStatus> {
    let path = agent_settings::path(top, agent);
    let text = read_text(&path)?;
    let mut status = AgentStatus {
        path,
        exists: text.is_some(),
        installed: Vec::new(),
        missing: Vec::new(),
        outdated: Vec::new(),
        problem: None,
        review: None,
    };
    let root = match text.as_deref().filter(|t| !t.trim().is_empty()) {
        None => Value::Null,
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(root) => root,
            Err(err) => {
                status.problem = Some(format!("line {}: not valid JSON ({err})", err.line()));
                Value::Null
            }
        },
    };
    for wanted in agent.wanted() {
        let has = |command: &str| agent_settings::event_has(&root, wanted.event, command);
        if has(wanted.command) {
            status.installed.push(wanted.event)
        } else if agent_settings::older_forms(wanted.command).iter().any(|old| has(old)) {
            status.installed.push(wanted.event);
            status.outdated.push(wanted.event)
        } else {
            status.missing.push(wanted.event)
        }
    }
    if agent == Agent::Codex
        && !status.installed.is_empty()
        && let Some(config) = codex_review::config_path()
    {
        status.review = Some(codex_review::review(top, &root, &status.installed, &config));
    }
    Ok(status)
}

/// Whether the installed skill is there, and still the one git-handoff ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillState {
    Absent,
    Unchanged,
    Modified,
}

pub fn skill_state(top: &Path, agent: Agent) -> Result<SkillState> {
    let path = top.join(agent.skill_path());
    let max = crate::hooks::change::MAX_BYTES;
    Ok(match crate::util::fs::read_regular_if_any(&path, max, "the skill")? {
        Some(bytes) if bytes == SKILL.as_bytes() => SkillState::Unchanged,
        Some(_) => SkillState::Modified,
        None => SkillState::Absent,
    })
}
