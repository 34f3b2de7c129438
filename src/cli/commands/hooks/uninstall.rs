//! `git handoff hooks uninstall`: undo what `hooks install` did, all of it or the parts picked.

use std::io::Write;

use anyhow::Result;

use crate::cli::commands::Ctx;
use crate::git::repo::Repo;
use crate::install::agent_settings::Agent;
use crate::install::change::FileChange;
use crate::install::{Outcome, agent_uninstall, git_hooks, rewrite_ref};
use crate::model::config::Config;

use super::{Report, print, shown};

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
/// kept).
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
    let mut planned: Vec<(Outcome, FileChange)> = Vec::new();
    if all || args.pre_push {
        for (change, action) in git_hooks::plan_uninstall(&repo)? {
            planned.push((Outcome::new("pre-push", change.path.clone(), action), change));
        }
    }
    for (wanted, agent) in [(args.claude, Agent::Claude), (args.codex, Agent::Codex)] {
        let Some(top) = top.as_deref().filter(|_| all || wanted) else { continue };
        let (change, action) = agent_uninstall::plan_uninstall(top, agent)?;
        planned.push((Outcome::new(agent.name(), change.path.clone(), action), change));
        if agent == Agent::Claude {
            let (change, action) = agent_uninstall::plan_skill_uninstall(top)?;
            planned.push((Outcome::new("handoff skill", change.path.clone(), action), change));
        }
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
    let rewrite_ref = if all || args.pre_push {
        let config = Config::load(top.as_deref())?;
        Some(rewrite_ref::remove(&repo, &config.notes_ref, args.dry_run)?)
    } else {
        None
    };
    let report = Report { dry_run: args.dry_run, hooks: outcomes, rewrite_ref };
    print(ctx, &report, top.as_deref(), out)
}
