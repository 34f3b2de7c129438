//! `.handoff.toml`: every key optional, every default here, unknown keys rejected with file:line.
//!
//! ```toml
//! note_dir = ".agent/handoff"        # where handoff notes live
//! notes_ref = "refs/notes/handoff"   # where records live
//! reasons = ["ci_timeout"]           # reasons allowed besides the spec's seven
//!
//! [caps]
//! snapshot_lines = 40                # lines per git output in `snapshot`
//! seal_files = 40                    # files listed by `seal` (text form)
//! recall_lines = 10
//! recall_chars = 1200                # recall's character budget (tags are cut last)
//! rules_lines = 40
//! rules_chars = 2000
//!
//! [checks]
//! commands = ["cargo test", "npm test"]  # replaces the default check commands
//! extra = ["just test"]                  # added to them
//!
//! [secrets]
//! files = ["*.secret"]               # more secret-looking file names (globs)
//! patterns = ["CORP_[A-Z0-9]{20}"]   # more secret-looking content (regexes)
//!
//! [redact]
//! patterns = ["internal-[0-9a-f]{32}"]  # more text to redact (regexes)
//!
//! [recall]
//! enabled = true
//! prefix = "Handoff recall:"
//! rules_file = ".agent/rules.md"
//! spec_file = "SPEC.md"
//!
//! [progress]
//! write = ".agent/progress.md"       # the change summary, rewritten on every change, edit and check
//! ```

use std::borrow::Cow;
use std::path::Path;

use anyhow::{Result, anyhow};
use serde::Deserialize;

mod checks;
mod key_line;
mod salvage;

use key_line::key_line;

pub use checks::DEFAULT_CHECKS;

use crate::model::patterns::Patterns;

/// The file name, at the top of the work tree.
pub const FILE_NAME: &str = ".handoff.toml";

/// The most of `.handoff.toml` git-handoff reads: a configuration is a few dozen lines.
pub const MAX_BYTES: u64 = 256 << 10;

/// The most entries `reasons`, `checks.commands`, `checks.extra` and `secrets.files` may hold.
pub const MAX_LIST: usize = 256;

/// The reasons the spec allows; `reasons` in the config adds more.
pub const SPEC_REASONS: [&str; 7] = [
    "token_soft_threshold",
    "token_hard_limit",
    "turn_limit",
    "time_limit",
    "cost_hard_limit",
    "operator_request",
    "agent_request",
];

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub note_dir: String,
    pub notes_ref: String,
    pub reasons: Vec<String>,
    pub caps: Caps,
    pub checks: Checks,
    pub secrets: Secrets,
    pub redact: Redact,
    pub recall: Recall,
    pub progress: Progress,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Caps {
    pub snapshot_lines: usize,
    pub seal_files: usize,
    pub recall_lines: usize,
    /// Recall's character budget, newlines counted; untagged items are shortened first and an
    /// `[unverified: ...]` tag is cut last (see `ops/recall/budget.rs`).
    pub recall_chars: usize,
    pub rules_lines: usize,
    pub rules_chars: usize,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Checks {
    /// Replaces the default check commands when set.
    pub commands: Option<Vec<String>>,
    /// Added to the check commands.
    pub extra: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Secrets {
    pub files: Vec<String>,
    pub patterns: Vec<String>,
    /// `patterns`, compiled when the configuration is parsed.
    #[serde(skip)]
    pub compiled: Patterns,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Redact {
    pub patterns: Vec<String>,
    /// `patterns`, compiled when the configuration is parsed.
    #[serde(skip)]
    pub compiled: Patterns,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Recall {
    pub enabled: bool,
    pub prefix: String,
    pub rules_file: String,
    pub spec_file: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Progress {
    pub write: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            note_dir: ".agent/handoff".into(),
            notes_ref: "refs/notes/handoff".into(),
            reasons: Vec::new(),
            caps: Caps::default(),
            checks: Checks::default(),
            secrets: Secrets::default(),
            redact: Redact::default(),
            recall: Recall::default(),
            progress: Progress::default(),
        }
    }
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            snapshot_lines: 40,
            seal_files: 40,
            recall_lines: 10,
            recall_chars: 1200,
            rules_lines: 40,
            rules_chars: 2000,
        }
    }
}

impl Default for Recall {
    fn default() -> Self {
        Recall {
            enabled: true,
            prefix: "Handoff recall:".into(),
            rules_file: ".agent/rules.md".into(),
            spec_file: None,
        }
    }
}

/// The 1-based line a TOML error points at.
pub fn toml_error_line(text: &str, err: &toml::de::Error) -> usize {
    err.span().map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1).unwrap_or(1)
}

