//! The checks the event log saw, kept three ways: the last check of any kind (the spec's
//! `last_check`), the runs a claim is judged by (of any kind, of each kind and the type checks:
//! the last, and the last with a readable result), and the last run of each distinct command (the
//! change summary's quality gates). Memory stays bounded: at most [`MAX_COMMANDS`] commands are
//! remembered, the least recently run dropped first.

use serde::Serialize;

use crate::model::claims::Judged;
use crate::model::verdict::{CheckKind, CheckOutcome, Run, checks_types};

/// Distinct check commands remembered for the quality gates.
pub const MAX_COMMANDS: usize = 32;

/// One check run: the spec's `last_check`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LastCheck {
    /// The check's simple command as run (`cargo test -p x`); for a failure that commands before
    /// it may have caused, those and the check (`cargo build && cargo test`).
    pub command: String,
    pub ok: bool,
    pub exit_code: Option<i64>,
    pub readable: bool,
    /// A test, a build or a lint (not in the JSON: `last_check` keeps the spec's four keys).
    #[serde(skip)]
    pub kind: CheckKind,
    /// False when the check started and no result was recorded.
    #[serde(skip)]
    pub finished: bool,
}

impl LastCheck {
    /// How the run ended, worded once for every reader.
    pub fn outcome(&self) -> CheckOutcome {
        CheckOutcome::of(self.finished, self.ok, self.readable)
    }

    /// The run as claims are judged by it.
    pub fn run(&self) -> Run {
        Run { command: self.command.clone(), outcome: self.outcome() }
    }

    /// `passed`, `failed (exit 101)`, `did not finish` ...
    pub fn result(&self) -> String {
        match (self.outcome(), self.exit_code) {
            (CheckOutcome::Failed, Some(code)) => format!("failed (exit {code})"),
            (outcome, _) => outcome.phrase().to_string(),
        }
    }
}

/// The checks seen so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen {
    pub last: Option<LastCheck>,
    /// The runs as claims are judged by them: of any kind, of each kind, the type checks.
    pub runs: Judged,
    /// The last run of each check (keyed by the check's own command, so a start and its result,
    /// even one blamed on its chain, are one run), least recently run first.
    by_command: Vec<(String, LastCheck)>,
}

impl Seen {
    /// Adds a run of the check `key` (the check's simple command as run).
    pub fn add(&mut self, key: &str, check: LastCheck) {
        self.runs.add(check.run(), check.kind, checks_types(key));
        if let Some(at) = self.by_command.iter().position(|(k, _)| k == key) {
            self.by_command.remove(at);
        }
        if self.by_command.len() >= MAX_COMMANDS {
            self.by_command.remove(0);
        }
        self.by_command.push((key.to_string(), check.clone()));
        self.last = Some(check);
    }

    /// The last run of each check, least recently run first.
    pub fn by_command(self) -> Vec<LastCheck> {
        self.by_command.into_iter().map(|(_, check)| check).collect()
    }
}
