//! `git handoff hooks install`: the flags, and the report of what
//! [`crate::hooks::install`] planned and wrote (or, with --dry-run, would write).

use std::io::Write;

use anyhow::Result;

use crate::cli::context::Ctx;
use crate::hooks::{self, install::Request};

use super::print::print;

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
/// that make handoffs automatic: tool starts (PreToolUse, so a call still running at a limit is
/// known), tool results, prompts, Stop, StopFailure (a turn ended on an API error), PreCompact,
/// SubagentStart and SubagentStop (and Codex's PermissionRequest, which exits 0) → `record`,
/// SessionStart → `recall`, SessionEnd →
/// `note --digest-only`, each run as `git-handoff <command>` (the binary itself: a git start less
/// on every tool call); entries in the older `git handoff <command>` form are rewritten where
/// they are. Codex runs them only once it trusts the project and you approved them in its hook
/// review (`hooks status` says whether it has). --gemini merges Gemini CLI's (BeforeTool,
/// AfterTool, BeforeAgent, AfterAgent, PreCompress → `record`, SessionStart → `recall`, SessionEnd → `note --digest-only`, timeouts in
/// milliseconds, nothing but JSON on stdout) into `.gemini/settings.json`. Each adds the handoff
/// skill where its agent reads skills, when there is none: `.claude/skills/handoff/SKILL.md`, or
/// `.agents/skills/handoff/SKILL.md` for Codex and Gemini CLI. Each also registers the handoff
/// tools (`git handoff mcp`) as the MCP server `git-handoff`: in `.mcp.json` (`mcpServers`) for
/// Claude Code (approved for you in `.claude/settings.local.json`, as Claude Code asks before
/// starting a project's server), in `.codex/config.toml` (`[mcp_servers.git-handoff]`) for Codex,
/// in `.gemini/settings.json` (`mcpServers`) beside the hooks for Gemini CLI. Every
/// existing setting is kept, and the file's own formatting; installing again changes nothing. An
/// invalid settings file stops the install before anything is written.
///
/// --copilot writes GitHub Copilot CLI's hooks into a file of their own,
/// `.github/hooks/git-handoff.json` (sessionStart → `recall`; userPromptSubmitted, preToolUse,
/// postToolUse, postToolUseFailure, errorOccurred, agentStop, subagentStart, subagentStop →
/// `record --agent copilot --event <event>`; sessionEnd → `note --digest-only`), each ending
/// `|| exit 0` (Copilot denies a tool call whose preToolUse hook exits non-zero at all; failures
/// are logged for `hooks status` instead), and registers the MCP server in `.mcp.json`, which
/// Copilot reads as Claude Code does. Copilot loads the hooks only in a folder it trusts
/// (`hooks status` says whether it does). Copilot also runs Claude Code's hooks: where both are
/// installed, those leave Copilot's calls to its own, so each call counts once. Cursor runs Claude
/// Code's hooks: --claude serves it.
///
/// --opencode writes a plugin, `.opencode/plugin/git-handoff.js` (no dependencies), that pipes
/// opencode's events to `record` (each call's start and end under its call id, with the shell's
/// exit code; prompts, the model's last text, compaction, API errors, subagents), puts `recall`
/// into the system prompt of each new session, and runs `note --digest-only` when a session goes
/// idle; it registers the MCP server under `mcp` in the project's `opencode.json` (a project
/// configured in `opencode.jsonc` keeps its file: add the entry there by hand). Both add the
/// handoff skill in `.agents/skills/handoff/SKILL.md`, where both read skills.
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

    /// Install Gemini CLI hooks into .gemini/settings.json.
    #[arg(long)]
    pub gemini: bool,

    /// Install GitHub Copilot CLI hooks into .github/hooks/git-handoff.json and the MCP server into
    /// .mcp.json.
    #[arg(long)]
    pub copilot: bool,

    /// Install the opencode plugin into .opencode/plugin/git-handoff.js and the MCP server into
    /// opencode.json.
    #[arg(long)]
    pub opencode: bool,

    /// Show what would change (paths and diffs) and write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Also push the handoff records with every push (a failed notes push only warns).
    #[arg(long)]
    pub push_notes: bool,
}

pub fn run(ctx: &Ctx, args: InstallArgs, out: &mut impl Write) -> Result<()> {
    let repo = Ctx::repo()?;
    let report = hooks::install::install(&repo, &Request::from(&args))?;
    print(ctx, &report, repo.top().ok(), out)
}

impl From<&InstallArgs> for Request {
    fn from(args: &InstallArgs) -> Request {
        Request {
            pre_push: args.pre_push,
            claude: args.claude,
            codex: args.codex,
            gemini: args.gemini,
            copilot: args.copilot,
            opencode: args.opencode,
            dry_run: args.dry_run,
            push_notes: args.push_notes,
        }
    }
}
