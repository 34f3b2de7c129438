//! Agent hook settings: what `hooks install --claude` / `--codex` / `--gemini` merges into
//! `.claude/settings.json` / `.codex/hooks.json` / `.gemini/settings.json` so that recording,
//! recall and the digest-only handoff happen without the agent doing anything.
//!
//! The merge keeps every existing setting and key order, adds only the hook entries that are not
//! there yet (matched by command), and leaves the file untouched when nothing is missing, so
//! installing twice changes nothing. The entries are spliced into the user's text
//! ([`json_edit`]), so their indentation, spacing and compact arrays stay as they were.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Value, json};

use crate::hooks::change::{FileChange, read_text};
use crate::hooks::json_edit;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
}

/// One hook entry to install: event, matcher, command, timeout in the agent's unit (seconds;
/// milliseconds for Gemini CLI).
pub struct Wanted {
    pub event: &'static str,
    pub matcher: Option<&'static str>,
    pub command: &'static str,
    pub timeout: u64,
}

impl Agent {
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini CLI",
        }
    }

    /// The settings file, relative to the top of the work tree.
    pub fn settings_path(self) -> &'static str {
        match self {
            Agent::Claude => ".claude/settings.json",
            Agent::Codex => ".codex/hooks.json",
            Agent::Gemini => ".gemini/settings.json",
        }
    }

    /// The hooks this agent gets. Codex has no PostToolUseFailure event: its failed tool calls
    /// arrive through PostToolUse (with the exit code in its transcript, which `record` reads), and
    /// it holds a SessionEnd hook to at most 3 seconds (it says so on every start when asked for
    /// more), which `note --digest-only` needs far less than.
    ///
    /// Every command ends `|| exit 1`: git-handoff's errors exit 2, which an agent reads as
    /// "block" on Stop and UserPromptSubmit; exit 1 is a non-blocking error shown to the user, so
    /// a failing hook can never stop the agent.
    ///
    /// The commands run the `git-handoff` binary itself, as the pre-push block does, not
    /// `git handoff`: git's dispatch to another binary's command is one more git start on every
    /// tool call (about 2 ms here, more than `record` costs on its own). `cargo install` puts the
    /// binary on PATH, where both forms find it. Entries in the older form ([`legacy`]) are
    /// still ours: install rewrites them, uninstall takes them out.
    pub fn wanted(self) -> Vec<Wanted> {
        let w = |event, matcher, command, timeout| Wanted { event, matcher, command, timeout };
        match self {
            // PreToolUse records a call as it starts, so a call still running when a limit
            // fires (a long test run) is in the log as "did not finish", not missing.
            Agent::Claude => vec![
                // `|| exit 0`: GitHub Copilot CLI runs these hooks too, and denies a tool call
                // whose PreToolUse hook exits non-zero at all; a failure is logged instead.
                w("PreToolUse", Some("*"), "git-handoff record --agent claude || exit 0", 5),
                w("PostToolUse", Some("*"), "git-handoff record --agent claude || exit 1", 5),
                w(
                    "PostToolUseFailure",
                    Some("*"),
                    "git-handoff record --agent claude || exit 1",
                    5,
                ),
                w("UserPromptSubmit", None, "git-handoff record --agent claude || exit 1", 5),
                w("Stop", None, "git-handoff record --agent claude || exit 1", 5),
                // A turn that ends on an API error (rate limit, overload, billing, output cut):
                // the abrupt end this product exists for.
                w("StopFailure", None, "git-handoff record --agent claude || exit 1", 5),
                // A compaction, and each subagent's start and end (its calls are attributed to
                // it).
                w("PreCompact", None, "git-handoff record --agent claude || exit 1", 5),
                w("SubagentStart", None, "git-handoff record --agent claude || exit 1", 5),
                w("SubagentStop", None, "git-handoff record --agent claude || exit 1", 5),
                w("SessionStart", None, "git-handoff recall --hook claude || exit 1", 10),
                w("SessionEnd", None, "git-handoff note --digest-only || exit 1", 30),
            ],
            Agent::Codex => vec![
                w("PreToolUse", Some("*"), "git-handoff record --agent codex || exit 1", 5),
                w("PostToolUse", Some("*"), "git-handoff record --agent codex || exit 1", 5),
                w("UserPromptSubmit", None, "git-handoff record --agent codex || exit 1", 5),
                w("Stop", None, "git-handoff record --agent codex || exit 1", 5),
                w("PreCompact", None, "git-handoff record --agent codex || exit 1", 5),
                w("SubagentStart", None, "git-handoff record --agent codex || exit 1", 5),
                w("SubagentStop", None, "git-handoff record --agent codex || exit 1", 5),
                // The agent waiting on an approval. It exits 0 whatever happens: Codex may take
                // any other status of a PermissionRequest hook as a refusal.
                w("PermissionRequest", Some("*"), "git-handoff record --agent codex || exit 0", 5),
                w("SessionStart", None, "git-handoff recall --hook codex || exit 1", 10),
                w("SessionEnd", None, "git-handoff note --digest-only || exit 1", 3),
            ],
            // Gemini CLI: its own event names, tool matchers are regular expressions, timeouts
            // in milliseconds, and stdout must be JSON or nothing (so the note's report goes to
            // /dev/null; SessionEnd is best effort there, Gemini CLI does not wait for it).
            Agent::Gemini => vec![
                w("BeforeTool", Some(".*"), "git-handoff record --agent gemini || exit 1", 5000),
                w("AfterTool", Some(".*"), "git-handoff record --agent gemini || exit 1", 5000),
                // The prompt and the model's last answer (the emergency note's "last model
                // intent"), and a compression of the context.
                w("BeforeAgent", None, "git-handoff record --agent gemini || exit 1", 5000),
                w("AfterAgent", None, "git-handoff record --agent gemini || exit 1", 5000),
                w("PreCompress", None, "git-handoff record --agent gemini || exit 1", 5000),
                w("SessionStart", None, "git-handoff recall --hook gemini || exit 1", 10000),
                w("SessionEnd", None, "git-handoff note --digest-only >/dev/null || exit 1", 30000),
            ],
        }
    }
}

