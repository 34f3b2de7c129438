//! What an argument's value is, for completion (a commit, a remote, a closed set, a path), and
//! the values offered for a closed set: read alike by the completion scripts
//! ([`super::completions`]) and by `_git_handoff` ([`super::git_bash`]).

use crate::model::config::SPEC_REASONS;

/// What the value of an argument is, for completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A commit: branches, tags, remote branches, HEAD.
    Rev,
    Remote,
    /// A closed set (or, for `--reason`, the usual set).
    Values,
    /// A path: the shell's own file completion.
    Path,
    /// Anything else (numbers, times, messages): nothing to offer.
    Free,
}

/// The completion kind of an argument, from its name and value name.
pub fn kind(arg: &clap::Arg) -> Kind {
    let value_name = arg.get_value_names().and_then(|v| v.first()).map(|v| v.as_str());
    if arg.get_id() == "base" || value_name == Some("REV") {
        Kind::Rev
    } else if value_name == Some("REMOTE") {
        Kind::Remote
    } else if !arg.get_possible_values().is_empty() || arg.get_id() == "reason" {
        Kind::Values
    } else if matches!(value_name, Some("PATH" | "FILE" | "DIR")) {
        Kind::Path
    } else {
        Kind::Free
    }
}

/// The values offered for a [`Kind::Values`] argument.
pub fn values(arg: &clap::Arg) -> Vec<String> {
    if arg.get_id() == "reason" {
        return SPEC_REASONS.iter().map(|r| r.to_string()).collect();
    }
    arg.get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect()
}
