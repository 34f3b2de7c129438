//! `git handoff hooks install|uninstall`: the pre-push check in git's hooks (agent hook settings
//! join this group later).

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use crate::cli::commands::Ctx;
use crate::cli::output;
use crate::git::repo::Repo;
use crate::install::agent_settings::{self, Agent};
use crate::install::git_hooks::{self, Action, Outcome, RewriteRef};
use crate::model::config::Config;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    Install(InstallArgs),
    Uninstall(UninstallArgs),
}

/// Install git-handoff's hooks, keeping what is there.
///
/// --pre-push adds a marked block (`# >>> git-handoff >>>` ... `# <<< git-handoff <<<`) to the
/// pre-push hook where git looks for it (`core.hooksPath`, else the common git dir's hooks/),
/// creating the hook if there is none. The block runs `git-handoff validate --pre-push` (the
/// binary itself, sparing the push a git start) and then the rest of the existing hook, each with
/// git's full stdin, and refuses the push if either fails. Installing again leaves one block. With
/// no flag, installs the pre-push hook.
///
/// --claude and --codex merge into `.claude/settings.json` / `.codex/hooks.json` the agent hooks
/// that make handoffs automatic: tool results and Stop → `record`, SessionStart → `recall`,
/// SessionEnd → `note --digest-only` (Claude Code). --claude also adds the handoff skill as
/// `.claude/skills/handoff/SKILL.md` when there is none. Every existing setting is kept;
/// installing again changes nothing; --dry-run prints the diff instead of writing.
///
/// --push-notes makes the block also push the handoff records (the notes ref) with every push, by
/// running `git-handoff sync <remote>` once the checks pass; when that fails it warns and the push
/// goes on. Installing again without --push-notes takes it out.
///
/// Installing also adds the notes ref to `notes.rewriteRef` (keeping the values already there),
/// so records follow `git commit --amend` and `git rebase`.
#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Install the pre-push check.
    #[arg(long)]
    pub pre_push: bool,

    /// Install Claude Code hooks into .claude/settings.json.
    #[arg(long)]
    pub claude: bool,

    /// Install Codex hooks into .codex/hooks.json.
    #[arg(long)]
    pub codex: bool,

    /// Print what the agent settings would become (a diff) and write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Also push the handoff records with every push (a failed notes push only warns).
    #[arg(long)]
    pub push_notes: bool,
}

/// Remove git-handoff's block from the hooks, leaving the rest of each hook as it was.
///
/// A hook file that held nothing but git-handoff's block is removed.
#[derive(Debug, clap::Args)]
pub struct UninstallArgs {
    /// Remove the pre-push check [default: every hook git-handoff installs].
    #[arg(long)]
    pub pre_push: bool,
}

#[derive(Serialize)]
struct Report {
    hooks: Vec<Outcome>,
    /// `notes.rewriteRef` after an install.
    #[serde(skip_serializing_if = "Option::is_none")]
    rewrite_ref: Option<RewriteRef>,
}

pub fn run(ctx: &Ctx, command: Command, out: &mut impl Write) -> Result<()> {
    let repo = Repo::discover()?;
    let (outcomes, rewrite_ref) = match command {
        Command::Install(args) => {
            let agents: Vec<Agent> = [(args.claude, Agent::Claude), (args.codex, Agent::Codex)]
                .into_iter()
                .filter_map(|(wanted, agent)| wanted.then_some(agent))
                .collect();
            let mut outcomes = Vec::new();
            let mut rewrite_ref = None;
            if (args.pre_push || args.push_notes || agents.is_empty()) && !args.dry_run {
                outcomes.push(git_hooks::install_pre_push(&repo, args.push_notes)?);
                let config = Config::load(repo.top().ok())?;
                rewrite_ref = Some(git_hooks::ensure_rewrite_ref(&repo, &config.notes_ref)?);
            }
            for agent in agents {
                if agent == Agent::Claude
                    && let Some(path) = agent_settings::install_skill(repo.top()?, args.dry_run)?
                {
                    let verb = if args.dry_run { "would add" } else { "added" };
                    let line = format!("{verb} the handoff skill {}", path.display());
                    if !ctx.json {
                        writeln!(out, "{}", output::dim(&line))?;
                    }
                }
                let installed = agent_settings::install(repo.top()?, agent, args.dry_run)?;
                if args.dry_run {
                    if let Some(diff) = &installed.diff {
                        write!(out, "{diff}")?;
                    }
                    continue;
                }
                let action = match (&installed.diff, installed.existed) {
                    (None, _) => Action::Unchanged,
                    (Some(_), true) => Action::Added,
                    (Some(_), false) => Action::Created,
                };
                let hook = match agent {
                    Agent::Claude => "Claude Code",
                    Agent::Codex => "Codex",
                };
                outcomes.push(Outcome { hook, path: installed.path, action });
            }
            if args.dry_run {
                return Ok(());
            }
            (outcomes, rewrite_ref)
        }
        Command::Uninstall(_args) => (vec![git_hooks::uninstall_pre_push(&repo)?], None),
    };
    if ctx.json {
        return Ok(output::write_json(out, &Report { hooks: outcomes, rewrite_ref })?);
    }
    for outcome in &outcomes {
        let path = outcome.path.display();
        let what = match outcome.action {
            Action::Created => format!("created the {} hook {path}", outcome.hook),
            Action::Added => {
                format!("added the git-handoff block to the {} hook {path}", outcome.hook)
            }
            Action::Updated => format!("updated the git-handoff block in {path}"),
            Action::Unchanged => format!("the {} hook {path} is already installed", outcome.hook),
            Action::Removed => format!("removed the git-handoff block from {path}"),
            Action::RemovedFile => format!("removed {path} (it held only the git-handoff block)"),
            Action::NotInstalled => {
                format!("no git-handoff block in the {} hook {path}", outcome.hook)
            }
        };
        writeln!(out, "{what}")?;
        if outcome.hook == "Codex" && outcome.action != Action::Unchanged {
            let hint =
                "Codex runs hooks only with `[features] codex_hooks = true` in .codex/config.toml";
            writeln!(out, "{}", output::dim(hint))?;
        }
    }
    if let Some(rewrite) = &rewrite_ref
        && rewrite.action == Action::Added
    {
        writeln!(
            out,
            "added {} to {}, so records follow amend and rebase",
            rewrite.value, rewrite.key
        )?;
    }
    Ok(())
}
