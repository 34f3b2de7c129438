//! opencode: a plugin of its own, `.opencode/plugin/git-handoff.js` (opencode loads every
//! `.opencode/plugin/*.js` of the project), small and dependency-free, that pipes opencode's
//! events to `git-handoff record` in the generic shape: each call's start and end under the
//! model's call id with the shell's exit code, prompts, the model's last text, compaction, API
//! errors, subagent sessions, the recall at a session's start and the digest when it goes idle.
//!
//! The file is git-handoff's whole: install writes it (or rewrites an older one of ours, known by
//! its first line), and leaves one the user changed; uninstall removes it as installed.
//!
//! The handoff tools (`git handoff mcp`) are registered in the project's `opencode.json` under
//! `mcp` (spliced into what is there, taken out as installed); a project configured in
//! `opencode.jsonc` keeps its file, and `hooks install` says what to add.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use serde::Serialize;
use serde_json::{Value, json};

use crate::hooks::Action;
use crate::hooks::change::{FileChange, read_text};
use crate::hooks::json_edit::{self, Step};

/// The plugin file, relative to the top of the work tree.
pub const PLUGIN_PATH: &str = ".opencode/plugin/git-handoff.js";

/// The plugin as installed.
pub const PLUGIN: &str = include_str!("opencode_plugin.js");

/// The first line of every version of the plugin.
const FIRST_LINE: &str = "// git-handoff for opencode:";

/// Whether a file is a version of our plugin that the user has not changed: its first line is
/// ours, and it is this version or a different one of ours (told by its first line alone; an
/// edited one keeps its first line, and install then rewrites it).
fn ours(text: &str) -> bool {
    text.starts_with(FIRST_LINE)
}

