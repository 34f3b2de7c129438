//! Failure words, and how each stands in its clause: admitted ("tests still fail", "2 failed",
//! "❌"), denied, which claims success ("no failures", "no longer crashes", "0 errors",
//! "error-free"), or neutral: the object of a fix ("fixed the failing test"), a look at one
//! ("reproduced the crash"), the past ("tests that were failing"), or a noun's modifier ("error
//! handling").

use std::ops::ControlFlow;

use super::words::Word;

/// Strong failure words: they admit a failure unless denied or the object of a fix.
const FAILURES: [&str; 28] = [
    "fail",
    "fails",
    "failed",
    "failing",
    "failure",
    "failures",
    "broken",
    "broke",
    "breaks",
    "crash",
    "crashes",
    "crashed",
    "crashing",
    "panic",
    "panics",
    "panicked",
    "panicking",
    "flaky",
    "flakes",
    "hangs",
    "hanging",
    "timeout",
    "timeouts",
    "timed",
    "❌",
    "regressed",
    "segfault",
    "segfaults",
];

/// Weak failure words: they admit a failure only as a predicate ("3 errors", "errors remain").
const TROUBLES: [&str; 20] = [
    "error",
    "errors",
    "errored",
    "warning",
    "warnings",
    "issue",
    "issues",
    "problem",
    "problems",
    "regression",
    "regressions",
    "red",
    "race",
    "races",
    "leak",
    "leaks",
    "deadlock",
    "deadlocks",
    "bug",
    "bugs",
];

/// Verbs whose object a failure is ("fixed the failing test", "handled the crash").
const FIX_VERBS: [&str; 40] = [
    "fix",
    "fixed",
    "fixes",
    "fixing",
    "resolve",
    "resolved",
    "resolves",
    "address",
    "addressed",
    "solve",
    "solved",
    "repair",
    "repaired",
    "patch",
    "patched",
    "correct",
    "corrected",
    "eliminate",
    "eliminated",
    "remove",
    "removed",
    "silence",
    "silenced",
    "suppress",
    "suppressed",
    "handle",
    "handled",
    "handles",
    "prevent",
    "prevented",
    "prevents",
    "avoid",
    "avoids",
    "avoided",
    "stabilize",
    "stabilized",
    "deflake",
    "deflaked",
    "instead",
    "squashed",
];

/// Verbs that look at a failure without admitting one ("reproduced the crash").
const LOOK_VERBS: [&str; 24] = [
    "investigate",
    "investigated",
    "debug",
    "debugged",
    "diagnose",
    "diagnosed",
    "reproduce",
    "reproduced",
    "traced",
    "triaged",
    "identified",
    "found",
    "isolated",
    "logged",
    "documented",
    "explained",
    "added",
    "add",
    "wrote",
    "write",
    "cover",
    "covers",
    "catch",
    "catches",
];

/// Words right after a failure word that make it a noun's modifier ("error handling").
const COMPOUNDS: [&str; 34] = [
    "handling",
    "handler",
    "handlers",
    "message",
    "messages",
    "mode",
    "modes",
    "path",
    "paths",
    "case",
    "cases",
    "type",
    "types",
    "code",
    "codes",
    "reporting",
    "report",
    "reports",
    "recovery",
    "state",
    "states",
    "scenario",
    "scenarios",
    "detection",
    "log",
    "logs",
    "hook",
    "hooks",
    "branch",
    "condition",
    "conditions",
    "response",
    "output",
    "safe",
];

/// How a failure word stands.
#[derive(Debug, PartialEq, Eq)]
pub enum Fail {
    /// Not a failure here (a fix's object, a noun's modifier, not a failure word).
    Neutral,
    /// A failure admitted: "tests still fail", "2 failed", "❌".
    Admitted,
    /// A failure denied, which claims success: "no failures", "no longer crashes", "0 errors".
    Denied,
}

/// How the failure word at `i` (if it is one) stands.
pub fn failure(words: &[Word], i: usize) -> Fail {
    let w = words[i].text.as_str();
    let strong = FAILURES.contains(&w);
    if words[i].name || (!strong && !TROUBLES.contains(&w)) {
        return Fail::Neutral;
    }
    let next = words.get(i + 1).map(|n| n.text.as_str());
    if next == Some("free") {
        return Fail::Denied;
    }
    if let Some(settled) = settled_after(words, i) {
        return settled;
    }
    let still = match looking_back(words, i) {
        ControlFlow::Break(settled) => return settled,
        ControlFlow::Continue(still) => still,
    };
    let prev = i.checked_sub(1).map(|p| words[p].text.as_str());
    let count = prev.is_some_and(|p| p.parse::<u64>().is_ok_and(|n| n > 0))
        || matches!(prev, Some("some" | "several" | "many" | "few" | "new" | "remaining" | "one"));
    let left = matches!(next, Some("remain" | "remaining" | "left" | "persist" | "persists"));
    if still || count || left {
        return Fail::Admitted;
    }
    if !strong {
        return as_predicate(w, prev);
    }
    if next.is_some_and(|n| COMPOUNDS.contains(&n))
        || (matches!(w, "failing" | "flaky" | "broken" | "crashing")
            && matches!(next, Some("test" | "tests" | "spec" | "specs" | "build" | "check")))
    {
        return Fail::Neutral;
    }
    Fail::Admitted
}

