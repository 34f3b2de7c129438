//! Registering `git handoff mcp` with the agents, so their models get the handoff tools: Claude
//! Code reads project servers from `.mcp.json` (`mcpServers`), Codex from `.codex/config.toml`
//! (`[mcp_servers.<name>]`), Gemini CLI from its hooks' file ([`fold`]).
//!
//! Like the hook settings, the merge keeps every byte of what is there: the JSON entry is spliced
//! in (`json_edit`), the TOML table appended as a block of its own, and removing takes out exactly
//! what installing added, so install then uninstall gives the file back as it was. An entry
//! named `git-handoff` that the user changed is theirs: install leaves it, uninstall keeps it.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use serde::Serialize;
use serde_json::{Value, json};

use crate::hooks::Action;
use crate::hooks::agent_settings::Agent;
use crate::hooks::change::{FileChange, read_text};
use crate::hooks::json_edit::{self, Step};

pub mod fold;

/// The server's name in the agents' configuration.
pub const NAME: &str = "git-handoff";

/// What `hooks install` reports the registration as.
pub fn label(agent: Agent) -> &'static str {
    match agent {
        Agent::Claude => "Claude Code MCP server",
        Agent::Codex => "Codex MCP server",
        Agent::Gemini => "Gemini CLI MCP server",
    }
}

/// The table Codex reads, as installed.
const CODEX_TABLE: &str =
    "[mcp_servers.git-handoff]\ncommand = \"git-handoff\"\nargs = [\"mcp\"]\n";

/// Where the agent reads project MCP servers, relative to the top of the work tree.
pub fn config_path(agent: Agent) -> &'static str {
    match agent {
        Agent::Claude => ".mcp.json",
        Agent::Codex => ".codex/config.toml",
        // The hooks' own file: the registration is folded into the hooks' change
        // ([`fold_install`]), one file planned once.
        Agent::Gemini => ".gemini/settings.json",
    }
}

/// The entry as installed.
fn entry() -> Value {
    json!({"command": "git-handoff", "args": ["mcp"]})
}

