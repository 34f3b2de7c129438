//! What a tool call was about: its short target (the command, the file, the pattern) and the
//! files it edited, read from the tool's input by tool name; which tools run a shell command.

use anyhow::Result;
use serde_json::{Map, Value};

use crate::agent::events::Event;

use super::fields::{CAP_COMMAND, CAP_PATH, CAP_TARGET, MAX_PATHS, str_field, wrong_type};
use super::paths::{SessionDirs, patch_paths, relative_clean};

/// Fills the target and edited paths of a tool call from its input.
pub(super) fn describe_tool(
    tool: &str,
    input: Option<&Map<String, Value>>,
    dirs: &SessionDirs<'_>,
    clean: &dyn Fn(&str, usize) -> String,
    event: &mut Event<'static>,
) -> Result<()> {
    let Some(input) = input else { return Ok(()) };
    let text_of = |key: &str| str_field(input, key);
    if is_shell(tool) {
        if let Some(command) = command_text(input)? {
            event.target = Some(clean(&command, CAP_COMMAND).into());
        }
        return Ok(());
    }
    match tool {
        // Claude Code's, Gemini CLI's and GitHub Copilot CLI's (`create`, `edit`, `view`).
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "Read" | "write_file" | "replace"
        | "read_file" | "create" | "edit" | "view" => {
            let key = if tool == "NotebookEdit" { "notebook_path" } else { "file_path" };
            let Some(path) = text_of(key)?.or(text_of("path")?) else { return Ok(()) };
            match relative_clean(path, dirs, clean) {
                Some(rel) => {
                    event.target = Some(clean(&rel, CAP_TARGET).into());
                    if !matches!(tool, "Read" | "read_file" | "view") {
                        event.paths = vec![clean(&rel, CAP_PATH).into()];
                    }
                }
                None => event.target = Some(clean(path, CAP_TARGET).into()),
            }
        }
        "apply_patch" => {
            let patch = match command_text(input)? {
                Some(text) => Some(text),
                None => text_of("input")?.or(text_of("patch")?).map(str::to_string),
            };
            let files: Vec<String> = patch
                .as_deref()
                .map(patch_paths)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|p| relative_clean(&p, dirs, clean))
                .collect();
            if let Some(first) = files.first() {
                let more = if files.len() > 1 {
                    format!(" (+{} more)", files.len() - 1)
                } else {
                    String::new()
                };
                event.target = Some(clean(&format!("{first}{more}"), CAP_TARGET).into());
            }
            event.paths = files.iter().take(MAX_PATHS).map(|p| clean(p, CAP_PATH).into()).collect();
        }
        _ => {
            let key = match tool {
                "Skill" => "skill",
                "Grep" | "Glob" | "grep_search" | "glob" => "pattern",
                "Task" | "Agent" => "description",
                "WebFetch" => "url",
                "WebSearch" => "query",
                _ => "",
            };
            let found = if key.is_empty() { None } else { text_of(key)? };
            let found = match (found, tool) {
                (None, "Task" | "Agent") => text_of("subagent_type")?,
                (found, _) => found,
            };
            if let Some(text) = found {
                event.target = Some(clean(text, CAP_TARGET).into());
            }
        }
    }
    Ok(())
}

/// Tools that run a shell command.
pub fn is_shell(tool: &str) -> bool {
    matches!(
        tool,
        "Bash"
            | "shell"
            | "local_shell"
            | "exec_command"
            | "unified_exec"
            | "container.exec"
            | "run_shell_command"
            | "bash"
    )
}

/// A shell tool's command: a string, or an argv whose last element is the script (`bash -lc ...`).
fn command_text(input: &Map<String, Value>) -> Result<Option<String>> {
    for key in ["command", "cmd"] {
        match input.get(key) {
            None | Some(Value::Null) => continue,
            Some(Value::String(text)) => return Ok(Some(text.clone())),
            Some(Value::Array(items)) => {
                let words: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                let script = match words.as_slice() {
                    [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => {
                        (*script).to_string()
                    }
                    _ => words.join(" "),
                };
                return Ok(Some(script));
            }
            Some(other) => return Err(wrong_type(&format!("tool_input.{key}"), other, "a string")),
        }
    }
    Ok(None)
}
