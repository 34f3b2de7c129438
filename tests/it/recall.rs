//! `recall` and `show`: the last handoff given back, short for an agent and whole for a person.

use crate::common;

use std::io::Write;
use std::process::Stdio;

use common::payloads::{bash_failed, edit, record};
use common::{Env, Repo, stdout_ok};
use serde_json::Value;

/// A repository with a checked agent note for issue 179 (a failing test, a false claim).
fn handed_off(env: &Env) -> Repo {
    let repo = env.repo("r");
    repo.write("src/app.js", "x\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "179"]).output().unwrap());
    stdout_ok(
        repo.handoff()
            .args(["progress", "plan", "Parser", "Tests", "Docs", "Release"])
            .output()
            .unwrap(),
    );
    stdout_ok(repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap());
    stdout_ok(repo.handoff().args(["progress", "set", "1", "in_progress"]).output().unwrap());
    record(&repo, &edit(&repo, "src/app.js"));
    record(&repo, &bash_failed(&repo, "npm test", 1));
    repo.write(
        "s.toml",
        format!(
            "goal = \"Fix the parser\"\ndone = [\"Rewrote the parser\", \"All tests pass now\"]\n\
             in_progress = [\"Edge cases\"]\ndecisions = [\"Keep the old API\"]\n\
             next = [\"Fix the failing test\", \"{}\"]\n",
            "a very long next step ".repeat(40)
        ),
    );
    stdout_ok(
        repo.handoff()
            .args(["note", "--summary", "s.toml", "--reason", "token_soft_threshold"])
            .output()
            .unwrap(),
    );
    std::fs::remove_file(repo.path.join("s.toml")).unwrap();
    repo
}

#[test]
fn recall_after_a_checked_note_is_short_and_carries_goal_tags_and_digest() {
    let env = Env::new();
    let repo = handed_off(&env);
    let text = stdout_ok(repo.handoff().args(["recall", "--source", "compact"]).output().unwrap());
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 10, "{text}");
    assert!(text.chars().count() <= 1200, "{} chars: {text}", text.chars().count());
    assert!(
        lines[0].starts_with("Handoff recall: Last handoff (")
            && lines[0].contains("): issue #179 · "),
        "{text}"
    );
    assert!(lines[0].contains("token_soft_threshold"));
    assert!(lines[0].contains("1 file edited · last `npm test` failed · 2 tool calls, 1 error"));
    assert!(text.contains("Goal: Fix the parser"));
    assert!(text.contains("All tests pass now [unverified: last `npm test` failed]"), "{text}");
    assert!(text.contains("In progress: Edge cases"));
    assert!(text.contains("Decisions: Keep the old API"));
    assert!(text.contains("Next: Fix the failing test"));
    assert!(text.contains("Progress: tasks 0 done, 1 in progress, 2–3 pending"), "{text}");
    assert!(text.contains("Note: .agent/handoff/179.md at "));
}

#[test]
fn startup_is_one_line_and_the_claude_hook_answers_in_json() {
    let env = Env::new();
    let repo = handed_off(&env);
    let text =
        stdout_ok(repo.git_handoff().args(["recall", "--source", "startup"]).output().unwrap());
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("): issue #179 · ") && text.contains("git handoff recall --source resume"),
        "{text}"
    );

    for (source, max_lines) in [("startup", 1), ("compact", 10)] {
        let mut child = repo
            .handoff()
            .args(["recall", "--hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let payload = serde_json::json!({"session_id": "s", "transcript_path": "/t", "cwd": repo.path,
            "hook_event_name": "SessionStart", "source": source, "model": "m"});
        child.stdin.take().unwrap().write_all(payload.to_string().as_bytes()).unwrap();
        let out = stdout_ok(child.wait_with_output().unwrap());
        let answer: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "SessionStart");
        let context = answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
        assert!(context.starts_with("Handoff recall:"));
        assert!(context.lines().count() <= max_lines, "{source}: {context}");
    }

    let mut child = repo
        .handoff()
        .args(["recall", "--hook", "claude"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"{not json").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rules_follow_as_their_own_capped_block_with_a_warning() {
    let env = Env::new();
    let repo = handed_off(&env);
    let rules: String = (0..60).map(|i| format!("Rule {i}: be careful\n")).collect();
    repo.write(".agent/rules.md", &rules);
    let out = repo.handoff().args(["recall", "--source", "resume"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let text = stdout_ok(out);
    let (recall, rules_block) = text.split_once("\n\nRules:\n").expect("a rules block");
    assert!(recall.lines().count() <= 10);
    assert!(rules_block.contains("Rule 39: be careful") && !rules_block.contains("Rule 40:"));
    assert!(stderr.contains(".agent/rules.md has 60 lines"), "{stderr}");
    // Recall switched off: the rules still come.
    repo.write(".handoff.toml", "[recall]\nenabled = false\n");
    let text = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(text.starts_with("Rules:\n"), "{text}");
}

#[test]
fn unsealed_work_of_the_previous_attempt_is_named_with_the_command_to_seal_it() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "5"]).output().unwrap());
    repo.write("a.txt", "changed but never committed\n");
    record(&repo, &edit(&repo, "a.txt"));
    let text = stdout_ok(repo.handoff().args(["recall", "--source", "startup"]).output().unwrap());
    assert!(text.contains("left 1 uncommitted path and no handoff note"), "{text}");
    assert!(text.contains("git handoff seal"), "{text}");
}