/// `command` as earlier versions installed it, through git's dispatch (`git handoff ...`).
pub fn legacy(command: &str) -> String {
    match command.strip_prefix("git-handoff ") {
        Some(rest) => format!("git handoff {rest}"),
        None => command.to_string(),
    }
}

/// Every form earlier versions installed `command` in: through git's dispatch ([`legacy`]), and a
/// PreToolUse command ending `|| exit 0` as it ended before, `|| exit 1` (either way). The latter
/// is the current command of other events: only an entry under the same event is this one.
pub fn older_forms(command: &str) -> Vec<String> {
    let mut forms = vec![legacy(command)];
    if let Some(head) = command.strip_suffix(" || exit 0") {
        let before = format!("{head} || exit 1");
        forms.push(legacy(&before));
        forms.push(before);
    }
    forms
}

/// True for a command whose older forms are other events' commands: rewritten only under its
/// own event.
fn scoped(command: &str) -> bool {
    command.ends_with(" || exit 0")
}

/// Rewrites every hook entry whose command is an [`older_forms`] form of one of `agent`'s, under
/// the same event, to the current form; true when there was one.
fn upgrade(hooks: &mut Map<String, Value>, agent: Agent) -> bool {
    let mut upgraded = false;
    for (event, groups) in hooks.iter_mut() {
        let Some(groups) = groups.as_array_mut() else { continue };
        let current: Vec<(String, &str)> = agent
            .wanted()
            .iter()
            .filter(|w| w.event == event.as_str())
            .flat_map(|w| older_forms(w.command).into_iter().map(move |old| (old, w.command)))
            .collect();
        for entries in groups.iter_mut().filter_map(|g| g.get_mut("hooks")?.as_array_mut()) {
            for command in entries.iter_mut().filter_map(|h| h.get_mut("command")) {
                let old = command.as_str().unwrap_or_default();
                if let Some((_, new)) = current.iter().find(|(legacy, _)| legacy == old) {
                    *command = json!(new);
                    upgraded = true;
                }
            }
        }
    }
    upgraded
}

/// Whether `text` holds every hook of `agent`'s already, some in the older form: installing then
/// only rewrites those.
pub fn only_outdated(text: &str, agent: Agent) -> bool {
    let Ok(root) = serde_json::from_str::<Value>(text) else { return false };
    let wanted = agent.wanted();
    let old = |w: &Wanted| older_forms(w.command).iter().any(|o| event_has(&root, w.event, o));
    wanted.iter().all(|w| event_has(&root, w.event, w.command) || old(w)) && wanted.iter().any(old)
}

