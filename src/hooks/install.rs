//! What `git handoff hooks install` does: decide what to write for the parts asked for (the
//! pre-push block, or the snippet for the hook manager that owns the hook; each agent's hook
//! settings, skill and MCP server), plan every file, then write them all (or, in a dry run, show
//! them), record what the merges created, and add the notes ref to `notes.rewriteRef`. A file that
//! cannot be read or merged stops the install with nothing changed.

use std::path::Path;

use anyhow::Result;

use crate::git::repo::Repo;
use crate::hooks::agent_settings::{self, Agent};
use crate::hooks::change::{FileChange, shown};
use crate::hooks::manifest::{self, Created};
use crate::hooks::report::Report;
use crate::hooks::{Action, TargetReport, copilot, git_hooks, mcp, opencode, rewrite_ref};
use crate::model::config::Config;

/// What to install: the command line's flags, as plain values.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    pub pre_push: bool,
    pub claude: bool,
    pub codex: bool,
    pub gemini: bool,
    pub copilot: bool,
    pub opencode: bool,
    pub dry_run: bool,
    pub push_notes: bool,
}

/// Installs what `request` asks for in `repo` (the pre-push hook when it names no agent) and
/// reports what each target got.
pub fn install(repo: &Repo, request: &Request) -> Result<Report> {
    let agents: Vec<Agent> = [
        (request.claude, Agent::Claude),
        (request.codex, Agent::Codex),
        (request.gemini, Agent::Gemini),
    ]
    .into_iter()
    .filter_map(|(wanted, agent)| wanted.then_some(agent))
    .collect();
    let own_files = request.copilot || request.opencode;
    let pre_push = request.pre_push || request.push_notes || (agents.is_empty() && !own_files);
    let top = repo.top().ok().map(|p| p.to_path_buf());

    // Plan every file first: nothing is written unless everything can be.
    let mut planned: Planned = Vec::new();
    let mut manifest = manifest::load(&repo.git_dir);
    if pre_push {
        planned.push(plan_pre_push(repo, request.push_notes)?);
    }
    for agent in &agents {
        plan_agent(repo.top()?, *agent, &mut manifest, &mut planned)?;
    }
    if own_files {
        plan_own_files(repo.top()?, request, &mut planned)?;
    }

    let outcomes = apply(planned, top.as_deref(), &repo.git_dir, request.dry_run)?;
    if !request.dry_run && (!agents.is_empty() || own_files) {
        manifest::save(&repo.git_dir, &manifest)?;
    }
    let rewrite_ref = if pre_push {
        let config = Config::load(top.as_deref())?;
        Some(rewrite_ref::add(repo, &config.notes_ref, request.dry_run)?)
    } else {
        None
    };
    Ok(Report { dry_run: request.dry_run, hooks: outcomes, rewrite_ref })
}

/// Each target and the change planned for it (none where nothing is written).
type Planned = Vec<(TargetReport, Option<FileChange>)>;

/// The pre-push block, or the snippet for the hook manager that owns the hook.
fn plan_pre_push(repo: &Repo, push_notes: bool) -> Result<(TargetReport, Option<FileChange>)> {
    let plan = git_hooks::plan_install(repo, push_notes)?;
    let mut outcome = TargetReport::new("pre-push", plan.path, plan.action);
    if let Some((manager, _)) = plan.manager {
        outcome.manager = Some(manager);
        outcome.snippet = Some(manager.snippet());
    }
    Ok((outcome, plan.change))
}

