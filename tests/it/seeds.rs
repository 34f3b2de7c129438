//! Issue 47: each seed's criteria as its user runs them (`shared/seeds/`): the change summary on
//! disk never claims more than the log (004), the emergency note degrades per fact (000), the
//! prompt keeps the commit-first flow for other limits (001), Orstrum's words (002), seal's exit
//! status at the hard limit, and counts and articles that read as English.

use crate::common;

use common::payloads::{edit, record};
use common::{Env, Repo, stdout_ok};
use serde_json::Value;

fn started(env: &Env, name: &str, issue: u64) -> Repo {
    let repo = env.repo(name);
    repo.write("README.md", "hi\n");
    repo.write("a.rs", "a\n");
    repo.write("b.rs", "b\n");
    repo.commit_all("init");
    stdout_ok(
        repo.handoff()
            .args(["start", "--issue", &issue.to_string(), "--started-at", "2026-11-30T03:48:52Z"])
            .output()
            .unwrap(),
    );
    repo
}

fn json(repo: &Repo, args: &[&str]) -> Value {
    let out = repo.handoff().args(args).arg("--json").output().unwrap();
    serde_json::from_str(&stdout_ok(out)).unwrap()
}

#[test]
fn a_skipped_digest_says_where_the_agent_note_is() {
    let env = Env::new();
    let repo = started(&env, "r", 11);
    record(&repo, &edit(&repo, "a.rs"));
    repo.write("s.toml", "done = [\"Edited a\"]\n");
    json(&repo, &["note", "--summary", "s.toml"]);
    let out = json(&repo, &["note", "--digest-only"]);
    assert_eq!(out["kind"], "none");
    let why = out["skipped"].as_str().unwrap();
    assert!(why.starts_with("the agent's note for issue #11 is in "), "{why}");
}

#[test]
fn a_one_task_plan_completes_in_the_singular() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    stdout_ok(repo.handoff().args(["progress", "plan", "Only task"]).output().unwrap());
    let out = json(&repo, &["progress", "set", "0", "done"]);
    assert_eq!(out["status_line"], "Complete — 1 of 1 task done");
    stdout_ok(
        repo.handoff()
            .args(["progress", "plan", "--force", "--findings", "F1: x"])
            .output()
            .unwrap(),
    );
    let out = json(&repo, &["progress", "set", "F1", "fixed"]);
    assert_eq!(out["status_line"], "Complete — 1 of 1 finding addressed");
}

fn prompt(repo: &Repo, extra: &[&str]) -> String {
    stdout_ok(repo.handoff().args(["snapshot", "--prompt"]).args(extra).output().unwrap())
}

/// The step `n.` of a prompt, up to the next step.
fn step(text: &str, n: u32) -> &str {
    let at = text.find(&format!("\n{n}. ")).unwrap_or_else(|| panic!("no step {n}: {text}"));
    let rest = &text[at + 1..];
    let end = rest.find(&format!("\n{}. ", n + 1)).unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn operator_turn_and_time_limits_keep_the_commit_first_flow() {
    let env = Env::new();
    let repo = started(&env, "r", 21);
    repo.write("a.rs", "a2\n");
    for reason in ["turn_limit", "time_limit", "operator_request"] {
        for form in [&[][..], &["--followup"][..]] {
            let text = prompt(&repo, &[&["--reason", reason][..], form].concat());
            assert!(!text.contains("token soft threshold"), "{reason}: {text}");
            assert!(!text.to_lowercase().contains("do not commit"), "{reason}: {text}");
            assert!(step(&text, 2).contains("Commit your work first"), "{reason}: {text}");
            assert!(text.contains(&format!("reason: {reason}\n")), "{text}");
        }
    }
    // The token soft threshold keeps its own flow.
    let text = prompt(&repo, &[]);
    assert!(text.contains("The token soft threshold is crossed"), "{text}");
    assert!(step(&text, 2).starts_with("2. Do not commit your work yourself"), "{text}");
}

#[test]
fn the_commit_first_flow_walked_with_plain_git_validates() {
    let env = Env::new();
    let repo = started(&env, "r", 22);
    repo.write("a.rs", "a2\n");
    let text = prompt(&repo, &["--reason", "turn_limit", "--plain-git"]);
    assert!(!text.contains("git handoff note"), "{text}");
    // Step 2's one Bash call, the placeholder filled in as an agent would.
    let work = step(&text, 2).split('`').nth(1).unwrap().replace("<what the work does>", "Edit a");
    let printed = stdout_ok(repo.shell(&work));
    let id = printed.lines().last().unwrap().trim().to_string();
    assert_eq!(id, repo.head());
    let header = &text[text.find("# Handoff note: issue #22\n").unwrap()..];
    let header = &header[..header.find("last_work_commit: ").unwrap()];
    let note = format!(
        "{header}last_work_commit: {id}\n\n## Summary\n\n- Edited a\n\n## Remaining work\n\n\
         - More\n\n## Evidence\n\n- no check run\n"
    );
    repo.write(".agent/handoff/22.md", note);
    let commit = step(&text, 4).split('`').nth(1).unwrap().to_string();
    stdout_ok(repo.shell(&commit));
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());
}

