//! What a check run says, worded once: its kind (a test, a build or a lint) and its outcome
//! (passed, failed, unreadable, did not finish). The digest, the claim tags, the emergency note
//! and the change summary's quality gates all take their words from here, so a check that never
//! finished is "did not finish" everywhere and never "failed" or "error".
//!
//! How claims are judged by these runs is [`crate::model::claims`]'s business.

use serde::{Deserialize, Serialize};

/// What a check command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    Test,
    /// A build or a type check (`cargo check`, `tsc`, `mypy`): both say the code compiles.
    Build,
    Lint,
    /// The program run (`cargo run`, `go run`): only a claim that names no kind is judged by it.
    Run,
}

impl CheckKind {
    pub const ALL: [CheckKind; 4] =
        [CheckKind::Test, CheckKind::Build, CheckKind::Lint, CheckKind::Run];

    pub fn noun(self) -> &'static str {
        match self {
            CheckKind::Test => "test",
            CheckKind::Build => "build",
            CheckKind::Lint => "lint",
            CheckKind::Run => "run",
        }
    }

    /// The kind of a check as run (`cargo test -p x`, `npm run lint`, `make`): a run when it
    /// starts `cargo run` or `go run`, else a lint when a word names a linter or a build tool's
    /// lint task ([`is_lint_word`]: `./gradlew ktlintCheck`, `mvn checkstyle:check`), else a
    /// build when a word names a type checker, else a test when a word names tests, else a build
    /// (`make`, `cargo check`, `go build`, `mvn package`). Options (`--tests`) are not words here.
    pub fn of_command(command: &str) -> CheckKind {
        let words: Vec<String> = command
            .split_whitespace()
            .filter(|w| !w.starts_with('-'))
            .map(|w| w.rsplit('/').next().unwrap_or(w).to_ascii_lowercase())
            .collect();
        let any = |f: &dyn Fn(&str) -> bool| words.iter().any(|w| f(w));
        let first: Vec<&str> = words.iter().take(2).map(String::as_str).collect();
        if matches!(first.as_slice(), ["cargo" | "go", "run"]) {
            CheckKind::Run
        } else if first == ["make", "check"] {
            // GNU's target for the test suite.
            CheckKind::Test
        } else if any(&is_lint_word) {
            CheckKind::Lint
        } else if any(&|w| TYPE_TOOLS.contains(&w) || w.starts_with("typecheck")) {
            CheckKind::Build
        } else if any(&|w| TEST_TOOLS.contains(&w) || w.starts_with("test")) {
            CheckKind::Test
        } else {
            CheckKind::Build
        }
    }
}

/// Words of a command that make it a lint.
pub const LINT_TOOLS: [&str; 18] = [
    "clippy",
    "eslint",
    "vet",
    "ruff",
    "flake8",
    "pylint",
    "fmt",
    "rustfmt",
    "prettier",
    "golangci-lint",
    "staticcheck",
    "rubocop",
    "shellcheck",
    "biome",
    "stylelint",
    "black",
    "isort",
    "ktlint",
];

/// Build tools' lint tasks and goals, named by their start (`spotlessCheck`, `detektMain`,
/// `checkstyle:check`).
const LINT_TASKS: [&str; 6] = ["spotless", "checkstyle", "detekt", "ktlint", "swiftlint", "credo"];

