//! What a check is, and when its result can be read: defined once, here.
//!
//! A **check** is a shell command (a Bash tool call) that runs one of the configured check commands
//! (`checks.commands`/`checks.extra`, defaults in [`crate::model::config::DEFAULT_CHECKS`]). The shell text
//! is split into simple commands on `&&`, `||`, `;`, `|`, `&` and newlines (quotes respected); leading
//! `NAME=value` assignments, wrappers like `time`, `env`, `timeout 60`, and environment runners like
//! `uv run`, `poetry run`, `bundle exec` (with their options) are skipped; the configured command
//! must equal the first words of a simple command, so `cargo testing` is not `cargo test`.
//!
//! A check is **readable** when the exit status of the whole call is the check's own: it is not
//! piped into another command (`| tail`, `| grep`, `| tee`) unless `set -o pipefail` came first; it
//! is not followed by `|| true`, `|| echo ...` or by `; other` (unless `set -e` came first); it is
//! not backgrounded with `&` nor negated with `!`. `&&` after a check keeps it readable: a failing
//! check stops the chain.
//!
//! A failure is the check's only when nothing before it could have failed instead: in `cargo build
//! && cargo test` a failed build also fails the call, and the tests never ran. Such a call's
//! [`CheckRun::chain`] names the commands whose failure it may be (`cd`, `export` and the like
//! left out), and a failure is reported as the chain's.

use std::borrow::Cow;
use std::cell::OnceCell;

use crate::model::config::Config;
use shell::{Op, Simple, simple_commands};

mod shell;

/// The configured check commands, split into words on the first look at a shell call: a
/// session's log without one (recall's reading of an empty log) never pays for splitting the 91
/// defaults, which took longer than reading the log.
#[derive(Debug, Clone)]
pub struct Checks {
    configured: Vec<Cow<'static, str>>,
    commands: OnceCell<Vec<Vec<String>>>,
}

/// One check found in a shell command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRun {
    /// The check's simple command as run, assignments and wrappers left out (`cargo test -p x`).
    pub command: String,
    /// Whether the call's exit status is the check's.
    pub readable: bool,
    /// When commands before the check may fail the call instead (`cargo build && cargo test`):
    /// them and the check, joined by ` && `. A failure is then the chain's, a pass the check's.
    pub chain: Option<String>,
}

impl Checks {
    pub fn new(config: &Config) -> Checks {
        Checks { configured: config.check_commands(), commands: OnceCell::new() }
    }