#[test]
fn a_plain_git_prompt_promises_no_tags() {
    let env = Env::new();
    let repo = started(&env, "r", 23);
    for reason in ["token_soft_threshold", "time_limit"] {
        let text = prompt(&repo, &["--plain-git", "--reason", reason]);
        assert!(!step(&text, 3).contains("tagged"), "{text}");
        assert!(!step(&text, 3).contains("unverified"), "{text}");
        let with_tool = prompt(&repo, &["--reason", reason]);
        assert!(step(&with_tool, 3).contains("tagged `[unverified: …]`"), "{with_tool}");
    }
}

#[test]
fn the_reply_is_orstrums_from_the_command() {
    let env = Env::new();
    let repo = started(&env, "r", 24);
    repo.write("a.rs", "a2\n");
    record(&repo, &edit(&repo, "a.rs"));
    record(&repo, &common::payloads::bash_failed(&repo, "npm test", 1));
    repo.write("s.toml", "done = [\"All tests pass now\"]\n");
    let out = repo.handoff().args(["note", "--summary", "s.toml"]).output().unwrap();
    let text = stdout_ok(out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Handoff saved for the next session. From the log: 1 file edited · last `npm test` \
         failed · 2 tool calls, 1 error."
    );
    assert_eq!(
        lines[1],
        "Tagged [unverified]: \"All tests pass now\" (last `npm test` failed). Correct it if the \
         log is right."
    );
}

/// The change summary at `path` (relative to the repository, or absolute).
fn read_summary(repo: &Repo, path: &str) -> String {
    String::from_utf8(repo.read(path)).unwrap()
}

#[test]
fn the_summary_on_disk_follows_the_log_after_a_cut_off() {
    let env = Env::new();
    let repo = started(&env, "r", 245);
    repo.write(".handoff.toml", "[progress]\nwrite = \".agent/progress.md\"\n");
    stdout_ok(repo.handoff().args(["progress", "plan", "Parse", "Check"]).output().unwrap());
    let outside = env.home().join("artifacts/07_coder_change-summary.md");
    std::fs::create_dir_all(outside.parent().unwrap()).unwrap();
    let outside = outside.to_str().unwrap().to_string();
    stdout_ok(repo.handoff().args(["progress", "show", "--write", &outside]).output().unwrap());

    repo.write("a.rs", "a2\n");
    record(&repo, &edit(&repo, "a.rs"));
    record(&repo, &common::payloads::bash_ok(&repo, "cargo test"));
    stdout_ok(repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap());
    for path in [".agent/progress.md", outside.as_str()] {
        let text = read_summary(&repo, path);
        assert!(text.contains("- `cargo test` — passed\n"), "{text}");
        assert!(text.contains("- a.rs\n") && !text.contains("- b.rs\n"), "{text}");
    }
    // Cut off: an edit and a failing check, and no further progress command.
    repo.write("b.rs", "b2\n");
    record(&repo, &edit(&repo, "b.rs"));
    record(&repo, &common::payloads::bash_failed(&repo, "cargo test", 101));
    let shown = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    for path in [".agent/progress.md", outside.as_str()] {
        let text = read_summary(&repo, path);
        assert!(!text.contains("passed"), "{path} claims more than the log: {text}");
        assert!(text.contains("- `cargo test` — failed"), "{text}");
        assert!(text.contains("- b.rs\n"), "{text}");
        assert_eq!(text, shown, "{path}");
    }
}