/// One agent's skill (once for the agents that share it), hook settings (what the merge creates
/// remembered in the manifest) and MCP server (and Claude Code's approval of it).
fn plan_agent(
    top: &Path,
    agent: Agent,
    manifest: &mut manifest::Manifest,
    planned: &mut Planned,
) -> Result<()> {
    // Codex and Gemini CLI share `.agents/skills`: the skill is planned once.
    let skill_planned = planned
        .iter()
        .any(|(_, c)| c.as_ref().is_some_and(|c| c.path == top.join(agent.skill_path())));
    if !skill_planned && let Some(change) = agent_settings::plan_skill_install(top, agent) {
        let outcome = TargetReport::new("handoff skill", change.path.clone(), Action::Created);
        planned.push((outcome, Some(change)));
    }
    let mut change = agent_settings::plan_install(top, agent)?;
    // Gemini CLI reads its MCP servers from the hooks' own file: registered in the same change.
    let gemini_mcp = match agent {
        Agent::Gemini => Some(mcp::fold::fold_install(&mut change, agent)?),
        _ => None,
    };
    if change.changes_anything() {
        // Remember what this merge creates, so uninstall takes out no more than that.
        let events: Vec<&str> = agent.wanted().iter().map(|w| w.event).collect();
        let created = Created::by_merge(change.before.as_deref(), &events);
        let entry = manifest.entry(agent.settings_path().to_string()).or_default();
        *entry = std::mem::take(entry).union(created);
    }
    let outdated_only =
        change.before.as_deref().is_some_and(|text| agent_settings::only_outdated(text, agent));
    let action = match (change.changes_anything(), change.before.is_some()) {
        (false, _) => Action::Unchanged,
        (true, true) if outdated_only => Action::Updated,
        (true, true) => Action::Added,
        (true, false) => Action::Created,
    };
    let path = change.path.clone();
    planned.push((TargetReport::new(agent.name(), path.clone(), action), Some(change)));
    if let Some(action) = gemini_mcp {
        planned.push((TargetReport::new(mcp::label(agent), path, action), None));
    } else {
        let (change, action) = mcp::plan_install(top, agent)?;
        let outcome = TargetReport::new(mcp::label(agent), change.path.clone(), action);
        planned.push((outcome, Some(change)));
    }
    if agent == Agent::Claude {
        let (change, action) = mcp::plan_approval(top)?;
        let outcome = TargetReport::new(mcp::APPROVAL_LABEL, change.path.clone(), action);
        planned.push((outcome, Some(change)));
    }
    Ok(())
}

/// Writes every planned change (or, in a dry run, shows it as a diff) and returns the reports.
fn apply(
    planned: Planned,
    top: Option<&Path>,
    git_dir: &Path,
    dry_run: bool,
) -> Result<Vec<TargetReport>> {
    let stop = top.unwrap_or(git_dir);
    let mut outcomes = Vec::new();
    for (mut outcome, change) in planned {
        if let Some(change) = change {
            if dry_run {
                // The skill is the shipped SKILL.md as it is: its path says enough.
                let name = shown(&change.path, top);
                let diff = Some(change.diff(&name)).filter(|d| !d.is_empty());
                outcome.diff = diff.filter(|_| outcome.hook != "handoff skill");
            } else {
                change.apply(stop)?;
            }
        }
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// Plans GitHub Copilot CLI's hooks file and opencode's plugin (files of git-handoff's own, see
/// [`copilot`] and [`opencode`]), the skill where both read it, and Copilot's MCP server, in
/// `.mcp.json` as Claude Code's (Copilot reads that file too): planned once when both are asked.
fn plan_own_files(top: &Path, request: &Request, planned: &mut Planned) -> Result<()> {
    let mut plan = |hook, (change, action): (FileChange, Action)| {
        if !planned.iter().any(|(_, c)| c.as_ref().is_some_and(|c| c.path == change.path)) {
            planned.push((TargetReport::new(hook, change.path.clone(), action), Some(change)));
        }
    };
    if request.copilot {
        plan("Copilot CLI", copilot::plan_install(top)?);
        plan(COPILOT_MCP_LABEL, mcp::plan_install(top, Agent::Claude)?);
    }
    if request.opencode {
        plan("opencode", opencode::plan_install(top)?);
        if let Some(mcp) = opencode::plan_mcp_install(top)? {
            plan(OPENCODE_MCP_LABEL, mcp);
        }
    }
    if let Some(change) = agent_settings::plan_skill_install(top, Agent::Codex) {
        plan("handoff skill", (change, Action::Created));
    }
    Ok(())
}

/// What `hooks install --opencode` reports the MCP server as.
pub const OPENCODE_MCP_LABEL: &str = "opencode MCP server";

/// What `hooks install --copilot` reports the MCP server as.
pub const COPILOT_MCP_LABEL: &str = "Copilot CLI MCP server";
