//! Taking git-handoff out of the agents' settings again: only the hook entries it installs (matched
//! by their exact command), and the containers that held nothing else; every other key, hook and
//! byte of formatting stays. The installed skill goes only while it is the one we shipped.

use std::path::Path;

use anyhow::{Result, anyhow};
use serde_json::Value;

use crate::hooks::Action;
use crate::hooks::agent_settings::{self, Agent, SKILL};
use crate::hooks::agent_status::{SkillState, skill_state};
use crate::hooks::change::{FileChange, read_text};
use crate::hooks::json_edit::{self, Step};
use crate::hooks::manifest::Created;

/// Plans removing our entries from the agent's settings. `created` is what install recorded it
/// made: containers it made go when they are left empty, and so does the file; without a record,
/// any container left empty goes, and a file left as `{}`.
pub fn plan_uninstall(
    top: &Path,
    agent: Agent,
    created: Option<&Created>,
) -> Result<(FileChange, Action)> {
    let path = agent_settings::path(top, agent);
    let before = read_text(&path)?;
    let unchanged = |action| {
        let change = FileChange {
            path: path.clone(),
            before: before.clone(),
            after: before.clone(),
            executable: false,
        };
        Ok((change, action))
    };
    let Some(text) = before.as_deref().filter(|t| !t.trim().is_empty()) else {
        return unchanged(Action::NotInstalled);
    };
    let origin = agent.settings_path();
    let Some(after) = unmerge(text, agent, origin, created)? else {
        return unchanged(Action::NotInstalled);
    };
    let empty =
        serde_json::from_str::<Value>(&after).is_ok_and(|v| v == Value::Object(Default::default()));
    let empty = empty && created.is_none_or(|c| c.file);
    let (after, action) =
        if empty { (None, Action::RemovedFile) } else { (Some(after), Action::Removed) };
    Ok((FileChange { path, before, after, executable: false }, action))
}

/// The settings text without our hook entries; `None` when it holds none.
pub fn unmerge(
    text: &str,
    agent: Agent,
    origin: &str,
    created: Option<&Created>,
) -> Result<Option<String>> {
    // Ours in either form: as installed now, and as earlier versions installed them.
    let legacy: Vec<String> =
        agent.wanted().iter().flat_map(|w| agent_settings::older_forms(w.command)).collect();
    let mut ours: Vec<&str> = agent.wanted().iter().map(|w| w.command).collect();
    ours.extend(legacy.iter().map(String::as_str));
    let mut text = text.to_string();
    let mut removed = false;
    loop {
        let root: Value = serde_json::from_str(&text).map_err(|err| {
            anyhow!("{origin}:{}: not valid JSON ({err}); fix the file, then run again", err.line())
        })?;
        let Some(path) = find_ours(&root, &ours, created) else { break };
        let steps: Vec<Step> = path.iter().map(Owned::step).collect();
        text = json_edit::remove(&text, &steps).ok_or_else(|| {
            anyhow!("{origin}: could not take out a git-handoff hook; remove it by hand")
        })?;
        removed = true;
    }
    Ok(removed.then_some(text))
}

enum Owned {
    Key(String),
    Index(usize),
}

impl Owned {
    fn step(&self) -> Step<'_> {
        match self {
            Owned::Key(key) => Step::Key(key),
            Owned::Index(i) => Step::Index(*i),
        }
    }
}

/// The path to remove for the first hook entry of ours: the entry, or the group, event list or
/// `hooks` object that would hold nothing else without it (an event list or `hooks` object only
/// when install created it, if it recorded what it created).
fn find_ours(root: &Value, ours: &[&str], created: Option<&Created>) -> Option<Vec<Owned>> {
    let made = |key: &str| created.is_none_or(|c| c.has(key));
    let hooks = root.get("hooks")?.as_object()?;
    for (event, groups) in hooks {
        let Some(groups) = groups.as_array() else { continue };
        for (gi, group) in groups.iter().enumerate() {
            let Some(entries) = group.get("hooks").and_then(Value::as_array) else { continue };
            let found = entries.iter().position(|h| {
                h.get("command").and_then(Value::as_str).is_some_and(|c| ours.contains(&c))
            });
            let Some(hi) = found else { continue };
            let mut path = vec![Owned::Key("hooks".into())];
            if entries.len() > 1 {
                path.extend([
                    Owned::Key(event.clone()),
                    Owned::Index(gi),
                    Owned::Key("hooks".into()),
                    Owned::Index(hi),
                ]);
            } else if groups.len() > 1 || !made(&format!("hooks.{event}")) {
                path.extend([Owned::Key(event.clone()), Owned::Index(gi)]);
            } else if hooks.len() > 1 || !made("hooks") {
                path.push(Owned::Key(event.clone()));
            }
            return Some(path);
        }
    }
    None
}

/// Plans removing the installed skill, only when it is byte for byte the one we ship (an edited
/// skill is the user's and stays).
pub fn plan_skill_uninstall(top: &Path, agent: Agent) -> Result<(FileChange, Action)> {
    let path = top.join(agent.skill_path());
    let state = skill_state(top, agent)?;
    let before = (state != SkillState::Absent).then(|| SKILL.to_string());
    let (after, action) = match state {
        SkillState::Unchanged => (None, Action::RemovedFile),
        SkillState::Modified => (before.clone(), Action::Kept),
        SkillState::Absent => (None, Action::NotInstalled),
    };
    Ok((FileChange { path, before, after, executable: false }, action))
}
