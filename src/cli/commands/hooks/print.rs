//! How `hooks install` and `hooks uninstall` print their report: a line per target in the user's
//! words (what was created, added, kept, or would be in a dry run), the dry run's diffs, the hook
//! manager's snippet, and the `notes.rewriteRef` change; or the report as JSON.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use crate::cli::context::Ctx;
use crate::cli::output;
use crate::hooks::change::shown;
use crate::hooks::report::Report;
use crate::hooks::{Action, TargetReport};

pub(super) fn print(
    ctx: &Ctx,
    report: &Report,
    top: Option<&Path>,
    out: &mut impl Write,
) -> Result<()> {
    if ctx.json {
        return Ok(output::write_json(out, report)?);
    }
    for outcome in &report.hooks {
        print_outcome(outcome, report.dry_run, top, out)?;
    }
    if let Some(rewrite) = &report.rewrite_ref {
        let would = if report.dry_run { "would be " } else { "" };
        let line = match rewrite.action {
            Action::Added => format!(
                "{} {would}added to {}, so records follow amend and rebase",
                rewrite.value, rewrite.key
            ),
            Action::Removed => format!("{} {would}removed from {}", rewrite.value, rewrite.key),
            _ => return Ok(()),
        };
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn print_outcome(
    outcome: &TargetReport,
    dry_run: bool,
    top: Option<&Path>,
    out: &mut impl Write,
) -> Result<()> {
    let path = shown(&outcome.path, top);
    let what = outcome.hook;
    if what.ends_with("MCP server") || what.ends_with("MCP approval") {
        return print_mcp(outcome, dry_run, &path, out);
    }
    let noun = if what == "pre-push" { "block" } else { "hooks" };
    let ours = format!("the git-handoff {noun}");
    let line = match (outcome.action, dry_run) {
        (Action::Managed, _) => return print_managed(outcome, &path, out),
        (Action::Created, _) if what == "handoff skill" => {
            let verb = if dry_run { "would add" } else { "added" };
            format!("{verb} the handoff skill {path}")
        }
        (Action::Created, false) => format!("created the {what} hook {path}"),
        (Action::Created, true) => format!("would create the {what} hook {path}:"),
        (Action::Added, false) => format!("added {ours} to {path}"),
        (Action::Added, true) => format!("would add {ours} to {path}:"),
        (Action::Updated, false) => format!("updated {ours} in {path}"),
        (Action::Updated, true) => format!("would update {ours} in {path}:"),
        (Action::Unchanged, _) => format!("the {what} hook {path} is already installed"),
        (Action::Removed, false) => format!("removed {ours} from {path}"),
        (Action::Removed, true) => format!("would remove {ours} from {path}:"),
        (Action::RemovedFile, false) if what == "handoff skill" => {
            format!("removed the handoff skill {path}")
        }
        (Action::RemovedFile, true) if what == "handoff skill" => {
            format!("would remove the handoff skill {path}")
        }
        (Action::RemovedFile, false) => format!("removed {path} (it held only git-handoff's part)"),
        (Action::RemovedFile, true) => {
            format!("would remove {path} (it holds only git-handoff's part)")
        }
        (Action::NotInstalled, _) if what == "handoff skill" => {
            format!("no handoff skill at {path}")
        }
        (Action::NotInstalled, _) => format!("no git-handoff {noun} in the {what} hook {path}"),
        (Action::Kept, _) => format!("kept {path}: it was edited after git-handoff installed it"),
    };
    writeln!(out, "{line}")?;
    if let Some(diff) = &outcome.diff {
        write!(out, "{diff}")?;
    }
    let changed = matches!(outcome.action, Action::Created | Action::Added | Action::Updated);
    if what == "Codex" && changed && !dry_run {
        writeln!(out, "{}", output::dim(&codex_review()))?;
    }
    Ok(())
}

/// The MCP server registration: one entry in `.mcp.json` or `.codex/config.toml`.
fn print_mcp(
    outcome: &TargetReport,
    dry_run: bool,
    path: &str,
    out: &mut impl Write,
) -> Result<()> {
    let would = if dry_run { "would be " } else { "" };
    let line = match outcome.action {
        _ if outcome.hook.ends_with("approval") => {
            return print_approval(outcome, dry_run, path, out);
        }
        Action::Created | Action::Added => {
            format!("the git-handoff MCP server {would}added to {path}")
        }
        Action::Unchanged => format!("the git-handoff MCP server is already in {path}"),
        Action::Removed | Action::RemovedFile => {
            format!("the git-handoff MCP server {would}removed from {path}")
        }
        Action::NotInstalled => format!("no git-handoff MCP server in {path}"),
        _ => format!("kept the git-handoff MCP server in {path}: it was changed after install"),
    };
    writeln!(out, "{line}")?;
    if let Some(diff) = &outcome.diff {
        write!(out, "{diff}")?;
    }
    Ok(())
}

/// The user's approval of the server in `.claude/settings.local.json`.
fn print_approval(
    outcome: &TargetReport,
    dry_run: bool,
    path: &str,
    out: &mut impl Write,
) -> Result<()> {
    let would = if dry_run { "would be " } else { "" };
    let line = match outcome.action {
        Action::Created | Action::Added => {
            format!("the git-handoff MCP server {would}approved in {path}")
        }
        Action::Unchanged => {
            format!("the git-handoff MCP server is approved (or disabled) in {path}")
        }
        Action::Removed | Action::RemovedFile => {
            format!("the git-handoff MCP server's approval {would}removed from {path}")
        }
        _ => format!("no approval of the git-handoff MCP server in {path}"),
    };
    writeln!(out, "{line}")?;
    if let Some(diff) = &outcome.diff {
        write!(out, "{diff}")?;
    }
    Ok(())
}

/// Codex 0.171 runs a new or changed hook only once the user has approved it.
fn codex_review() -> String {
    format!(
        "Codex runs new or changed hooks only after you approve them in its hook review, and \
         skips them silently until then: {}. `git handoff hooks status` shows whether it has.",
        crate::hooks::codex_review::HOW_TO_APPROVE
    )
}

fn print_managed(outcome: &TargetReport, path: &str, out: &mut impl Write) -> Result<()> {
    let Some(manager) = outcome.manager else { return Ok(()) };
    writeln!(
        out,
        "{} manages the pre-push hook ({path}), so git-handoff leaves it alone (the manager would \
         overwrite a block). Add this to {}, then run `{}`:",
        manager.name(),
        manager.config_file(),
        manager.install_command()
    )?;
    writeln!(out)?;
    for line in manager.snippet().lines() {
        writeln!(out, "    {line}")?;
    }
    writeln!(out)?;
    Ok(())
}
