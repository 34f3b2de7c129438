//! The kinds of check a claim names: tests ("tests", "suite", "pytest", `test_parse`), builds
//! and type checks ("build", "compiles", "type errors", "tsc", "mypy"), lints ("lint", "clippy",
//! "eslint", "ruff"), and checks of any kind ("all checks", "CI"). Tool names are taken from
//! [`crate::model::verdict`], so a claim names a tool's kind exactly as its command runs it.

use super::words::Word;
use crate::model::verdict::{CheckKind, LINT_TOOLS, TEST_TOOLS, TYPE_TOOLS};

/// The kind of check the word at `i` names, if any.
pub fn kind_named(words: &[Word], i: usize) -> Option<CheckKind> {
    let w = words[i].text.as_str();
    let next = words.get(i + 1).map(|n| n.text.as_str());
    let test = matches!(
        w,
        "test"
            | "tests"
            | "testing"
            | "tested"
            | "spec"
            | "specs"
            | "suite"
            | "suites"
            | "e2e"
            | "unittest"
            | "unittests"
    ) || TEST_TOOLS.contains(&w)
        || w.starts_with("test_")
        || w.ends_with("_test");
    let build = matches!(
        w,
        "build"
            | "builds"
            | "built"
            | "compile"
            | "compiles"
            | "compiled"
            | "compiling"
            | "compilation"
            | "compiler"
            | "typecheck"
            | "typechecks"
            | "typechecking"
            | "typechecked"
    ) || TYPE_TOOLS.contains(&w)
        || (matches!(w, "type" | "types")
            && matches!(
                next,
                Some("check" | "checks" | "checking" | "checker" | "error" | "errors")
            ));
    let lint =
        matches!(w, "lint" | "lints" | "linter" | "linters" | "linting" | "linted" | "golangci")
            || (LINT_TOOLS.contains(&w) && w != "black");
    if test {
        Some(CheckKind::Test)
    } else if build {
        Some(CheckKind::Build)
    } else if lint {
        Some(CheckKind::Lint)
    } else {
        None
    }
}

/// True for a word that names checks of any kind ("all checks pass", "CI is green").
pub fn names_checks(word: &str) -> bool {
    matches!(word, "check" | "checks" | "ci" | "pipeline" | "gates")
}

/// True for a success word that by itself says checks passed ("passes", "green").
pub fn says_checks_passed(word: &str) -> bool {
    matches!(word, "pass" | "passes" | "passed" | "passing" | "green")
}
