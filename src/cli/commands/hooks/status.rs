//! `git handoff hooks status`: what git-handoff has installed, where, and whether it runs.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::cli::context::Ctx;
use crate::cli::output;
use crate::git::repo::Repo;
use crate::install::agent_settings::{Agent, CLAUDE_SKILL_PATH};
use crate::install::agent_uninstall::{self, AgentStatus, SkillState};
use crate::install::git_hooks::{self, PrePushStatus};
use crate::install::managers::Evidence;
use crate::install::mcp;
use crate::install::rewrite_ref;
use crate::model::config::Config;

use super::print::shown;

/// A row label, padded before it is made bold so the columns line up in colour too.
fn label(name: &str) -> String {
    output::heading(&format!("{name:<14}"))
}

/// Show what git-handoff has installed where, and whether it runs.
///
/// The pre-push hook git runs and whether it holds git-handoff's block (or which hook manager owns
/// it, and copies of the block that no longer run), `notes.rewriteRef`, the Claude Code and Codex
/// hook entries (which of git-handoff's are in place, and which are in the older, slower
/// `git handoff` form that installing again rewrites), and the handoff skill (as installed, or
/// edited). Exit 0 whatever is found.
///
/// --json prints {"pre_push": {"path", "installed", "manager", "evidence", "elsewhere": [{"path",
/// "runs"}]}, "rewrite_ref": {"key", "value", "set"}, "claude": {"path", "exists", "installed":
/// [event], "missing": [event], "outdated"?: [event], "problem"?}, "codex": {...}, "skill":
/// {"path", "state": "absent"|"unchanged"|"modified"}, "claude_mcp": {"path", "installed",
/// "changed"}, "codex_mcp": {...}}.
#[derive(Debug, clap::Args)]
pub struct StatusArgs {}

#[derive(Serialize)]
struct Report {
    pre_push: PrePushStatus,
    rewrite_ref: RewriteRefStatus,
    claude: Option<AgentStatus>,
    codex: Option<AgentStatus>,
    skill: Option<Skill>,
    claude_mcp: Option<mcp::Status>,
    codex_mcp: Option<mcp::Status>,
}

#[derive(Serialize)]
struct RewriteRefStatus {
    key: &'static str,
    value: String,
    set: bool,
}

#[derive(Serialize)]
struct Skill {
    path: PathBuf,
    state: SkillState,
}

pub fn run(ctx: &Ctx, _args: StatusArgs, out: &mut impl Write) -> Result<()> {
    let repo = Repo::discover()?;
    let top = repo.top().ok().map(|p| p.to_path_buf());
    let config = Config::load(top.as_deref())?;
    let set = rewrite_ref::covers(&repo, &config.notes_ref)?;
    let agent = |agent| top.as_deref().map(|t| agent_uninstall::status(t, agent)).transpose();
    let skill = match top.as_deref() {
        Some(t) => {
            Some(Skill { path: t.join(CLAUDE_SKILL_PATH), state: agent_uninstall::skill_state(t)? })
        }
        None => None,
    };
    let report = Report {
        pre_push: git_hooks::status(&repo)?,
        rewrite_ref: RewriteRefStatus { key: rewrite_ref::KEY, value: config.notes_ref, set },
        claude: agent(Agent::Claude)?,
        codex: agent(Agent::Codex)?,
        skill,
        claude_mcp: top.as_deref().map(|t| mcp::status(t, Agent::Claude)).transpose()?,
        codex_mcp: top.as_deref().map(|t| mcp::status(t, Agent::Codex)).transpose()?,
    };
    if ctx.json {
        return Ok(output::write_json(out, &report)?);
    }
    let show = |p: &std::path::Path| shown(p, top.as_deref());
    let pre = &report.pre_push;
    let state = if pre.installed { "installed" } else { "not installed" };
    writeln!(out, "{}{} {state}", label("pre-push"), show(&pre.path))?;
    if let (Some(manager), Some(evidence)) = (pre.manager, &pre.evidence) {
        let why = match evidence {
            Evidence::HookFile(p) => format!("its hook is {}", show(p)),
            Evidence::HooksPath(p) => format!("core.hooksPath is {}", show(p)),
            Evidence::Config(p) => format!("{} is set up", show(p)),
        };
        writeln!(
            out,
            "{:<14}managed by {} ({why}); `git handoff hooks install --pre-push` prints its snippet",
            "",
            manager.name()
        )?;
    }
    for copy in &pre.elsewhere {
        let runs = if copy.runs { "runs" } else { "never runs" };
        writeln!(out, "{:<14}block also in {} ({runs})", "", show(&copy.path))?;
    }
    let rewrite = &report.rewrite_ref;
    let verb = if rewrite.set { "includes" } else { "does not include" };
    writeln!(out, "{}{} {verb} {}", label("rewriteRef"), rewrite.key, rewrite.value)?;
    for (name, status) in [("Claude Code", &report.claude), ("Codex", &report.codex)] {
        let Some(status) = status else { continue };
        let total = status.installed.len() + status.missing.len();
        let mut what = match &status.problem {
            Some(problem) => format!("unreadable: {problem}"),
            None if !status.exists => "absent".to_string(),
            None if status.missing.is_empty() => format!("all {total} git-handoff hooks"),
            None => format!(
                "{} of {total} git-handoff hooks (missing: {})",
                status.installed.len(),
                status.missing.join(", ")
            ),
        };
        if !status.outdated.is_empty() {
            what.push_str(&format!(
                "; in the older `git handoff` form: {} (install again to update)",
                status.outdated.join(", ")
            ));
        }
        writeln!(out, "{}{} {what}", label(name), show(&status.path))?;
    }
    for (name, status) in [("MCP (Claude)", &report.claude_mcp), ("MCP (Codex)", &report.codex_mcp)]
    {
        let Some(status) = status else { continue };
        let state = match (status.installed, status.changed) {
            (true, _) => "registers git-handoff",
            (false, true) => "has a changed git-handoff entry",
            (false, false) => "does not register git-handoff",
        };
        writeln!(out, "{}{} {state}", label(name), show(&status.path))?;
    }
    if let Some(skill) = &report.skill {
        let state = match skill.state {
            SkillState::Absent => "absent",
            SkillState::Unchanged => "as installed",
            SkillState::Modified => "edited (uninstall keeps it)",
        };
        writeln!(out, "{}{} {state}", label("skill"), show(&skill.path))?;
    }
    Ok(())
}
