//! The start-up fast path for the commands hooks and runtimes run: `record` on every tool call and
//! `recall` at every session start (agent hooks), `validate --pre-push` on every push (git's
//! hook), and `validate [REV] [--base B]` at the end of an attempt. Building clap's tree of every
//! command and option costs more than the work `record` does (and about a tenth of a pre-push
//! check), so the few argument shapes these callers use are recognised here without it. Anything
//! else (another command, `--help`, a typo, a global option) is left to clap, which parses,
//! explains and refuses as usual; both paths end in the same [`Cli`] value.

use std::ffi::OsString;

use clap::ValueEnum;

use crate::cli::commands::{Cli, Command, GlobalArgs, recall, record, validate};
use crate::cli::context::AttemptArgs;
use crate::cli::output::ColorChoice;

/// The command line as clap would parse it, when it is one of the shapes known here.
pub fn parse(args: &[OsString]) -> Option<Cli> {
    let words: Vec<&str> = args.iter().skip(1).map(|a| a.to_str()).collect::<Option<_>>()?;
    let (command, options) = words.split_first()?;
    let command = match *command {
        "record" => Command::Record(record_args(&options_of(options)?)?),
        "recall" => Command::Recall(recall_args(&options_of(options)?)?),
        "validate" => Command::Validate(pre_push_args(options).or_else(|| validate_args(options))?),
        _ => return None,
    };
    let global = GlobalArgs { chdir: Vec::new(), json: false, color: ColorChoice::Auto };
    Some(Cli { global, command })
}

/// `--name value` and `--name=value` pairs, each name at most once; `None` for anything else.
fn options_of<'a>(words: &[&'a str]) -> Option<Vec<(&'a str, &'a str)>> {
    let mut options: Vec<(&str, &str)> = Vec::new();
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        let name = word.strip_prefix("--")?;
        let (name, value) = match name.split_once('=') {
            Some((name, value)) => (name, value),
            None => (name, *rest.next()?),
        };
        if value.starts_with('-') || options.iter().any(|(seen, _)| *seen == name) {
            return None;
        }
        options.push((name, value));
    }
    Some(options)
}

fn record_args(options: &[(&str, &str)]) -> Option<record::Args> {
    let mut args = record::Args { agent: None, event: None };
    for (name, value) in options {
        match *name {
            "agent" => args.agent = Some(record::AgentArg::from_str(value, false).ok()?),
            "event" if !value.is_empty() => args.event = Some(value.to_string()),
            _ => return None,
        }
    }
    Some(args)
}

fn recall_args(options: &[(&str, &str)]) -> Option<recall::Args> {
    let mut args =
        recall::Args { max_lines: None, source: None, hook: None, attempt: AttemptArgs::default() };
    for (name, value) in options {
        match *name {
            "source" => args.source = Some(recall::SourceArg::from_str(value, false).ok()?),
            "hook" => args.hook = Some(recall::Hook::from_str(value, false).ok()?),
            "max-lines" if value.bytes().all(|b| b.is_ascii_digit()) => {
                args.max_lines = Some(value.parse().ok()?)
            }
            _ => return None,
        }
    }
    Some(args)
}

/// `--pre-push [REMOTE [URL]]`, as the installed hooks call it: git passes the remote's name and
/// URL, the pre-commit framework neither. Values that could be options are left to clap.
fn pre_push_args(words: &[&str]) -> Option<validate::Args> {
    let (&"--pre-push", positional) = words.split_first()? else { return None };
    if positional.len() > 2 || positional.iter().any(|w| w.is_empty() || w.starts_with('-')) {
        return None;
    }
    let value = |at: usize| positional.get(at).map(|w| w.to_string());
    Some(validate::Args { rev: value(0), url: value(1), base: None, issue: None, pre_push: true })
}

/// `[REV] [--base B] [--issue N]`, as runtimes check an attempt (`git handoff validate`).
fn validate_args(words: &[&str]) -> Option<validate::Args> {
    let (rev, options) = match words.split_first() {
        Some((first, rest)) if !first.starts_with('-') && !first.is_empty() => (Some(*first), rest),
        _ => (None, words),
    };
    let mut args = validate::Args {
        rev: rev.map(str::to_string),
        url: None,
        base: None,
        issue: None,
        pre_push: false,
    };
    for (name, value) in options_of(options)? {
        match name {
            "base" if !value.is_empty() => args.base = Some(value.to_string()),
            "issue" => args.issue = Some(value.parse().ok()?),
            _ => return None,
        }
    }
    Some(args)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        std::iter::once("git-handoff").chain(line.split(' ')).map(OsString::from).collect()
    }

    /// Every shape taken here parses to what clap makes of it; every other shape is left to clap.
    #[test]
    fn agrees_with_clap() {
        for line in [
            "record",
            "record --agent claude",
            "record --agent=codex",
            "recall",
            "recall --source resume",
            "recall --hook claude",
            "recall --source=compact --max-lines 3 --hook codex",
            "validate --pre-push",
            "validate --pre-push origin",
            "validate --pre-push origin git@example.com:a/b.git",
            "validate --pre-push /srv/r.git /srv/r.git",
            "validate",
            "validate HEAD~3",
            "validate --base main",
            "validate --base=v1.0 --issue 7",
            "validate topic --issue=+7 --base HEAD~2",
        ] {
            let fast = parse(&words(line)).unwrap_or_else(|| panic!("{line}: not taken"));
            let clap = Cli::try_parse_from(words(line)).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{clap:?}"), "{line}");
        }
        for line in [
            "record --agent",
            "record --agent nobody",
            "record --agent claude --agent codex",
            "record --json",
            "record -C /tmp",
            "record --help",
            "recall --max-lines -1",
            "recall --max-lines 1x",
            "recall --issue 3",
            "recall --source",
            "recall extra",
            "validate origin --pre-push",
            "validate --issue x",
            "validate --issue",
            "validate --base",
            "validate a b",
            "validate --base a --base b",
            "validate --pre-push origin url extra",
            "validate --pre-push --json",
            "validate --pre-push -- origin",
            "validate --pre-push --issue 3",
            "validate --pre-push=origin",
            "snapshot",
            "--version",
        ] {
            assert!(parse(&words(line)).is_none(), "{line}: must be left to clap");
        }
        assert!(parse(&[OsString::from("git-handoff")]).is_none());
    }
}
