//! Whether Gemini CLI (0.61) will load the project's settings, hooks included: it does only in a
//! trusted folder, and in an untrusted one it runs no hook at all (headless, it exits 55). Read as
//! its `checkPathTrust` reads it: `GEMINI_RESTRICTED_MODE=true` or `GEMINI_CLI_TRUST_WORKSPACE=
//! false` distrust, `GEMINI_CLI_TRUST_WORKSPACE=true` trusts, folder trust turned off
//! (`security.folderTrust.enabled: false` in `~/.gemini/settings.json`; on by default) trusts,
//! else the longest rule of `trustedFolders.json` (`GEMINI_CLI_TRUSTED_FOLDERS_PATH`, or
//! `~/.gemini/`) that holds the folder decides (`TRUST_PARENT` trusts the rule's parent), and no
//! rule means not trusted.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

/// What Gemini CLI decides for the work tree.
#[derive(Debug, Clone, Serialize)]
pub struct Trust {
    pub trusted: bool,
    /// What decided it: `env`, `settings`, `file` or `none` (no rule: not trusted).
    pub source: &'static str,
    /// The trusted-folders file read.
    pub file: PathBuf,
}

/// Gemini CLI's decision for `top`.
pub fn trust(top: &Path) -> Trust {
    let var = |name| std::env::var(name).ok();
    let home = var("HOME").map(PathBuf::from).unwrap_or_default();
    let file = var("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".gemini/trustedFolders.json"));
    let decided = |trusted, source| Trust { trusted, source, file: file.clone() };
    if var("GEMINI_RESTRICTED_MODE").as_deref() == Some("true")
        || var("GEMINI_CLI_TRUST_WORKSPACE").as_deref() == Some("false")
    {
        return decided(false, "env");
    }
    if var("GEMINI_CLI_TRUST_WORKSPACE").as_deref() == Some("true") {
        return decided(true, "env");
    }
    let settings = read_json(&home.join(".gemini/settings.json"));
    let enabled = settings.pointer("/security/folderTrust/enabled").and_then(Value::as_bool);
    if enabled == Some(false) {
        return decided(true, "settings");
    }
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let here = real(top);
    let mut best: Option<(usize, bool)> = None;
    if let Value::Object(rules) = read_json(&file) {
        for (rule, level) in rules {
            let level = level.as_str().unwrap_or_default();
            let path = PathBuf::from(&rule);
            let effective = match level {
                "TRUST_PARENT" => path.parent().map(Path::to_path_buf).unwrap_or(path),
                _ => path,
            };
            if here.starts_with(real(&effective)) && best.is_none_or(|(len, _)| rule.len() > len) {
                best = Some((rule.len(), matches!(level, "TRUST_FOLDER" | "TRUST_PARENT")));
            }
        }
    }
    match best {
        Some((_, trusted)) => decided(trusted, "file"),
        None => decided(false, "none"),
    }
}

/// A JSON file, `//` comment lines left out as Gemini CLI strips them; null when absent or bad.
fn read_json(path: &Path) -> Value {
    let Ok(Some(bytes)) = crate::util::fs::read_regular_if_any(path, 1 << 20, "a Gemini CLI file")
    else {
        return Value::Null;
    };
    let text = String::from_utf8_lossy(&bytes);
    let kept: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    serde_json::from_str(&kept).unwrap_or(Value::Null)
}
