//! The words of success claims are read by: which words claim success (and in which company),
//! which hedge, which make a whole claim unverified. Failure words are [`super::failures`]'s,
//! the names of kinds of check [`super::kinds`]'s. Words are whole and lower-cased
//! ([`super::words`]), so "unverified" is never "verified" and "passage" never "pass".

use super::words::Word;

/// Words that claim success wherever they stand.
pub const SUCCESS_WORDS: [&str; 29] = [
    "pass",
    "passes",
    "passed",
    "passing",
    "green",
    "fixed",
    "fixes",
    "works",
    "worked",
    "complete",
    "completed",
    "done",
    "resolved",
    "succeeded",
    "succeeds",
    "succeed",
    "success",
    "successful",
    "successfully",
    "ok",
    "okay",
    "clean",
    "cleanly",
    "lgtm",
    "✅",
    "compiles",
    "verified",
    "confirmed",
    "solved",
];

/// Words that claim success in the right company ("it is working", "all good", "it builds now").
const SUCCESS_IN_COMPANY: [&str; 7] = ["working", "good", "fine", "happy", "builds", "runs", "fix"];

/// Verbs of success that, negated, admit a failure ("does not compile", "won't build").
const NEGATABLE: [&str; 9] =
    ["compile", "build", "work", "pass", "run", "succeed", "finish", "complete", "fix"];

/// Words before a success word that make it no claim: a modal, a guess, an intention.
pub const HEDGES: [&str; 44] = [
    "should",
    "may",
    "might",
    "could",
    "would",
    "will",
    "shall",
    "probably",
    "likely",
    "hopefully",
    "presumably",
    "supposedly",
    "seems",
    "seem",
    "seemed",
    "appears",
    "appear",
    "appeared",
    "expect",
    "expected",
    "supposed",
    "hope",
    "think",
    "believe",
    "if",
    "whether",
    "once",
    "until",
    "unless",
    "need",
    "needs",
    "must",
    "try",
    "tried",
    "trying",
    "attempt",
    "attempted",
    "ensure",
    "make",
    "get",
    "almost",
    "after",
    "when",
    "before",
];

/// Words that make a whole claim unverified.
pub const UNVERIFIED: [&str; 12] = [
    "untested",
    "unverified",
    "unconfirmed",
    "wip",
    "tbd",
    "todo",
    "pending",
    "partially",
    "partly",
    "except",
    "excluding",
    "mostly",
];

/// True when the word at `i` claims success (if nothing negates or hedges it).
pub fn is_success(words: &[Word], i: usize) -> bool {
    let w = words[i].text.as_str();
    let prev = i.checked_sub(1).map(|p| words[p].text.as_str());
    let next = words.get(i + 1).map(|n| n.text.as_str());
    if SUCCESS_WORDS.contains(&w) {
        return match w {
            // "a second pass", "argument passing", "clean up", "a clean build", "a complete rewrite".
            "pass" => !matches!(prev, Some("a" | "one" | "second" | "first" | "another" | "final")),
            "passing" => !matches!(
                next,
                Some("the" | "a" | "an" | "it" | "them" | "null" | "through" | "in" | "along")
            ),
            "clean" => !matches!(next, Some("up" | "ups")) && !matches!(prev, Some("a" | "to")),
            "complete" | "done" => !matches!(prev, Some("a" | "an" | "the" | "be")),
            "fixes" => !matches!(prev, Some("the" | "some" | "these" | "more" | "with")),
            _ => true,
        };
    }
    // "it type-checks", "typechecks".
    if w == "typechecks" || (w == "checks" && prev == Some("type")) {
        let subject = i.checked_sub(2).map(|p| words[p].text.as_str());
        let verb = matches!(
            subject,
            Some("it" | "code" | "everything" | "now" | "and" | "which" | "that" | "still" | "all")
        ) || adverb_after(next);
        return (w == "typechecks" || verb) && !matches!(next, Some("fail" | "fails" | "failed"));
    }
    if !SUCCESS_IN_COMPANY.contains(&w) {
        return false;
    }
    let state = matches!(
        prev,
        Some(
            "is" | "are" | "was" | "were" | "now" | "all" | "everything" | "looks" | "look" | "it"
        )
    );
    let adverb = adverb_after(next);
    match w {
        "working" => {
            (state || adverb || prev == Some("and"))
                && !matches!(next, Some("on" | "through" | "towards" | "toward" | "with" | "tree"))
        }
        "good" => state || next == Some("to"),
        "fine" => state || prev == Some("works"),
        // "clippy is happy", "made clippy happy".
        "happy" => {
            state
                || words[i.saturating_sub(3)..i]
                    .iter()
                    .any(|w| matches!(&*w.text, "made" | "keeps"))
        }
        "builds" | "runs" => state || adverb || matches!(next, Some("without" | "and" | "with")),
        // "Fix the parser crash" as a done item is commit style for "fixed".
        "fix" => i == 0,
        _ => false,
    }
}

/// True for a word after a verb that says it now succeeds ("builds cleanly", "works again").
fn adverb_after(next: Option<&str>) -> bool {
    matches!(
        next,
        Some("now" | "again" | "fine" | "correctly" | "properly" | "cleanly" | "successfully")
    )
}

/// True for a success verb that, negated, admits failure.
pub fn negatable(word: &str) -> bool {
    NEGATABLE.contains(&word)
}
