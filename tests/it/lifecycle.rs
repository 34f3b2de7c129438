//! The lifecycle property: whatever sequence of legal moves happens (work commits, dirty work,
//! `note`, editing the note, `note` again, a plain-git note, `seal`, `note --emergency`,
//! `note --digest-only`, `start`, and the sessions: a new session, compact, resume, a plain git
//! commit, a check run, the session's end), after every move each attempt's range passes
//! `validate` (and the whole branch without the attempt state, as on CI), handoff commands leave
//! every work-tree file but the note alone, a refused command changed nothing, a seal leaves a
//! clean status, `show`/`recall` name the latest attempt with a note, and recall never reports a
//! check result older than the log's last. The runner's fault (the same attempt's work committed
//! after its own note) is always refused.
//!
//! Sequences are seeded and short (4 × 20 of 12 moves); a failure prints its seed and move trail.
//! Run one seed with `LIFECYCLE_SEED=<n> cargo test --test it lifecycle::`, more of them with
//! `LIFECYCLE_SEQUENCES=<per part>`.

use crate::common;

mod moves;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use common::{Env, Repo, Rng};
use serde_json::Value;

/// Sequences per test function (four functions run on the test harness's threads); set
/// `LIFECYCLE_SEQUENCES` for a longer hunt.
const SEQUENCES: u64 = 20;
/// Moves per sequence.
const MOVES: usize = 12;

/// One attempt as the model knows it.
#[derive(Debug, Clone)]
struct Attempt {
    issue: u64,
    started_at: String,
    base: String,
    noted: bool,
    /// A seal sits above this attempt's note commit.
    sealed: bool,
    /// The seal that show and recall must name: the one above the note, or the seal of this
    /// attempt the note was written on top of.
    seal: Option<String>,
    /// HEAD is a seal of this attempt that no note sits on yet.
    pending_seal: Option<String>,
    /// A session began this attempt after the previous one's note: the note file in the work
    /// tree is that note's, and the agent writes its own afresh.
    by_session: bool,
}

struct Run {
    seed: u64,
    rng: Rng,
    repo: Repo,
    attempts: Vec<Attempt>,
    trail: Vec<String>,
    counter: usize,
    /// The last check in the current attempt's event log: `passed` or `failed`.
    log_check: Option<&'static str>,
    /// Sessions begun so far (their ids).
    sessions: usize,
}

/// What a command must leave alone: HEAD, the index and the work tree.
#[derive(PartialEq, Eq)]
struct State {
    head: String,
    index: Vec<u8>,
    files: BTreeMap<String, Vec<u8>>,
}

impl Run {
    fn new(env: &Env, seed: u64) -> Run {
        let repo = env.repo(&format!("r{seed}"));
        repo.write("src/a.txt", "a\n");
        repo.write("src/b.txt", "b\n");
        repo.commit_all("init");
        let mut run = Run {
            seed,
            rng: Rng::new(seed),
            repo,
            attempts: Vec::new(),
            trail: Vec::new(),
            counter: 0,
            log_check: None,
            sessions: 0,
        };
        run.start();
        run
    }

    fn fail(&self, what: &str) -> ! {
        panic!(
            "lifecycle seed {} broke a rule: {what}\nmoves:\n  {}\n(rerun: LIFECYCLE_SEED={} cargo \
             test --test it lifecycle::)",
            self.seed,
            self.trail.join("\n  "),
            self.seed
        );
    }

    fn current(&mut self) -> &mut Attempt {
        self.attempts.last_mut().expect("an attempt is started")
    }

    fn note_path(&self) -> String {
        let issue = self.attempts.last().map_or(0, |a| a.issue);
        format!(".agent/handoff/{issue}.md")
    }

    fn handoff(&mut self, args: &[&str]) -> Output {
        self.repo.handoff().args(args).output().expect("running git-handoff")
    }

    fn state(&self) -> State {
        let git = self.repo.path.join(".git");
        let head = std::fs::read_to_string(git.join("refs/heads/main")).unwrap_or_default();
        let index = std::fs::read(git.join("index")).unwrap_or_default();
        let mut files = BTreeMap::new();
        collect(&self.repo.path, &self.repo.path, &mut files);
        State { head, index, files }
    }

    /// Runs a handoff command, checks that it touched no work-tree file but the note (and, when
    /// it refused, nothing at all), and returns its exit code.
    fn command(&mut self, args: &[&str]) -> i32 {
        self.command_out(args).0
    }

    /// [`Run::command`], also returning stdout.
    fn command_out(&mut self, args: &[&str]) -> (i32, String) {
        self.command_in(args, None)
    }