impl Config {
    /// Loads `.handoff.toml` from the top of the work tree; no file means the defaults.
    pub fn load(top: Option<&Path>) -> Result<Config> {
        use crate::util::error::{Kind, KindExt};
        Config::load_strict(top).kind(Kind::Config)
    }

    fn load_strict(top: Option<&Path>) -> Result<Config> {
        let Some(top) = top else { return Ok(Config::default()) };
        let path = top.join(FILE_NAME);
        // A symbolic link to a regular file is read (bounded); a FIFO or a device is refused.
        let read = crate::util::fs::read_regular_if_any(&path, MAX_BYTES, "the configuration")?;
        let Some(bytes) = read else { return Ok(Config::default()) };
        let text = String::from_utf8(bytes).map_err(|err| {
            let at = err.utf8_error().valid_up_to();
            let line = err.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            anyhow!("{}:{line}: not UTF-8 (byte {at}); save it as UTF-8 text", path.display())
        })?;
        Config::parse(&text, &path.display().to_string())
    }

    /// Parses config text; `origin` names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Config> {
        let mut config: Config = toml::from_str(text).map_err(|err| {
            let line = toml_error_line(text, &err);
            let message = err.message().trim().replace('\n', "; ");
            anyhow!(
                "{origin}:{line}: {message}; fix the key or value (every key is optional, \
                 see `git handoff --help` for the list)"
            )
        })?;
        config.validate(text, origin)?;
        // Checked and compiled once, within the caps of model/patterns.rs.
        // An error names the line, found only then: `record` parses this on every tool call.
        let compile = |key: &str, list: &[String]| {
            Patterns::compile(key, list, origin).or_else(|_| {
                Patterns::compile(key, list, &format!("{origin}:{}", key_line(text, key)))
            })
        };
        config.secrets.compiled = compile("secrets.patterns", &config.secrets.patterns)?;
        config.redact.compiled = compile("redact.patterns", &config.redact.patterns)?;
        Ok(config)
    }

    fn validate(&self, text: &str, origin: &str) -> Result<()> {
        // Paths from the config are read and written for the user: they stay inside the work tree
        // and out of every git directory, whoever wrote the file. They are also named in commands
        // the prompt tells an agent to run, so they hold only characters no shell treats
        // specially (the commands quote them as well).
        let paths = [
            ("note_dir", Some(self.note_dir.as_str())),
            ("progress.write", self.progress.write.as_deref()),
            ("recall.rules_file", Some(self.recall.rules_file.as_str()).filter(|f| !f.is_empty())),
            ("recall.spec_file", self.recall.spec_file.as_deref()),
        ];
        // Where a key is given, found only on an error: `record` parses this on every tool call.
        let at = |key: &str| format!("{origin}:{}", key_line(text, key));
        for (key, path) in paths {
            let Some(path) = path else { continue };
            if crate::util::paths::stays_inside(path) {
                if let Some(bad) = not_plain(path) {
                    return Err(anyhow!(
                        "{}: {key} = {path:?} holds {bad}; a path here may hold only letters, \
                         digits, `.`, `_`, `-`, `+`, `@`, `,`, `=` and `/` between names that do not \
                         start with `-`, like \".agent/progress.md\"",
                        at(key)
                    ));
                }
                continue;
            }
            let git_dir = std::path::Path::new(path)
                .components()
                .any(|c| crate::util::paths::names_git_dir(&c.as_os_str().to_string_lossy()));
            let why = if git_dir {
                "reaches into a git directory, where git keeps its config, index and hooks"
            } else {
                "is outside the work tree"
            };
            return Err(anyhow!(
                "{}: {key} = {path:?} {why}; give a path relative to the top of the work \
                 tree, without `..` or `.git`, like \".agent/progress.md\"",
                at(key)
            ));
        }
        // Lists that hooks go through on every event stay short (the patterns have their own caps).
        let none = Vec::new();
        let lists = [
            ("reasons", &self.reasons),
            ("checks.commands", self.checks.commands.as_ref().unwrap_or(&none)),
            ("checks.extra", &self.checks.extra),
            ("secrets.files", &self.secrets.files),
        ];
        for (key, list) in lists {
            if list.len() > MAX_LIST {
                return Err(anyhow!(
                    "{}: {key} holds {} entries, more than the {MAX_LIST} git-handoff takes; \
                     keep the ones that matter",
                    at(key),
                    list.len()
                ));
            }
        }
        if !self.notes_ref.starts_with("refs/notes/") {
            return Err(anyhow!(
                "{}: notes_ref {:?} must start with refs/notes/, like \"refs/notes/handoff\"",
                at("notes_ref"),
                self.notes_ref
            ));
        }
        // Checked here, before any command changes anything: a name git refuses would otherwise
        // fail only when the record is written, after the note commit moved HEAD.
        if let Some(why) = bad_ref_name(&self.notes_ref) {
            return Err(anyhow!(
                "{}: notes_ref {:?} is not a name git accepts for a ref ({why}); use letters, \
                 digits, `-`, `_` and `/`, like \"refs/notes/handoff\"",
                at("notes_ref"),
                self.notes_ref
            ));
        }
        Ok(())
    }

    /// The note directory as a path prefix: no `./`, no trailing slash.
    pub fn note_dir(&self) -> String {
        let mut dir = self.note_dir.trim();
        while let Some(rest) = dir.strip_prefix("./") {
            dir = rest;
        }
        dir.trim_end_matches('/').to_string()
    }

    /// The note path for an issue, relative to the top of the work tree.
    pub fn note_path(&self, issue: u64) -> String {
        format!("{}/{issue}.md", self.note_dir())
    }

    /// True when `reason` is one of the spec's reasons or the configured extra ones.
    pub fn allows_reason(&self, reason: &str) -> bool {
        SPEC_REASONS.contains(&reason) || self.reasons.iter().any(|r| r == reason)
    }

    /// Every allowed reason, for error messages.
    pub fn all_reasons(&self) -> Vec<&str> {
        SPEC_REASONS.iter().copied().chain(self.reasons.iter().map(String::as_str)).collect()
    }

    /// The check commands in force: the defaults borrowed, what the file names copied.
    pub fn check_commands(&self) -> Vec<Cow<'static, str>> {
        let base: Vec<Cow<'static, str>> = match &self.checks.commands {
            Some(list) => list.iter().map(|c| Cow::Owned(c.clone())).collect(),
            None => DEFAULT_CHECKS.iter().map(|&c| Cow::Borrowed(c)).collect(),
        };
        let extra = self.checks.extra.iter().map(|c| Cow::Owned(c.clone()));
        base.into_iter().chain(extra).collect()
    }

    /// Checks a reason, with an error that lists the allowed ones.
    pub fn check_reason(&self, reason: &str) -> Result<()> {
        if self.allows_reason(reason) {
            Ok(())
        } else {
            Err(anyhow!(
                "unknown reason {reason:?}; use one of: {} (or add it to `reasons` in {FILE_NAME})",
                self.all_reasons().join(", ")
            ))
        }
    }
}

