//! The rules on their own: each rule's tag, negation and hedges, a piped run after a readable one,
//! Files touched entries as agents write them.

use super::*;
use crate::model::verdict::{CheckKind, CheckOutcome, Run, checks_types};

fn claims_success(text: &str) -> bool {
    read(text).success
}

fn run(command: &str, outcome: CheckOutcome) -> Run {
    Run { command: command.to_string(), outcome }
}

/// Evidence whose checks ran in the order given.
fn evidence(runs: &[Run]) -> Evidence {
    let mut ev = Evidence {
        files_edited: vec!["src/lib.rs".into(), "tests/a.rs".into(), "docs/My Notes.md".into()],
        tool_calls: 12,
        tops: vec!["/work/repo".into()],
        ..Evidence::default()
    };
    for r in runs {
        let types = checks_types(&r.command);
        ev.runs.add(r.clone(), CheckKind::of_command(&r.command), types);
    }
    ev
}

#[test]
fn failing_check_tags_success_claims_with_the_command() {
    let ev = evidence(&[run("npm test", CheckOutcome::Failed)]);
    assert_eq!(check_done("All tests pass now", &ev).unwrap(), "last `npm test` failed");
    assert_eq!(check_done("Parser FIXED", &ev).unwrap(), "last `npm test` failed");
    for claim in ["Tests succeed", "Build successful", "No failures", "All good", "Tests run clean"]
    {
        assert!(check_done(claim, &ev).is_some(), "{claim}");
    }
    assert_eq!(check_done("Wrote the parser", &ev), None);
    assert_eq!(check_done("Investigated the passage of time", &ev), None);
    assert_eq!(check_done("bypass the cache", &ev), None);
    assert_eq!(check_done("working on the fix", &ev), None, "working is no success");
}

#[test]
fn success_words_negation_and_hedges() {
    for claim in [
        "No longer fails on empty input",
        "CI green",
        "Clippy is clean",
        "✅ parser",
        "LGTM",
        "Works now",
        "It compiles now",
        "No type errors",
        "Fixed the failing test",
        "Tests that were failing now pass",
        "Added error handling; tests pass",
        // A hedge does not take a claim back.
        "Tests should pass now",
        "Should be fixed now",
        "This should resolve the issue",
        "I think it works",
        "Everything seems to work",
        "Probably fixed",
        // Words that name no kind of check, tables, labels, checkmarks.
        "Bug squashed 🎉",
        "Ready to merge",
        "| empty-input crash | Resolved |",
        "**Status:** All tests passing",
        "tests: pass",
        "[x] Fixed the crash",
        "the loader is now fully tested",
    ] {
        assert!(claims_success(claim), "{claim}");
    }
    for claim in [
        "Could not get the tests to pass",
        "Not yet tested",
        "Tests still fail on Windows",
        "Tests should pass once the fixture lands",
        "Might be fixed by the upgrade",
        "If the specs pass, this is ready to merge",
        "Tests should pass, but I have not run them",
        "Fixed the parser, but tests still fail",
        "**Note:** I could not get the integration tests to pass",
        "none of the e2e tests pass",
        "Added the `--fixed-width` option",
        "Exported the `resolved` promise state",
        "Switched to a fixed-width font",
        "[ ] Build verified on CI",
        "Does the build pass on Windows?",
        "Next: make sure everything works on Windows",
        "Tested on Linux only",
        "has not been tested",
        "2 tests failed",
        "Tried to make clippy happy",
        "Does it pass?",
        "Tests don't pass yet",
        "claims are unverified",
    ] {
        assert!(!claims_success(claim), "{claim}");
    }
}

#[test]
fn a_claim_is_judged_by_its_own_kind() {
    let ev = evidence(&[
        run("cargo test", CheckOutcome::Failed),
        run("cargo build", CheckOutcome::Passed),
    ]);
    assert_eq!(check_done("All tests pass", &ev).unwrap(), "last `cargo test` failed");
    assert_eq!(check_done("The build passes", &ev), None);
    assert_eq!(check_done("Parser fixed", &ev), None, "judged by the last check: the build");
    assert_eq!(check_done("clippy is green", &ev).unwrap(), "no lint ran");
    assert_eq!(check_done("all checks pass", &ev), None);
    assert_eq!(check_done("Build is green, but 2 tests fail", &ev), None);
    let ev = evidence(&[
        run("cargo build", CheckOutcome::Passed),
        run("cargo test", CheckOutcome::Passed),
    ]);
    assert_eq!(check_done("build and tests pass", &ev), None);
    // A claim of a kind no check of that kind supports, whatever the other checks did.
    let ev = evidence(&[run("cargo test", CheckOutcome::Passed)]);
    assert_eq!(check_done("It compiles now", &ev).unwrap(), "no build ran");
    assert_eq!(check_done("No type errors", &ev).unwrap(), "no type check ran");
    assert_eq!(check_done("Lint passes", &ev).unwrap(), "no lint ran");
    assert_eq!(check_done("Ready to merge", &ev), None);
    let ev = evidence(&[run("npm test", CheckOutcome::Failed)]);
    assert_eq!(check_done("tsc is clean", &ev).unwrap(), "no type check ran");
    assert_eq!(check_done("Bug squashed 🎉", &ev).unwrap(), "last `npm test` failed");
    // A type check is a build too; a build is no type check.
    let ev = evidence(&[run("tsc --noEmit", CheckOutcome::Passed)]);
    assert_eq!(check_done("It compiles now", &ev), None);
    assert_eq!(check_done("Typecheck passes", &ev), None);
    let ev = evidence(&[run("npm run build", CheckOutcome::Passed)]);
    assert_eq!(check_done("Typecheck passes", &ev).unwrap(), "no type check ran");
    // A build tool's lint task is a lint.
    let ev = evidence(&[run("./gradlew ktlintCheck", CheckOutcome::Passed)]);
    assert_eq!(check_done("Lint passes", &ev), None);
}

