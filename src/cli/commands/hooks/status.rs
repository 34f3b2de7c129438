//! `git handoff hooks status`: what [`crate::hooks::status`] finds installed, where, and
//! whether it runs, printed as rows (or as JSON).

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use crate::cli::context::Ctx;
use crate::cli::output;
use crate::hooks::agent_status::SkillState;
use crate::hooks::change::shown;
use crate::hooks::codex_review::{HOW_TO_APPROVE, Review};
use crate::hooks::managers::Evidence;
use crate::hooks::{self, status::Status};
use crate::ops::open::{self, Configuration};

/// A row label, padded before it is made bold so the columns line up in colour too.
fn label(name: &str) -> String {
    output::heading(&format!("{name:<14}"))
}

/// Show what git-handoff has installed where, and whether it runs.
///
/// The pre-push hook git runs and whether it holds git-handoff's block (or which hook manager owns
/// it, and copies of the block that no longer run), `notes.rewriteRef`, the Claude Code and Codex
/// hook entries (which of git-handoff's are in place, and which are in the older, slower
/// `git handoff` form that installing again rewrites), the Gemini CLI ones and whether Gemini CLI
/// trusts the folder (it runs no hook in an untrusted one), whether Codex will run its hooks (read from
/// Codex's own `$CODEX_HOME/config.toml`, by default `~/.codex/config.toml`: Codex runs a
/// project's hooks only once it trusts the project and the user approved each hook in its hook
/// review, and skips them silently until then; the line says how to approve them), and the
/// handoff skill where Claude Code reads it and where Codex reads it (as installed, or edited).
/// GitHub Copilot CLI's hooks file and whether Copilot trusts the folder (`trusted_folders` in
/// `~/.copilot/config.json`, or `$COPILOT_HOME`; it loads no repository hook in an untrusted
/// one), and opencode's plugin.
/// Exit 0 whatever is found; with --check, exit 1 when an installed hook will not run (Codex's
/// review or trust, Gemini CLI's or Copilot CLI's folder trust) or the configuration cannot be
/// read whole.
///
/// --json prints {"pre_push": {"path", "installed", "manager", "evidence", "elsewhere": [{"path",
/// "runs"}]}, "rewrite_ref": {"key", "value", "set"}, "claude": {"path", "exists", "installed":
/// [event], "missing": [event], "outdated"?: [event], "problem"?}, "codex": {..., "review"?:
/// {"config", "project_trusted", "approved": [event], "unapproved": [event], "disabled"?: [event],
/// "problem"?}}, "skill": {"path", "state": "absent"|"unchanged"|"modified"}, "codex_skill":
/// {...}, "gemini": {...}, "claude_mcp": {"path", "installed", "changed"}, "codex_mcp": {...}, "gemini_mcp": {...}, "gemini_trust"?: {"trusted", "source", "file"}, "copilot": {"path",
/// "exists", "installed": [event], "missing": [event], "outdated", "trust"?: {"trusted", "source",
/// "file"}}, "opencode": {"path", "installed", "outdated", "mcp"}, "hook_failures"?: [line],
/// "config_problem"?}.
#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// Exit 1 when an installed hook will not run, or the configuration cannot be read whole.
    #[arg(long)]
    pub check: bool,
}

pub fn run(ctx: &Ctx, args: StatusArgs, out: &mut impl Write) -> Result<()> {
    // A configuration the hooks cannot take whole is reported, and the rest is shown with the
    // defaults the hooks fall back to.
    let repo = Ctx::repo()?;
    let (config, problems) = open::configuration(&repo, Configuration::Saving)?;
    let report = hooks::status::status(&repo, &config, problems.into_iter().next())?;
    let verdict = || -> Result<()> {
        if args.check && !all_run(&report) {
            Err(crate::util::error::NotPassed.into())
        } else {
            Ok(())
        }
    };
    if ctx.json {
        output::write_json(out, &report)?;
        return verdict();
    }
    let top = repo.top().ok();
    let show = |p: &Path| shown(p, top);
    if let Some(problem) = &report.config_problem {
        let problem = crate::util::text::escape_controls(problem, false);
        writeln!(out, "{}{problem}", label("config"))?;
    }
    print_pre_push(&report, &show, out)?;
    print_agents(&report, top, &show, out)?;
    print_copilot_and_opencode(&report, top, &show, out)?;
    print_servers_failures_and_skills(&report, &show, out)?;
    verdict()
}

/// Whether every installed hook will run: what --check answers.
fn all_run(report: &Status) -> bool {
    let codex_waits =
        report.codex.as_ref().and_then(|c| c.review.as_ref()).is_some_and(|r| !r.runs_all());
    let gemini_waits = report.gemini_trust.as_ref().is_some_and(|t| !t.trusted);
    let copilot_waits =
        report.copilot.as_ref().and_then(|c| c.trust.as_ref()).is_some_and(|t| !t.trusted);
    !codex_waits && !gemini_waits && !copilot_waits && report.config_problem.is_none()
}

/// The pre-push hook (or its manager) and `notes.rewriteRef`.
fn print_pre_push(
    report: &Status,
    show: &dyn Fn(&Path) -> String,
    out: &mut impl Write,
) -> Result<()> {
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
    Ok(())
}

