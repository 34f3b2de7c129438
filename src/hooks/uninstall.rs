//! What `git handoff hooks uninstall` does: plan taking out each part picked (all of them when
//! none is), change the files (or, in a dry run, show the changes), forget what install recorded
//! it created, and take the notes ref out of `notes.rewriteRef` with the pre-push part. A file that
//! cannot be read stops it all with nothing changed.

use std::path::Path;

use anyhow::Result;

use crate::git::repo::Repo;
use crate::hooks::agent_settings::Agent;
use crate::hooks::change::{FileChange, shown};
use crate::hooks::manifest::{self, Manifest};
use crate::hooks::report::Report;
use crate::hooks::{
    Action, Part, TargetReport, agent_status, agent_uninstall, copilot, git_hooks, mcp, opencode,
    rewrite_ref,
};
use crate::model::config::Config;

/// What to take out: the command line's flags, as plain values.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    pub pre_push: bool,
    pub claude: bool,
    pub codex: bool,
    pub gemini: bool,
    pub copilot: bool,
    pub opencode: bool,
    pub dry_run: bool,
}

/// Takes out of `repo` what `request` picks (everything when it picks nothing) and reports what
/// each target lost.
pub fn uninstall(repo: &Repo, request: &Request) -> Result<Report> {
    let all = !(request.pre_push
        || request.claude
        || request.codex
        || request.gemini
        || request.copilot
        || request.opencode);
    let top = repo.top().ok().map(|p| p.to_path_buf());

    // Plan every file first, then change them: a file we cannot read stops it all.
    let parts: Vec<Part> = [
        (request.pre_push, Part::PrePush),
        (request.claude, Part::Claude),
        (request.codex, Part::Codex),
        (request.gemini, Part::Gemini),
        (request.copilot, Part::Copilot),
        (request.opencode, Part::Opencode),
    ]
    .into_iter()
    .filter_map(|(picked, part)| (all || picked).then_some(part))
    .collect();
    let mut manifest = manifest::load(&repo.git_dir);
    let mut planned: Vec<(TargetReport, FileChange)> = Vec::new();
    for part in &parts {
        for one in plan(repo, top.as_deref(), *part, &parts, &mut manifest)? {
            // The skill Codex and Gemini CLI share is planned once.
            if !planned.iter().any(|(_, change)| change.path == one.1.path) {
                planned.push(one);
            }
        }
    }

    let stop = top.clone().unwrap_or_else(|| repo.git_dir.clone());
    let mut outcomes = Vec::new();
    for (mut outcome, change) in planned {
        if request.dry_run {
            let name = shown(&change.path, top.as_deref());
            outcome.diff = Some(change.diff(&name)).filter(|d| !d.is_empty());
        } else {
            change.apply(&stop)?;
        }
        outcomes.push(outcome);
    }
    if !request.dry_run {
        manifest::save(&repo.git_dir, &manifest)?;
    }
    let rewrite_ref = if parts.contains(&Part::PrePush) {
        let config = Config::load(top.as_deref())?;
        Some(rewrite_ref::remove(repo, &config.notes_ref, request.dry_run)?)
    } else {
        None
    };
    Ok(Report { dry_run: request.dry_run, hooks: outcomes, rewrite_ref })
}
/// Whether `part` is installed in `top` and stays (it is not among the `parts` taken out): a file
/// it shares with the part taken out stays too.
fn stays(top: &Path, part: Part, parts: &[Part]) -> bool {
    if parts.contains(&part) {
        return false;
    }
    match part {
        Part::PrePush => false,
        Part::Claude => {
            agent_status::status(top, Agent::Claude).is_ok_and(|s| !s.installed.is_empty())
        }
        Part::Codex => {
            agent_status::status(top, Agent::Codex).is_ok_and(|s| !s.installed.is_empty())
        }
        Part::Gemini => {
            agent_status::status(top, Agent::Gemini).is_ok_and(|s| !s.installed.is_empty())
        }
        Part::Copilot => copilot::status(top).is_ok_and(|s| !s.installed.is_empty()),
        Part::Opencode => opencode::status(top).is_ok_and(|s| s.installed),
    }
}