#[test]
fn lines_that_claim_nothing_are_never_tagged() {
    let none = Evidence::default();
    for line in
        ["[ ] Build verified on CI", "- [ ] Tests pass", "☐ Lint", "|---|:---:|", "**Changes:**"]
    {
        assert_eq!(check_done(line, &none), None, "{line}");
    }
    assert!(check_done("[x] Tests pass", &none).is_some());
}

#[test]
fn an_unfinished_check_did_not_finish() {
    let ev = evidence(&[run("cargo test", CheckOutcome::Unfinished)]);
    assert_eq!(check_done("Tests pass", &ev).unwrap(), "last `cargo test` did not finish");
}

#[test]
fn unverified_is_not_verified_and_tags_are_not_doubled() {
    let ev = evidence(&[run("npm test", CheckOutcome::Failed)]);
    let tagged = tag("Tests pass", "last `npm test` failed");
    assert_eq!(tagged, "Tests pass [unverified: last `npm test` failed]");
    assert_eq!(check_done(&tagged, &ev), None);
    assert!(!claims_success("claims are unverified"));
}

#[test]
fn unreadable_or_missing_checks_tag_check_claims_only() {
    let piped = evidence(&[run("cargo test | tail", CheckOutcome::Unreadable)]);
    assert_eq!(
        check_done("cargo tests are green", &piped).unwrap(),
        "`cargo test | tail` ran without a readable exit status"
    );
    assert_eq!(check_done("Refactor done", &piped), None);
    let none = evidence(&[]);
    assert_eq!(check_done("build passes", &none).unwrap(), "no build ran");
    assert_eq!(check_done("CI is green", &none).unwrap(), "no check ran");
    let ok = evidence(&[run("cargo test", CheckOutcome::Passed)]);
    assert_eq!(check_done("All tests pass", &ok), None);
}

#[test]
fn a_piped_run_never_overrides_an_earlier_readable_one() {
    let ev = evidence(&[
        run("npm test", CheckOutcome::Passed),
        run("npm test | tail", CheckOutcome::Unreadable),
    ]);
    assert_eq!(check_done("All tests pass", &ev), None);
    let ev = evidence(&[
        run("npm test", CheckOutcome::Failed),
        run("npm test | tail", CheckOutcome::Unreadable),
    ]);
    assert_eq!(check_done("All tests pass", &ev).unwrap(), "last `npm test` failed");
}

#[test]
fn evidence_lines_claim_only_when_they_claim_success() {
    let ev = evidence(&[run("cargo test", CheckOutcome::Failed)]);
    assert_eq!(check_evidence("cargo test: all green", &ev).unwrap(), "last `cargo test` failed");
    assert_eq!(check_evidence("cargo test failed (exit 101)", &ev), None);
    assert_eq!(check_evidence("no check run", &Evidence::default()), None);
}

#[test]
fn no_tool_calls_tags_every_done_item() {
    let ev = Evidence::default();
    assert!(check_done("Wrote docs", &ev).is_some());
}

#[test]
fn files_touched_need_an_edit() {
    let ev = evidence(&[]);
    for entry in [
        "src/lib.rs",
        "`tests/a.rs` (new test)",
        "src/",
        "/work/repo/src/lib.rs",
        "./src/lib.rs",
        "src/../src/lib.rs",
        "lib.rs",
        "docs/My Notes.md",
        "docs/My Notes.md — rewritten",
        "Modified: src/lib.rs",
        "src/lib.rs:10-20",
        "`src/lib.rs`, `tests/a.rs`",
        "src/*.rs",
        "none",
    ] {
        assert_eq!(check_file(entry, &ev), None, "{entry}");
    }
    assert_eq!(check_file("src/main.rs", &ev).unwrap(), "no edit to src/main.rs in the event log");
    assert_eq!(
        check_file("/work/repo/src/main.rs", &ev).unwrap(),
        "no edit to src/main.rs in the event log"
    );
    assert_eq!(check_file("/etc/hosts", &ev).unwrap(), "/etc/hosts is outside the work tree");
    assert_eq!(
        check_file("docs/Other Notes.md", &ev).unwrap(),
        "no edit to docs/Other Notes.md in the event log"
    );
    assert_eq!(
        check_file("src/lib.rs, src/main.rs", &ev).unwrap(),
        "no edit to src/main.rs in the event log"
    );
}

#[test]
fn random_claims_do_not_panic() {
    let alphabet: Vec<&str> = "tests pass fixed no not none of should once if ready to ` - -- | \
         [ ] x ? : . , ** ✅ ❌ 🎉 ⚠ ☐ — 日 type checks make sure crash resolved tsc --fixed-width"
        .split(' ')
        .collect();
    let ev = evidence(&[run("npm test", CheckOutcome::Failed)]);
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..5000 {
        let mut text = String::new();
        for _ in 0..(state % 24) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push_str(alphabet[(state % alphabet.len() as u64) as usize]);
            if state.is_multiple_of(3) {
                text.push(' ');
            }
        }
        let _ = check_done(&text, &ev);
        let _ = check_evidence(&text, &ev);
    }
}