/// The text with each [`legacy`] command string of `agent`'s spelled in the current form, byte
/// for byte otherwise (the caller checks that it reads back as the merged settings).
fn upgrade_text(text: &str, agent: Agent) -> String {
    let mut out = text.to_string();
    let quoted = |command: &str| serde_json::to_string(command).unwrap_or_default();
    // First the commands whose older forms are other events' commands, inside their own event's
    // list only (the forms have the same length as the command, so the spans stay put).
    for wanted in agent.wanted().iter().filter(|w| scoped(w.command)) {
        let path = [json_edit::Step::Key("hooks"), json_edit::Step::Key(wanted.event)];
        let Some((start, end)) = json_edit::span(&out, &path) else { continue };
        let mut region = out[start..end].to_string();
        for old in older_forms(wanted.command) {
            region = region.replace(&quoted(&old), &quoted(wanted.command));
        }
        out.replace_range(start..end, &region);
    }
    for wanted in agent.wanted().iter().filter(|w| !scoped(w.command)) {
        out = out.replace(&quoted(&legacy(wanted.command)), &quoted(wanted.command));
    }
    out
}

/// Merges the wanted hooks into the settings text (`None`: no file yet), rewriting entries of ours
/// in the older form. Returns the new text, or `None` when everything is already installed as it
/// is now. `origin` names the file in errors.
pub fn merge(existing: Option<&str>, agent: Agent, origin: &str) -> Result<Option<String>> {
    let mut root: Value = match existing {
        Some(text) if !text.trim().is_empty() => serde_json::from_str(text).map_err(|err| {
            anyhow!(
                "{origin}:{}: not valid JSON ({err}); fix the file, then run the install again",
                err.line()
            )
        })?,
        _ => json!({}),
    };
    let Some(object) = root.as_object_mut() else {
        bail!(
            "{origin}: the settings are not a JSON object; fix the file, then run the install again"
        );
    };
    let hooks = object.entry("hooks").or_insert_with(|| json!({}));
    let Some(hooks) = hooks.as_object_mut() else {
        bail!("{origin}: \"hooks\" is not an object; fix the file, then run the install again");
    };
    let upgraded = upgrade(hooks, agent);
    let mut added: Vec<(&str, Value)> = Vec::new();
    for wanted in agent.wanted() {
        let groups = hooks.entry(wanted.event).or_insert_with(|| json!([]));
        let Some(groups) = groups.as_array_mut() else {
            bail!(
                "{origin}: \"hooks.{}\" is not a list; fix the file, then run the install again",
                wanted.event
            );
        };
        if groups.iter().any(|group| has_command(group, wanted.command)) {
            continue;
        }
        let mut group = Map::new();
        if let Some(matcher) = wanted.matcher {
            group.insert("matcher".into(), json!(matcher));
        }
        group.insert(
            "hooks".into(),
            json!([{"type": "command", "command": wanted.command, "timeout": wanted.timeout}]),
        );
        groups.push(Value::Object(group.clone()));
        added.push((wanted.event, Value::Object(group)));
    }
    if added.is_empty() && !upgraded {
        return Ok(None);
    }
    let mut pretty = serde_json::to_string_pretty(&root)?;
    pretty.push('\n');
    match existing.filter(|text| !text.trim().is_empty()) {
        Some(text) => Ok(Some(splice(&upgrade_text(text, agent), &added, &root).unwrap_or(pretty))),
        None => Ok(Some(pretty)),
    }
}

/// The user's text with the groups appended in place, when that reads back as exactly the merged
/// settings (else the caller falls back to writing the merged value out).
fn splice(text: &str, added: &[(&str, Value)], merged: &Value) -> Option<String> {
    let mut out = text.to_string();
    for (event, group) in added {
        out = json_edit::append(&out, &["hooks", event], group)?;
    }
    (serde_json::from_str::<Value>(&out).ok()? == *merged).then_some(out)
}

/// Whether a group of `event` in the settings `root` runs `command`.
pub fn event_has(root: &Value, event: &str, command: &str) -> bool {
    root["hooks"][event]
        .as_array()
        .is_some_and(|groups| groups.iter().any(|g| has_command(g, command)))
}

pub fn has_command(group: &Value, command: &str) -> bool {
    group.get("hooks").and_then(Value::as_array).is_some_and(|hooks| {
        hooks.iter().any(|h| h.get("command").and_then(Value::as_str) == Some(command))
    })
}

/// The settings file of `agent` in the work tree at `top`.
pub fn path(top: &Path, agent: Agent) -> PathBuf {
    top.join(agent.settings_path())
}

