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

/// Words that make the success word after them a modifier, not a claim ("the resolved value", "a
/// fixed seed", "its passing state").
const DETERMINERS: [&str; 10] =
    ["the", "a", "an", "this", "that", "its", "their", "our", "my", "your"];

/// Words before "pass" that count passes ("a second pass").
const COUNTED: [&str; 6] = ["a", "one", "second", "first", "another", "final"];

/// Words after "passing" that make it handing something on ("passing the flag", "passing it
/// through").
const PASSED_ON: [&str; 9] = ["the", "a", "an", "it", "them", "null", "through", "in", "along"];

/// Subjects before "type checks" that make it a verb ("it type checks", "and type checks").
const TYPE_CHECKS_SUBJECTS: [&str; 9] =
    ["it", "code", "everything", "now", "and", "which", "that", "still", "all"];

/// Words before "tested" that claim the tests passed ("fully tested", "has been tested").
const TESTED_AFTER: [&str; 9] =
    ["fully", "thoroughly", "well", "now", "been", "is", "are", "was", "and"];

/// Words before a word of state that say the work is in it ("is fine", "all good", "looks good").
const STATE_VERBS: [&str; 11] =
    ["is", "are", "was", "were", "be", "now", "all", "everything", "looks", "look", "it"];

/// Adverbs between a verb of state and its word ("is probably fine now").
const STATE_ADVERBS: [&str; 5] = ["probably", "likely", "definitely", "surely", "still"];

/// Words after "working" that make it work going on ("working on", "working tree").
const WORK_GOING_ON: [&str; 6] = ["on", "through", "towards", "toward", "with", "tree"];

/// What "ready to" and "ready for" claim readiness for ("ready to merge", "ready for review").
const READY_TO: [&str; 8] = ["merge", "ship", "land", "go", "release", "deploy", "review", "use"];
const READY_FOR: [&str; 5] = ["review", "merge", "release", "production", "use"];

/// True when the word at `i` claims success (if nothing negates or hedges it).
pub fn is_success(words: &[Word], i: usize) -> bool {
    let word = &words[i];
    if word.name || word.joined {
        return false;
    }
    let at = Around::new(words, i);
    if SUCCESS_WORDS.contains(&at.w) {
        return success_word_claims(&at);
    }
    // "it type-checks", "typechecks".
    if at.w == "typechecks" || (at.w == "checks" && at.prev == Some("type")) {
        return type_checks_claims(&at);
    }
    if PLAIN_VERBS.contains(&at.w) {
        return plain_verb_claims(words, i);
    }
    // "fully tested", "has been tested": a claim the tests passed ("Tested on Linux" is not).
    if at.w == "tested" {
        return at.prev.is_some_and(|p| TESTED_AFTER.contains(&p));
    }
    SUCCESS_IN_COMPANY.contains(&at.w) && in_company_claims(&at)
}

/// The word at `i` of `words`, `w`, and the words before and after it.
struct Around<'a> {
    words: &'a [Word],
    i: usize,
    w: &'a str,
    prev: Option<&'a str>,
    next: Option<&'a str>,
}

impl Around<'_> {
    fn new(words: &[Word], i: usize) -> Around<'_> {
        let prev = i.checked_sub(1).map(|p| words[p].text.as_str());
        let next = words.get(i + 1).map(|n| n.text.as_str());
        Around { words, i, w: words[i].text.as_str(), prev, next }
    }

    /// The word `back` words before this one.
    fn before(&self, back: usize) -> Option<&str> {
        self.i.checked_sub(back).map(|p| self.words[p].text.as_str())
    }
}

/// Whether a word of [`SUCCESS_WORDS`] claims success where it stands: "a second pass", "argument
/// passing", "clean up", "a clean build", "a complete rewrite" do not.
fn success_word_claims(at: &Around<'_>) -> bool {
    let (prev, next) = (at.prev, at.next);
    let determiner = prev.is_some_and(|p| DETERMINERS.contains(&p));
    match at.w {
        "pass" => !prev.is_some_and(|p| COUNTED.contains(&p)),
        "passing" => !determiner && !next.is_some_and(|n| PASSED_ON.contains(&n)),
        "clean" => !matches!(next, Some("up" | "ups")) && !matches!(prev, Some("a" | "to")),
        "complete" | "done" => !matches!(prev, Some("a" | "an" | "the" | "be")),
        "fixes" | "resolves" | "solves" => {
            !matches!(prev, Some("the" | "some" | "these" | "more" | "with"))
        }
        "fixed" | "resolved" | "verified" | "confirmed" | "solved" | "passed" => !determiner,
        _ => true,
    }
}

/// Whether "typechecks" or "type checks" is a verb that claims success ("it type checks now"),
/// not a failure ("type checks fail").
fn type_checks_claims(at: &Around<'_>) -> bool {
    let subject = at.before(2);
    let verb = subject.is_none_or(|s| TYPE_CHECKS_SUBJECTS.contains(&s)) || adverb_after(at.next);
    (at.w == "typechecks" || verb) && !matches!(at.next, Some("fail" | "fails" | "failed"))
}

/// Whether a word of [`SUCCESS_IN_COMPANY`] is in the company that makes it claim success.
fn in_company_claims(at: &Around<'_>) -> bool {
    let (words, i, prev, next) = (at.words, at.i, at.prev, at.next);
    let is_state = |word: Option<&str>| word.is_some_and(|w| STATE_VERBS.contains(&w));
    // "is fine", "is probably fine now".
    let state = is_state(prev)
        || (prev.is_some_and(|p| STATE_ADVERBS.contains(&p)) && is_state(at.before(2)));
    let adverb = adverb_after(next);
    match at.w {
        "working" => {
            (state || adverb || prev == Some("and"))
                && !next.is_some_and(|n| WORK_GOING_ON.contains(&n))
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
        "ready" => ready_claims(at),
        _ => false,
    }
}

/// Whether "ready" claims success: "ready to merge", "ready for review", "Status: ready".
fn ready_claims(at: &Around<'_>) -> bool {
    let after_next = at.words.get(at.i + 2).map(|n| n.text.as_str());
    match at.next {
        None => true,
        Some("to") => after_next.is_some_and(|n| READY_TO.contains(&n)),
        Some("for") => after_next.is_some_and(|n| READY_FOR.contains(&n)),
        Some(n) => at.words[at.i + 1].hard != at.words[at.i].hard || n == "now",
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
