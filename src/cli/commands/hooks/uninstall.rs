//! `git handoff hooks uninstall`: undo what `hooks install` did, all of it or the parts picked.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use crate::cli::context::Ctx;
use crate::git::repo::Repo;
use crate::install::agent_settings::Agent;
use crate::install::change::FileChange;
use crate::install::manifest::{self, Manifest};
use crate::install::{Outcome, Part, agent_uninstall, git_hooks, mcp, rewrite_ref};
use crate::model::config::Config;

use super::print::{Report, print, shown};

/// Undo what `hooks install` did: all of it, or the parts picked with the flags.
///
/// --pre-push removes git-handoff's block from the pre-push hook (and from the copies hook
/// managers moved aside: `pre-push.legacy`, `pre-push.old`), leaving the rest of each hook as it
/// was; a hook that held nothing but the block is removed. It also takes the notes ref out of
/// `notes.rewriteRef` (other values stay).
///
/// --claude and --codex remove git-handoff's hook entries from `.claude/settings.json` and
/// `.codex/hooks.json`: only entries whose command is one git-handoff installs; the user's hooks,
/// keys and formatting stay, and a file left empty is removed. --claude also removes
/// `.claude/skills/handoff/SKILL.md` if it is still the skill as installed (an edited skill is
/// kept). Each also takes the `git-handoff` MCP server out of `.mcp.json` / `.codex/config.toml`
/// when it is as installed (a changed entry is kept), and its approval out of
/// `.claude/settings.local.json`.
///
/// With no flag, removes everything. --dry-run shows the changes and writes nothing.
#[derive(Debug, clap::Args)]
pub struct UninstallArgs {
    /// Remove the pre-push check (and the notes ref from notes.rewriteRef).
    #[arg(long)]
    pub pre_push: bool,

    /// Remove the Claude Code hooks and the unchanged handoff skill.
    #[arg(long)]
    pub claude: bool,

    /// Remove the Codex hooks.
    #[arg(long)]
    pub codex: bool,

    /// Show what would change and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(ctx: &Ctx, args: UninstallArgs, out: &mut impl Write) -> Result<()> {
    let repo = Repo::discover()?;
    let all = !(args.pre_push || args.claude || args.codex);
    let top = repo.top().ok().map(|p| p.to_path_buf());

    // Plan every file first, then change them: a file we cannot read stops it all.
    let parts: Vec<Part> =
        [(args.pre_push, Part::PrePush), (args.claude, Part::Claude), (args.codex, Part::Codex)]
            .into_iter()
            .filter_map(|(picked, part)| (all || picked).then_some(part))
            .collect();
    let mut manifest = manifest::load(&repo.git_dir);
    let mut planned: Vec<(Outcome, FileChange)> = Vec::new();
    for part in &parts {
        planned.extend(plan(&repo, top.as_deref(), *part, &mut manifest)?);
    }

    let stop = top.clone().unwrap_or_else(|| repo.git_dir.clone());
    let mut outcomes = Vec::new();
    for (mut outcome, change) in planned {
        if args.dry_run {
            let name = shown(&change.path, top.as_deref());
            outcome.diff = Some(change.diff(&name)).filter(|d| !d.is_empty());
        } else {
            change.apply(&stop)?;
        }
        outcomes.push(outcome);
    }
    if !args.dry_run {
        manifest::save(&repo.git_dir, &manifest)?;
    }
    let rewrite_ref = if parts.contains(&Part::PrePush) {
        let config = Config::load(top.as_deref())?;
        Some(rewrite_ref::remove(&repo, &config.notes_ref, args.dry_run)?)
    } else {
        None
    };
    let report = Report { dry_run: args.dry_run, hooks: outcomes, rewrite_ref };
    print(ctx, &report, top.as_deref(), out)
}

/// The file changes that take `part` out (and its entry out of the record of what install made).
fn plan(
    repo: &Repo,
    top: Option<&Path>,
    part: Part,
    manifest: &mut Manifest,
) -> Result<Vec<(Outcome, FileChange)>> {
    let outcome = |hook, change: FileChange, action| {
        (Outcome::new(hook, change.path.clone(), action), change)
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
    };
    let Some(top) = top else { return Ok(Vec::new()) }; // a bare repository has no agent settings
    let created = manifest.remove(agent.settings_path());
    let (change, action) = agent_uninstall::plan_uninstall(top, agent, created.as_ref())?;
    let mut plans = vec![outcome(agent.name(), change, action)];
    let (change, action) = mcp::plan_uninstall(top, agent)?;
    plans.push(outcome(mcp::label(agent), change, action));
    if agent == Agent::Claude {
        let (change, action) = mcp::plan_unapproval(top)?;
        plans.push(outcome(mcp::APPROVAL_LABEL, change, action));
    }
    if agent == Agent::Claude {
        let (change, action) = agent_uninstall::plan_skill_uninstall(top)?;
        plans.push(outcome("handoff skill", change, action));
    }
    Ok(plans)
}