    /// [`Run::command_out`] with `stdin` piped in (a hook payload).
    fn command_in(&mut self, args: &[&str], stdin: Option<&str>) -> (i32, String) {
        let before = self.state();
        let out = match stdin {
            None => self.handoff(args),
            Some(text) => {
                use std::io::Write;
                let mut child = self
                    .repo
                    .handoff()
                    .args(args)
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("running git-handoff");
                child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
                child.wait_with_output().unwrap()
            }
        };
        let code = out.status.code().unwrap_or(-1);
        self.trail.push(format!("  -> exit {code}"));
        let after = self.state();
        let note = self.note_path();
        let mut touched: Vec<&String> = before
            .files
            .iter()
            .filter(|(p, b)| after.files.get(*p) != Some(b))
            .map(|(p, _)| p)
            .chain(after.files.keys().filter(|p| !before.files.contains_key(*p)))
            .collect();
        touched.retain(|p| **p != note);
        if !touched.is_empty() {
            self.fail(&format!("`{}` changed work-tree files {touched:?}", args.join(" ")));
        }
        if code != 0 && before != after {
            self.fail(&format!(
                "`{}` refused (exit {code}) but changed HEAD, the index or the note\n{}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        if code == 2 {
            self.fail(&format!(
                "`{}` failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        (code, String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn expect(&self, code: i32, want: i32, what: &str) {
        if code != want {
            self.fail(&format!("{what}: exit {code}, expected {want}"));
        }
    }

    /// The invariants that hold after every move.
    fn check(&mut self, all_ranges: bool) {
        // Each attempt's range, from its base to HEAD: later attempts above an earlier note are
        // no fault of it. After a move, the ranges that can have changed: the last two.
        let count = self.attempts.len();
        let from = if all_ranges { 0 } else { count.saturating_sub(2) };
        for i in from..count {
            let a = self.attempts[i].clone();
            let out = self.handoff(&["validate", "--base", &a.base]);
            if !out.status.success() {
                self.fail(&format!(
                    "attempt #{} ({}..HEAD) does not validate:\n{}{}",
                    a.issue,
                    &a.base[..12],
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
        if all_ranges {
            self.check_as_ci();
        }
        let Some(latest) = self.attempts.iter().rev().find(|a| a.noted).cloned() else { return };
        let out = self.handoff(&["recall", "--json"]);
        let recall: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        // Recall never reports a check result older than the log's last: it says the last one,
        // and an older result it shows is marked as the note's.
        if let Some(last) = self.log_check {
            let said = recall["lines"].to_string();
            if !said.contains(&format!("last `cargo test` {last}")) {
                self.fail(&format!("the log's last `cargo test` {last}, recall says: {said}"));
            }
            let other = if last == "passed" { "failed" } else { "passed" };
            let stale = format!("last `cargo test` {other}");
            let marked = format!("at the note: {stale}");
            if said.matches(&stale).count() > said.matches(&marked).count() {
                self.fail(&format!("recall reports an older `cargo test` {other}: {said}"));
            }
        }
        if recall["record"]["issue"] != latest.issue {
            self.fail(&format!(
                "recall names {} instead of issue #{}: {}",
                recall["record"]["issue"], latest.issue, recall
            ));
        }
        let lines = recall["lines"].as_array().map(Vec::len).unwrap_or(0);
        if lines == 0 || lines > 10 {
            self.fail(&format!("recall has {lines} lines: {recall}"));
        }
        let said_sealed = recall["lines"].to_string().contains("Sealed");
        if latest.seal.is_some() != said_sealed {
            self.fail(&format!(
                "recall says sealed={said_sealed}, the model says {:?}",
                latest.seal
            ));
        }
        if all_ranges {
            let out = self.handoff(&["show", "--json"]);
            let show: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
            if show["record"]["issue"] != latest.issue {
                self.fail(&format!(
                    "show names {} instead of issue #{}",
                    show["record"]["issue"], latest.issue
                ));
            }
            let seal = show["seal"]["commit"].as_str().map(str::to_string);
            if seal != latest.seal {
                self.fail(&format!("show's seal is {seal:?}, expected {:?}", latest.seal));
            }
        }
    }
}

impl Run {
    /// The whole branch validates without this worktree's attempt state, as on CI that fetched
    /// only the branch and `refs/notes/handoff`.
    fn check_as_ci(&mut self) {
        let state = self.repo.path.join(".git/handoff");
        let aside = self.repo.path.join(".git/handoff-aside");
        std::fs::rename(&state, &aside).ok();
        let root = self.attempts[0].base.clone();
        let out = self.handoff(&["validate", "--base", &root]);
        std::fs::rename(&aside, &state).ok();
        if !out.status.success() {
            self.fail(&format!(
                "without the attempt state (as on CI) the branch does not validate:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
}

fn collect(top: &Path, dir: &Path, files: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == ".git") {
            continue;
        }
        if path.is_dir() {
            collect(top, &path, files);
        } else {
            let rel = path.strip_prefix(top).unwrap().to_string_lossy().into_owned();
            files.insert(rel, std::fs::read(&path).unwrap());
        }
    }
}

fn run_seeds(seeds: impl Iterator<Item = u64>) {
    let env = Env::new();
    for seed in seeds {
        let mut run = Run::new(&env, seed);
        for _ in 0..MOVES {
            if run.step() {
                run.check(false);
            }
        }
        run.check(true);
        std::fs::remove_dir_all(&run.repo.path).ok();
    }
}

/// The seeds of one of the four test functions, or the one seed `LIFECYCLE_SEED` names.
fn seeds(part: u64) -> Box<dyn Iterator<Item = u64>> {
    match std::env::var("LIFECYCLE_SEED").ok().and_then(|s| s.parse().ok()) {
        Some(seed) if part == 0 => Box::new(std::iter::once(seed)),
        Some(_) => Box::new(std::iter::empty()),
        None => {
            let per = std::env::var("LIFECYCLE_SEQUENCES")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(SEQUENCES);
            Box::new((part * per..(part + 1) * per).map(|s| s + 1))
        }
    }
}

#[test]
fn random_move_sequences_keep_the_layout_part_0() {
    run_seeds(seeds(0));
}

#[test]
fn random_move_sequences_keep_the_layout_part_1() {
    run_seeds(seeds(1));
}

#[test]
fn random_move_sequences_keep_the_layout_part_2() {
    run_seeds(seeds(2));
}

#[test]
fn random_move_sequences_keep_the_layout_part_3() {
    run_seeds(seeds(3));
}
