//! Where output goes and how it looks: colour decisions (`--color`, `NO_COLOR`, terminals, git's
//! `color.handoff` and `color.ui`, asked of a `git config` child started through
//! [`crate::git::process`] only when the command needs it) and the JSON writer. Data goes to
//! stdout, status and warnings to stderr. It imports nothing else of the command layer.

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::{Child, Stdio};
use std::sync::Mutex;

use clap::ValueEnum;
use serde::Serialize;

use crate::git::process;

/// The choice `--color` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// git's colour setting: read from the repository's config once the command has opened it, or
/// asked of a `git config` child at the first styled text (see [`AskGit`]).
static PENDING: Mutex<Pending> = Mutex::new(Pending::Settled);

enum Pending {
    NotAsked,
    /// Read from the config of the repository the command opens ([`settle_color_from`]); asked of
    /// git if something is styled first.
    FromRepo,
    Settled,
}

/// When git's colour setting is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AskGit {
    /// Only when something is styled (an error, a warning): the command's normal output is plain,
    /// and a git start would only take a core from its work.
    WhenStyled,
    /// From the repository's config, once the command has opened the repository (see
    /// [`settle_color_from`]): no git start on the command's path; git is asked only if something
    /// is styled before that.
    FromRepo,
    /// Never: nothing the command prints is styled.
    Never,
}

/// Decides colour once for the process, for stdout and stderr alike. `--color always|never` wins;
/// with `auto`, NO_COLOR and CLICOLOR_FORCE decide when set, else git's `color.handoff` (falling
/// back to `color.ui`), as git's own commands do, else whether the stream is a terminal. git is
/// asked when `ask` says, and [`settle_color`] applies its answer.
pub fn init_color(choice: ColorChoice, ask: AskGit) {
    let env_decides = ["NO_COLOR", "CLICOLOR_FORCE"].iter().any(|k| std::env::var_os(k).is_some());
    let pending = match choice {
        ColorChoice::Auto if !env_decides => match ask {
            AskGit::WhenStyled => Pending::NotAsked,
            AskGit::FromRepo => Pending::FromRepo,
            AskGit::Never => Pending::Settled,
        },
        other => {
            apply(other);
            Pending::Settled
        }
    };
    *PENDING.lock().unwrap_or_else(|e| e.into_inner()) = pending;
}

/// Applies git's colour setting, asking a `git config` child now if it was not read yet (a no-op
/// once done, or when git is not to be asked). Every styling helper calls it first.
pub fn settle_color() {
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    let child = match std::mem::replace(&mut *pending, Pending::Settled) {
        Pending::NotAsked | Pending::FromRepo => match git_color_probe() {
            Some(child) => child,
            None => return,
        },
        Pending::Settled => return,
    };
    drop(pending);
    let answer = child.wait_with_output().ok();
    let choice = answer.and_then(|out| parse_git_color(&String::from_utf8_lossy(&out.stdout)));
    apply(choice.unwrap_or(ColorChoice::Auto));
}

/// Settles git's colour setting from `config`, the opened repository's, when the command asked
/// for that ([`AskGit::FromRepo`]). Config given on git's command line (`git -c color.ui=...
/// handoff`), which gix does not read, is left to the `git config` child at the first styled text.
pub fn settle_color_from(repo: &crate::git::repo::Repo) {
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    if !matches!(*pending, Pending::FromRepo) {
        return;
    }
    if crate::git::repo::config_on_command_line() {
        *pending = Pending::NotAsked;
        return;
    }
    *pending = Pending::Settled;
    drop(pending);
    let config = repo.gix().config_snapshot();
    // A bare key (`[color] ui`) has no string value and is true, as git reads it.
    let value = |key: &str| match config.string(key) {
        Some(value) => Some(value.to_string()),
        None => config.boolean(key).map(|_| "true".to_string()),
    };
    apply(
        choice_of(value("color.handoff"))
            .or(choice_of(value("color.ui")))
            .unwrap_or(ColorChoice::Auto),
    );
}

/// A colour key's value as git reads it: `always`, `never` (and git's false words), else auto
/// (`auto`, `true` and a bare key alike); `None` when the key is not set.
fn choice_of(value: Option<String>) -> Option<ColorChoice> {
    Some(match value?.trim().to_ascii_lowercase().as_str() {
        "always" => ColorChoice::Always,
        "never" | "false" | "no" | "off" | "0" => ColorChoice::Never,
        _ => ColorChoice::Auto,
    })
}

fn apply(choice: ColorChoice) {
    match choice {
        ColorChoice::Always => {
            console::set_colors_enabled(true);
            console::set_colors_enabled_stderr(true);
        }
        ColorChoice::Never => {
            console::set_colors_enabled(false);
            console::set_colors_enabled_stderr(false);
        }
        // console's defaults already honour terminals, NO_COLOR, CLICOLOR(_FORCE) and TERM=dumb.
        ColorChoice::Auto => {}
    }
}