#[test]
fn a_refresh_writes_only_summaries_and_nothing_without_a_plan() {
    let env = Env::new();
    let repo = started(&env, "r", 246);
    repo.write(".handoff.toml", "[progress]\nwrite = \".agent/progress.md\"\n");
    repo.write("a.rs", "a2\n");
    record(&repo, &edit(&repo, "a.rs"));
    assert!(!repo.path.join(".agent/progress.md").exists(), "no plan, no summary");

    stdout_ok(repo.handoff().args(["progress", "plan", "Parse"]).output().unwrap());
    let mine = env.home().join("mine.md");
    let named = mine.to_str().unwrap();
    stdout_ok(repo.handoff().args(["progress", "show", "--write", named]).output().unwrap());
    std::fs::write(&mine, "my own notes\n").unwrap();
    record(&repo, &common::payloads::bash_failed(&repo, "cargo test", 101));
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "my own notes\n");
    let text = read_summary(&repo, ".agent/progress.md");
    assert!(text.contains("- `cargo test` — failed"), "{text}");
}

#[test]
fn a_finding_set_without_a_note_gets_its_status_and_action() {
    let env = Env::new();
    let repo = started(&env, "r", 247);
    let plan = ["progress", "plan", "--findings", "F1: off by one", "W1: noisy log"];
    stdout_ok(repo.handoff().args(plan).output().unwrap());
    let said = stdout_ok(repo.handoff().args(["progress", "set", "F1", "fixed"]).output().unwrap());
    assert!(
        said.starts_with("Set F1 to FIXED. Action: none given (add one with --note TEXT).\n"),
        "{said}"
    );
    let text = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    assert!(text.contains("### F1: off by one — FIXED\nAction: none given\n"), "{text}");
    assert!(text.contains("### W1: noisy log — pending\n"), "{text}");
    let set = ["progress", "set", "W1", "not_fixed", "--note", "upstream's log"];
    let said = stdout_ok(repo.handoff().args(set).output().unwrap());
    assert!(said.starts_with("Set W1 to NOT_FIXED. Action: upstream's log.\n"), "{said}");
}

#[test]
fn the_skill_shows_both_scaffolds_as_the_plan_writes_them() {
    let skill =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/skills/handoff/SKILL.md"))
            .unwrap();
    let blocks: Vec<&str> = skill
        .split("```markdown\n")
        .skip(1)
        .map(|b| &b[..b.find("\n```").unwrap() + 1])
        .filter(|b| b.starts_with("# Change summary"))
        .collect();
    assert_eq!(blocks.len(), 2, "a task scaffold and a finding scaffold");
    let env = Env::new();
    let repo = started(&env, "r", 245);
    let tasks = ["progress", "plan", "Parse input", "Validate fields", "Write tests"];
    stdout_ok(repo.handoff().args(tasks).output().unwrap());
    let shown = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    assert_eq!(shown, blocks[0]);
    let findings = ["progress", "plan", "--force", "--findings", "F1: off by one", "W1: noisy log"];
    stdout_ok(repo.handoff().args(findings).output().unwrap());
    let shown = stdout_ok(repo.handoff().args(["progress", "show"]).output().unwrap());
    assert_eq!(shown, blocks[1]);
    // Seed 001: without the tools, the soft-threshold handoff takes at most two tool calls.
    assert!(skill.contains("the handoff takes at most two tool calls"), "{skill}");
}

