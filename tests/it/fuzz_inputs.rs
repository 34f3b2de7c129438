//! A property test per input kind a repository or a runtime hands git-handoff: the configuration
//! (TOML), a note (Markdown), a hook payload (JSON), emergency facts (JSON), the progress plan
//! (TOML) and a record (TOML, as `sync` fetches it). Each case mutates a valid input at random
//! (flipped bytes, cut and repeated ranges, control and escape sequences, deep nesting, huge
//! numbers, invalid UTF-8) and runs the commands that read it: none may panic, hang or exit
//! with anything but 0, 1 or 2, and nothing it prints on stdout (but JSON) may carry a raw control
//! character.
//!
//! Cases are seeded and few by default (a few seconds in all); `HOSTILE_FUZZ_CASES=<per kind>`
//! runs more, `HOSTILE_FUZZ_SEED=<n>` replays one case of each kind.

use std::process::Output;

use crate::common;
use crate::hostile_io::within;

use common::payloads::bash_ok;
use common::{Env, Repo, Rng, stdout_ok};

/// Cases per kind when `HOSTILE_FUZZ_CASES` is not set.
const CASES: u64 = 6;

/// Pieces a mutation splices in: what breaks parsers and terminals.
const HOSTILE: &[&str] = &[
    "\x1b]0;pwned\x07",
    "\x1b[2J",
    "\u{9b}31m",
    "\u{202e}",
    "\0",
    "\r",
    "\x7f",
    "\"",
    "'",
    "\\",
    "\\u0000",
    "\\",
    "[[",
    "]]",
    "{",
    "}",
    "[",
    "]",
    "=",
    ",",
    ":",
    "#",
    "\n",
    "\n\n## Summary\n\n",
    "# Handoff note: issue #12\n",
    "issue: 99999999999999999999999\n",
    "[[record]]\n",
    "[record.digest]\n",
    "99999999999999999999999",
    "-1",
    "1e999",
    "null",
    "true",
    "[unverified: x]",
    "- ",
    "```",
    "\u{feff}",
    "日本語",
];

/// The seeds of the cases of one kind: `HOSTILE_FUZZ_SEED` alone, else 1..=cases.
fn seeds(kind: u64) -> Vec<u64> {
    if let Some(seed) = std::env::var("HOSTILE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()) {
        return vec![seed];
    }
    let cases =
        std::env::var("HOSTILE_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(CASES);
    (1..=cases).map(|n| kind * 1_000_000 + n).collect()
}

/// `input` changed one to four times at random.
fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut bytes = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(7) {
            0 if !bytes.is_empty() => {
                let at = at.min(bytes.len() - 1);
                bytes[at] ^= 1 << rng.below(8);
            }
            1 => {
                let end = (at + rng.below(64)).min(bytes.len());
                bytes.drain(at..end);
            }
            2 => {
                let end = (at + 1 + rng.below(64)).min(bytes.len());
                let piece = bytes[at.min(end)..end].to_vec();
                for _ in 0..1 + rng.below(50) {
                    drop(bytes.splice(at..at, piece.iter().copied()));
                }
            }
            3 => bytes.truncate(at),
            4 => {
                let deep = if rng.chance(50) { "[" } else { "{\"a\":" }.repeat(1 + rng.below(3000));
                drop(bytes.splice(at..at, deep.bytes()));
            }
            5 => drop(bytes.splice(at..at, [0xff, 0xfe, 0xc3])),
            _ => {
                let piece = rng.pick(HOSTILE).as_bytes().to_vec();
                drop(bytes.splice(at..at, piece));
            }
        }
    }
    bytes
}

/// The property: an exit code of 0, 1 or 2, no panic, and (when `plain`) no raw control
/// character on stdout.
fn check(seed: u64, what: &str, out: &Output, plain: bool) {
    let err = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        matches!(code, Some(0..=2)) && !err.contains("panicked"),
        "seed {seed}, {what}: exit {code:?}\n{err}"
    );
    if plain {
        let text = String::from_utf8_lossy(&out.stdout);
        let raw = text.chars().find(|c| c.is_control() && *c != '\n' && *c != '\t');
        assert!(raw.is_none(), "seed {seed}, {what}: stdout passes {raw:?} on:\n{text}");
    }
}

fn run(repo: &Repo, seed: u64, args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = repo.handoff();
    cmd.args(args);
    let out = within(cmd, stdin, 30);
    check(seed, &args.join(" "), &out, !args.contains(&"--json") && !args.contains(&"--hook"));
    out
}

