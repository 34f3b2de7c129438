//! Reading a claim as a careful reader does: does it claim success, and success of which checks?
//!
//! A claim is read clause by clause ([`super::words`]), a table row, a checkbox or a label
//! prefix like a sentence ("| crash | Resolved |", "**Status:** all tests pass"):
//! - **success** is a success word (`passes`, `green`, `fixed`, `works`, `clean`, `✅`, `LGTM`,
//!   `compiles`, `squashed`, "ready to merge", "all good" ...) or a failure denied ("no
//!   failures", "no longer crashes", "0 errors", "error-free", "doesn't panic");
//! - a success word that is **negated** ("could not get the integration tests to pass", "none of
//!   the tests pass") or a **failure admitted** ("tests still fail on Windows", "2 failed", "❌")
//!   makes the clause an admission; a failure that is the object of a fix ("fixed the failing
//!   test", "| crash | Resolved |", "error handling", "tests that were failing") admits nothing;
//! - a **hedge** does not take a claim back ("should be fixed now", "I think it works", "probably
//!   fine" claim success), but a **condition or an intention** makes it no claim yet ("might be
//!   fixed", "will pass", "should pass once the fixture lands", "if the specs pass, ...", "need
//!   to make it work"); a clause that says it is unverified ("not yet tested", "untested", "WIP",
//!   "except ...", "haven't run them") is an admission; a question, an unticked box (`[ ] Build
//!   verified`) and a plan behind a label ("Next: ...", "TODO: ...") claim nothing.
//!
//! The claim claims success when a clause does and no admission cancels it: an admission cancels
//! a clause that names no kind, and the kinds it admits a failure of ("build is green, but 2
//! tests fail" still claims the build); an unverified clause that points back ("... but I have
//! not run them") cancels them all. The kinds of the claim are those its success clauses name,
//! or, for a clause that names none, those named where nothing is claimed ("`cargo test`: ok").

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
    /// It says something was not run or checked, pointing back ("haven't run them").
    points_back: bool,
    kinds: Vec<Kind>,
    about_checks: bool,
}

/// Labels that put a plan, not work done, before them ("Next: fix the decode test").
const PLAN_LABELS: [&str; 21] = [
    "next",
    "steps",
    "step",
    "todo",
    "to",
    "do",
    "open",
    "question",
    "questions",
    "blocker",
    "blockers",
    "blocked",
    "known",
    "issue",
    "issues",
    "remaining",
    "pending",
    "follow",
    "up",
    "followup",
    "caveat",
];

/// Words that start a sentence that is a condition ("If the specs pass, it is ready").
const CONDITIONAL_STARTS: [&str; 6] = ["if", "once", "unless", "assuming", "provided", "whether"];

/// True for a line that claims nothing whatever the log says: an unticked box (`[ ] Build
/// verified on CI`, `☐ Lint`), a table's rule (`|---|:---:|`), a bare label (`**Changes:**`).
pub fn claims_nothing(text: &str) -> bool {
    let start =
        text.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '*' | '+'));
    let unticked = start.starts_with("[ ]") || start.starts_with(['☐', '⬜', '🔲']);
    let rule = text.chars().all(|c| matches!(c, '|' | '-' | ':' | '=' | '+' | ' ' | '\t'));
    let core = text.trim().trim_matches(|c: char| matches!(c, '*' | '_' | ' '));
    let label = core.ends_with(':') && core.split_whitespace().count() <= 4;
    unticked || rule || label
}

/// Reads `text` (a claim, tags left out).
pub fn read(text: &str) -> Reading {
    if claims_nothing(text) {
        return Reading::default();
    }
    let (words, _) = words(text);
    let words = without_conditions(words);
    if words.is_empty() || plan(&words) {
        return Reading::default();
    }
    let clauses = clauses(&words);
    let admitted = admitted(&clauses);
    claimed(&clauses, &admitted)
}