#[test]
fn at_the_hard_limit_a_failing_draft_is_a_warning_and_the_work_is_sealed() {
    let env = Env::new();
    let repo = started(&env, "r", 31);
    repo.write("a.rs", "a2\n");
    record(&repo, &edit(&repo, "a.rs"));
    let draft = "# Handoff note: issue #31\n\nissue: 31\n\n## Summary\n\n- half written\n";
    repo.write(".agent/handoff/31.md", draft);
    let out = repo.handoff().args(["seal", "--json"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "the work is sealed: {err}");
    assert!(err.contains("warning: left .agent/handoff/31.md out of the seal"), "{err}");
    assert!(err.contains("kept for `git handoff note --emergency`"), "{err}");
    let sealed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(sealed["files"], serde_json::json!(["a.rs"]));
    assert_eq!(repo.read(".agent/handoff/31.md"), draft.as_bytes());
    // The emergency note keeps the draft verbatim; the layout validates.
    let args = ["note", "--emergency", "--reason", "token_hard_limit"];
    let out = stdout_ok(repo.handoff().args(args).output().unwrap());
    assert!(out.starts_with("Emergency handoff note saved"), "{out}");
    let note = String::from_utf8(repo.read(".agent/handoff/31.md")).unwrap();
    assert!(note.contains("- half written"), "{note}");
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());

    // A secret left out is work left unsealed: exit 1.
    let repo = started(&env, "s", 32);
    repo.write(".env", "API_KEY=abcdef0123456789abcdef\n");
    repo.write(".agent/handoff/32.md", "# Handoff note: issue #32\n\nissue: 32\n");
    let out = repo.handoff().args(["seal"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
}

fn emergency_note(repo: &Repo, issue: u64, extra: &[&str]) -> (String, String) {
    let args = ["note", "--emergency", "--reason", "turn_limit"];
    let out = repo.handoff().args(args).args(extra).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{err}");
    let text = String::from_utf8(repo.read(format!(".agent/handoff/{issue}.md"))).unwrap();
    (text, err)
}

#[test]
fn a_wrongly_typed_fact_costs_only_itself() {
    let env = Env::new();
    let repo = started(&env, "r", 41);
    repo.write(
        "facts.json",
        r#"{"budget": {"turns": "57", "budget_tokens": 800000, "cache_hit_rate": [1]},
            "session_id": 49257167, "handoff_skill_invoked": "maybe", "baseline_check": 3}"#,
    );
    let (text, err) = emergency_note(&repo, 41, &["--facts", "facts.json"]);
    assert!(text.contains("- turns: 57\n"), "{text}");
    assert!(text.contains("- budget_tokens: 800000\n"), "{text}");
    assert!(text.contains("- cache hit rate: not available\n"), "{text}");
    assert!(text.contains("- Session id: 49257167\n"), "{text}");
    assert!(text.contains("Handoff skill: maybe\n"), "{text}");
    assert!(text.contains("Baseline check (before the model): 3\n"), "{text}");
    assert!(err.contains("warning: facts: `budget.turns` is a string"), "{err}");
    assert!(err.contains("`budget.cache_hit_rate` is an array"), "{err}");
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());

    // Not even JSON: a warning, and the note from the log alone.
    let repo = started(&env, "s", 42);
    repo.write("facts.json", "{not json");
    let (text, err) = emergency_note(&repo, 42, &["--facts", "facts.json"]);
    assert!(err.contains("facts.json:1:"), "{err}");
    assert!(text.contains("## Budget facts"), "{text}");
}

