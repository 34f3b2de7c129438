//! The two ways a command can end badly, and how `main` tells them apart.
//!
//! Any `anyhow::Error` is an error of the command (exit 2): bad arguments, bad input, not a
//! repository, I/O. [`NotPassed`] is different: the command worked, and what it checked does not
//! pass (a note fails validation, seal refused a file). Its report is either printed by the command
//! already, or carried as the error's context, which `main` prints before exiting 1. [`Refused`]
//! is exit 1 too: the command would have broken something, so it changed nothing, and `main`
//! prints why.

use std::fmt;

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