/// What each hard clause of `words` says.
fn clauses(words: &[Word]) -> Vec<Clause> {
    let mut clauses: Vec<Clause> = Vec::new();
    for (i, word) in words.iter().enumerate() {
        while clauses.len() <= word.hard {
            clauses.push(Clause::default());
        }
        clauses[word.hard].take_in(words, i);
    }
    clauses
}

impl Clause {
    /// What the word at `i` adds to its clause: an admission, a kind of check named, a success,
    /// a failure admitted or denied.
    fn take_in(&mut self, words: &[Word], i: usize) {
        let word = &words[i];
        if unverified(words, i) {
            self.admits = true;
            self.points_back |= points_back(words, i);
        }
        if let Some(kind) = kinds::kind_named(words, i) {
            if !self.kinds.contains(&kind) {
                self.kinds.push(kind);
            }
            self.about_checks = true;
        }
        if kinds::names_checks(&word.text) {
            self.about_checks = true;
        }
        if vocab::is_success(words, i) || vocab::negatable(&word.text) {
            match polarity(words, i) {
                Polarity::Success if vocab::is_success(words, i) => {
                    self.success = true;
                    if kinds::says_checks_passed(&word.text) {
                        self.about_checks = true;
                    }
                }
                Polarity::Denied => self.admits = true,
                _ => {}
            }
        }
        match failures::failure(words, i) {
            Fail::Admitted => self.admits = true,
            Fail::Denied => self.success = true,
            Fail::Neutral => {}
        }
    }
}

/// The kinds of check whose failure the clauses admit: those the admitting clauses name, or all
/// that are named when a clause admits one was not run without naming it.
fn admitted(clauses: &[Clause]) -> Vec<Kind> {
    let all_kinds: Vec<Kind> = clauses.iter().flat_map(|c| c.kinds.iter().copied()).collect();
    let mut admitted: Vec<Kind> =
        clauses.iter().filter(|c| c.admits).flat_map(|c| c.kinds.iter().copied()).collect();
    if clauses.iter().any(|c| c.points_back && c.kinds.is_empty()) {
        admitted = all_kinds;
    }
    // A type error is a broken build, and a broken build may be one ("tsc now fails").
    for (a, b) in [(Kind::Types, Kind::Build), (Kind::Build, Kind::Types)] {
        if admitted.contains(&a) && !admitted.contains(&b) {
            admitted.push(b);
        }
    }
    admitted
}

