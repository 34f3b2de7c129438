//! Reading a claim as a careful reader does: does it claim success, and success of which checks?
//!
//! A claim is read clause by clause ([`super::words`]):
//! - **success** is a success word (`passes`, `green`, `fixed`, `works`, `clean`, `✅`, `LGTM`,
//!   `compiles`, `succeeded`, "all good" ...) or a failure denied ("no failures", "no longer
//!   crashes", "0 errors", "error-free", "doesn't panic");
//! - a success word that is **negated** ("could not get the tests to pass", "tests don't pass") or
//!   a **failure admitted** ("tests still fail on Windows", "2 failed", "❌") makes the clause an
//!   admission; a failure that is the object of a fix ("fixed the failing test", "error
//!   handling", "tests that were failing") admits nothing;
//! - a **hedged** success ("should pass", "will be green once...", "tried to make the tests
//!   pass") claims nothing, a clause that says it is unverified ("not yet tested", "untested",
//!   "WIP", "except ...") is an admission, and a question claims nothing.
//!
//! The claim claims success when a clause does and no admission cancels it: an admission cancels
//! a clause that names no kind, and the kinds it admits a failure of ("build is green, but 2
//! tests fail" still claims the build). The kinds of the claim are those its success clauses
//! name, or, for a clause that names none, those named where nothing is claimed ("`cargo test`:
//! ok").

use super::failures::{self, Fail};
use super::kinds::{self, Kind};
use super::vocab;
use super::words::{Word, words};

/// What a claim claims.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reading {
    /// The claim claims success.
    pub success: bool,
    /// The kinds of check its success names (none: a success of no particular check).
    pub kinds: Vec<Kind>,
    /// It claims checks passed ("all checks pass", "CI is green", "tests pass"): with no run to
    /// judge it by, it cannot be supported.
    pub about_checks: bool,
}

/// What one hard clause says.
#[derive(Default)]
struct Clause {
    success: bool,
    admits: bool,
    kinds: Vec<Kind>,
    about_checks: bool,
}

/// Reads `text` (a claim, tags left out).
pub fn read(text: &str) -> Reading {
    let (words, question) = words(text);
    if question || words.is_empty() {
        return Reading::default();
    }
    let mut clauses: Vec<Clause> = Vec::new();
    for (i, word) in words.iter().enumerate() {
        while clauses.len() <= word.hard {
            clauses.push(Clause::default());
        }
        let clause = &mut clauses[word.hard];
        if unverified(&words, i) {
            clause.admits = true;
        }
        if let Some(kind) = kinds::kind_named(&words, i) {
            if !clause.kinds.contains(&kind) {
                clause.kinds.push(kind);
            }
            clause.about_checks = true;
        }
        if kinds::names_checks(&word.text) {
            clause.about_checks = true;
        }
        if vocab::is_success(&words, i) || vocab::negatable(&word.text) {
            match polarity(&words, i) {
                Polarity::Success if vocab::is_success(&words, i) => {
                    clause.success = true;
                    if kinds::says_checks_passed(&word.text) {
                        clause.about_checks = true;
                    }
                }
                Polarity::Denied => clause.admits = true,
                _ => {}
            }
        }
        match failures::failure(&words, i) {
            Fail::Admitted => clause.admits = true,
            Fail::Denied => clause.success = true,
            Fail::Neutral => {}
        }
    }
    let mut admitted: Vec<Kind> =
        clauses.iter().filter(|c| c.admits).flat_map(|c| c.kinds.iter().copied()).collect();
    // A type error is a broken build, and a broken build may be one ("tsc now fails").
    for (a, b) in [(Kind::Types, Kind::Build), (Kind::Build, Kind::Types)] {
        if admitted.contains(&a) && !admitted.contains(&b) {
            admitted.push(b);
        }
    }
    let any_admission = clauses.iter().any(|c| c.admits);
    // Kinds named where nothing is claimed ("`cargo test`: ok", "ran pytest — passing") are what
    // a success that names no kind is about.
    let mut neutral: Vec<Kind> = Vec::new();
    for clause in clauses.iter().filter(|c| !c.success && !c.admits) {
        neutral.extend(clause.kinds.iter().filter(|k| !admitted.contains(k)));
    }
    let mut reading = Reading::default();
    for clause in clauses.iter().filter(|c| c.success && !c.admits) {
        // A kind the claim admits a failure of is not claimed ("build is green, but 2 tests
        // fail" claims the build).
        let kinds: Vec<Kind> = if clause.kinds.is_empty() {
            if any_admission {
                continue;
            }
            neutral.clone()
        } else {
            let kept: Vec<Kind> =
                clause.kinds.iter().copied().filter(|k| !admitted.contains(k)).collect();
            if kept.is_empty() {
                continue;
            }
            kept
        };
        reading.success = true;
        reading.about_checks |= clause.about_checks || !kinds.is_empty();
        for kind in kinds {
            if !reading.kinds.contains(&kind) {
                reading.kinds.push(kind);
            }
        }
    }
    reading
}

