//! Whether Codex will run the hooks `hooks install --codex` wrote, read from Codex's own user
//! configuration (`$CODEX_HOME/config.toml`, by default `~/.codex/config.toml`).
//!
//! Codex 0.171 runs a project's `.codex/hooks.json` only when both hold:
//! - it trusts the project: `[projects."<top of the work tree>"] trust_level = "trusted"` (else
//!   it loads nothing from `.codex/`, and `codex exec` says so in one warning);
//! - the user approved each hook in its hook review ("Hooks need review" in the TUI, `/hooks`):
//!   `[hooks.state."<path of hooks.json>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`,
//!   the event in snake case (`post_tool_use`), the group and handler their positions in the file.
//!   An unapproved hook is skipped without a word; `enabled = false` there turns one off.
//!
//! The hash is Codex's digest of the entry: a recorded one is taken as the approval of our entry
//! (git-handoff does not recompute Codex's digest, so an entry approved and later changed by hand
//! still reads as approved here).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::hooks::agent_settings::{self, Agent};

/// What Codex's configuration says about git-handoff's hooks in one repository.
#[derive(Debug, Clone, Serialize)]
pub struct Review {
    /// Codex's user configuration, where it records trusted projects and approved hooks.
    pub config: PathBuf,
    /// Whether Codex trusts the project (it loads `.codex/` only then).
    pub project_trusted: bool,
    /// Events whose git-handoff hook Codex has an approval for.
    pub approved: Vec<&'static str>,
    /// Events whose git-handoff hook waits for approval in Codex's hook review.
    pub unapproved: Vec<&'static str>,
    /// Events whose git-handoff hook the user turned off in Codex.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disabled: Vec<&'static str>,
    /// Why the configuration could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

impl Review {
    /// Whether Codex runs every installed git-handoff hook.
    pub fn runs_all(&self) -> bool {
        self.problem.is_none()
            && self.project_trusted
            && self.unapproved.is_empty()
            && self.disabled.is_empty()
    }
}

/// What to tell the user who has to approve the hooks.
pub const HOW_TO_APPROVE: &str = "start `codex` in this repository, trust the folder if it asks, \
    and choose \"Trust all and continue\" when it lists \"Hooks need review\" (or approve them \
    under /hooks)";

/// Codex's user configuration file: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`.
pub fn config_path() -> Option<PathBuf> {
    let home = std::env::var_os("CODEX_HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let home = home.or_else(|| {
        std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| Path::new(&h).join(".codex"))
    })?;
    Some(home.join("config.toml"))
}

/// Codex's name for an event in its approval keys.
fn event_label(event: &str) -> String {
    let mut label = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            label.push('_');
        }
        label.push(c.to_ascii_lowercase());
    }
    label
}

/// The review of the git-handoff hooks installed for `events` in the hooks file `settings` (its
/// JSON), read from the Codex configuration `config`; the work tree's top is `top`.
pub fn review(top: &Path, settings: &Value, events: &[&'static str], config: &Path) -> Review {
    let mut review = Review {
        config: config.to_path_buf(),
        project_trusted: false,
        approved: Vec::new(),
        unapproved: Vec::new(),
        disabled: Vec::new(),
        problem: None,
    };
    let max = crate::hooks::change::MAX_BYTES;
    let text = match crate::util::fs::read_regular_if_any(config, max, "Codex's configuration") {
        Ok(bytes) => String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned(),
        Err(err) => {
            review.problem = Some(format!("cannot read it: {err:#}"));
            return review;
        }
    };
    let codex: toml::Table = match toml::from_str(&text) {
        Ok(table) => table,
        Err(err) => {
            review.problem = Some(format!("not valid TOML: {}", err.message()));
            return review;
        }
    };
    // Codex names the project and the hooks file by the path it found them at; the canonical
    // path as well, in case it resolved a link on the way.
    let tops: Vec<PathBuf> =
        [Some(top.to_path_buf()), top.canonicalize().ok()].into_iter().flatten().collect();
    let projects = codex.get("projects").and_then(toml::Value::as_table);
    review.project_trusted = tops.iter().any(|t| {
        let entry = projects.and_then(|p| p.get(&*t.to_string_lossy()));
        entry.and_then(|e| e.get("trust_level")).and_then(toml::Value::as_str) == Some("trusted")
    });
    let states = codex.get("hooks").and_then(|h| h.get("state")).and_then(toml::Value::as_table);
    for wanted in Agent::Codex.wanted().iter().filter(|w| events.contains(&w.event)) {
        let Some((group, handler)) = position(settings, wanted.event, wanted.command) else {
            continue;
        };
        let state = tops.iter().find_map(|t| {
            let file = t.join(Agent::Codex.settings_path());
            let key = format!("{}:{}:{group}:{handler}", file.display(), event_label(wanted.event));
            states.and_then(|s| s.get(&key))
        });
        let enabled = state.and_then(|s| s.get("enabled")).and_then(toml::Value::as_bool);
        let hash = state.and_then(|s| s.get("trusted_hash")).and_then(toml::Value::as_str);
        if enabled == Some(false) {
            review.disabled.push(wanted.event);
        } else if hash.is_some_and(|h| !h.is_empty()) {
            review.approved.push(wanted.event);
        } else {
            review.unapproved.push(wanted.event);
        }
    }
    review
}

/// The group and handler positions of the entry running `command` (or its older form) in `event`.
fn position(settings: &Value, event: &str, command: &str) -> Option<(usize, usize)> {
    let older = agent_settings::older_forms(command);
    let groups = settings["hooks"][event].as_array()?;
    groups.iter().enumerate().find_map(|(g, group)| {
        let handlers = group.get("hooks")?.as_array()?;
        let h = handlers.iter().position(|h| {
            let c = h.get("command").and_then(Value::as_str);
            c == Some(command) || older.iter().any(|o| c == Some(o.as_str()))
        })?;
        Some((g, h))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_labels_are_codex_keys() {
        assert_eq!(event_label("PostToolUse"), "post_tool_use");
        assert_eq!(event_label("SessionStart"), "session_start");
        assert_eq!(event_label("Stop"), "stop");
    }
}
