//! The handoff's own work, which is not the session's: its files (the note directory, the
//! progress file), its agent tools (`mcp__git-handoff__handoff_note` ...), its skill, and shell
//! calls that only run `git handoff ...`. The digest leaves them out of tool calls, edits and
//! checks, so "no tool calls" can still be said of a session that only wrote its note.

use crate::model::config::Config;

/// The files `git handoff hooks install` writes into the work tree (agent settings, MCP server
/// registrations, the handoff skill). The install tests check that an install leaves nothing else.
pub const INSTALLED: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/skills/handoff/SKILL.md",
    ".mcp.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".agents/skills/handoff/SKILL.md",
    ".gemini/settings.json",
    ".github/hooks/git-handoff.json",
    ".opencode/plugin/git-handoff.js",
    "opencode.json",
];

/// The handoff's own files: the note directory and the progress file. The agent writes them to
/// hand off, so they are not the work a digest counts ("3 files edited" for 2).
#[derive(Debug, Clone, Default)]
pub struct OwnFiles {
    /// The note directory with a final `/`.
    note_dir: Option<String>,
    progress_file: Option<String>,
}

impl OwnFiles {
    pub fn of(config: &Config) -> OwnFiles {
        let clean = |path: &str| path.trim_start_matches("./").trim_end_matches('/').to_string();
        let note_dir = clean(&config.note_dir());
        OwnFiles {
            note_dir: (!note_dir.is_empty()).then(|| format!("{note_dir}/")),
            progress_file: config.progress.write.as_deref().map(clean),
        }
    }

    /// True for a repository-relative path that is one of the handoff's own files.
    pub fn holds(&self, path: &str) -> bool {
        self.note_dir.as_deref().is_some_and(|dir| path.starts_with(dir))
            || self.progress_file.as_deref() == Some(path)
    }
}

pub(super) fn is_handoff_skill(skill: &str) -> bool {
    let skill = skill.trim();
    skill == "handoff" || skill.ends_with(":handoff")
}

/// A shell command that only runs git-handoff (`git handoff note`, `cd x && git-handoff
/// snapshot`), or commits the note with plain git (`git commit -m "Handoff note: issue #5"`).
pub(super) fn is_handoff_command(command: &str) -> bool {
    let mut rest = command.trim();
    // Leading `cd DIR &&` steps.
    while let Some(after) = rest.strip_prefix("cd ") {
        match after.split_once("&&") {
            Some((_, tail)) => rest = tail.trim_start(),
            None => return false,
        }
    }
    rest.starts_with("git handoff ")
        || rest.starts_with("git-handoff ")
        || rest == "git handoff"
        || (rest.starts_with("git ") && rest.contains("Handoff note: issue #"))
}

/// A call of the handoff's agent tools (`git handoff mcp`), however the agent spells the server
/// and the tool: `mcp__git-handoff__handoff_note` (Claude Code), `mcp__git_handoff__handoff_note`
/// (Codex), `mcp_git-handoff_handoff_note` (Gemini CLI), `git-handoff-handoff_note` (Copilot
/// CLI), `git-handoff_handoff_note` (opencode). Using them is using the handoff skill.
pub(super) fn is_handoff_tool(name: &str) -> bool {
    let name = name.to_ascii_lowercase().replace('-', "_");
    let rest = name.strip_prefix("mcp").unwrap_or(&name);
    let rest = rest.trim_start_matches('_');
    rest.strip_prefix("git_handoff").is_some_and(|tool| {
        tool.starts_with('_') && tool.trim_start_matches('_').starts_with("handoff_")
    })
}