/// What the words right after the failure word at `i`, in its clause, settle: "segfault fixed",
/// "failures resolved", "crash is gone" (the failure is what was fixed), or a table row's or a
/// label's status after it.
fn settled_after(words: &[Word], i: usize) -> Option<Fail> {
    let after: Vec<&str> = words[i + 1..]
        .iter()
        .take(3)
        .take_while(|w| w.hard == words[i].hard)
        .map(|w| w.text.as_str())
        .collect();
    let settled: Vec<&str> =
        after.iter().copied().take_while(|w| !matches!(*w, "still" | "again")).collect();
    if settled.iter().any(|w| matches!(*w, "gone" | "disappeared" | "vanished")) {
        return Some(Fail::Denied);
    }
    if settled.iter().any(|w| FIX_VERBS.contains(w) || matches!(*w, "fixed" | "resolved")) {
        return Some(Fail::Neutral);
    }
    if after.is_empty() {
        // A table row's or a label's status: "| empty-input crash | Resolved |".
        return status_after(words, i);
    }
    None
}

/// Looking back in the clause of the failure word at `i`: a denial, a fix, a look or the past
/// settle it (`Break`); otherwise, whether "still" stands before it.
fn looking_back(words: &[Word], i: usize) -> ControlFlow<Fail, bool> {
    let here = &words[i];
    let mut still = false;
    for back in 1..=6.min(i) {
        let before = &words[i - back];
        if before.hard != here.hard {
            break;
        }
        let b = before.text.as_str();
        let near = back <= 3 && before.soft == here.soft;
        if near && matches!(b, "no" | "zero" | "0" | "without" | "nothing" | "none" | "never") {
            return ControlFlow::Break(Fail::Denied);
        }
        if near && matches!(b, "not" | "longer") {
            // "does not crash", "no longer fails"; but "did not fix the crash" admits it.
            let fixed_between =
                words[i - back + 1..i].iter().any(|w| FIX_VERBS.contains(&&*w.text));
            return ControlFlow::Break(if fixed_between { Fail::Admitted } else { Fail::Denied });
        }
        if matches!(b, "still" | "remain" | "remains" | "continues" | "keeps") {
            still = true;
            continue;
        }
        if !still && (FIX_VERBS.contains(&b) || LOOK_VERBS.contains(&b)) {
            return ControlFlow::Break(Fail::Neutral);
        }
        if !still && matches!(b, "were" | "was" | "previously" | "formerly" | "used" | "had") {
            return ControlFlow::Break(Fail::Neutral);
        }
    }
    ControlFlow::Continue(still)
}

/// "errors" and the like (`w`, after `prev`) admit a failure only as a predicate ("is red",
/// "with errors").
fn as_predicate(w: &str, prev: Option<&str>) -> Fail {
    let predicate =
        matches!(
            prev,
            Some("is" | "are" | "went" | "turns" | "turned" | "stays" | "has" | "have" | "with")
        ) || matches!(prev, Some("throws" | "threw" | "gives" | "shows" | "raises" | "reports"));
    let predicate = predicate && !(w.starts_with("warning") && prev == Some("with"));
    if predicate { Fail::Admitted } else { Fail::Neutral }
}

/// What a short status right after the clause of the failure word at `i` says of it ("| crash |
/// Resolved |", "Flaky test: fixed"), if it is one.
fn status_after(words: &[Word], i: usize) -> Option<Fail> {
    let hard = words.get(i + 1)?.hard;
    let status: Vec<&str> =
        words[i + 1..].iter().take_while(|w| w.hard == hard).map(|w| w.text.as_str()).collect();
    if status.len() > 2 {
        return None;
    }
    let word = status.iter().copied().find(|w| *w != "✅")?;
    match word {
        "gone" => Some(Fail::Denied),
        "resolved" | "fixed" | "done" | "closed" | "addressed" | "solved" | "handled" => {
            Some(Fail::Neutral)
        }
        _ => None,
    }
}
