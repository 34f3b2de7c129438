//! GitHub Copilot CLI: its hooks in a file of their own, `.github/hooks/git-handoff.json`
//! (Copilot loads every `.github/hooks/*.json` of a folder it trusts), and its folder trust.
//!
//! The file is git-handoff's whole: install writes it (or rewrites an older one of ours), and
//! leaves one the user changed; uninstall removes it as installed. Every command ends `|| exit 0`:
//! Copilot denies a tool call whose `preToolUse` hook exits non-zero at all, and a failure is
//! logged by git-handoff itself (see [`crate::hooks::hook_failures`]). The events are named in
//! camelCase, so the payloads are Copilot's own (`record --event` names each, as they do not).
//!
//! Copilot also runs Claude Code's hook files: where both are installed, the Claude Code hooks
//! leave Copilot's calls to these (`record` checks for this file).

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;
use serde_json::Value;

use crate::hooks::Action;
use crate::hooks::change::{FileChange, read_text};

pub use crate::agent::payload::copilot::HOOKS_PATH;

/// The events and commands, with their timeouts in seconds.
pub const HOOKS: &[(&str, &str, u64)] = &[
    ("sessionStart", "git-handoff recall --hook copilot || exit 0", 10),
    (
        "userPromptSubmitted",
        "git-handoff record --agent copilot --event userPromptSubmitted || exit 0",
        5,
    ),
    ("preToolUse", "git-handoff record --agent copilot --event preToolUse || exit 0", 5),
    ("postToolUse", "git-handoff record --agent copilot --event postToolUse || exit 0", 5),
    (
        "postToolUseFailure",
        "git-handoff record --agent copilot --event postToolUseFailure || exit 0",
        5,
    ),
    // A model call that failed: the API-error end of a turn.
    ("errorOccurred", "git-handoff record --agent copilot --event errorOccurred || exit 0", 5),
    ("agentStop", "git-handoff record --agent copilot --event agentStop || exit 0", 5),
    ("subagentStart", "git-handoff record --agent copilot --event subagentStart || exit 0", 5),
    ("subagentStop", "git-handoff record --agent copilot --event subagentStop || exit 0", 5),
    ("sessionEnd", "git-handoff note --digest-only >/dev/null || exit 0", 30),
];

/// The file as installed.
pub fn text() -> String {
    let mut out = String::from("{\n  \"version\": 1,\n  \"hooks\": {\n");
    for (n, (event, command, timeout)) in HOOKS.iter().enumerate() {
        let entry = serde_json::json!({"type": "command", "bash": command, "timeoutSec": timeout});
        let comma = if n + 1 < HOOKS.len() { "," } else { "" };
        out.push_str(&format!("    \"{event}\": [{entry}]{comma}\n"));
    }
    out.push_str("  }\n}\n");
    out
}

/// Whether a hooks file holds only git-handoff's commands (this version's or an older one's).
fn only_ours(text: &str) -> bool {
    let Ok(root) = serde_json::from_str::<Value>(text) else { return false };
    let Some(hooks) = root.get("hooks").and_then(Value::as_object) else { return false };
    hooks.values().all(|entries| {
        entries.as_array().is_some_and(|entries| {
            entries.iter().all(|e| {
                e.get("bash").and_then(Value::as_str).is_some_and(|c| c.starts_with("git-handoff "))
            })
        })
    })
}

