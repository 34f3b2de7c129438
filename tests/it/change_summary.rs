//! The progress file as seed 004's change summary: its headings, a status line that counts by id,
//! per-task and per-finding sections, quality gates from the event log, and the handoff's own
//! files left out of Files changed.

use crate::common;

use common::payloads::{bash_failed, bash_ok, edit, record};
use common::{Env, Repo, stdout_ok};

fn started(env: &Env, issue: u64) -> Repo {
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.write(".handoff.toml", "[progress]\nwrite = \"changes.md\"\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", &issue.to_string()]).output().unwrap());
    repo
}

fn progress(repo: &Repo, args: &[&str]) -> String {
    stdout_ok(repo.handoff().arg("progress").args(args).output().unwrap())
}

fn summary(repo: &Repo) -> String {
    String::from_utf8(repo.read("changes.md")).unwrap()
}

#[test]
fn the_scaffold_then_each_task_in_the_seed_shape() {
    let env = Env::new();
    let repo = started(&env, 245);
    progress(&repo, &["plan", "Parse input", "Check fields", "Emit report"]);
    assert_eq!(
        summary(&repo),
        "# Change summary — ticket #245\n\n## Status\n\nIn progress — task 0 of 3\n\n\
         ## Per-task summary\n\n### Task 0: Parse input — pending\n\
         ### Task 1: Check fields — pending\n### Task 2: Emit report — pending\n\n\
         ## Files changed\n\n(pending)\n\n## Quality gates\n\n(pending)\n\n\
         ## Deferred items\n\n(pending)\n"
    );

    // The status line counts by id: task 0 is the one in progress.
    progress(&repo, &["set", "0", "IN_PROGRESS"]);
    assert!(summary(&repo).contains("\nIn progress — task 0 of 3\n"), "{}", summary(&repo));
    assert!(summary(&repo).contains("\n### Task 0: Parse input — in progress\n"));

    repo.write("src/parse.rs", "fn parse() {}\n");
    record(&repo, &edit(&repo, "src/parse.rs"));
    record(&repo, &edit(&repo, "changes.md"));
    record(&repo, &bash_failed(&repo, "cargo test", 101));
    record(&repo, &bash_ok(&repo, "cargo build"));
    let note = "parser handles quoted fields";
    progress(&repo, &["set", "0", "Done", "--files", "src/parse.rs", "--note", note]);
    let text = summary(&repo);
    assert!(text.contains("\nIn progress — task 1 of 3\n"), "{text}");
    assert!(
        text.contains(
            "\n### Task 0: Parse input — done\nFiles: src/parse.rs\n\
             Outcome: parser handles quoted fields\n\n### Task 1: Check fields — pending\n"
        ),
        "{text}"
    );
    assert!(text.contains("\n## Files changed\n\n- src/parse.rs\n\n"), "{text}");
    assert!(!text.contains("- changes.md"), "the progress file is no change: {text}");
    assert!(
        text.contains(
            "\n## Quality gates\n\n- `cargo test` — failed (exit 101)\n- `cargo build` — passed\n"
        ),
        "{text}"
    );
    assert_eq!(progress(&repo, &["show"]), text, "show prints what the file holds");

    progress(&repo, &["set", "1", "done"]);
    progress(&repo, &["set", "2", "abandoned", "--note", "needs a design"]);
    let text = summary(&repo);
    assert!(
        text.contains("\n## Status\n\nComplete — 2 of 3 tasks done (task 2 abandoned)\n"),
        "{text}"
    );
    assert!(
        text.contains("\n## Deferred items\n\n- Task 2: Emit report — abandoned: needs a design\n"),
        "{text}"
    );
}

#[test]
fn review_findings_in_any_letter_case_with_their_actions() {
    let env = Env::new();
    let repo = started(&env, 246);
    progress(&repo, &["plan", "--findings", "F1: off by one", "W1: noisy log", "F2: no test"]);
    let text = summary(&repo);
    assert!(text.contains("\n## Status\n\nIn progress — finding F1 of 3\n"), "{text}");
    assert!(text.contains("\n### F1: off by one — pending\n### W1: noisy log — pending\n"));
    progress(&repo, &["set", "f1", "FIXED", "--note", "bounds checked"]);
    progress(&repo, &["set", "W1", "Already_Resolved"]);
    let text = summary(&repo);
    assert!(text.contains("\nIn progress — finding F2 of 3\n"), "{text}");
    assert!(
        text.contains(
            "\n### F1: off by one — FIXED\nAction: bounds checked\n\n\
             ### W1: noisy log — ALREADY_RESOLVED\nAction: none given\n\n\
             ### F2: no test — pending\n"
        ),
        "{text}"
    );
    progress(&repo, &["set", "F2", "not_fixed", "--note", "needs a fixture"]);
    let text = summary(&repo);
    assert!(text.contains("\n### F2: no test — NOT_FIXED\nAction: needs a fixture\n"), "{text}");
    assert!(text.contains("\nComplete — 3 of 3 findings addressed (F2 not fixed)\n"), "{text}");
    let out = repo.handoff().args(["progress", "set", "F2", "DONE"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// What `hooks install` wrote (settings, MCP registrations, the skill) is set-up, not the agent's
/// work: never in Files changed, unless the agent edited such a file itself.
#[test]
fn files_hooks_install_wrote_are_not_files_changed() {
    let env = Env::new();
    let repo = started(&env, 3);
    for agent in ["--claude", "--codex", "--gemini"] {
        stdout_ok(repo.handoff().args(["hooks", "install", agent]).output().unwrap());
    }
    progress(&repo, &["plan", "One"]);
    repo.write("src/lib.rs", "fn a() { b() }\n");
    record(&repo, &edit(&repo, "src/lib.rs"));
    let text = summary(&repo);
    let files =
        &text[text.find("## Files changed").unwrap()..text.find("## Quality gates").unwrap()];
    assert!(files.contains("src/lib.rs"), "{files}");
    for installed in [".claude/", ".mcp.json", ".codex/", ".gemini/", ".agents/"] {
        assert!(!files.contains(installed), "{installed} listed: {files}");
    }
    // Edited by the agent, it is work.
    repo.write(".mcp.json", "{\"mcpServers\": {}}\n");
    record(&repo, &edit(&repo, ".mcp.json"));
    let text = summary(&repo);
    assert!(text.contains(".mcp.json"), "{text}");
}