/// Starts `git config` for `color.handoff` and `color.ui` (`None` when git cannot start).
fn git_color_probe() -> Option<Child> {
    process::command_here(["config", "--get-regexp", r"^color\.(ui|handoff)$"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()
}

/// `text` styled with console, once the colour decision is settled.
pub fn paint<D>(text: D) -> console::StyledObject<D> {
    settle_color();
    console::style(text)
}

/// Reads `git config --get-regexp` lines: `always`, `never` (and git's false words), else auto
/// (`auto`, `true` and a bare key alike, as git reads them).
fn parse_git_color(listing: &str) -> Option<ColorChoice> {
    let (mut ui, mut handoff) = (None, None);
    for line in listing.lines() {
        let (key, value) = line.split_once(' ').unwrap_or((line, "true"));
        let choice = choice_of(Some(value.to_string()));
        match key {
            "color.ui" => ui = choice,
            "color.handoff" => handoff = choice,
            _ => {}
        }
    }
    handoff.or(ui)
}

/// Writes `value` as one JSON document and a newline.
pub fn write_json(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    let json = serde_json::to_string_pretty(value)?;
    out.write_all(crate::util::text::json_safe(json).as_bytes())?;
    out.write_all(b"\n")
}

/// A heading for human output (bold when colour is on for stdout).
pub fn heading(text: &str) -> String {
    paint(text).bold().to_string()
}

/// Dims text that is secondary (counts, `+N more`).
pub fn dim(text: &str) -> String {
    paint(text).dim().to_string()
}

/// Colours an error report for stderr.
pub fn paint_error(text: &str) -> String {
    match text.split_once(": ") {
        Some(("error", rest)) => {
            format!("{}: {rest}", paint("error").for_stderr().red().bold())
        }
        _ => text.to_string(),
    }
}

/// A warning on stderr: `warning: ...`, control characters escaped (warnings name files and
/// quote records).
pub fn warn(text: &str) {
    let text = crate::util::text::escape_controls(text, true);
    eprintln!("{}: {text}", paint("warning").for_stderr().yellow().bold());
}

/// True when `--json` is among the arguments (before a `--`): decided before parsing, so that a
/// command line clap refuses still gets its error as JSON.
pub fn wants_json(args: &[OsString]) -> bool {
    args.iter().skip(1).take_while(|a| *a != "--").any(|a| a == "--json")
}

/// Prints `{"error": {"kind", "message", "hint"}, "exit": code}` on stdout (best effort: stdout
/// may be closed).
pub fn json_error(kind: crate::util::error::Kind, message: &str, hint: &str) {
    let error = serde_json::json!({"kind": kind, "message": message, "hint": hint});
    let doc = serde_json::json!({"error": error, "exit": kind.exit_code()});
    let _ = write_json(&mut io::stdout().lock(), &doc);
}

/// What a command line clap could not parse becomes: help and version on stdout (exit 0; with
/// `--json`, the version as `{"name", "version"}`), usage errors on stderr (exit 2; with `--json`,
/// also as a JSON error on stdout).
pub fn parse_failure(err: clap::Error, json: bool, args: &[std::ffi::OsString]) -> u8 {
    use clap::error::ErrorKind;
    if json && err.kind() == ErrorKind::DisplayVersion {
        let doc = serde_json::json!({"name": "git-handoff", "version": env!("CARGO_PKG_VERSION")});
        let _ = write_json(&mut io::stdout().lock(), &doc);
        return 0;
    }
    let code = if err.use_stderr() { 2 } else { 0 };
    if json && code == 2 {
        let text = redacted(&err.render().to_string(), args);
        let message = text.lines().next().unwrap_or("").trim_start_matches("error: ");
        let kind = crate::util::error::Kind::Usage;
        json_error(kind, message, kind.hint());
    }
    // An error quotes the argument it refuses, which may be a secret given in the wrong place.
    if code == 2 {
        let text = err.render().to_string();
        let clean = redacted(&text, args);
        if clean != text {
            eprint!("{clean}");
            return code;
        }
    }
    // Printing help to a closed pipe is not worth a second error.
    let _ = err.print();
    code
}

/// `text` (an error message, which may quote the secret the user passed as an argument) with
/// every secret the built-in rules know redacted, those in `args` however the message quoted them
/// (see [`Redactor::redact_quoting`](crate::model::redact::Redactor::redact_quoting)). Built-in
/// rules only: the configuration may be what failed to load.
pub fn redacted(text: &str, args: &[std::ffi::OsString]) -> String {
    let args = args.iter().filter_map(|a| a.to_str());
    crate::model::redact::Redactor::default().redact_quoting(text, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_color_settings_read_as_git_reads_them() {
        assert_eq!(parse_git_color(""), None);
        assert_eq!(parse_git_color("color.ui always\n"), Some(ColorChoice::Always));
        assert_eq!(parse_git_color("color.ui\n"), Some(ColorChoice::Auto));
        let both = "color.ui always\ncolor.handoff false\n";
        assert_eq!(parse_git_color(both), Some(ColorChoice::Never));
    }
}