/// What the clauses that claim success and admit nothing claim, less the kinds `admitted`.
fn claimed(clauses: &[Clause], admitted: &[Kind]) -> Reading {
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

/// The words of `words` outside sentences that are conditions ("If the specs pass, ...").
fn without_conditions(words: Vec<Word>) -> Vec<Word> {
    let mut skip = None;
    let mut out = Vec::with_capacity(words.len());
    let mut sentence = usize::MAX;
    for word in words {
        if word.sentence != sentence {
            sentence = word.sentence;
            skip = CONDITIONAL_STARTS.contains(&word.text.as_str()).then_some(sentence);
        }
        if skip != Some(word.sentence) {
            out.push(word);
        }
    }
    out
}

/// True when the claim's first clause is a label for a plan ("Next:", "TODO:", "Known issue:").
fn plan(words: &[Word]) -> bool {
    let first: Vec<&Word> = words.iter().take_while(|w| w.hard == words[0].hard).collect();
    first.len() < words.len() && first.iter().all(|w| PLAN_LABELS.contains(&w.text.as_str()))
}

enum Polarity {
    Success,
    /// Negated: "not", "never", "no longer", "could not get ... to" before it.
    Denied,
    /// No claim yet: "might", "will", "once", "tried to" before it, or "once ..." after it.
    Conditional,
}

/// Whether the success word at `i` stands, is negated or is only a condition, from the words
/// around it in its clause.
fn polarity(words: &[Word], i: usize) -> Polarity {
    let here = &words[i];
    let mut hedged = false;
    for back in 1..=8.min(i) {
        let before = &words[i - back];
        if before.hard != here.hard {
            break;
        }
        let w = before.text.as_str();
        let same_soft = before.soft == here.soft;
        let next = words.get(i - back + 1).map(|w| w.text.as_str());
        if matches!(w, "not" | "never" | "nor" | "neither" | "unable" | "hardly" | "barely")
            && !matches!(next, Some("only" | "just"))
            && (back <= 5 || same_soft)
        {
            return Polarity::Denied;
        }
        // "no" and "none" deny only nearby and within the soft clause ("no tests pass", "none
        // of the e2e tests pass").
        if matches!(w, "no" | "none" | "nothing" | "nobody")
            && (back <= 3 || next == Some("of"))
            && same_soft
            && next != Some("new")
        {
            return Polarity::Denied;
        }
        if w == "sure" && i - back > 0 && words[i - back - 1].text == "make" {
            return Polarity::Conditional;
        }
        // "make the tests pass" is an intention, "make test passes" a claim about `make test`.
        let conjugated = here.text.ends_with('s') || here.text.ends_with("ed");
        if matches!(w, "make" | "get" | "ensure") && conjugated {
            continue;
        }
        if vocab::CONDITIONS.contains(&w) && (back <= 4 || same_soft) {
            return Polarity::Conditional;
        }
        hedged |= vocab::HEDGES.contains(&w);
    }
    // "should pass once the fixture lands", "ready to merge once npm test passes": a condition
    // right after it.
    for after in words.iter().skip(i + 1).take(4) {
        if after.hard != here.hard {
            break;
        }
        let w = after.text.as_str();
        if matches!(w, "once" | "until" | "unless" | "if")
            || (hedged && matches!(w, "after" | "when" | "before"))
        {
            return Polarity::Conditional;
        }
    }
    Polarity::Success
}

/// True when the word at `i` says its clause is not verified ("not yet tested", "untested",
/// "WIP", "unverified", "pending", "except ...", "partially", "without running", "needs a build
/// to verify").
fn unverified(words: &[Word], i: usize) -> bool {
    let w = words[i].text.as_str();
    if vocab::UNVERIFIED.contains(&w) {
        return true;
    }
    let before: Vec<&str> = words[i.saturating_sub(4)..i]
        .iter()
        .filter(|b| b.hard == words[i].hard)
        .map(|b| b.text.as_str())
        .collect();
    // "needs a build to verify", "still to be confirmed".
    if matches!(w, "verify" | "confirm" | "validate" | "test" | "check" | "verified" | "confirmed")
        && before.iter().any(|b| matches!(*b, "need" | "needs" | "needed" | "requires" | "still"))
    {
        return true;
    }
    // "not (yet) tested / verified / run / checked", "yet to be tested", "haven't run".
    let verified = matches!(
        w,
        "tested"
            | "verified"
            | "run"
            | "ran"
            | "rerun"
            | "checked"
            | "confirmed"
            | "validated"
            | "tried"
            | "built"
            | "compiled"
    );
    let near = &before[before.len().saturating_sub(3)..];
    if verified {
        if near.iter().any(|b| matches!(*b, "not" | "yet" | "never")) {
            return true;
        }
        // "no tests run": a run denied.
        if matches!(w, "run" | "ran") && near.iter().any(|b| matches!(*b, "no" | "without")) {
            return true;
        }
    }
    // "without running/testing/checking".
    w == "without"
        && words.get(i + 1).is_some_and(|n| {
            matches!(n.text.as_str(), "running" | "testing" | "checking" | "verifying")
        })
}

/// True when an unverified word at `i` points back to what the claim named ("haven't run
/// them", "did not verify it").
fn points_back(words: &[Word], i: usize) -> bool {
    words
        .iter()
        .skip(i + 1)
        .take(2)
        .any(|w| w.hard == words[i].hard && matches!(&*w.text, "them" | "it" | "those" | "these"))
}
