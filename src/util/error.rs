//! How a command ends badly, and how `main` tells the ways apart.
//!
//! Any `anyhow::Error` is an error of the command (exit 2): bad arguments, bad input, not a
//! repository, I/O. [`NotPassed`] is different: the command worked, and what it checked does not
//! pass (a note fails validation, seal refused a file). Its report is either printed by the command
//! already, or carried as the error's context, which `main` prints before exiting 1. [`Refused`]
//! is exit 1 too: the command would have broken something, so it changed nothing, and `main`
//! prints why.
//!
//! Every error has a [`Kind`]: the exit code, the stable name a runtime branches on (`--json`
//! prints `{"error": {"kind", "message", "hint"}, "exit"}`) and a hint. Where the error arises
//! knows its kind and says so ([`Kinded`], [`KindExt::kind`]); otherwise [`kind_of`] reads it off
//! the chain.

use std::fmt;

use serde::Serialize;

/// The kinds of failure. The names are part of the JSON output: new kinds may come, names stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The command line: an unknown flag, a missing or bad value.
    Usage,
    /// No repository here, or not the kind the command needs (a bare one, for a work tree's).
    Repository,
    /// `.handoff.toml` cannot be used.
    Config,
    /// What the command was given cannot be read: a hook payload, stdin, a file named.
    Input,
    /// git itself failed, or could not be started.
    Git,
    /// A file or directory could not be read or written.
    Io,
    /// The command ran, and what it checked does not pass (exit 1).
    NotPassed,
    /// The command would have broken something, so it changed nothing (exit 1).
    Refused,
    /// The command could not do its job for another reason, which the message gives.
    Failed,
}

impl Kind {
    #[cfg(test)]
    pub const ALL: [Kind; 9] = [
        Kind::Usage,
        Kind::Repository,
        Kind::Config,
        Kind::Input,
        Kind::Git,
        Kind::Io,
        Kind::NotPassed,
        Kind::Refused,
        Kind::Failed,
    ];

    /// The process's exit code: 1 when a check did not pass or the command refused, else 2.
    pub fn exit_code(self) -> u8 {
        match self {
            Kind::NotPassed | Kind::Refused => 1,
            _ => 2,
        }
    }

    /// What to do about an error of this kind, when the error names nothing more precise.
    pub fn hint(self) -> &'static str {
        match self {
            Kind::Usage => "see `git handoff <command> --help` for the options and their values",
            Kind::Repository => {
                "run it inside a git work tree, or name one with `git handoff -C <path> ...`"
            }
            Kind::Config => {
                "fix the key or value at the file:line named (every key is optional); `git \
                 handoff hooks status` shows what the hooks fall back to meanwhile"
            }
            Kind::Input => {
                "send what the message names; `git handoff <command> --help` describes the input"
            }
            Kind::Git => "run the git command named by hand to see what git says, and mend that",
            Kind::Io => {
                "check that the path exists, is a regular file where one is expected, \
                         and that you may read and write it"
            }
            Kind::NotPassed => "the report names each problem and how to mend it",
            Kind::Refused => "nothing changed; the message says what to run instead",
            Kind::Failed => "the message says what went wrong",
        }
    }
}

/// An error whose kind (and perhaps a precise hint) is known where it arose. It shows as the error
/// it wraps: the message and the causes are that error's.
#[derive(Debug)]
pub struct Kinded {
    pub kind: Kind,
    pub hint: Option<String>,
    inner: anyhow::Error,
}

impl fmt::Display for Kinded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.inner, f)
    }
}

impl std::error::Error for Kinded {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner.source()
    }
}

/// `err` as an error of `kind`.
pub fn kinded(kind: Kind, err: anyhow::Error) -> anyhow::Error {
    anyhow::Error::new(Kinded { kind, hint: None, inner: err })
}

/// `err` as an error of `kind`, with a hint of its own.
pub fn hinted(kind: Kind, hint: impl Into<String>, err: anyhow::Error) -> anyhow::Error {
    anyhow::Error::new(Kinded { kind, hint: Some(hint.into()), inner: err })
}

/// Marks a result's error with its kind: `Config::load(top).kind(Kind::Config)?`.
pub trait KindExt<T> {
    fn kind(self, kind: Kind) -> anyhow::Result<T>;
}

impl<T> KindExt<T> for anyhow::Result<T> {
    fn kind(self, kind: Kind) -> anyhow::Result<T> {
        self.map_err(|err| if is_kinded(&err) { err } else { kinded(kind, err) })
    }
}

