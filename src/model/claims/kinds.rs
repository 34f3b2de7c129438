//! The kinds of check a claim names: tests ("tests", "suite", "pytest", `test_parse`), builds
//! ("build", "compiles"), type checks ("typecheck", "type errors", "tsc", "mypy", "cargo
//! check"), lints ("lint", "clippy", "eslint", "ruff", "ktlint"), and checks of any kind ("all
//! checks", "CI"). Tool names are taken from [`crate::model::verdict`], so a claim names a tool's
//! kind exactly as its command runs it.

use super::words::Word;
use crate::model::verdict::{TEST_TOOLS, TYPE_TOOLS, is_lint_word};

/// A kind of check a claim names: each is judged by the checks of its own kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Test,
    /// "It compiles", "builds cleanly": judged by the builds and the type checks.
    Build,
    /// "No type errors", "tsc is clean": judged by the type checks only.
    Types,
    Lint,
}

impl Kind {
    /// `test`, `build`, `type check`, `lint`: the words of a "no ... ran" tag.
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Test => "test",
            Kind::Build => "build",
            Kind::Types => "type check",
            Kind::Lint => "lint",
        }
    }
}

/// The kind of check the word at `i` names, if any.
pub fn kind_named(words: &[Word], i: usize) -> Option<Kind> {
    let w = words[i].text.as_str();
    let next = words.get(i + 1).map(|n| n.text.as_str());
    let prev = i.checked_sub(1).map(|p| words[p].text.as_str());
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
    let types = w.starts_with("typecheck")
        || TYPE_TOOLS.contains(&w)
        || (matches!(w, "type" | "types")
            && matches!(
                next,
                Some("check" | "checks" | "checking" | "checker" | "checked" | "error" | "errors")
            ))
        || (w == "check" && matches!(prev, Some("cargo" | "deno")));
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
    );
    let lint = w == "golangci" || (is_lint_word(w) && w != "black");
    if test {
        Some(Kind::Test)
    } else if types {
        Some(Kind::Types)
    } else if build {
        Some(Kind::Build)
    } else if lint {
        Some(Kind::Lint)
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