/// The parts that read the skill at `.agents/skills` (Claude Code reads its own).
const SHARING_THE_SKILL: [Part; 4] = [Part::Codex, Part::Gemini, Part::Copilot, Part::Opencode];

/// The file changes that take `part` out (and its entry out of the record of what install made).
fn plan(
    repo: &Repo,
    top: Option<&Path>,
    part: Part,
    parts: &[Part],
    manifest: &mut Manifest,
) -> Result<Vec<(TargetReport, FileChange)>> {
    let outcome = |hook, change: FileChange, action| {
        (TargetReport::new(hook, change.path.clone(), action), change)
    };
    let agent = match part {
        Part::PrePush => {
            let plans = git_hooks::plan_uninstall(repo)?;
            return Ok(plans
                .into_iter()
                .map(|(change, action)| outcome("pre-push", change, action))
                .collect());
        }
        Part::Claude => Agent::Claude,
        Part::Codex => Agent::Codex,
        Part::Gemini => Agent::Gemini,
        Part::Copilot | Part::Opencode => {
            let Some(top) = top else { return Ok(Vec::new()) };
            return plan_own_file(top, part, parts);
        }
    };
    let Some(top) = top else { return Ok(Vec::new()) }; // a bare repository has no agent settings
    let created = manifest.remove(agent.settings_path());
    let (mut change, action) = agent_uninstall::plan_uninstall(top, agent, created.as_ref())?;
    // Gemini CLI's server sits in the hooks' own file: taken out in the same change.
    let gemini_mcp = match agent {
        Agent::Gemini => Some(mcp::fold::fold_uninstall(&mut change, agent)?),
        _ => None,
    };
    let path = change.path.clone();
    let mut plans = vec![outcome(agent.name(), change, action)];
    if let Some(action) = gemini_mcp {
        let none = FileChange { path: path.clone(), before: None, after: None, executable: false };
        plans.push((TargetReport::new(mcp::label(agent), path, action), none));
    } else if agent != Agent::Claude || !stays(top, Part::Copilot, parts) {
        // Copilot CLI's server is Claude Code's, in `.mcp.json`: it stays while Copilot's does.
        let (change, action) = mcp::plan_uninstall(top, agent)?;
        plans.push(outcome(mcp::label(agent), change, action));
    }
    if agent == Agent::Claude {
        let (change, action) = mcp::plan_unapproval(top)?;
        plans.push(outcome(mcp::APPROVAL_LABEL, change, action));
    }
    // Codex, Gemini CLI, Copilot CLI and opencode share `.agents/skills`: it goes with the last
    // of them taken out.
    let shared = SHARING_THE_SKILL.contains(&part);
    if !shared || !SHARING_THE_SKILL.iter().any(|other| stays(top, *other, parts)) {
        let (change, action) = agent_uninstall::plan_skill_uninstall(top, agent)?;
        plans.push(outcome("handoff skill", change, action));
    }
    Ok(plans)
}

/// The file changes that take out Copilot CLI's hooks file or opencode's plugin, with the skill
/// and Copilot's MCP server when no other part uses them.
fn plan_own_file(
    top: &Path,
    part: Part,
    parts: &[Part],
) -> Result<Vec<(TargetReport, FileChange)>> {
    let outcome = |hook, (change, action): (FileChange, Action)| {
        (TargetReport::new(hook, change.path.clone(), action), change)
    };
    let mut plans = Vec::new();
    if part == Part::Copilot {
        plans.push(outcome("Copilot CLI", copilot::plan_uninstall(top)?));
        if !stays(top, Part::Claude, parts) {
            let label = crate::hooks::install::COPILOT_MCP_LABEL;
            plans.push(outcome(label, mcp::plan_uninstall(top, Agent::Claude)?));
        }
    } else {
        plans.push(outcome("opencode", opencode::plan_uninstall(top)?));
        let label = crate::hooks::install::OPENCODE_MCP_LABEL;
        plans.push(outcome(label, opencode::plan_mcp_uninstall(top)?));
    }
    if !SHARING_THE_SKILL.iter().any(|other| stays(top, *other, parts)) {
        let skill = agent_uninstall::plan_skill_uninstall(top, Agent::Codex)?;
        plans.push(outcome("handoff skill", skill));
    }
    Ok(plans)
}