fn started(env: &Env) -> Repo {
    let repo = env.repo("r");
    repo.write("README.md", "hi\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "12"]).output().unwrap());
    repo
}

/// A handoff on HEAD: a note from a summary, with its record.
fn noted(repo: &Repo) {
    repo.write("s.toml", "goal = \"Fix it\"\ndone = [\"Rewrote it\"]\nnext = [\"Ship\"]\n");
    stdout_ok(repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap());
    std::fs::remove_file(repo.path.join("s.toml")).unwrap();
}

const CONFIG: &str = r#"note_dir = ".agent/handoff"
notes_ref = "refs/notes/handoff"
reasons = ["ci_timeout"]

[caps]
snapshot_lines = 40
recall_lines = 10
recall_chars = 1200

[checks]
extra = ["just test"]

[secrets]
files = ["*.secret"]
patterns = ["CORP_[A-Z0-9]{20}"]

[redact]
patterns = ["internal-[0-9a-f]{32}"]

[recall]
prefix = "Handoff recall:"
rules_file = ".agent/rules.md"

[progress]
write = ".agent/progress.md"
"#;

#[test]
fn config_toml() {
    let env = Env::new();
    let repo = started(&env);
    noted(&repo);
    let payload = bash_ok(&repo, "cargo test").to_string();
    for seed in seeds(1) {
        let mut rng = Rng::new(seed);
        repo.write(".handoff.toml", mutate(&mut rng, CONFIG.as_bytes()));
        run(&repo, seed, &["record"], payload.as_bytes());
        run(&repo, seed, &["recall"], b"");
        run(&repo, seed, &["progress", "plan", "A"], b"");
    }
}

#[test]
fn note_markdown() {
    let env = Env::new();
    let repo = started(&env);
    noted(&repo);
    let note = repo.read(".agent/handoff/12.md");
    for seed in seeds(2) {
        let mut rng = Rng::new(seed);
        repo.write(".agent/handoff/12.md", mutate(&mut rng, &note));
        run(&repo, seed, &["note"], b"");
        run(&repo, seed, &["show"], b"");
    }
}

#[test]
fn hook_payload_json() {
    let env = Env::new();
    let repo = started(&env);
    let payload = bash_ok(&repo, "cargo test \x1b[2J").to_string();
    for seed in seeds(3) {
        let mut rng = Rng::new(seed);
        let input = mutate(&mut rng, payload.as_bytes());
        run(&repo, seed, &["record"], &input);
        run(&repo, seed, &["recall", "--hook", "claude"], &input);
    }
    run(&repo, 0, &["digest"], b"");
}

const FACTS: &str = r#"{"last_assistant_text": "Done with \u001b[2J the parser",
 "handoff_skill_invoked": false,
 "budget": {"budget_tokens": 180000, "max_budget_tokens": 200000, "soft_threshold_crossed": true,
            "peak_main_context_tokens": 150000, "cache_hit_rate": 0.93, "turns": 41,
            "elapsed_seconds": 1800},
 "archive_dir": "/tmp/archive", "session_id": "s-1",
 "baseline_check": {"command": "cargo test", "ok": false}}"#;

#[test]
fn facts_json() {
    let env = Env::new();
    let repo = started(&env);
    for seed in seeds(4) {
        let mut rng = Rng::new(seed);
        let issue = (seed % 1_000_000).to_string();
        stdout_ok(repo.handoff().args(["start", "--issue", &issue]).output().unwrap());
        repo.write("facts.json", mutate(&mut rng, FACTS.as_bytes()));
        let args = ["note", "--emergency", "--reason", "time_limit", "--facts", "facts.json"];
        run(&repo, seed, &args, b"");
        run(&repo, seed, &["show"], b"");
    }
}

#[test]
fn progress_file() {
    let env = Env::new();
    let repo = started(&env);
    stdout_ok(repo.handoff().args(["progress", "plan", "Parse", "Check"]).output().unwrap());
    let plan = repo.read(".git/handoff/progress.toml");
    for seed in seeds(5) {
        let mut rng = Rng::new(seed);
        repo.write(".git/handoff/progress.toml", mutate(&mut rng, &plan));
        run(&repo, seed, &["progress", "show"], b"");
        run(&repo, seed, &["progress", "set", "0", "done", "--files", "src/a.rs"], b"");
        run(&repo, seed, &["progress", "show", "--json"], b"");
    }
}

#[test]
fn record_toml() {
    let env = Env::new();
    let repo = started(&env);
    noted(&repo);
    let record = repo.git(["notes", "--ref=handoff", "show", "HEAD"]);
    for seed in seeds(6) {
        let mut rng = Rng::new(seed);
        repo.write("record.toml", mutate(&mut rng, &record));
        repo.git(["notes", "--ref=handoff", "add", "-f", "-F", "record.toml", "HEAD"]);
        run(&repo, seed, &["show"], b"");
        run(&repo, seed, &["log"], b"");
        run(&repo, seed, &["recall"], b"");
        run(&repo, seed, &["show", "--json"], b"");
    }
}
