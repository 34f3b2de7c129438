//! The runs a claim of success is judged by, and the judging (rules 2 and 4). A claim that names
//! kinds of check is judged by the last run of each kind it names: a test claim by the tests, a
//! build claim ("it compiles") by the builds and type checks, a type-check claim ("no type
//! errors") by the type checks, a lint claim by the lints. A claim that names no kind ("fixed",
//! "ready to merge") is judged by the last check of any kind. A run whose exit status is
//! unreadable (`npm test | tail`) never overrides an earlier readable run of the same kind.
//!
//! A failed or unfinished run tags the claim with its command (rule 2). A claim of a kind that no
//! check of that kind supports is tagged "no <kind> ran", whatever other checks did (rule 4); a
//! claim that names no kind needs a check only when it is about checks ("CI is green").

use super::kinds::Kind;
use super::reading::Reading;
use crate::model::verdict::{CheckKind, CheckOutcome, Run};

/// The runs of one kind (or of any kind) that claims are judged by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Runs {
    /// The last run.
    pub last: Option<Run>,
    /// The last run with a readable result (passed or failed).
    pub readable: Option<Run>,
}

impl Runs {
    /// Records a run after the ones seen.
    pub fn add(&mut self, run: Run) {
        if matches!(run.outcome, CheckOutcome::Passed | CheckOutcome::Failed) {
            self.readable = Some(run.clone());
        }
        self.last = Some(run);
    }

    /// The run a claim is judged by: the last, unless its status is unreadable and a readable
    /// run came before it.
    pub fn judged(&self) -> Option<&Run> {
        match &self.last {
            Some(run) if run.outcome == CheckOutcome::Unreadable => {
                self.readable.as_ref().or(Some(run))
            }
            last => last.as_ref(),
        }
    }
}

/// The runs of a session as claims are judged by them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Judged {
    /// The checks of any kind.
    pub any: Runs,
    /// The checks of each kind, in [`CheckKind::ALL`] order.
    pub of_kind: [Runs; 4],
    /// The type checks (among the builds).
    pub types: Runs,
}

impl Judged {
    /// Records a run of `kind` (a type check when `types`) after the ones seen.
    pub fn add(&mut self, run: Run, kind: CheckKind, types: bool) {
        let at = CheckKind::ALL.iter().position(|k| *k == kind).unwrap_or(0);
        self.of_kind[at].add(run.clone());
        if types {
            self.types.add(run.clone());
        }
        self.any.add(run);
    }

    /// The runs a claim of `kind` is judged by.
    fn of(&self, kind: Kind) -> &Runs {
        let at = |kind: CheckKind| CheckKind::ALL.iter().position(|k| *k == kind).unwrap_or(0);
        match kind {
            Kind::Test => &self.of_kind[at(CheckKind::Test)],
            Kind::Build => &self.of_kind[at(CheckKind::Build)],
            Kind::Types => &self.types,
            Kind::Lint => &self.of_kind[at(CheckKind::Lint)],
        }
    }
}

/// Rules 2 and 4: why the runs cannot support a claim read as `reading`, if they cannot.
pub fn unsupported(reading: &Reading, runs: &Judged) -> Option<String> {
    if !reading.success {
        return None;
    }
    // The runs the claim is judged by, with the kind each stands for (None: any kind).
    let judged: Vec<(Option<Kind>, Option<&Run>)> = if reading.kinds.is_empty() {
        vec![(None, runs.any.judged())]
    } else {
        reading.kinds.iter().map(|kind| (Some(*kind), runs.of(*kind).judged())).collect()
    };
    for (_, run) in &judged {
        match run {
            Some(Run { command, outcome: CheckOutcome::Failed }) => {
                return Some(format!("last `{}` failed", one_line(command)));
            }
            Some(Run { command, outcome: CheckOutcome::Unfinished }) => {
                return Some(format!("last `{}` did not finish", one_line(command)));
            }
            _ => {}
        }
    }
    for (kind, run) in judged {
        match (kind, run) {
            (Some(kind), None) => return Some(format!("no {} ran", kind.noun())),
            // A plain "Parser fixed" needs no check run; "all checks pass" does.
            _ if !reading.about_checks => {}
            (_, Some(Run { command, outcome: CheckOutcome::Unreadable })) => {
                return Some(format!("`{}` ran without a readable exit status", one_line(command)));
            }
            (None, None) => return Some("no check ran".to_string()),
            _ => {}
        }
    }
    None
}

/// The first line of a command, cut to 80 characters.
fn one_line(command: &str) -> String {
    let line = command.lines().next().unwrap_or("").trim();
    if line.chars().count() > 80 {
        let cut: String = line.chars().take(77).collect();
        format!("{cut}...")
    } else {
        line.to_string()
    }
}