/// Plans writing the plugin: created, rewritten when it is an older one of ours, kept otherwise.
pub fn plan_install(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(PLUGIN_PATH);
    let before = read_text(&path)?;
    let (after, action) = match before.as_deref() {
        None => (Some(PLUGIN.to_string()), Action::Created),
        Some(text) if text == PLUGIN => (before.clone(), Action::Unchanged),
        Some(text) if ours(text) => (Some(PLUGIN.to_string()), Action::Updated),
        Some(_) => (before.clone(), Action::Kept),
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Plans removing the plugin as installed; a changed one is the user's and stays.
pub fn plan_uninstall(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(PLUGIN_PATH);
    let before = read_text(&path)?;
    let (after, action) = match before.as_deref() {
        None => (None, Action::NotInstalled),
        Some(text) if text == PLUGIN => (None, Action::RemovedFile),
        Some(_) => (before.clone(), Action::Kept),
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// The project's configuration, where the MCP server is registered.
pub const CONFIG_PATH: &str = "opencode.json";
/// The configuration with comments, which is left to the user.
pub const CONFIG_WITH_COMMENTS: &str = "opencode.jsonc";
/// The server's name, as for every agent.
const NAME: &str = "git-handoff";

/// The entry as installed.
pub fn mcp_entry() -> Value {
    json!({"type": "local", "command": ["git-handoff", "mcp"]})
}

fn parse(text: &str) -> Result<Value> {
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    let root: Value = serde_json::from_str(text).map_err(|err| {
        anyhow!(
            "{CONFIG_PATH}:{}: not valid JSON ({err}); fix the file, then run again",
            err.line()
        )
    })?;
    match root.get("mcp") {
        Some(mcp) if !mcp.is_object() => {
            bail!("{CONFIG_PATH}: \"mcp\" is not an object; fix the file, then run again")
        }
        _ if !root.is_object() => bail!("{CONFIG_PATH}: not a JSON object; fix the file"),
        _ => Ok(root),
    }
}

/// Plans registering the MCP server in `opencode.json`; `None` when the project keeps its
/// configuration in `opencode.jsonc` (comments that a rewrite could lose: the user adds it).
pub fn plan_mcp_install(top: &Path) -> Result<Option<(FileChange, Action)>> {
    let path = top.join(CONFIG_PATH);
    let before = read_text(&path)?;
    if before.is_none() && top.join(CONFIG_WITH_COMMENTS).exists() {
        return Ok(None);
    }
    let mut root = parse(before.as_deref().unwrap_or_default())?;
    if root.get("mcp").and_then(|m| m.get(NAME)).is_some() {
        return Ok(Some((
            FileChange { path, after: before.clone(), before, executable: false },
            Action::Unchanged,
        )));
    }
    if before.is_none() {
        root["$schema"] = json!("https://opencode.ai/config.json");
    }
    let servers =
        root.as_object_mut().and_then(|o| o.entry("mcp").or_insert(json!({})).as_object_mut());
    if let Some(servers) = servers {
        servers.insert(NAME.to_string(), mcp_entry());
    }
    let mut pretty = serde_json::to_string_pretty(&root)?;
    pretty.push('\n');
    let spliced = before
        .as_deref()
        .filter(|text| !text.trim().is_empty())
        .and_then(|text| json_edit::insert(text, &["mcp"], NAME, &mcp_entry()))
        .filter(|text| serde_json::from_str::<Value>(text).is_ok_and(|value| value == root));
    let action = if before.is_some() { Action::Added } else { Action::Created };
    let after = Some(spliced.unwrap_or(pretty));
    Ok(Some((FileChange { path, before, after, executable: false }, action)))
}

/// Plans taking the server out of `opencode.json`: a file left with nothing of the user's goes.
pub fn plan_mcp_uninstall(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(CONFIG_PATH);
    let before = read_text(&path)?;
    let unchanged = |action| {
        Ok((
            FileChange {
                path: path.clone(),
                after: before.clone(),
                before: before.clone(),
                executable: false,
            },
            action,
        ))
    };
    let Some(text) = before.as_deref() else { return unchanged(Action::NotInstalled) };
    let root = parse(text)?;
    let Some(servers) = root.get("mcp").and_then(Value::as_object) else {
        return unchanged(Action::NotInstalled);
    };
    match servers.get(NAME) {
        None => return unchanged(Action::NotInstalled),
        Some(found) if *found != mcp_entry() => return unchanged(Action::Kept),
        Some(_) => {}
    }
    let at: &[Step] =
        if servers.len() == 1 { &[Step::Key("mcp")] } else { &[Step::Key("mcp"), Step::Key(NAME)] };
    let after = json_edit::remove(text, at)
        .ok_or_else(|| anyhow!("{CONFIG_PATH}: could not take out the git-handoff server"))?;
    // What install created alone (the schema and the server) goes whole.
    let left: Value = serde_json::from_str(&after).unwrap_or(Value::Null);
    let only_schema = left.as_object().is_some_and(|o| o.keys().all(|k| k == "$schema"));
    if only_schema {
        return Ok((
            FileChange { path, before, after: None, executable: false },
            Action::RemovedFile,
        ));
    }
    Ok((FileChange { path, before, after: Some(after), executable: false }, Action::Removed))
}

/// Whether the plugin is there, and as this version writes it.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub path: PathBuf,
    pub installed: bool,
    /// There, but not as this version writes it (older, or changed by the user).
    pub outdated: bool,
    /// The MCP server is registered in `opencode.json` as installed.
    pub mcp: bool,
}

pub fn status(top: &Path) -> Result<Status> {
    let path = top.join(PLUGIN_PATH);
    let text = read_text(&path)?;
    let config = read_text(&top.join(CONFIG_PATH))?.unwrap_or_default();
    let mcp = parse(&config).is_ok_and(|root| root["mcp"][NAME] == mcp_entry());
    Ok(Status {
        installed: text.as_deref().is_some_and(ours),
        outdated: text.as_deref().is_some_and(|t| ours(t) && t != PLUGIN),
        path,
        mcp,
    })
}