    /// The commands, each split into words.
    fn commands(&self) -> &[Vec<String>] {
        self.commands.get_or_init(|| {
            self.configured
                .iter()
                .map(|c| c.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                .filter(|words| !words.is_empty())
                .collect()
        })
    }

    /// The last check that `shell` runs, if any, and whether its status is readable.
    pub fn find(&self, shell: &str) -> Option<CheckRun> {
        let simples = simple_commands(shell);
        let mut pipefail = false;
        let mut errexit = false;
        let mut found: Option<(usize, CheckRun)> = None;
        for (i, simple) in simples.iter().enumerate() {
            let (mut words, negated) = strip_prefixes(&simple.words);
            // A runner is skipped unless the check names it (`bundle exec rspec` is one).
            if !self.matches(words)
                && let Some(inner) = strip_runner(words)
            {
                words = strip_prefixes(inner).0;
            }
            if words.first().is_some_and(|w| w == "set") {
                for word in &words[1..] {
                    if word == "pipefail" {
                        pipefail = true;
                    }
                    if word == "errexit" || (word.starts_with('-') && word[1..].contains('e')) {
                        errexit = true;
                    }
                }
                continue;
            }
            if self.matches(words) {
                let readable = !negated && readable_after(&simples[i..], pipefail, errexit);
                let command = words.join(" ");
                let chain = chain_before(&simples[..i], errexit)
                    .map(|before| format!("{before} && {command}"));
                found = Some((i, CheckRun { command, readable, chain }));
            }
        }
        found.map(|(_, run)| run)
    }

    /// True when `words` start with a check command's words; its last word also matches a
    /// script named after it (`npm run test` matches `npm run test:unit`).
    fn matches(&self, words: &[String]) -> bool {
        self.commands().iter().any(|check| {
            words.len() >= check.len()
                && check.iter().zip(words).enumerate().all(|(i, (c, w))| {
                    c == w
                        || (i + 1 == check.len()
                            && i > 0
                            && w.strip_prefix(c.as_str()).is_some_and(|rest| rest.starts_with(':')))
                })
        })
    }
}

/// The commands right before a check that would end the call with their own failure (joined by
/// `&&`, or by `;` under `set -e`), leaving out those that hardly fail (`cd`, `export`, `echo`...);
/// `None` when there are none.
fn chain_before(before: &[Simple], errexit: bool) -> Option<String> {
    let mut links = Vec::new();
    for simple in before.iter().rev() {
        let linked = simple.next == Op::And || (errexit && simple.next == Op::Seq);
        if !linked || simple.words.is_empty() {
            break;
        }
        let (words, _) = strip_prefixes(&simple.words);
        let trivial = words.first().is_none_or(|w| {
            matches!(
                w.as_str(),
                "cd" | "pushd"
                    | "popd"
                    | "export"
                    | "unset"
                    | "set"
                    | "true"
                    | ":"
                    | "echo"
                    | "printf"
            )
        });
        if !trivial {
            links.push(words.join(" "));
        }
    }
    links.reverse();
    (!links.is_empty()).then(|| links.join(" && "))
}

/// Whether the status of the call is the status of `rest[0]`, given what follows it.
fn readable_after(rest: &[Simple], pipefail: bool, errexit: bool) -> bool {
    let mut i = 0;
    // The pipeline the check is in: its status is the last command's, unless pipefail.
    while rest[i].next == Op::Pipe {
        if !pipefail {
            return false;
        }
        i += 1;
        if i >= rest.len() {
            return true;
        }
    }
    match rest[i].next {
        Op::End => true,
        Op::Background => false,
        Op::And => true,
        // `check || exit 1` and `check || false` keep a failure a failure.
        Op::Or => rest.get(i + 1).is_some_and(|after| {
            let (words, _) = strip_prefixes(&after.words);
            let fails = match words.first().map(String::as_str) {
                Some("false") => true,
                Some("exit") => words.get(1).is_some_and(|code| code != "0"),
                _ => false,
            };
            fails && readable_after(&rest[i + 1..], pipefail, errexit)
        }),
        // With `set -e` a failing check ends the script with its status.
        Op::Seq => errexit || rest[i + 1..].iter().all(|s| s.words.is_empty()),
        Op::Pipe => unreachable!("pipes are consumed above"),
    }
}

/// Runners that run the rest of the command in a project environment: `uv run pytest` runs the
/// check `pytest`, `npx eslint .` the check `eslint`. Their options (`uv run --frozen pytest`) are
/// skipped too.
const RUNNERS: [&[&str]; 17] = [
    &["uv", "run"],
    &["poetry", "run"],
    &["pipenv", "run"],
    &["pdm", "run"],
    &["rye", "run"],
    &["hatch", "run"],
    &["bundle", "exec"],
    &["pnpm", "exec"],
    &["pnpm", "dlx"],
    &["npm", "exec"],
    &["yarn", "dlx"],
    &["yarn", "exec"],
    &["bun", "x"],
    &["npx"],
    &["bunx"],
    &["yarn"],
    &["pnpm"],
];

/// The command a [`RUNNERS`] entry runs (`uv run --frozen pytest -x` runs `pytest -x`), if
/// `words` start with one.
fn strip_runner(words: &[String]) -> Option<&[String]> {
    let runner = RUNNERS.iter().find(|runner| {
        words.len() > runner.len() && runner.iter().zip(words).all(|(r, w)| r == w)
    })?;
    let rest = &words[runner.len()..];
    let start = rest.iter().position(|w| !w.starts_with('-'))?;
    Some(&rest[start..])
}

/// Drops leading `!`, `NAME=value` assignments and wrappers (`time`, `env`, `nice`, `nohup`,
/// `command`, `exec`, `timeout DURATION`) from a simple command. Returns the words and whether the
/// command was negated.
fn strip_prefixes(words: &[String]) -> (&[String], bool) {
    let mut rest = words;
    let mut negated = false;
    while let Some(first) = rest.first() {
        let first = first.as_str();
        if first == "!" {
            negated = true;
            rest = &rest[1..];
        } else if is_assignment(first) || matches!(first, "time" | "nohup" | "command" | "exec") {
            rest = &rest[1..];
        } else if first == "env" || first == "nice" {
            rest = &rest[1..];
            while rest.first().is_some_and(|w| w.starts_with('-') || is_assignment(w)) {
                rest = &rest[1..];
            }
        } else if first == "timeout" {
            rest = &rest[1..];
            while rest.first().is_some_and(|w| w.starts_with('-')) {
                rest = &rest[1..];
            }
            if !rest.is_empty() {
                rest = &rest[1..];
            }
        } else {
            break;
        }
    }
    (rest, negated)
}

fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else { return false };
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(shell: &str) -> Option<CheckRun> {
        Checks::new(&Config::default()).find(shell)
    }

    fn readable(shell: &str) -> bool {
        find(shell).unwrap_or_else(|| panic!("no check in {shell:?}")).readable
    }

    #[test]
    fn matches_whole_command_words() {
        assert_eq!(find("cargo test").unwrap().command, "cargo test");
        assert_eq!(find("cargo test --workspace -q").unwrap().command, "cargo test --workspace -q");
        assert!(find("cargo testing").is_none());
        assert!(find("cargo-test").is_none());
        assert!(find("echo cargo test").is_none());
        assert!(find("grep 'cargo test' notes.md").is_none());
        assert!(find("makefile-lint").is_none());
        assert_eq!(find("make").unwrap().command, "make");
        assert!(find("git status && ls").is_none());
        assert!(find("echo $(cargo test)").is_none());
    }

