//! git-handoff keeps AI coding agents' handoffs next to git state.
//!
//! The binary is thin: [`main_with_args`] parses the command line ([`cli`]), hands it to the one
//! file per command under [`cli::commands`], and maps the outcome to an exit code. The domain modules
//! (repository access, configuration, attempt state, snapshot ...) know nothing of clap or
//! terminals; commands know nothing of git internals.

mod agent;
mod cli;
mod git;
mod hooks;
mod mcp;
mod model;
mod ops;
mod store;
mod util;

/// What the integration tests reach into besides the binary: the generated documents, the note
/// model and the validator's file check, the history walk and its pack reader, and the secret
/// rules (judged on a corpus). Not a stable API; everything else
/// is private to the crate, so rustc reports what nothing uses.
#[doc(hidden)]
pub mod api {
    use clap::CommandFactory;

    pub use crate::git::pack_read::reader::read_packed;
    pub use crate::git::walk::range;
    pub use crate::hooks::managers::Manager;
    pub use crate::model::config::Config;
    pub use crate::model::note::{EMERGENCY_SECTIONS, Note};
    pub use crate::model::redact::Redactor;
    pub use crate::model::secrets::find_token;
    pub use crate::ops::validate::check_note_file;

    pub use crate::model::claims::{Evidence, check_done, check_evidence, check_file};

    /// One hook payload as `git handoff record` writes it to the event log (a JSON line), with
    /// relative paths taken from the session's directory `cwd` inside the work tree `top`.
    pub fn event_line(
        payload: &serde_json::Value,
        cwd: &std::path::Path,
        top: &std::path::Path,
        config: &Config,
    ) -> anyhow::Result<Vec<u8>> {
        use crate::agent::payload::{self, Runtime, SessionDirs};
        let payload = payload.as_object().ok_or_else(|| anyhow::anyhow!("not an object"))?;
        let dirs = SessionDirs { cwd, top };
        let redactor = Redactor::new(config)?;
        let at = "2026-11-30T03:48:52Z".to_string();
        payload::normalize(payload, Runtime::detect(payload)?, &dirs, &redactor, at)?.to_line()
    }

    /// The evidence `git handoff note` checks claims against, from the event log at `events`,
    /// in the work tree `top` (the claims corpus and benchmark drive the checker through it).
    pub fn evidence_of_log(
        events: &std::path::Path,
        config: &Config,
        top: &std::path::Path,
    ) -> anyhow::Result<Evidence> {
        let mut evidence = crate::agent::digest::compute(events, config)?.evidence();
        evidence.tops.push(top.to_string_lossy().into_owned());
        Ok(evidence)
    }

    /// The tags `git handoff note` adds to the note `text` against `evidence`, as (claim, why).
    pub fn tag_note(text: &[u8], evidence: &Evidence) -> anyhow::Result<Vec<(String, String)>> {
        let mut note = Note::parse(text).map_err(|p| anyhow::anyhow!("{p}"))?;
        let tags = crate::ops::note::tag_note(&mut note, evidence);
        Ok(tags.into_iter().map(|t| (t.item, t.why)).collect())
    }

    /// Every man page, by file name, as `man/` holds them.
    pub fn man_pages() -> Vec<(String, Vec<u8>)> {
        crate::cli::docs::man_pages(crate::cli::commands::Cli::command())
    }

    /// Every completion script, by file name, as `completions/` holds them.
    pub fn completions() -> Vec<(String, Vec<u8>)> {
        crate::cli::docs::completions::all(&crate::cli::commands::Cli::command())
    }
}

use std::ffi::OsString;

use clap::Parser;

/// Parses `args`, runs the command and returns the process exit code (0 success, 1 the thing
/// checked does not pass, 2 an error). Never panics on input.
///
/// Under `--json` an error is also one JSON document on stdout, `{"error": {"kind", "message",
/// "hint"}, "exit": N}` (the kinds: [`util::error::Kind`]), so a runtime that parses stdout always
/// gets a document; the error lines still go to stderr.
pub fn main_with_args(args: impl IntoIterator<Item = OsString>) -> u8 {
    let args: Vec<OsString> = args.into_iter().collect();
    let json = cli::output::wants_json(&args);
    let parsed = match cli::fast::parse(&args) {
        Some(cli) => Ok(cli),
        None => cli::commands::Cli::try_parse_from(&args),
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => return cli::output::parse_failure(err, json, &args),
    };
    let Err(err) = cli::commands::run(cli) else { return 0 };
    if util::error::is_broken_pipe(&err) {
        return 0;
    }
    let kind = util::error::kind_of(&err);
    let hint = util::error::hint_of(&err);
    match kind {
        util::error::Kind::NotPassed => {
            // A report carried by the error means the command printed nothing of its own: under
            // `--json`, stdout still gets its one document.
            let report: Vec<String> = util::error::not_passed_report(&err)
                .iter()
                .map(|line| cli::output::redacted(line, &args))
                .collect();
            if json && !report.is_empty() {
                cli::output::json_error(kind, &report.join("\n"), &hint);
            }
            for line in report {
                eprintln!("{}", util::text::escape_controls(&line, true));
            }
        }
        util::error::Kind::Refused => {
            let message = cli::output::redacted(&format!("{err}"), &args);
            if json {
                cli::output::json_error(kind, &message, &hint);
            }
            let text = format!("error: {message}");
            eprintln!("{}", cli::output::paint_error(&util::text::escape_controls(&text, true)));
        }
        _ => {
            if json {
                let message = cli::output::redacted(&format!("{err:#}"), &args);
                cli::output::json_error(kind, &message, &hint);
            }
            let mut message = cli::output::redacted(&util::error::render(&err), &args);
            if let Some(own) = util::error::own_hint(&err) {
                message.push_str(&format!("\n  hint: {}", cli::output::redacted(&own, &args)));
            }
            eprintln!("{}", cli::output::paint_error(&util::text::escape_controls(&message, true)));
            // An agent hook's failure is kept where `hooks status` and the next recall show it.
            if hooks::hook_failures::is_hook(&args) {
                log_hook_failure(&args, &message);
            }
        }
    }
    kind.exit_code()
}

/// Logs a failed hook command in the repository's git dir, if one is found from here.
fn log_hook_failure(args: &[OsString], message: &str) {
    let Ok(cwd) = std::env::current_dir() else { return };
    let git_dir = match git::location::Location::find(&cwd) {
        Some(found) => found.git_dir,
        None => match git::repo::Repo::discover() {
            Ok(repo) => repo.git_dir,
            Err(_) => return,
        },
    };
    let command: Vec<String> =
        args.iter().skip(1).take(3).map(|a| a.to_string_lossy().into_owned()).collect();
    let at = util::time::format(util::time::now());
    hooks::hook_failures::log(&git_dir, &at, &command.join(" "), message);
}
