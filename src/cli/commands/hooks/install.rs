//! `git handoff hooks install`: plan every file, then write them all (or, with --dry-run, show
//! them); a file that cannot be read or merged stops the install with nothing changed.

use std::io::Write;

use anyhow::Result;

use crate::cli::context::Ctx;
use crate::git::repo::Repo;
use crate::install::agent_settings::{self, Agent};
use crate::install::change::FileChange;
use crate::install::manifest::{self, Created};
use crate::install::{Action, Outcome, git_hooks, mcp, rewrite_ref};
use crate::model::config::Config;

use super::print::{Report, print, shown};

/// Install git-handoff's hooks, keeping what is there.
///
/// --pre-push adds a marked block (`# >>> git-handoff >>>` ... `# <<< git-handoff <<<`) to the
/// pre-push hook where git looks for it (`core.hooksPath`, else the common git dir's hooks/),
/// creating the hook if there is none. The block runs `git-handoff validate --pre-push` (the
/// binary itself, sparing the push a git start) and then the rest of the existing hook, each with
/// git's full stdin, and refuses the push if either fails. Installing again leaves one block. With
/// no flag, installs the pre-push hook.
///
/// When a hook manager owns the pre-push hook or is set up to take it over (husky's `.husky/`,
/// pre-commit's or lefthook's hook or configuration), nothing is written: the manager would
/// overwrite the block. The snippet for its configuration is printed instead.
///
/// --claude and --codex merge into `.claude/settings.json` / `.codex/hooks.json` the agent hooks
/// that make handoffs automatic: tool starts (PreToolUse, Claude Code, so a call still running at
/// a limit is known), tool results and Stop → `record`, SessionStart → `recall`,
/// SessionEnd → `note --digest-only` (Claude Code), each run as `git-handoff <command>` (the binary
/// itself: a git start less on every tool call); entries in the older `git handoff <command>`
/// form are rewritten where they are. --claude also adds the handoff skill as
/// `.claude/skills/handoff/SKILL.md` when there is none. Each also registers the handoff tools
/// (`git handoff mcp`) as the MCP server `git-handoff`: in `.mcp.json` (`mcpServers`) for Claude
/// Code (approved for you in `.claude/settings.local.json`, as Claude Code asks before starting a
/// project's server), in `.codex/config.toml` (`[mcp_servers.git-handoff]`) for Codex. Every
/// existing setting is kept, and the file's own formatting; installing again changes nothing. An
/// invalid settings file stops the install before anything is written.
///
/// --push-notes makes the block also push the handoff records (the notes ref) with every push, by
/// running `git-handoff sync <remote>` once the checks pass; when that fails it warns and the push
/// goes on. Installing again without --push-notes takes it out.
///
/// Installing the pre-push hook also adds the notes ref to `notes.rewriteRef` (keeping the values
/// already there), so records follow `git commit --amend` and `git rebase`.
///
/// --dry-run shows each change (the hook path and block, the settings diff) and writes nothing.
/// `git handoff hooks status` shows what is installed where; `hooks uninstall` takes it out.
#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Install the pre-push check.
    #[arg(long)]
    pub pre_push: bool,

    /// Install Claude Code hooks into .claude/settings.json and the MCP server into .mcp.json.
    #[arg(long)]
    pub claude: bool,

    /// Install Codex hooks into .codex/hooks.json and the MCP server into .codex/config.toml.
    #[arg(long)]
    pub codex: bool,

    /// Show what would change (paths and diffs) and write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Also push the handoff records with every push (a failed notes push only warns).
    #[arg(long)]
    pub push_notes: bool,
}

pub fn run(ctx: &Ctx, args: InstallArgs, out: &mut impl Write) -> Result<()> {
    let repo = Repo::discover()?;
    let agents: Vec<Agent> = [(args.claude, Agent::Claude), (args.codex, Agent::Codex)]
        .into_iter()
        .filter_map(|(wanted, agent)| wanted.then_some(agent))
        .collect();
    let pre_push = args.pre_push || args.push_notes || agents.is_empty();
    let top = repo.top().ok().map(|p| p.to_path_buf());

    // Plan every file first: nothing is written unless everything can be.
    let mut planned: Vec<(Outcome, Option<FileChange>)> = Vec::new();
    let mut manifest = manifest::load(&repo.git_dir);
    if pre_push {
        let plan = git_hooks::plan_install(&repo, args.push_notes)?;
        let mut outcome = Outcome::new("pre-push", plan.path, plan.action);
        if let Some((manager, _)) = plan.manager {
            outcome.manager = Some(manager);
            outcome.snippet = Some(manager.snippet());
        }
        planned.push((outcome, plan.change));
    }
    for agent in &agents {
        let top = repo.top()?;
        if *agent == Agent::Claude
            && let Some(change) = agent_settings::plan_skill_install(top)
        {
            let outcome = Outcome::new("handoff skill", change.path.clone(), Action::Created);
            planned.push((outcome, Some(change)));
        }
        let change = agent_settings::plan_install(top, *agent)?;
        if change.changes_anything() {
            // Remember what this merge creates, so uninstall takes out no more than that.
            let events: Vec<&str> = agent.wanted().iter().map(|w| w.event).collect();
            let created = Created::by_merge(change.before.as_deref(), &events);
            let entry = manifest.entry(agent.settings_path().to_string()).or_default();
            *entry = std::mem::take(entry).union(created);
        }
        let outdated_only = change
            .before
            .as_deref()
            .is_some_and(|text| agent_settings::only_outdated(text, *agent));
        let action = match (change.changes_anything(), change.before.is_some()) {
            (false, _) => Action::Unchanged,
            (true, true) if outdated_only => Action::Updated,
            (true, true) => Action::Added,
            (true, false) => Action::Created,
        };
        planned.push((Outcome::new(agent.name(), change.path.clone(), action), Some(change)));
        let (change, action) = mcp::plan_install(top, *agent)?;
        planned.push((Outcome::new(mcp::label(*agent), change.path.clone(), action), Some(change)));
        if *agent == Agent::Claude {
            let (change, action) = mcp::plan_approval(top)?;
            planned.push((
                Outcome::new(mcp::APPROVAL_LABEL, change.path.clone(), action),
                Some(change),
            ));
        }
    }

    let stop = top.clone().unwrap_or_else(|| repo.git_dir.clone());
    let mut outcomes = Vec::new();
    for (mut outcome, change) in planned {
        if let Some(change) = change {
            if args.dry_run {
                // The skill is the shipped SKILL.md as it is: its path says enough.
                let name = shown(&change.path, top.as_deref());
                let diff = Some(change.diff(&name)).filter(|d| !d.is_empty());
                outcome.diff = diff.filter(|_| outcome.hook != "handoff skill");
            } else {
                change.apply(&stop)?;
            }
        }
        outcomes.push(outcome);
    }
    if !args.dry_run && !agents.is_empty() {
        manifest::save(&repo.git_dir, &manifest)?;
    }
    let rewrite_ref = if pre_push {
        let config = Config::load(top.as_deref())?;
        Some(rewrite_ref::add(&repo, &config.notes_ref, args.dry_run)?)
    } else {
        None
    };
    let report = Report { dry_run: args.dry_run, hooks: outcomes, rewrite_ref };
    print(ctx, &report, top.as_deref(), out)
}
