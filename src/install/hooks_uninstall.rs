//! What `git handoff hooks uninstall` does: plan taking out each part picked (all of them when
//! none is), change the files (or, in a dry run, show the changes), forget what install recorded
//! it created, and take the notes ref out of `notes.rewriteRef` with the pre-push part. A file that
//! cannot be read stops it all with nothing changed.

use std::path::Path;

use anyhow::Result;

use crate::git::repo::Repo;
use crate::install::agent_settings::Agent;
use crate::install::change::{FileChange, shown};
use crate::install::manifest::{self, Manifest};
use crate::install::report::Report;
use crate::install::{
    Part, TargetReport, agent_status, agent_uninstall, git_hooks, mcp, rewrite_ref,
};
use crate::model::config::Config;

/// What to take out: the command line's flags, as plain values.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    pub pre_push: bool,
    pub claude: bool,
    pub codex: bool,
    pub gemini: bool,
    pub dry_run: bool,
}

/// Takes out of `repo` what `request` picks (everything when it picks nothing) and reports what
/// each target lost.
pub fn uninstall(repo: &Repo, request: &Request) -> Result<Report> {
    let all = !(request.pre_push || request.claude || request.codex || request.gemini);
    let top = repo.top().ok().map(|p| p.to_path_buf());

    // Plan every file first, then change them: a file we cannot read stops it all.
    let parts: Vec<Part> = [
        (request.pre_push, Part::PrePush),
        (request.claude, Part::Claude),
        (request.codex, Part::Codex),
        (request.gemini, Part::Gemini),
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
fn part_of(agent: Agent) -> Part {
    match agent {
        Agent::Claude => Part::Claude,
        Agent::Codex => Part::Codex,
        Agent::Gemini => Part::Gemini,
    }
}

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
    } else {
        let (change, action) = mcp::plan_uninstall(top, agent)?;
        plans.push(outcome(mcp::label(agent), change, action));
    }
    if agent == Agent::Claude {
        let (change, action) = mcp::plan_unapproval(top)?;
        plans.push(outcome(mcp::APPROVAL_LABEL, change, action));
    }
    // Codex and Gemini CLI share `.agents/skills`: it goes with the last of them taken out.
    let others = [Agent::Claude, Agent::Codex, Agent::Gemini].into_iter().filter(|other| {
        *other != agent
            && other.skill_path() == agent.skill_path()
            && !parts.contains(&part_of(*other))
            && agent_status::status(top, *other).is_ok_and(|s| !s.installed.is_empty())
    });
    if others.count() == 0 {
        let (change, action) = agent_uninstall::plan_skill_uninstall(top, agent)?;
        plans.push(outcome("handoff skill", change, action));
    }
    Ok(plans)
}