/// Plans writing the hooks file: created, rewritten when it is an older one of ours, kept when
/// the user changed it.
pub fn plan_install(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(HOOKS_PATH);
    let before = read_text(&path)?;
    let want = text();
    let (after, action) = match before.as_deref() {
        None => (Some(want), Action::Created),
        Some(text) if text == want => (before.clone(), Action::Unchanged),
        Some(text) if only_ours(text) => (Some(want), Action::Updated),
        Some(_) => (before.clone(), Action::Kept),
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Plans removing the hooks file, unless the user changed it.
pub fn plan_uninstall(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(HOOKS_PATH);
    let before = read_text(&path)?;
    let (after, action) = match before.as_deref() {
        None => (None, Action::NotInstalled),
        Some(text) if only_ours(text) => (None, Action::RemovedFile),
        Some(_) => (before.clone(), Action::Kept),
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Which of the hooks the file holds.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub path: PathBuf,
    pub exists: bool,
    pub installed: Vec<&'static str>,
    pub missing: Vec<&'static str>,
    /// The file is there but not as this version writes it (older, or changed by the user).
    pub outdated: bool,
    /// Once installed: whether Copilot CLI trusts the folder, without which it loads no hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trust: Option<Trust>,
}

pub fn status(top: &Path) -> Result<Status> {
    let path = top.join(HOOKS_PATH);
    let text = read_text(&path)?;
    let root = text.as_deref().and_then(|t| serde_json::from_str::<Value>(t).ok());
    let has = |event: &str, command: &str| {
        root.as_ref().and_then(|r| r["hooks"][event].as_array()).is_some_and(|entries| {
            entries.iter().any(|e| e.get("bash").and_then(Value::as_str) == Some(command))
        })
    };
    let (installed, missing) = HOOKS.iter().partition::<Vec<_>, _>(|(e, c, _)| has(e, c));
    let installed: Vec<&'static str> = installed.iter().map(|(e, _, _)| *e).collect();
    let trust = (!installed.is_empty()).then(|| trust(top));
    Ok(Status {
        exists: text.is_some(),
        outdated: text.as_deref().is_some_and(|t| t != self::text()),
        installed,
        missing: missing.iter().map(|(e, _, _)| *e).collect(),
        path,
        trust,
    })
}

/// Whether Copilot CLI trusts the folder, and where it keeps the list.
#[derive(Debug, Clone, Serialize)]
pub struct Trust {
    pub trusted: bool,
    /// `COPILOT_ALLOW_ALL`, `config` (a folder in `trusted_folders` holds this one), or `none`.
    pub source: &'static str,
    pub file: PathBuf,
}

/// Copilot CLI's state file: `$COPILOT_HOME/config.json`, else `~/.copilot/config.json`.
fn config_file() -> PathBuf {
    match std::env::var_os("COPILOT_HOME").filter(|h| !h.is_empty()) {
        Some(home) => PathBuf::from(home).join("config.json"),
        None => {
            let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
            home.join(".copilot/config.json")
        }
    }
}

/// Whether Copilot CLI loads the hooks in `top`: the folder, or one above it, is in
/// `trusted_folders`, or `COPILOT_ALLOW_ALL=true` trusts every folder.
pub fn trust(top: &Path) -> Trust {
    let file = config_file();
    if std::env::var("COPILOT_ALLOW_ALL").is_ok_and(|v| v == "true") {
        return Trust { trusted: true, source: "COPILOT_ALLOW_ALL", file };
    }
    // Copilot writes the file with `//` comments above the JSON.
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let root = serde_json::from_str::<Value>(&without_comments(&text)).unwrap_or(Value::Null);
    let lists = ["trusted_folders", "trustedFolders"].map(|key| root[key].as_array());
    let trusted = lists.into_iter().flatten().flatten().filter_map(Value::as_str).any(|folder| {
        let folder = Path::new(folder);
        top.starts_with(folder)
            || std::fs::canonicalize(folder)
                .is_ok_and(|real| std::fs::canonicalize(top).is_ok_and(|top| top.starts_with(real)))
    });
    Trust { trusted, source: if trusted { "config" } else { "none" }, file }
}

/// JSON with comments (`// ...` and `/* ... */` outside strings) as plain JSON.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push(c);
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_reads_back_and_is_ours() {
        let text = text();
        let root: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(root["version"], 1);
        assert_eq!(root["hooks"].as_object().unwrap().len(), HOOKS.len());
        assert!(only_ours(&text));
        let theirs = text.replace("git-handoff recall", "my-tool recall");
        assert!(!only_ours(&theirs));
    }

    #[test]
    fn copilots_config_with_comments_reads_as_json() {
        let text = "// User settings belong in settings.json.\n// This file is managed \
                    automatically.\n{\n  \"trusted_folders\": [\"/r//x\", \"/*y*/\"] /* c */\n}\n";
        let root: Value = serde_json::from_str(&without_comments(text)).unwrap();
        assert_eq!(root["trusted_folders"], serde_json::json!(["/r//x", "/*y*/"]));
    }
}