/// Plans registering the server for `agent` under `top`.
pub fn plan_install(top: &Path, agent: Agent) -> Result<(FileChange, Action)> {
    let path = top.join(config_path(agent));
    let before = read_text(&path)?;
    let origin = config_path(agent);
    let after = match agent {
        Agent::Claude | Agent::Gemini => merge_json(before.as_deref(), origin)?,
        Agent::Codex => merge_toml(before.as_deref(), origin)?,
    };
    let action = match (&after, &before) {
        (None, _) => Action::Unchanged,
        (Some(_), Some(_)) => Action::Added,
        (Some(_), None) => Action::Created,
    };
    let after = after.or_else(|| before.clone());
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Plans removing the registration; a file left with nothing in it is removed.
pub fn plan_uninstall(top: &Path, agent: Agent) -> Result<(FileChange, Action)> {
    let path = top.join(config_path(agent));
    let before = read_text(&path)?;
    let origin = config_path(agent);
    let removed = match (agent, before.as_deref()) {
        (_, None) => Removal::NotThere,
        (Agent::Claude | Agent::Gemini, Some(text)) => unmerge_json(text, origin)?,
        (Agent::Codex, Some(text)) => unmerge_toml(text, origin)?,
    };
    let (after, action) = match removed {
        Removal::NotThere => (before.clone(), Action::NotInstalled),
        Removal::Changed => (before.clone(), Action::Kept),
        Removal::Removed(after) if is_empty(&after, agent) => (None, Action::RemovedFile),
        Removal::Removed(after) => (Some(after), Action::Removed),
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Where Claude Code keeps a user's approval of a project's servers (not shared with the team).
pub const CLAUDE_APPROVAL_PATH: &str = ".claude/settings.local.json";
/// What `hooks install --claude` reports the approval as.
pub const APPROVAL_LABEL: &str = "Claude Code MCP approval";
const APPROVED: &str = "enabledMcpjsonServers";

/// Plans approving the server for this user: Claude Code starts a server from `.mcp.json` only
/// once approved, and the user asked for it by installing. A server the user disabled
/// (`disabledMcpjsonServers`) stays disabled.
pub fn plan_approval(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(CLAUDE_APPROVAL_PATH);
    let before = read_text(&path)?;
    let text = before.as_deref().unwrap_or_default();
    let mut root = parse_json(text, CLAUDE_APPROVAL_PATH)?;
    let listed = |root: &Value, key: &str| {
        root.get(key).and_then(Value::as_array).is_some_and(|a| a.contains(&json!(NAME)))
    };
    if listed(&root, APPROVED) || listed(&root, "disabledMcpjsonServers") {
        return Ok((
            FileChange { path, after: before.clone(), before, executable: false },
            Action::Unchanged,
        ));
    }
    let Some(list) = root
        .as_object_mut()
        .and_then(|o| o.entry(APPROVED).or_insert_with(|| json!([])).as_array_mut())
    else {
        bail!("{CLAUDE_APPROVAL_PATH}: \"{APPROVED}\" is not a list; fix the file, then run again");
    };
    list.push(json!(NAME));
    let mut pretty = serde_json::to_string_pretty(&root)?;
    pretty.push('\n');
    let spliced = Some(text)
        .filter(|text| !text.trim().is_empty())
        .and_then(|text| json_edit::append(text, &[APPROVED], &json!(NAME)))
        .filter(|text| serde_json::from_str::<Value>(text).is_ok_and(|value| value == root));
    let action = if before.is_some() { Action::Added } else { Action::Created };
    let after = Some(spliced.unwrap_or(pretty));
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Plans taking the approval out again; a file left as `{}` is removed.
pub fn plan_unapproval(top: &Path) -> Result<(FileChange, Action)> {
    let path = top.join(CLAUDE_APPROVAL_PATH);
    let before = read_text(&path)?;
    let text = before.as_deref().unwrap_or_default();
    let root = parse_json(text, CLAUDE_APPROVAL_PATH)?;
    let list = root.get(APPROVED).and_then(Value::as_array);
    let Some(index) = list.and_then(|list| list.iter().position(|v| *v == json!(NAME))) else {
        return Ok((
            FileChange { path, after: before.clone(), before, executable: false },
            Action::NotInstalled,
        ));
    };
    let steps: &[Step] = match list {
        Some(list) if list.len() == 1 => &[Step::Key(APPROVED)],
        _ => &[Step::Key(APPROVED), Step::Index(index)],
    };
    let after = json_edit::remove(text, steps).ok_or_else(|| {
        anyhow!("{CLAUDE_APPROVAL_PATH}: could not take out the approval of git-handoff; remove it by hand")
    })?;
    let (after, action) = if is_empty(&after, Agent::Claude) {
        (None, Action::RemovedFile)
    } else {
        (Some(after), Action::Removed)
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// Whether the server is registered for `agent`, for `hooks status`.
#[derive(Debug, Serialize)]
pub struct Status {
    pub path: PathBuf,
    /// Registered as installed.
    pub installed: bool,
    /// An entry named `git-handoff` that differs from what install writes.
    pub changed: bool,
}

pub fn status(top: &Path, agent: Agent) -> Result<Status> {
    let path = top.join(config_path(agent));
    let text = read_text(&path)?.unwrap_or_default();
    let found = match agent {
        Agent::Claude | Agent::Gemini => parse_json(&text, config_path(agent))
            .ok()
            .and_then(|root| root.get("mcpServers").and_then(|servers| servers.get(NAME)).cloned()),
        Agent::Codex => parse_toml(&text, config_path(agent))
            .ok()
            .and_then(|table| codex_entry(&table).map(|v| json!(v))),
    };
    let installed = found.as_ref().is_some_and(is_ours);
    Ok(Status { path, installed, changed: found.is_some() && !installed })
}

enum Removal {
    NotThere,
    /// The entry is there but not as installed: the user's now.
    Changed,
    Removed(String),
}

/// The entry as installed (a TOML table read as JSON compares the same).
fn is_ours(found: &Value) -> bool {
    *found == entry()
}

fn parse_json(text: &str, origin: &str) -> Result<Value> {
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    let root: Value = serde_json::from_str(text).map_err(|err| {
        anyhow!("{origin}:{}: not valid JSON ({err}); fix the file, then run again", err.line())
    })?;
    if !root.is_object() {
        bail!("{origin}: not a JSON object; fix the file, then run again");
    }
    if root.get("mcpServers").is_some_and(|servers| !servers.is_object()) {
        bail!("{origin}: \"mcpServers\" is not an object; fix the file, then run again");
    }
    Ok(root)
}

/// The text with our entry added; `None` when an entry of that name is there already.
fn merge_json(existing: Option<&str>, origin: &str) -> Result<Option<String>> {
    let mut root = parse_json(existing.unwrap_or_default(), origin)?;
    if root.get("mcpServers").and_then(|servers| servers.get(NAME)).is_some() {
        return Ok(None);
    }
    let servers = root
        .as_object_mut()
        .and_then(|object| object.entry("mcpServers").or_insert_with(|| json!({})).as_object_mut());
    if let Some(servers) = servers {
        servers.insert(NAME.to_string(), entry());
    }
    let mut pretty = serde_json::to_string_pretty(&root)?;
    pretty.push('\n');
    let spliced = existing
        .filter(|text| !text.trim().is_empty())
        .and_then(|text| json_edit::insert(text, &["mcpServers"], NAME, &entry()))
        .filter(|text| serde_json::from_str::<Value>(text).is_ok_and(|value| value == root));
    Ok(Some(spliced.unwrap_or(pretty)))
}

fn unmerge_json(text: &str, origin: &str) -> Result<Removal> {
    let root = parse_json(text, origin)?;
    let Some(servers) = root.get("mcpServers").and_then(Value::as_object) else {
        return Ok(Removal::NotThere);
    };
    match servers.get(NAME) {
        None => return Ok(Removal::NotThere),
        Some(found) if !is_ours(found) => return Ok(Removal::Changed),
        Some(_) => {}
    }
    // The object that held nothing else goes with it.
    let path: &[Step] = if servers.len() == 1 {
        &[Step::Key("mcpServers")]
    } else {
        &[Step::Key("mcpServers"), Step::Key(NAME)]
    };
    let after = json_edit::remove(text, path).ok_or_else(|| {
        anyhow!("{origin}: could not take out the git-handoff server; remove it by hand")
    })?;
    Ok(Removal::Removed(after))
}

fn parse_toml(text: &str, origin: &str) -> Result<toml::Table> {
    text.parse::<toml::Table>().map_err(|err| {
        let line = crate::model::config::toml_error_line(text, &err);
        anyhow!(
            "{origin}:{line}: not valid TOML ({}); fix the file, then run again",
            err.message().trim()
        )
    })
}

fn codex_entry(table: &toml::Table) -> Option<&toml::Value> {
    table.get("mcp_servers")?.get(NAME)
}

/// The text with our table appended; `None` when a server of that name is there already.
fn merge_toml(existing: Option<&str>, origin: &str) -> Result<Option<String>> {
    let text = existing.unwrap_or_default();
    if codex_entry(&parse_toml(text, origin)?).is_some() {
        return Ok(None);
    }
    let mut after = text.to_string();
    if !after.is_empty() && !after.ends_with('\n') {
        after.push('\n');
    }
    if !after.trim().is_empty() {
        after.push('\n');
    }
    after.push_str(CODEX_TABLE);
    // An inline `mcp_servers = {...}` cannot take a table: then the user adds it by hand.
    let added = parse_toml(&after, origin).ok();
    if !added.as_ref().and_then(codex_entry).is_some_and(|v| is_ours(&json!(v))) {
        bail!(
            "{origin}: cannot add the git-handoff MCP server to it; add this by hand:\n{CODEX_TABLE}"
        );
    }
    Ok(Some(after))
}

fn unmerge_toml(text: &str, origin: &str) -> Result<Removal> {
    let Some(found) = codex_entry(&parse_toml(text, origin)?).map(|v| json!(v)) else {
        return Ok(Removal::NotThere);
    };
    // Only the table exactly as installed, at the start of a line, is ours to take.
    let at = text
        .match_indices(CODEX_TABLE)
        .map(|(i, _)| i)
        .find(|&i| i == 0 || text[..i].ends_with('\n'));
    let (Some(at), true) = (at, is_ours(&found)) else { return Ok(Removal::Changed) };
    // The blank line install put before the table goes too.
    let start = if text[..at].ends_with("\n\n") { at - 1 } else { at };
    let after = format!("{}{}", &text[..start], &text[at + CODEX_TABLE.len()..]);
    match parse_toml(&after, origin) {
        Ok(table) if codex_entry(&table).is_none() => Ok(Removal::Removed(after)),
        _ => Ok(Removal::Changed),
    }
}

/// A file with nothing left but an empty object or no TOML at all.
fn is_empty(text: &str, agent: Agent) -> bool {
    match agent {
        Agent::Claude | Agent::Gemini => {
            serde_json::from_str::<Value>(text).is_ok_and(|v| v == json!({}))
        }
        Agent::Codex => text.trim().is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_entry_is_spliced_in_and_taken_out_byte_for_byte() {
        let before = "{\n    \"mcpServers\": {\n        \"other\": {\"command\": \"x\"}\n    },\n    \"z\": 1\n}\n";
        let after = merge_json(Some(before), ".mcp.json").unwrap().unwrap();
        assert_eq!(
            after,
            "{\n    \"mcpServers\": {\n        \"other\": {\"command\": \"x\"},\n        \
             \"git-handoff\": {\n            \"command\": \"git-handoff\",\n            \
             \"args\": [\n                \"mcp\"\n            ]\n        }\n    },\n    \"z\": 1\n}\n"
        );
        assert!(merge_json(Some(&after), ".mcp.json").unwrap().is_none(), "installed once");
        let Removal::Removed(back) = unmerge_json(&after, ".mcp.json").unwrap() else { panic!() };
        assert_eq!(back, before);
        // A new file; and a file that held only our server goes whole.
        let new = merge_json(None, ".mcp.json").unwrap().unwrap();
        let value: Value = serde_json::from_str(&new).unwrap();
        assert_eq!(
            value,
            json!({"mcpServers": {"git-handoff": {"command": "git-handoff", "args": ["mcp"]}}})
        );
        let Removal::Removed(left) = unmerge_json(&new, ".mcp.json").unwrap() else { panic!() };
        assert!(is_empty(&left, Agent::Claude), "{left}");
    }

    #[test]
    fn a_changed_entry_is_the_users() {
        let text =
            r#"{"mcpServers": {"git-handoff": {"command": "/opt/git-handoff", "args": ["mcp"]}}}"#;
        assert!(merge_json(Some(text), ".mcp.json").unwrap().is_none());
        assert!(matches!(unmerge_json(text, ".mcp.json").unwrap(), Removal::Changed));
        let err = merge_json(Some("{\"mcpServers\": [1]}"), ".mcp.json").unwrap_err();
        assert!(err.to_string().contains("\"mcpServers\" is not an object"), "{err}");
    }

    #[test]
    fn the_approval_is_added_for_this_user_and_taken_out_again() {
        let dir = tempfile::tempdir().unwrap();
        let local = dir.path().join(CLAUDE_APPROVAL_PATH);
        std::fs::create_dir_all(local.parent().unwrap()).unwrap();
        let before = "{\n  \"enabledMcpjsonServers\": [\"docs\"],\n  \"model\": \"opus\"\n}\n";
        std::fs::write(&local, before).unwrap();
        let (change, action) = plan_approval(dir.path()).unwrap();
        assert_eq!(action, Action::Added);
        let after = change.after.clone().unwrap();
        assert_eq!(after, before.replace("[\"docs\"]", "[\"docs\",\"git-handoff\"]"));
        change.apply(dir.path()).unwrap();
        assert_eq!(plan_approval(dir.path()).unwrap().1, Action::Unchanged);
        let (change, action) = plan_unapproval(dir.path()).unwrap();
        assert_eq!((change.after.as_deref(), action), (Some(before), Action::Removed));
        // A server the user disabled stays disabled.
        std::fs::write(&local, "{\"disabledMcpjsonServers\": [\"git-handoff\"]}").unwrap();
        assert_eq!(plan_approval(dir.path()).unwrap().1, Action::Unchanged);
    }

    #[test]
    fn toml_table_is_appended_and_taken_out_byte_for_byte() {
        let before =
            "# my settings\nmodel = \"o4\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";
        let after = merge_toml(Some(before), "c.toml").unwrap().unwrap();
        assert_eq!(after, format!("{before}\n{CODEX_TABLE}"));
        assert!(merge_toml(Some(&after), "c.toml").unwrap().is_none(), "installed once");
        let Removal::Removed(back) = unmerge_toml(&after, "c.toml").unwrap() else { panic!() };
        assert_eq!(back, before);
        assert_eq!(merge_toml(None, "c.toml").unwrap().unwrap(), CODEX_TABLE);
        let inline = "mcp_servers = { docs = { command = \"d\" } }\n";
        let err = merge_toml(Some(inline), "c.toml").unwrap_err();
        assert!(err.to_string().contains("add this by hand"), "{err}");
        let err = merge_toml(Some("model = \n"), "c.toml").unwrap_err();
        assert!(err.to_string().starts_with("c.toml:1: not valid TOML"), "{err}");
        let edited = CODEX_TABLE.replace("[\"mcp\"]", "[\"mcp\", \"-C\", \"x\"]");
        assert!(matches!(unmerge_toml(&edited, "c.toml").unwrap(), Removal::Changed));
    }
}