/// The agent-facing skill, as shipped in `skills/handoff/SKILL.md`.
pub const SKILL: &str = include_str!("../../skills/handoff/SKILL.md");

/// Where Claude Code looks for project skills.
pub const CLAUDE_SKILL_PATH: &str = ".claude/skills/handoff/SKILL.md";

/// Where Codex (and Gemini CLI) look for project skills: `.agents/skills`, from the session's
/// directory up to the top of the repository.
pub const AGENTS_SKILL_PATH: &str = ".agents/skills/handoff/SKILL.md";

impl Agent {
    /// Where this agent finds the handoff skill, relative to the top of the work tree.
    pub fn skill_path(self) -> &'static str {
        match self {
            Agent::Claude => CLAUDE_SKILL_PATH,
            Agent::Codex | Agent::Gemini => AGENTS_SKILL_PATH,
        }
    }
}

/// Plans putting the handoff skill where `agent` finds it, unless a file is there already (a
/// skill the user edited is theirs).
pub fn plan_skill_install(top: &Path, agent: Agent) -> Option<FileChange> {
    let path = top.join(agent.skill_path());
    if path.exists() || path.is_symlink() {
        return None;
    }
    Some(FileChange { path, before: None, after: Some(SKILL.to_string()), executable: false })
}

/// Plans merging the agent's hooks into its settings file under `top` (unchanged when everything
/// is installed already).
pub fn plan_install(top: &Path, agent: Agent) -> Result<FileChange> {
    let path = path(top, agent);
    let before = read_text(&path)?;
    let after = merge(before.as_deref(), agent, agent.settings_path())?.or_else(|| before.clone());
    Ok(FileChange { path, before, after, executable: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_existing_settings_and_is_idempotent() {
        let existing = r#"{
  "permissions": {"allow": ["Bash(npm test)"]},
  "hooks": {
    "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}]
  },
  "model": "opus"
}"#;
        let merged = merge(Some(existing), Agent::Claude, "s.json").unwrap().unwrap();
        let value: Value = serde_json::from_str(&merged).unwrap();
        assert_eq!(value["permissions"]["allow"][0], "Bash(npm test)");
        assert_eq!(value["model"], "opus");
        let post = value["hooks"]["PostToolUse"].as_array().unwrap();
        assert_eq!(post.len(), 2);
        assert_eq!(post[0]["hooks"][0]["command"], "prettier --write");
        assert_eq!(post[1]["hooks"][0]["command"], "git-handoff record --agent claude || exit 1");
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["permissions", "hooks", "model"]);
        assert_eq!(merge(Some(&merged), Agent::Claude, "s.json").unwrap(), None);
    }

    /// Entries an earlier version installed (`git handoff ...`) are rewritten where they are, the
    /// rest of the text byte for byte, and nothing is added twice.
    #[test]
    fn entries_in_the_older_form_are_rewritten_in_place() {
        let current = merge(None, Agent::Codex, "h.json").unwrap().unwrap();
        let old = current.replace("\"git-handoff ", "\"git handoff ");
        assert_ne!(old, current);
        assert_eq!(merge(Some(&old), Agent::Codex, "h.json").unwrap().as_deref(), Some(&*current));
        assert_eq!(merge(Some(&current), Agent::Codex, "h.json").unwrap(), None);

        // The same string elsewhere is the user's: it stays, and the entries are still rewritten.
        let theirs = legacy(Agent::Codex.wanted()[0].command);
        let old = old.replacen('{', &format!("{{\n  \"theirs\": {theirs:?},"), 1);
        let merged = merge(Some(&old), Agent::Codex, "h.json").unwrap().unwrap();
        let mut want: Value = serde_json::from_str(&current).unwrap();
        want.as_object_mut().unwrap().insert("theirs".into(), json!(theirs));
        assert_eq!(serde_json::from_str::<Value>(&merged).unwrap(), want, "{merged}");
    }

    #[test]
    fn broken_settings_are_an_error_with_the_line() {
        let err = merge(Some("{\n  \"hooks\": [,]\n}"), Agent::Claude, "s.json").unwrap_err();
        assert!(err.to_string().starts_with("s.json:2: not valid JSON"), "{err}");
        let err = merge(Some("[1]"), Agent::Codex, "h.json").unwrap_err();
        assert!(err.to_string().contains("not a JSON object"));
    }
}