/// Claude Code's, Codex's and Gemini CLI's hook entries, and whether Codex and Gemini CLI will
/// run them.
fn print_agents(
    report: &Status,
    top: Option<&Path>,
    show: &dyn Fn(&Path) -> String,
    out: &mut impl Write,
) -> Result<()> {
    let agents =
        [("Claude Code", &report.claude), ("Codex", &report.codex), ("Gemini CLI", &report.gemini)];
    for (name, status) in agents {
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
        if let Some(review) = status.review.as_ref().filter(|r| !r.runs_all()) {
            writeln!(out, "{:<14}{}", "", codex_review_line(review, &show(&review.config)))?;
        }
        if let (true, Some(trust)) = (name == "Gemini CLI", &report.gemini_trust)
            && !trust.trusted
        {
            writeln!(
                out,
                "{:<14}Gemini CLI will run none of them: it does not trust this folder ({}). Run \
                 `gemini` here once and trust the folder, or add {:?}: \"TRUST_FOLDER\" to {}; \
                 until then no tool call is recorded and a headless `gemini -p` exits 55",
                "",
                if trust.source == "none" {
                    "no rule names it"
                } else {
                    "a rule or the environment says so"
                },
                top.map(|t| t.display().to_string()).unwrap_or_default(),
                show(&trust.file)
            )?;
        }
    }
    Ok(())
}

/// Copilot CLI's hooks file and folder trust, opencode's plugin and its MCP server.
fn print_copilot_and_opencode(
    report: &Status,
    top: Option<&Path>,
    show: &dyn Fn(&Path) -> String,
    out: &mut impl Write,
) -> Result<()> {
    if let Some(copilot) = &report.copilot {
        let total = copilot.installed.len() + copilot.missing.len();
        let what = match (copilot.exists, copilot.missing.is_empty(), copilot.outdated) {
            (false, _, _) => "absent".to_string(),
            (true, true, false) => format!("all {total} git-handoff hooks"),
            (true, _, _) if copilot.installed.is_empty() => {
                "not git-handoff's as installed (install again to update; a changed file is kept)"
                    .to_string()
            }
            (true, _, _) => format!(
                "{} of {total} git-handoff hooks, not as this version writes them (install again \
                 to update)",
                copilot.installed.len()
            ),
        };
        writeln!(out, "{}{} {what}", label("Copilot CLI"), show(&copilot.path))?;
        if let Some(trust) = copilot.trust.as_ref().filter(|t| !t.trusted) {
            writeln!(
                out,
                "{:<14}Copilot CLI will run none of them: it does not trust this folder. Run \
                 `copilot` here once and trust it for future sessions, or add {:?} to \
                 \"trusted_folders\" in {}; until then no tool call is recorded (a headless \
                 `copilot -p` needs --trust-folder)",
                "",
                top.map(|t| t.display().to_string()).unwrap_or_default(),
                show(&trust.file)
            )?;
        }
    }
    if let Some(opencode) = &report.opencode {
        let what = match (opencode.installed, opencode.outdated) {
            (false, _) if opencode.path.exists() => "not git-handoff's plugin".to_string(),
            (false, _) => "absent".to_string(),
            (true, false) => "the git-handoff plugin".to_string(),
            (true, true) => {
                "an older or changed git-handoff plugin (install again to update)".into()
            }
        };
        writeln!(out, "{}{} {what}", label("opencode"), show(&opencode.path))?;
        if opencode.installed {
            let config = top.map(|t| t.join(crate::hooks::opencode::CONFIG_PATH));
            let state = if opencode.mcp { "registers" } else { "does not register" };
            let path = config.as_deref().map(show).unwrap_or_default();
            writeln!(out, "{}{path} {state} git-handoff", label("MCP (opencode)"))?;
        }
    }
    Ok(())
}

/// The MCP servers' registrations, the hooks' last failures, and the skills.
fn print_servers_failures_and_skills(
    report: &Status,
    show: &dyn Fn(&Path) -> String,
    out: &mut impl Write,
) -> Result<()> {
    let servers = [
        ("MCP (Claude)", &report.claude_mcp),
        ("MCP (Codex)", &report.codex_mcp),
        ("MCP (Gemini)", &report.gemini_mcp),
    ];
    for (name, status) in servers {
        let Some(status) = status else { continue };
        let state = match (status.installed, status.changed) {
            (true, _) => "registers git-handoff",
            (false, true) => "has a changed git-handoff entry",
            (false, false) => "does not register git-handoff",
        };
        writeln!(out, "{}{} {state}", label(name), show(&status.path))?;
    }
    if let Some(last) = report.hook_failures.last() {
        let last = crate::util::text::escape_controls(last, false);
        writeln!(
            out,
            "{}{} failed, the agent went on; the last: {last}",
            label("hook failures"),
            report.hook_failures.len()
        )?;
    }
    for (name, skill) in [("skill", &report.skill), ("skill (Codex)", &report.codex_skill)] {
        let Some(skill) = skill else { continue };
        let state = match skill.state {
            SkillState::Absent => "absent",
            SkillState::Unchanged => "as installed",
            SkillState::Modified => "edited (uninstall keeps it)",
        };
        writeln!(out, "{}{} {state}", label(name), show(&skill.path))?;
    }
    Ok(())
}

/// Why Codex will not run (all of) the installed hooks, and how to let it.
fn codex_review_line(review: &Review, config: &str) -> String {
    if let Some(problem) = &review.problem {
        return format!("cannot tell whether Codex runs them: {config}: {problem}");
    }
    let mut why = Vec::new();
    if !review.project_trusted {
        why.push(format!(
            "Codex does not trust this project yet ({config}), so it loads nothing from .codex/"
        ));
    }
    if !review.unapproved.is_empty() {
        let total = review.approved.len() + review.unapproved.len() + review.disabled.len();
        why.push(format!(
            "Codex has not approved {} of {total} in its hook review ({}) and skips them \
             silently",
            review.unapproved.len(),
            review.unapproved.join(", ")
        ));
    }
    if !review.disabled.is_empty() {
        why.push(format!("turned off in Codex: {}", review.disabled.join(", ")));
    }
    format!("NOT RUNNING: {}; to approve them, {HOW_TO_APPROVE}.", why.join("; "))
}