/// True for a word (lower-case) that names a linter or a lint task: a [`LINT_TOOLS`] entry, a
/// word starting `lint` (`lint:ci`, `lintDebug`), a task or goal naming one (`ktlintCheck`,
/// `spotless:check`, `golangci-lint`); not a file name (`test_lint.py`).
pub fn is_lint_word(word: &str) -> bool {
    let head = word.split(':').next().unwrap_or(word);
    LINT_TOOLS.contains(&head)
        || head.starts_with("lint")
        || LINT_TASKS.iter().any(|task| head.starts_with(task))
        || (head.contains("lint") && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

/// True when `command` runs a type checker (`tsc`, `mypy`, `pyright`, a `typecheck` script,
/// `cargo check`, `deno check`): the checks a type-check claim is judged by. All of them are
/// builds by [`CheckKind::of_command`] too (the code compiles).
pub fn checks_types(command: &str) -> bool {
    let words: Vec<String> = command
        .split_whitespace()
        .filter(|w| !w.starts_with('-'))
        .map(|w| w.rsplit('/').next().unwrap_or(w).to_ascii_lowercase())
        .collect();
    let first: Vec<&str> = words.iter().take(2).map(String::as_str).collect();
    CheckKind::of_command(command) == CheckKind::Build
        && (matches!(first.as_slice(), ["cargo" | "deno", "check"])
            || words.iter().any(|w| {
                TYPE_TOOLS.contains(&w.as_str())
                    || w.starts_with("typecheck")
                    || w.starts_with("type-check")
            }))
}

/// Words of a command that make it a type check (counted as a build: the code compiles).
pub const TYPE_TOOLS: [&str; 6] = ["tsc", "vue-tsc", "mypy", "pyright", "type-check", "tsgo"];

/// Words of a command that make it a test run.
pub const TEST_TOOLS: [&str; 15] = [
    "pytest",
    "jest",
    "vitest",
    "mocha",
    "rspec",
    "tox",
    "nox",
    "ctest",
    "nextest",
    "phpunit",
    "ava",
    "tap",
    "playwright",
    "cypress",
    "unittest",
];

/// How a check run ended, as every reader words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckOutcome {
    Passed,
    Failed,
    /// The call's exit status is not the check's (`| tail`, `|| true`).
    Unreadable,
    /// The check started and no result was recorded.
    Unfinished,
}

impl CheckOutcome {
    /// From what the log recorded: whether a result came, whether it was ok, whether readable.
    pub fn of(finished: bool, ok: bool, readable: bool) -> CheckOutcome {
        match (finished, readable, ok) {
            (false, _, _) => CheckOutcome::Unfinished,
            (true, false, _) => CheckOutcome::Unreadable,
            (true, true, true) => CheckOutcome::Passed,
            (true, true, false) => CheckOutcome::Failed,
        }
    }

    /// `passed`, `failed`, `unreadable (exit status masked)`, `did not finish`.
    pub fn phrase(self) -> &'static str {
        match self {
            CheckOutcome::Passed => "passed",
            CheckOutcome::Failed => "failed",
            CheckOutcome::Unreadable => "unreadable (exit status masked)",
            CheckOutcome::Unfinished => "did not finish",
        }
    }
}

/// One check run as claims are judged by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub command: String,
    pub outcome: CheckOutcome,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_of_commands() {
        for (command, kind) in [
            ("cargo test -p x", CheckKind::Test),
            ("cargo nextest run", CheckKind::Test),
            ("npm test", CheckKind::Test),
            ("npm run test:unit", CheckKind::Test),
            ("python -m pytest -x", CheckKind::Test),
            ("make test", CheckKind::Test),
            ("./gradlew test", CheckKind::Test),
            ("cargo build --release", CheckKind::Build),
            ("cargo check", CheckKind::Build),
            ("make", CheckKind::Build),
            ("make check", CheckKind::Test),
            ("go build ./...", CheckKind::Build),
            ("cargo clippy --all-targets --tests", CheckKind::Lint),
            ("npm run lint", CheckKind::Lint),
            ("go vet ./...", CheckKind::Lint),
            ("ruff check .", CheckKind::Lint),
            ("cargo fmt --check", CheckKind::Lint),
            ("npx eslint src", CheckKind::Lint),
            ("pnpm dlx eslint .", CheckKind::Lint),
            ("tsc --noEmit", CheckKind::Build),
            ("npx tsc -p .", CheckKind::Build),
            ("mypy src", CheckKind::Build),
            ("npm run typecheck", CheckKind::Build),
            ("cargo run --bin x", CheckKind::Run),
            ("go run ./cmd/x", CheckKind::Run),
            ("bun test", CheckKind::Test),
            ("yarn build", CheckKind::Build),
            ("./gradlew ktlintCheck", CheckKind::Lint),
            ("./gradlew detekt spotlessCheck", CheckKind::Lint),
            ("./gradlew lintDebug", CheckKind::Lint),
            ("mvn -q checkstyle:check", CheckKind::Lint),
            ("mvn spotless:check", CheckKind::Lint),
            ("npm run lint:ci", CheckKind::Lint),
            ("golangci-lint run", CheckKind::Lint),
            ("pytest tests/test_lint.py", CheckKind::Test),
            ("./gradlew build", CheckKind::Build),
        ] {
            assert_eq!(CheckKind::of_command(command), kind, "{command}");
        }
    }

    #[test]
    fn type_checks_among_builds() {
        for command in ["tsc --noEmit", "npx vue-tsc", "mypy src", "pyright", "npm run typecheck"] {
            assert!(checks_types(command), "{command}");
        }
        for command in ["cargo check --all-targets", "deno check mod.ts", "pnpm type-check"] {
            assert!(checks_types(command), "{command}");
        }
        for command in ["cargo build", "npm run build", "make", "cargo test", "go vet ./..."] {
            assert!(!checks_types(command), "{command}");
        }
    }

    #[test]
    fn one_wording_per_outcome() {
        assert_eq!(CheckOutcome::of(false, false, false).phrase(), "did not finish");
        assert_eq!(CheckOutcome::of(true, false, true).phrase(), "failed");
        assert_eq!(CheckOutcome::of(true, true, true).phrase(), "passed");
        assert_eq!(CheckOutcome::of(true, false, false), CheckOutcome::Unreadable);
    }
}