fn is_kinded(err: &anyhow::Error) -> bool {
    err.chain().any(|c| c.is::<Kinded>() || c.is::<NotPassed>() || c.is::<Refused>())
}

/// The kind of `err`: the first kind named in its chain, else read off what it is (an I/O error
/// is [`Kind::Io`]), else [`Kind::Failed`].
pub fn kind_of(err: &anyhow::Error) -> Kind {
    for cause in err.chain() {
        if let Some(kinded) = cause.downcast_ref::<Kinded>() {
            return kinded.kind;
        }
        if cause.is::<NotPassed>() {
            return Kind::NotPassed;
        }
        if cause.is::<Refused>() {
            return Kind::Refused;
        }
    }
    if err.chain().any(|cause| cause.is::<std::io::Error>()) {
        return Kind::Io;
    }
    Kind::Failed
}

/// The hint `err` carries of its own, where it arose.
pub fn own_hint(err: &anyhow::Error) -> Option<String> {
    err.chain().find_map(|c| c.downcast_ref::<Kinded>().and_then(|k| k.hint.clone()))
}

/// The hint for `err`: its own, where it has one, else its kind's.
pub fn hint_of(err: &anyhow::Error) -> String {
    own_hint(err).unwrap_or_else(|| kind_of(err).hint().to_string())
}

/// The command ran and its check did not pass; the details are on stdout/stderr already, or in
/// the context wrapped around this error.
#[derive(Debug)]
pub struct NotPassed;

impl fmt::Display for NotPassed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the check did not pass")
    }
}

impl std::error::Error for NotPassed {}

/// The command refused to act because acting would break something (a sealed attempt's layout, a
/// pushed commit): nothing changed, and the message says why and what to run instead. Exit 1, like
/// a check that does not pass; `main` prints the message.
#[derive(Debug)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// True when the error chain holds a broken pipe: the reader went away (`| head`), which is not an
/// error of ours.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Renders an error chain as one line per cause: `error: what` then `  caused by: why`.
pub fn render(err: &anyhow::Error) -> String {
    let mut out = format!("error: {err}");
    for cause in err.chain().skip(1) {
        out.push_str(&format!("\n  caused by: {cause}"));
    }
    out
}

/// The report a [`NotPassed`] carries as context, when it carries one: every cause above it.
pub fn not_passed_report(err: &anyhow::Error) -> Vec<String> {
    err.chain()
        .take_while(|cause| cause.downcast_ref::<NotPassed>().is_none())
        .map(ToString::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::anyhow;

    #[test]
    fn each_kind_has_its_exit_code_name_and_hint() {
        for kind in Kind::ALL {
            let json = serde_json::to_value(kind).unwrap();
            assert!(
                json.as_str()
                    .is_some_and(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            );
            assert!(!kind.hint().is_empty());
            let want = if matches!(kind, Kind::NotPassed | Kind::Refused) { 1 } else { 2 };
            assert_eq!(kind.exit_code(), want, "{kind:?}");
        }
    }

    #[test]
    fn the_kind_is_found_in_the_chain_and_the_message_is_kept() {
        let err = kinded(Kind::Config, anyhow!(".handoff.toml:3: bad value"));
        let err = err.context("loading the configuration");
        assert_eq!(kind_of(&err), Kind::Config);
        assert_eq!(
            render(&err),
            "error: loading the configuration\n  caused by: .handoff.toml:3: bad value"
        );
        let io = anyhow::Error::new(std::io::Error::other("disk full")).context("writing x");
        assert_eq!(kind_of(&io), Kind::Io);
        assert_eq!(kind_of(&anyhow!("no note")), Kind::Failed);
        assert_eq!(kind_of(&anyhow::Error::new(NotPassed).context("a.md:1: bad")), Kind::NotPassed);
        // The first kind named wins: a config error inside a git failure is the config's.
        let inner: anyhow::Result<()> = Err(kinded(Kind::Input, anyhow!("not JSON")));
        assert_eq!(kind_of(&inner.kind(Kind::Git).unwrap_err()), Kind::Input);
        let hinted = hinted(Kind::Git, "run `git fsck`", anyhow!("bad object"));
        assert_eq!(hint_of(&hinted), "run `git fsck`");
        assert_eq!(hint_of(&anyhow!("x")), Kind::Failed.hint());
    }
}
