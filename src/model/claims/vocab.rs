//! The words of success claims are read by: which words claim success (and in which company),
//! which hedge a claim without taking it back ("should", "probably"), which make it no claim yet
//! (a condition, an intention, the future), which make a whole claim unverified. Failure words are [`super::failures`]'s,
//! the names of kinds of check [`super::kinds`]'s. Words are whole and lower-cased
//! ([`super::words`]), so "unverified" is never "verified" and "passage" never "pass".

use super::words::Word;

/// Words that claim success wherever they stand.
pub const SUCCESS_WORDS: [&str; 33] = [
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
    "resolves",
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
    "solves",
    "squashed",
    "accomplished",
];

/// Words that claim success in the right company ("it is working", "all good", "it builds now",
/// "ready to merge").
const SUCCESS_IN_COMPANY: [&str; 8] =
    ["working", "good", "fine", "happy", "builds", "runs", "fix", "ready"];

/// Verbs that claim success in their plain form after a hedge ("this should fix the race", "it
/// seems to work") or with an adverb ("the tests work now").
const PLAIN_VERBS: [&str; 6] = ["work", "fix", "resolve", "solve", "compile", "succeed"];

/// Verbs of success that, negated, admit a failure ("does not compile", "won't build").
const NEGATABLE: [&str; 9] =
    ["compile", "build", "work", "pass", "run", "succeed", "finish", "complete", "fix"];

/// Words before a success word that make it no claim yet: a possibility, the future, a
/// condition, an intention ("might be fixed", "will pass", "once it builds", "need to make it
/// work").
pub const CONDITIONS: [&str; 34] = [
    "may",
    "might",
    "could",
    "would",
    "will",
    "shall",
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
    "supposed",
    "want",
    "wants",
    "going",
    "plan",
    "planning",
    "aim",
    "hoping",
];

/// Words that hedge a claim without taking it back ("should pass", "probably fixed", "I think it
/// works", "seems to work"): the claim stands.
pub const HEDGES: [&str; 22] = [
    "should",
    "probably",
    "prob",
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
    "think",
    "believe",
    "hope",
    "ought",
    "guess",
    "suspect",
    "assume",
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
    let word = &words[i];
    if word.name || word.joined {
        return false;
    }
    let w = word.text.as_str();
    let prev = i.checked_sub(1).map(|p| words[p].text.as_str());
    let next = words.get(i + 1).map(|n| n.text.as_str());
    // "the resolved value", "a fixed seed", "its passing state": a modifier, not a claim.
    let determiner = matches!(
        prev,
        Some("the" | "a" | "an" | "this" | "that" | "its" | "their" | "our" | "my" | "your")
    );
    if SUCCESS_WORDS.contains(&w) {
        return match w {
            // "a second pass", "argument passing", "clean up", "a clean build", "a complete rewrite".
            "pass" => !matches!(prev, Some("a" | "one" | "second" | "first" | "another" | "final")),
            "passing" => {
                !determiner
                    && !matches!(
                        next,
                        Some(
                            "the"
                                | "a"
                                | "an"
                                | "it"
                                | "them"
                                | "null"
                                | "through"
                                | "in"
                                | "along"
                        )
                    )
            }
            "clean" => !matches!(next, Some("up" | "ups")) && !matches!(prev, Some("a" | "to")),
            "complete" | "done" => !matches!(prev, Some("a" | "an" | "the" | "be")),
            "fixes" | "resolves" | "solves" => {
                !matches!(prev, Some("the" | "some" | "these" | "more" | "with"))
            }
            "fixed" | "resolved" | "verified" | "confirmed" | "solved" | "passed" => !determiner,
            _ => true,
        };
    }
    // "it type-checks", "typechecks".
    if w == "typechecks" || (w == "checks" && prev == Some("type")) {
        let subject = i.checked_sub(2).map(|p| words[p].text.as_str());
        let verb = matches!(
            subject,
            None | Some(
                "it" | "code" | "everything" | "now" | "and" | "which" | "that" | "still" | "all"
            )
        ) || adverb_after(next);
        return (w == "typechecks" || verb) && !matches!(next, Some("fail" | "fails" | "failed"));
    }
    if PLAIN_VERBS.contains(&w) {
        return plain_verb_claims(words, i);
    }
    // "fully tested", "has been tested": a claim the tests passed ("Tested on Linux" is not).
    if w == "tested" {
        return matches!(
            prev,
            Some("fully" | "thoroughly" | "well" | "now" | "been" | "is" | "are" | "was" | "and")
        );
    }
    if !SUCCESS_IN_COMPANY.contains(&w) {
        return false;
    }
    let is_state = |word: Option<&str>| {
        matches!(
            word,
            Some(
                "is" | "are"
                    | "was"
                    | "were"
                    | "be"
                    | "now"
                    | "all"
                    | "everything"
                    | "looks"
                    | "look"
                    | "it"
            )
        )
    };
    // "is fine", "is probably fine now".
    let prev2 = i.checked_sub(2).map(|p| words[p].text.as_str());
    let state = is_state(prev)
        || (matches!(prev, Some("probably" | "likely" | "definitely" | "surely" | "still"))
            && is_state(prev2));
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
        "builds" | "runs" => {
            state
                || adverb
                || matches!(next, Some("without" | "and" | "with" | "clean"))
                || (i == 0 && next.is_none())
        }
        // "Fix the parser crash" as a done item is commit style for "fixed".
        "fix" => i == 0,
        // "ready to merge", "ready for review", "Status: ready".
        "ready" => match next {
            None => true,
            Some("to") => words.get(i + 2).is_some_and(|n| {
                matches!(
                    &*n.text,
                    "merge" | "ship" | "land" | "go" | "release" | "deploy" | "review" | "use"
                )
            }),
            Some("for") => words.get(i + 2).is_some_and(|n| {
                matches!(&*n.text, "review" | "merge" | "release" | "production" | "use")
            }),
            Some(n) => words[i + 1].hard != word.hard || n == "now",
        },
        _ => false,
    }
}

/// True when a plain verb ("work", "fix", "resolve") at `i` claims success: with an adverb of
/// success after it ("work now"), or after a hedge that follows its subject ("this should fix
/// the race", "everything seems to work"), not a bare "Should fix the parser next" (a plan).
fn plain_verb_claims(words: &[Word], i: usize) -> bool {
    let next = words.get(i + 1).map(|n| n.text.as_str());
    if matches!(next, Some("on" | "around" | "through" | "towards" | "toward" | "with")) {
        return false;
    }
    let prev = i.checked_sub(1).map(|p| words[p].text.as_str());
    let as_expected = next == Some("as")
        && words.get(i + 2).is_some_and(|w| matches!(&*w.text, "expected" | "intended"));
    // "work now", "now work", "work as expected".
    if adverb_after(next) || matches!(prev, Some("now" | "finally")) || as_expected {
        return true;
    }
    let here = &words[i];
    (1..=3.min(i)).any(|back| {
        let before = &words[i - back];
        let first = i - back == 0 || words[i - back - 1].hard != before.hard;
        before.soft == here.soft && HEDGES.contains(&before.text.as_str()) && !first
    })
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
