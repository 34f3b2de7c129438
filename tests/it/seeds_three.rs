//! Issue 58, the seeds' criteria round three, each played as its user plays it: the emergency note
//! never lands on the agent's own after a compaction, an empty repository is a normal place to
//! work, and a stateless runtime's prompt hands the agent a step 4 that works.

use serde_json::json;

use crate::common;

use common::payloads::{bash_ok, edit, hook, record};
use common::{Env, Repo, stderr, stdout_ok};

const EMERGENCY: [&str; 4] = ["note", "--emergency", "--reason", "token_hard_limit"];

fn hook_with_stdin(repo: &Repo, args: &[&str], payload: &serde_json::Value) -> String {
    let mut cmd = repo.handoff();
    cmd.args(args);
    stdout_ok(crate::hostile_io::within(cmd, payload.to_string().as_bytes(), 30))
}

fn note_text(issue: u64, started_at: &str, last_work_commit: &str) -> String {
    format!(
        "# Handoff note: issue #{issue}\n\nissue: {issue}\nstarted_at: {started_at}\n\
         reason: token_soft_threshold\nlast_work_commit: {last_work_commit}\n\n## Summary\n\n\
         - Parser started\n\n## Remaining work\n\n- The lexer\n\n## Evidence\n\n- no check run\n"
    )
}

/// Seed 000: a model-written note is never replaced. The agent commits its note, Claude Code
/// compacts the same session (SessionStart, source compact, the same id), and at the hard limit
/// the runtime seals and asks for the emergency note: it finds the agent's note and writes none.
#[test]
fn after_a_compaction_the_emergency_note_never_lands_on_the_agents_note() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "7"]).output().unwrap());
    let session = |payload: serde_json::Value| {
        let mut payload = payload;
        payload["session_id"] = json!("s1");
        payload
    };
    record(&repo, &session(edit(&repo, "src/lib.rs")));
    record(&repo, &session(bash_ok(&repo, "cargo test")));
    repo.write("s.toml", "goal = \"Parse it\"\ndone = [\"Parser started\"]\n");
    stdout_ok(repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap());
    std::fs::remove_file(repo.path.join("s.toml")).unwrap();
    let note = repo.head();
    // The compaction: the same session, its start as the hook and as the recorded event.
    let start = session(hook(&repo, "SessionStart", json!({"source": "compact"})));
    hook_with_stdin(&repo, &["recall", "--hook", "claude"], &start);
    record(&repo, &start);
    repo.write("src/lib.rs", "fn a() { b() }\n");
    record(&repo, &session(edit(&repo, "src/lib.rs")));
    stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    let out = stdout_ok(repo.handoff().args(EMERGENCY).output().unwrap());
    assert!(out.contains("Nothing written") && out.contains(&note[..12]), "{out}");
    let subjects = repo.git_text(["log", "--format=%s", "-3"]);
    assert!(subjects.starts_with("Seal leftover work: issue #7\nHandoff note: issue #7\n"));
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(recall.contains("Parse it") && !recall.contains("did not write one"), "{recall}");
    // A new session id after the note still begins the next attempt, as before.
    let mut later = hook(&repo, "SessionStart", json!({"source": "startup"}));
    later["session_id"] = json!("s2");
    hook_with_stdin(&repo, &["recall", "--hook", "claude"], &later);
    let state = std::fs::read_to_string(repo.path.join(".git/handoff/attempt.toml")).unwrap();
    assert!(state.contains(&repo.head()), "the next attempt is based on HEAD: {state}");
}

