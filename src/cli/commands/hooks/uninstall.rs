//! `git handoff hooks uninstall`: the flags, and the report of what
//! [`crate::hooks::uninstall`] took out (or, with --dry-run, would take out).

use std::io::Write;

use anyhow::Result;

use crate::cli::context::Ctx;
use crate::hooks::{self, uninstall::Request};

use super::print::print;

/// Undo what `hooks install` did: all of it, or the parts picked with the flags.
///
/// --pre-push removes git-handoff's block from the pre-push hook (and from the copies hook
/// managers moved aside: `pre-push.legacy`, `pre-push.old`), leaving the rest of each hook as it
/// was; a hook that held nothing but the block is removed. It also takes the notes ref out of
/// `notes.rewriteRef` (other values stay).
///
/// --claude, --codex and --gemini remove git-handoff's hook entries from `.claude/settings.json`,
/// `.codex/hooks.json` and `.gemini/settings.json`: only entries whose command is one git-handoff
/// installs; the user's hooks, keys and formatting stay, and a file left empty is removed. Each
/// also removes the handoff skill it installed (`.claude/skills/handoff/SKILL.md`, or
/// `.agents/skills/handoff/SKILL.md` for Codex and Gemini CLI) if it is still the skill as
/// installed (an edited skill is kept). --claude and --codex also take the `git-handoff` MCP
/// server out of `.mcp.json` / `.codex/config.toml` when it is as installed (a changed entry is
/// kept), and its approval out of `.claude/settings.local.json`.
///
/// --copilot removes `.github/hooks/git-handoff.json` and --opencode `.opencode/plugin/git-handoff.js`
/// (and its server from `opencode.json`) when each is as installed (a changed one is kept). The skill in `.agents/skills`, which Codex,
/// Gemini CLI, Copilot CLI and opencode share, goes with the last of them; the `.mcp.json` server,
/// which Claude Code and Copilot CLI share, with the last of those two.
///
/// With no flag, removes everything. --dry-run shows the changes and writes nothing.
#[derive(Debug, clap::Args)]
pub struct UninstallArgs {
    /// Remove the pre-push check (and the notes ref from notes.rewriteRef).
    #[arg(long)]
    pub pre_push: bool,

    /// Remove the Claude Code hooks, MCP server and the unchanged handoff skill.
    #[arg(long)]
    pub claude: bool,

    /// Remove the Codex hooks, MCP server and the unchanged handoff skill.
    #[arg(long)]
    pub codex: bool,

    /// Remove the Gemini CLI hooks and the unchanged handoff skill.
    #[arg(long)]
    pub gemini: bool,

    /// Remove the GitHub Copilot CLI hooks file (and the MCP server, unless Claude Code's stays).
    #[arg(long)]
    pub copilot: bool,

    /// Remove the opencode plugin and its MCP server entry.
    #[arg(long)]
    pub opencode: bool,

    /// Show what would change and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(ctx: &Ctx, args: UninstallArgs, out: &mut impl Write) -> Result<()> {
    let repo = Ctx::repo()?;
    let report = hooks::uninstall::uninstall(&repo, &Request::from(&args))?;
    print(ctx, &report, repo.top().ok(), out)
}

impl From<&UninstallArgs> for Request {
    fn from(args: &UninstallArgs) -> Request {
        Request {
            pre_push: args.pre_push,
            claude: args.claude,
            codex: args.codex,
            gemini: args.gemini,
            copilot: args.copilot,
            opencode: args.opencode,
            dry_run: args.dry_run,
        }
    }
}