#[test]
fn the_note_says_what_is_sealed_what_is_not_and_where_the_log_stays() {
    let env = Env::new();
    // Before the seal: the dirty files are not sealed yet.
    let repo = started(&env, "r", 43);
    repo.write("a.rs", "a2\n");
    repo.write("new.rs", "n\n");
    let (text, _) = emergency_note(&repo, 43, &[]);
    assert!(!text.contains("Sealed files: none"), "{text}");
    assert!(text.contains("Not sealed yet: 2 uncommitted files"), "{text}");
    assert!(text.contains("- a.rs\n- new.rs\n"), "{text}");
    // Nothing was recorded: the skill is not available rather than "not invoked", and the
    // elapsed time is counted from started_at.
    assert!(text.contains("Handoff skill: not available\n"), "{text}");
    assert!(text.contains(" (since started_at)\n"), "{text}");
    let stays = repo.path.join(".git/handoff/archive/2026-11-30T034852Z");
    let line = format!("- Attempt log directory: {} (where the next", stays.display());
    assert!(text.contains(&line), "{text}");
    // The next start archives the log exactly there.
    stdout_ok(repo.handoff().args(["start", "--issue", "44"]).output().unwrap());
    assert!(stays.join("events.jsonl").is_file());

    // After a seal that left a secret out: the file is named, with why.
    let repo = started(&env, "s", 45);
    repo.write("a.rs", "a2\n");
    repo.write(".env", "API_KEY=abcdef0123456789abcdef\n");
    record(&repo, &edit(&repo, "a.rs"));
    let out = repo.handoff().args(["seal"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let (text, _) = emergency_note(&repo, 45, &[]);
    assert!(text.contains("\nSealed in "), "{text}");
    let left = text.split("Left out of the seal, uncommitted in the work tree:\n").nth(1);
    let left = left.unwrap_or_else(|| panic!("{text}"));
    assert!(left.starts_with("- .env — looks like a secret"), "{text}");
    assert!(text.contains("Handoff skill: not invoked\n"), "{text}");
}

#[test]
fn recall_names_the_session_keeps_the_spec_title_and_gives_a_fresh_session_its_line() {
    let env = Env::new();
    let repo = started(&env, "r", 51);
    repo.write(".orstrum/spec.md", "# Money formatter\n\nRound to cents.\n");
    repo.write(".handoff.toml", "[recall]\nspec_file = \".orstrum/spec.md\"\n");
    let mut payload = edit(&repo, "a.rs");
    payload["session_id"] = "49257167-1c2d-4e5f-8a9b-0c1d2e3f4a5b".into();
    repo.write("a.rs", "a2\n");
    record(&repo, &payload);
    repo.write("s.toml", "goal = \"Make the formatter tests pass\"\ndone = [\"Read the spec\"]\n");
    json(&repo, &["note", "--summary", "s.toml"]);
    let text = stdout_ok(repo.handoff().args(["recall", "--source", "compact"]).output().unwrap());
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("Handoff recall: Last handoff ("), "{text}");
    assert!(first.contains(", session 49257167): issue #51 · "), "{text}");
    assert!(first.ends_with("1 file edited · no check run · 1 tool call, 0 errors"), "{text}");
    assert!(text.contains("Spec: .orstrum/spec.md (Money formatter)"), "{text}");
    let fresh = stdout_ok(repo.handoff().args(["recall", "--source", "startup"]).output().unwrap());
    assert!(fresh.starts_with(first), "the fresh session gets the line itself: {fresh}");
    assert_eq!(fresh.lines().count(), 1, "{fresh}");
}

#[test]
fn after_an_emergency_note_with_a_plan_recall_lists_the_pending_tasks_in_progress() {
    let env = Env::new();
    let repo = started(&env, "r", 52);
    stdout_ok(
        repo.handoff().args(["progress", "plan", "Parse", "Check", "Emit"]).output().unwrap(),
    );
    stdout_ok(repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap());
    stdout_ok(repo.handoff().args(["progress", "set", "1", "in_progress"]).output().unwrap());
    record(&repo, &edit(&repo, "a.rs"));
    emergency_note(&repo, 52, &[]);
    let expected = "In progress: 1 Check (in_progress); 2 Emit (pending)";
    let text = stdout_ok(repo.handoff().args(["recall", "--source", "resume"]).output().unwrap());
    assert!(text.contains(expected), "{text}");
    // Read back from the note file alone (the records not fetched), the same.
    repo.git(["update-ref", "-d", "refs/notes/handoff"]);
    let text = stdout_ok(repo.handoff().args(["recall", "--source", "resume"]).output().unwrap());
    assert!(text.contains(expected), "{text}");
    assert!(!text.contains("Parse"), "a finished task is neither in progress nor next: {text}");
}