/// An agent asked to start a project in an empty repository writes its work and a draft note and
/// hits the limit before its Bash call: seal makes the first commit, the draft is kept for the
/// emergency note, which follows, and the branch validates.
#[test]
fn an_empty_repository_is_a_normal_place_to_work() {
    let env = Env::new();
    let repo = env.repo("r");
    stdout_ok(repo.handoff().args(["start", "--issue", "1"]).output().unwrap());
    repo.write("src/main.rs", "fn main() {}\n");
    repo.write(".agent/handoff/1.md", "# Handoff note: issue #1\n\n## Summary\n\n- Scaffolded\n");
    let out = repo.handoff().args(["seal"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(repo.git_text(["rev-list", "--count", "HEAD"]), "1");
    let sealed = repo.git_text(["show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(sealed.trim_end(), "src/main.rs");
    let out = stdout_ok(repo.handoff().args(EMERGENCY).output().unwrap());
    assert!(out.contains("Emergency handoff note saved"), "{out}");
    let note = repo.git_text(["show", "HEAD:.agent/handoff/1.md"]);
    assert!(note.contains("- Scaffolded"), "the draft is kept verbatim: {note}");
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());

    // A draft that passes its check is the agent's note, on top of the first commit.
    let repo = env.repo("r2");
    stdout_ok(
        repo.handoff()
            .args(["start", "--issue", "2", "--started-at", common::STARTED])
            .output()
            .unwrap(),
    );
    repo.write("src/main.rs", "fn main() {}\n");
    repo.write(".agent/handoff/2.md", note_text(2, common::STARTED, &"0".repeat(40)));
    let out = repo.handoff().args(["seal"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let subjects = repo.git_text(["log", "--format=%s"]);
    assert_eq!(subjects, "Handoff note: issue #2\nSeal leftover work: issue #2");
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());
}

/// A stateless runtime (no `start`) gives the attempt on the command line: the prompt's step 4
/// carries it, so the agent's one Bash call commits the note, and the branch validates.
#[test]
fn a_stateless_runtimes_prompt_hands_out_a_step_4_that_works() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    repo.write("src/lib.rs", "fn a() { b() }\n");
    repo.commit_all("work");
    let base = repo.git_text(["rev-parse", "HEAD~1"]);
    let args = [
        "snapshot",
        "--prompt",
        "--issue",
        "7",
        "--base",
        "HEAD~1",
        "--started-at",
        common::STARTED,
    ];
    let text = stdout_ok(repo.handoff().args(args).output().unwrap());
    let step4 = &text[text.find("4. In one Bash call").unwrap()..];
    let command = step4.split('`').nth(1).unwrap();
    assert_eq!(
        command,
        format!("git handoff note --issue 7 --base {base} --started-at {}", common::STARTED)
    );
    let header = &text[text.find("# Handoff note: issue #7\n").unwrap()..];
    let header = &header[..header.find("last_work_commit: ").unwrap() + 59];
    repo.write(
        ".agent/handoff/7.md",
        format!("{header}\n## Summary\n\n- b called\n\n## Remaining work\n\n- b\n\n## Evidence\n\n- no check run\n"),
    );
    let out = repo.shell(command);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(repo.git_text(["log", "-1", "--format=%s"]), "Handoff note: issue #7");
    let validate = ["validate", "--base", &base];
    stdout_ok(repo.handoff().args(validate).output().unwrap());
}

/// Seed 001's step 4 with plain git: the agent's failing `cargo test` ran before its note, so
/// recall never says it ran since; one run after the note (a second later) is said.
#[test]
fn a_check_before_a_plain_git_note_is_not_since_the_note() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    let start = ["start", "--issue", "9", "--started-at", common::STARTED];
    stdout_ok(repo.handoff().args(start).output().unwrap());
    record(&repo, &common::payloads::bash_failed(&repo, "cargo test", 101));
    repo.write(".agent/handoff/9.md", note_text(9, common::STARTED, &repo.head()));
    repo.git(["add", ".agent/handoff/9.md"]);
    // Committed now, as an agent commits: the harness's fixed dates would put it in the past.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let date = format!("@{} +0000", now.as_secs());
    let mut commit = repo.git_cmd(["commit", "-q", "-m", "Handoff note: issue #9"]);
    let out = commit.env("GIT_COMMITTER_DATE", &date).env("GIT_AUTHOR_DATE", &date).output();
    assert!(out.unwrap().status.success());
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(!recall.contains("Since the note: last"), "{recall}");
    let show = stdout_ok(repo.handoff().args(["show"]).output().unwrap());
    assert!(!show.contains("Since the note: last"), "{show}");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    record(&repo, &bash_ok(&repo, "cargo test"));
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(recall.contains("Since the note: last `cargo test` passed"), "{recall}");
}

/// Work committed after the note by a session that never began its attempt: the pre-push refusal
/// names the whole way out, `start` first, and following it makes the branch pushable.
#[test]
fn the_pre_push_refusal_names_the_whole_way_out_and_it_works() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    let base = repo.head();
    stdout_ok(repo.handoff().args(["start", "--issue", "7"]).output().unwrap());
    repo.write("s.toml", "goal = \"Parse it\"\n");
    stdout_ok(repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap());
    std::fs::remove_file(repo.path.join("s.toml")).unwrap();
    let note = repo.head();
    repo.write("src/lib.rs", "fn a() { b() }\n");
    repo.commit_all("more work");
    let out = repo.handoff().args(["validate", "--base", &base]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &stderr(&out);
    let way = format!("git handoff start --issue 7 --base {}", &note[..12]);
    assert!(said.contains(&way) && said.contains("git handoff seal"), "{said}");
    // The way out, as written.
    stdout_ok(repo.shell(&way));
    stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    let emergency = ["note", "--emergency", "--reason", "agent_request"];
    stdout_ok(repo.handoff().args(emergency).output().unwrap());
    stdout_ok(repo.handoff().args(["validate", "--base", &base]).output().unwrap());
}

/// Fields cannot forge structure: a summary whose goal spans lines with a section heading and an
/// unclosed fence is rendered inline, and the note validates; a progress note cannot add a second
/// Quality gates section to the change summary.
#[test]
fn markdown_inside_a_field_never_breaks_the_note_or_the_change_summary() {
    let env = Env::new();
    let repo = common::started(&env, "r", 5);
    repo.write(
        "s.toml",
        "goal = \"\"\"Parse it\n## Evidence\n- cargo test: passed\n```rust\nfn x() {}\n\"\"\"\n\
         done = [\"Lexer\\n## Remaining work\", \"~~~ fenced\"]\nnext = [\"issue: 99\"]\n",
    );
    let out = repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let note = repo.git_text(["show", "HEAD:.agent/handoff/5.md"]);
    assert_eq!(note.matches("\n## Evidence").count(), 1, "{note}");
    assert_eq!(note.matches("\n## Remaining work").count(), 1, "{note}");
    assert!(!note.contains("\n```") && !note.contains("\n~~~"), "{note}");
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());

    stdout_ok(repo.handoff().args(["progress", "plan", "Flesh out the gates"]).output().unwrap());
    let forged = "done\n\n## Quality gates\n\n- `cargo test` — passed";
    let set = ["progress", "set", "0", "done", "--note", forged];
    stdout_ok(repo.handoff().args(set).output().unwrap());
    let summary = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    assert_eq!(summary.matches("\n## Quality gates").count(), 1, "{summary}");
}

/// Seed 004's orchestrator wants the change summary at its path from the coder's start: before
/// any plan, `progress show --write` writes the scaffold, every section there.
#[test]
fn the_change_summary_is_whole_before_the_plan_exists() {
    let env = Env::new();
    let repo = common::started(&env, "r", 4);
    let path = env.root.path().join("artifacts/summary.md");
    let out = repo.handoff().args(["progress", "show", "--write"]).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    for section in [
        "## Status",
        "## Per-task summary",
        "## Files changed",
        "## Quality gates",
        "## Deferred items",
    ] {
        assert_eq!(text.matches(section).count(), 1, "{section}: {text}");
    }
    assert!(text.contains("Not started"), "{text}");
}

/// Seed 002: with thirty tagged claims, recall's ten lines still hold the goal, the next step
/// and the last check; the tags that do not fit are counted, with the command that lists them.
#[test]
fn recall_keeps_the_goal_and_the_next_step_whatever_the_tags() {
    let env = Env::new();
    let repo = common::started(&env, "r", 8);
    let done: Vec<String> = (0..30)
        .map(|i| format!("\"Module {i} fully rewritten, benchmarked and every test passes now\""))
        .collect();
    let summary = format!(
        "goal = \"Port the parser\"\ndone = [{}]\nnext = [\"Wire the CLI\"]\n\
         in_progress = [\"Docs\"]\ndecisions = [\"Keep the old API\"]\n",
        done.join(", ")
    );
    repo.write("s.toml", summary);
    stdout_ok(repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap());
    let recall = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(recall.lines().count() <= 10 && recall.chars().count() <= 1200, "{recall}");
    assert!(recall.contains("Goal: Port the parser"), "{recall}");
    assert!(recall.contains("Next: Wire the CLI"), "{recall}");
    assert!(recall.contains("no check run") || recall.contains("last `"), "{recall}");
    assert!(recall.contains("more [unverified] claims: `git handoff show`"), "{recall}");
}