/// What keeps `path` from being a plain path, if anything: a character a shell treats specially
/// (or any control, space or quote), or a name starting with `-` (read as an option).
fn not_plain(path: &str) -> Option<String> {
    let plain = |c: char| {
        c.is_ascii_alphanumeric()
            || "._-+@,=/".contains(c)
            || (!c.is_ascii() && c.is_alphanumeric())
    };
    if let Some(c) = path.chars().find(|&c| !plain(c)) {
        return Some(format!("the character {:?}", c.escape_default().to_string()));
    }
    path.split('/').any(|name| name.starts_with('-')).then(|| "a name starting with `-`".into())
}

/// Why git would refuse `name` as a ref name (`git check-ref-format`'s rules), if it would.
fn bad_ref_name(name: &str) -> Option<&'static str> {
    if name.bytes().any(|b| b < 0x20 || b == 0x7f || b" ~^:?*[\\".contains(&b)) {
        return Some("a space, a control character or one of ~^:?*[\\");
    }
    if name.contains("..") || name.contains("@{") || name.contains("//") {
        return Some("`..`, `@{` or `//`");
    }
    if name.ends_with(['/', '.']) || name == "@" {
        return Some("it ends with `/` or `.`");
    }
    if name
        .split('/')
        .any(|part| part.is_empty() || part.starts_with('.') || part.ends_with(".lock"))
    {
        return Some("a part that is empty, starts with `.` or ends with `.lock`");
    }
    None
}