    #[test]
    fn skips_assignments_wrappers_and_cd() {
        assert_eq!(find("RUST_BACKTRACE=1 cargo test").unwrap().command, "cargo test");
        assert_eq!(find("cd crates/x && cargo test -p x").unwrap().command, "cargo test -p x");
        assert_eq!(find("timeout 600 npm test").unwrap().command, "npm test");
        assert_eq!(find("env CI=1 time pytest -x").unwrap().command, "pytest -x");
        assert_eq!(find("(cd web && npm test)").unwrap().command, "npm test");
        assert_eq!(find("uv run pytest -x").unwrap().command, "pytest -x");
        assert_eq!(find("uv run --frozen python -m pytest").unwrap().command, "python -m pytest");
        assert_eq!(find("poetry run tox -e py312").unwrap().command, "tox -e py312");
        assert_eq!(
            find("bundle exec rspec spec/a_spec.rb").unwrap().command,
            "bundle exec rspec spec/a_spec.rb"
        );
        assert!(find("uv run python script.py").is_none());
        assert!(find("uv run").is_none());
        assert_eq!(find("npx eslint src").unwrap().command, "eslint src");
        assert_eq!(find("npx --yes tsc --noEmit").unwrap().command, "tsc --noEmit");
        assert_eq!(find("pnpm dlx eslint .").unwrap().command, "eslint .");
        assert_eq!(find("pnpm exec vitest run").unwrap().command, "vitest run");
        assert_eq!(find("yarn tsc -p .").unwrap().command, "tsc -p .");
        assert_eq!(find("yarn test").unwrap().command, "yarn test");
        assert_eq!(find("bunx tsc").unwrap().command, "tsc");
        assert_eq!(find("npm run test:unit").unwrap().command, "npm run test:unit");
        assert!(find("npm run testing").is_none());
        assert!(find("npx create-react-app x").is_none());
        assert!(find("yarn install").is_none());
        assert!(!find("uv run pytest | tail").unwrap().readable);
    }

    #[test]
    fn readable_only_when_the_status_is_the_checks() {
        assert!(readable("cargo test"));
        assert!(readable("cargo test 2>&1"));
        assert!(readable("cargo test > out.txt 2>&1"));
        assert!(readable("cargo test &> out.txt"));
        assert!(readable("cd x && cargo test && echo done"));
        assert!(readable("set -o pipefail; cargo test 2>&1 | tail -20"));
        assert!(readable("set -euo pipefail\ncargo test | tee log.txt"));
        assert!(readable("set -e; cargo test; echo done"));
        assert!(readable("cargo test || exit 1"));
        assert!(readable("cargo test;"));
        assert!(!readable("cargo test 2>&1 | tail -20"));
        assert!(!readable("cargo test | grep FAILED"));
        assert!(!readable("cargo test |& tee log"));
        assert!(!readable("cargo test || true"));
        assert!(!readable("cargo test || :"));
        assert!(!readable("cargo test || echo failed"));
        assert!(!readable("cargo test; true"));
        assert!(!readable("cargo test; echo $?"));
        assert!(!readable("cargo test &"));
        assert!(!readable("! cargo test"));
        assert!(!readable("(cd x && cargo test) | tail"));
    }

    #[test]
    fn the_last_check_of_a_call_counts() {
        let run = find("cargo build && cargo test 2>&1 | head").unwrap();
        assert_eq!(run.command, "cargo test");
        assert!(!run.readable);
    }

    #[test]
    fn a_failure_may_belong_to_what_ran_before_the_check() {
        let chain = |shell: &str| find(shell).unwrap().chain;
        assert_eq!(
            chain("cargo build && cargo test").as_deref(),
            Some("cargo build && cargo test")
        );
        assert_eq!(
            chain("cd x && make gen && RUST_LOG=1 cargo test -p x").as_deref(),
            Some("make gen && cargo test -p x")
        );
        assert_eq!(chain("set -e; npm ci; npm test").as_deref(), Some("npm ci && npm test"));
        // Only the check could fail the call.
        for shell in
            ["cargo test", "cd x && cargo test", "cargo build; cargo test", "a || cargo test"]
        {
            assert_eq!(chain(shell), None, "{shell}");
        }
    }

    #[test]
    fn configured_commands() {
        let config = Config::parse("[checks]\ncommands = [\"just test\"]\n", "t").unwrap();
        let checks = Checks::new(&config);
        assert!(checks.find("just test").is_some());
        assert!(checks.find("cargo test").is_none());
    }

    #[test]
    fn random_shell_text_does_not_panic() {
        let alphabet: Vec<char> =
            "cargo test make |&;()'\"\\$`#<>{}!=\n\t0123ü日".chars().collect();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..5000 {
            let mut text = String::new();
            for _ in 0..(state % 40) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push(alphabet[(state % alphabet.len() as u64) as usize]);
            }
            let _ = find(&text);
        }
    }

    #[test]
    fn odd_input_does_not_panic() {
        for text in ["", "'", "\"", "$(", "`", "\\", "&&&", "|||", ";;;", ">", "2>", "((", "))"] {
            let _ = find(text);
        }
    }
}