#[test]
fn a_squash_merged_branch_is_still_found_by_issue() {
    let env = Env::new();
    let repo = handed_off(&env);
    repo.git(["checkout", "-q", "-b", "trunk", "HEAD~1"]);
    repo.git(["merge", "-q", "--squash", "main"]);
    repo.git(["commit", "-q", "-m", "Squashed"]);
    repo.git(["branch", "-D", "main"]);
    let text = stdout_ok(repo.handoff().args(["recall", "--issue", "179"]).output().unwrap());
    assert!(text.contains("Goal: Fix the parser"), "{text}");
}

#[test]
fn show_is_the_human_view_and_fails_clearly_without_a_handoff() {
    let env = Env::new();
    let repo = handed_off(&env);
    let text = stdout_ok(repo.handoff().args(["show", "--color", "never"]).output().unwrap());
    assert!(text.starts_with("Handoff: issue #179"), "{text}");
    assert!(
        text.contains("Unverified claims\n  ! All tests pass now — last `npm test` failed"),
        "{text}"
    );
    assert!(
        text.contains("[x] 0 Parser (done)") && text.contains("[~] 1 Tests (in_progress)"),
        "{text}"
    );
    assert!(text.contains("# Handoff note: issue #179"), "the note itself: {text}");
    assert!(text.contains("git handoff start --issue 179"), "{text}");
    let json: Value = serde_json::from_str(&stdout_ok(
        repo.handoff().args(["show", "HEAD", "--json"]).output().unwrap(),
    ))
    .unwrap();
    assert_eq!(json["record"]["issue"], 179);
    assert!(json["note"].as_str().unwrap().contains("## Remaining work"));

    let bare = env.repo("bare");
    bare.write("a", "a\n");
    bare.commit_all("init");
    let out = bare.handoff().args(["show"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no handoff found"));
}

#[test]
fn demo_plays_the_whole_story() {
    let env = Env::new();
    let repo = env.repo("unused");
    let text = stdout_ok(repo.handoff().args(["demo", "--color", "never"]).output().unwrap());
    assert!(
        text.contains("Tagged [unverified]: \"All tests pass now\" (last `cargo test` failed)."),
        "{text}"
    );
    assert!(text.contains("ok: 1 note commit checked"), "{text}");
    assert!(text.contains("Emergency handoff note saved"), "{text}");
    assert!(text.contains("): issue #43"), "{text}");
}

/// A branch found to hold no note is remembered, and the next lookup reads only the commits made
/// since: a note committed with plain git on top is still found, and so is one on a branch that
/// forks below the remembered commit.
#[test]
fn a_note_free_line_is_remembered_and_new_notes_are_still_found() {
    let env = Env::new();
    let repo = env.repo("r");
    for i in 0..4 {
        repo.write("a.txt", format!("{i}\n"));
        repo.commit_all(&format!("work {i}"));
    }
    let recall = |repo: &Repo| {
        stdout_ok(repo.handoff().args(["recall", "--source", "resume"]).output().unwrap())
    };
    assert_eq!(recall(&repo), "", "no handoff yet");
    let remembered = String::from_utf8(repo.read(".git/handoff/note-free")).unwrap();
    assert_eq!(remembered, format!("{} 1000\n", repo.head()));
    let fork = repo.git_text(["rev-parse", "HEAD~2"]);

    repo.write("b.txt", "more\n");
    repo.commit_all("work 5");
    let note = "# Handoff note: issue #7\n\nissue: 7\nstarted_at: 2026-11-30T03:48:52Z\n\
                reason: agent_request\nlast_work_commit: 0000000000000000000000000000000000000000\n\n\
                ## Summary\n\n- parser rewritten\n\n## Remaining work\n\n- none\n\n## Evidence\n\n- ran it\n";
    repo.write(".agent/handoff/7.md", note);
    repo.git(["add", ".agent/handoff/7.md"]);
    repo.git(["commit", "-q", "-m", "Handoff note: issue #7"]);
    assert!(recall(&repo).contains("issue #7"), "the note above the remembered commit is found");

    repo.git(["checkout", "-q", "-b", "side", &fork]);
    repo.write(".agent/handoff/8.md", note.replace('7', "8"));
    repo.git(["add", ".agent/handoff/8.md"]);
    repo.git(["commit", "-q", "-m", "Handoff note: issue #8"]);
    repo.write("c.txt", "c\n");
    repo.commit_all("work on side");
    assert!(recall(&repo).contains("issue #8"), "a note on a fork below it is found");
}

/// The notes ref's objects are read loose first (they were most likely written lately); a loose
/// copy that cannot be read is looked for in the packs after all, as git finds it there.
#[test]
fn a_damaged_loose_copy_of_a_packed_notes_object_is_read_from_the_pack() {
    let env = Env::new();
    let repo = handed_off(&env);
    let before =
        stdout_ok(repo.handoff().args(["recall", "--source", "compact"]).output().unwrap());
    // Packed, the loose copies kept (no `-d`): every object is in both places.
    repo.git(["repack", "-a", "-q"]);
    let damaged: Vec<String> = ["refs/notes/handoff", "refs/notes/handoff^{tree}"]
        .iter()
        .map(|rev| repo.git_text(["rev-parse", rev]).trim().to_string())
        .collect();
    for id in &damaged {
        let path = repo.path.join(".git/objects").join(&id[..2]).join(&id[2..]);
        assert!(path.is_file(), "{id} is loose");
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(&path, perms).unwrap();
        std::fs::write(&path, b"x\x01 not zlib").unwrap();
    }
    let after = stdout_ok(repo.handoff().args(["recall", "--source", "compact"]).output().unwrap());
    assert_eq!(after, before);
}

/// Recall reads HEAD once for all its steps; a HEAD it cannot read fails only the steps that
/// need it, as before: switched off, recall still gives the rules.
#[test]
fn recall_switched_off_gives_the_rules_when_heads_branch_cannot_be_read() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    repo.write(".agent/rules.md", "Rule: be careful\n");
    repo.write(".handoff.toml", "[recall]\nenabled = false\n");
    let branch = repo.git_text(["symbolic-ref", "HEAD"]);
    std::fs::write(repo.path.join(".git").join(branch.trim()), "not an object id\n").unwrap();
    let text = stdout_ok(repo.handoff().args(["recall"]).output().unwrap());
    assert!(text.starts_with("Rules:\nRule: be careful"), "{text}");
    // Switched on, the same HEAD is an error, as it was before HEAD was read once.
    repo.write(".handoff.toml", "[recall]\nenabled = true\n");
    let out = repo.handoff().args(["recall"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

/// Recall finds an ordinary repository by a quick look and reads its refs as files, and finds any
/// other by gix's discovery (here made to by `GIT_DIR`): both give the same recall, from a
/// subdirectory, with every ref packed beside a remote's copy of the notes, and in a linked
/// worktree.
#[test]
fn recall_by_the_quick_look_is_recall_by_gix() {
    let env = Env::new();
    let repo = handed_off(&env);
    repo.write("sub dir/x.txt", "x\n");
    let both = |dir: &std::path::Path, git_dir: &std::path::Path, top: &std::path::Path| {
        let args = ["recall", "--json", "--source", "compact", "--issue", "179"];
        let quick = stdout_ok(repo.handoff().current_dir(dir).args(args).output().unwrap());
        let mut by_gix = repo.handoff();
        by_gix.current_dir(dir).env("GIT_DIR", git_dir).env("GIT_WORK_TREE", top).args(args);
        assert_eq!(quick, stdout_ok(by_gix.output().unwrap()), "from {}", dir.display());
        let recall: Value = serde_json::from_str(&quick).unwrap();
        assert_eq!(recall["record"]["issue"], 179, "{quick}");
    };
    let git_dir = repo.path.join(".git");
    both(&repo.path, &git_dir, &repo.path);
    both(&repo.path.join("sub dir"), &git_dir, &repo.path);
    repo.git(["update-ref", "refs/notes/remotes/origin/handoff", "refs/notes/handoff"]);
    repo.git(["pack-refs", "--all"]);
    assert!(!git_dir.join("refs/notes/handoff").exists(), "packed");
    both(&repo.path, &git_dir, &repo.path);
    let linked = env.root.path().join("linked wt");
    let add: [&std::ffi::OsStr; 5] =
        ["worktree".as_ref(), "add".as_ref(), "-b".as_ref(), "side".as_ref(), linked.as_os_str()];
    repo.git(add);
    let dot_git = std::fs::read_to_string(linked.join(".git")).unwrap();
    let linked_git_dir = std::path::PathBuf::from(dot_git.trim().strip_prefix("gitdir: ").unwrap());
    assert!(linked_git_dir.join("commondir").is_file());
    both(&linked, &linked_git_dir, &linked);
}

/// A repository config gix refuses (an unterminated quote, which git refuses too) is not read
/// past by the quick look: recall says so, exit 2, as it did before, and writes nothing.
#[test]
fn a_config_git_refuses_stops_recall_before_it_writes() {
    let env = Env::new();
    let repo = handed_off(&env);
    let mut config =
        std::fs::OpenOptions::new().append(true).open(repo.path.join(".git/config")).unwrap();
    config.write_all(b"[alias]\n\tx = \"unterminated\n").unwrap();
    let listing = |dir: &str| {
        let mut names: Vec<_> = std::fs::read_dir(repo.path.join(dir))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name(), e.metadata().unwrap().len())
            })
            .collect();
        names.sort();
        names
    };
    let before = listing(".git/handoff");
    for args in [&["recall"][..], &["recall", "--hook", "claude"]] {
        let mut cmd = repo.handoff();
        cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(br#"{"source":"startup","session_id":"s9"}"#)
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(common::stderr(&out).contains("not a git repository"), "{out:?}");
    }
    assert_eq!(listing(".git/handoff"), before);
}