enum Polarity {
    Success,
    /// Negated: "not", "never", "no longer", "could not ..." before it.
    Denied,
    /// Hedged: "should", "might", "will", "tried to" ... before it.
    Hedged,
}

/// Whether the success word at `i` stands, is negated or is hedged, from the words before it in
/// its clause.
fn polarity(words: &[Word], i: usize) -> Polarity {
    let here = &words[i];
    for back in 1..=5.min(i) {
        let before = &words[i - back];
        if before.hard != here.hard {
            break;
        }
        let w = before.text.as_str();
        let next = words.get(i - back + 1).map(|w| w.text.as_str());
        if matches!(w, "not" | "never" | "nor" | "neither" | "unable" | "hardly" | "barely")
            && !matches!(next, Some("only" | "just"))
        {
            return Polarity::Denied;
        }
        // "no" and "none" deny only nearby and within the soft clause ("no tests pass").
        if matches!(w, "no" | "none" | "nothing" | "nobody")
            && back <= 3
            && before.soft == here.soft
            && next != Some("new")
        {
            return Polarity::Denied;
        }
        // "make the tests pass" is an intention, "make test passes" a claim about `make test`.
        let conjugated = here.text.ends_with('s') || here.text.ends_with("ed");
        if matches!(w, "make" | "get" | "ensure") && conjugated {
            continue;
        }
        if back <= 4 && vocab::HEDGES.contains(&w) {
            return Polarity::Hedged;
        }
    }
    Polarity::Success
}

/// True when the word at `i` says its clause is not verified ("not yet tested", "untested",
/// "WIP", "unverified", "pending", "except ...", "partially", "without running").
fn unverified(words: &[Word], i: usize) -> bool {
    let w = words[i].text.as_str();
    if vocab::UNVERIFIED.contains(&w) {
        return true;
    }
    // "not (yet) tested / verified / run / checked", "yet to be tested", "haven't run".
    let verified = matches!(
        w,
        "tested"
            | "verified"
            | "run"
            | "ran"
            | "checked"
            | "confirmed"
            | "validated"
            | "tried"
            | "built"
            | "compiled"
            | "rerun"
    );
    if verified {
        let before: Vec<&str> = words[i.saturating_sub(3)..i]
            .iter()
            .filter(|b| b.hard == words[i].hard)
            .map(|b| b.text.as_str())
            .collect();
        if before.iter().any(|b| matches!(*b, "not" | "yet" | "never")) {
            return true;
        }
        // "no tests run": a run denied.
        if matches!(w, "run" | "ran") && before.iter().any(|b| matches!(*b, "no" | "without")) {
            return true;
        }
    }
    // "without running/testing/checking".
    w == "without"
        && words.get(i + 1).is_some_and(|n| {
            matches!(n.text.as_str(), "running" | "testing" | "checking" | "verifying")
        })
}
