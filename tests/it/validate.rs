//! `validate`: good layouts pass, each broken layout fails naming the field or commit, pre-push
//! ranges, and a seeded fuzz loop over mutated notes that must never panic.

use crate::common;

use std::io::Write;
use std::process::{Output, Stdio};

use common::STARTED;
use common::{Env, Repo, Rng};
use git_handoff::api::Config;
use git_handoff::api::check_note_file;
use git_handoff::api::{EMERGENCY_SECTIONS, Note};
use serde_json::Value;

const ZERO: &str = "0000000000000000000000000000000000000000";

fn agent_note(issue: u64, last: &str) -> String {
    format!(
        "# Handoff note: issue #{issue}\n\nissue: {issue}\nstarted_at: {STARTED}\n\
         reason: token_soft_threshold\nlast_work_commit: {last}\n\n## Summary\n\n- Added the parser\n\
         - All tests pass\n\n## Remaining work\n\n- Wire it into the CLI\n\n## Evidence\n\n\
         `cargo test` passed.\n"
    )
}

fn emergency_note(issue: u64, last: &str) -> String {
    let mut text = format!(
        "# Handoff note: issue #{issue}\n\nissue: {issue}\nstarted_at: {STARTED}\n\
         reason: token_hard_limit\nlast_work_commit: {last}\n"
    );
    for name in EMERGENCY_SECTIONS {
        text.push_str(&format!("\n## {name}\n\nnot available\n"));
    }
    text
}

fn note_path(issue: u64) -> String {
    format!(".agent/handoff/{issue}.md")
}

/// A repository with one base commit and an attempt on issue 7 started from it.
fn attempt(env: &Env, name: &str) -> (Repo, String) {
    let repo = env.repo(name);
    repo.write("README", "base\n");
    let base = repo.commit_all("base");
    let out = repo.handoff().args(["start", "--issue", "7", "--started-at", STARTED]).output();
    assert!(out.unwrap().status.success());
    (repo, base)
}

fn work(repo: &Repo, name: &str) -> String {
    repo.write(name, format!("{name}\n"));
    repo.commit_all(&format!("work on {name}"))
}

/// Commits `text` as the note of `issue`, alone, with the note commit message.
fn commit_note(repo: &Repo, issue: u64, text: &str) -> String {
    commit_file_as_note(repo, &note_path(issue), issue, text.as_bytes())
}

fn commit_file_as_note(repo: &Repo, path: &str, issue: u64, bytes: &[u8]) -> String {
    repo.write(path, bytes);
    repo.git(["add", "--", path]);
    repo.git(["commit", "-q", "-m", &format!("Handoff note: issue #{issue}")]);
    repo.head()
}

fn seal(repo: &Repo, file: &str) -> String {
    repo.write(file, "sealed\n");
    repo.git(["add", "-A"]);
    let msg = format!("Seal uncommitted work\n\nHandoff-Seal: {STARTED}");
    repo.git(["commit", "-q", "-m", &msg]);
    repo.head()
}

fn validate(repo: &Repo, args: &[&str]) -> Output {
    repo.handoff().arg("validate").args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn assert_passes(repo: &Repo, args: &[&str]) {
    let out = validate(repo, args);
    assert_eq!(out.status.code(), Some(0), "expected a pass:\n{}", text(&out));
}

/// Asserts exit 1 and that some problem line contains every needle.
fn assert_fails_with(repo: &Repo, needles: &[&str]) -> String {
    let out = validate(repo, &[]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "expected a failure:\n{all}");
    assert!(
        all.lines().any(|l| needles.iter().all(|n| l.contains(n)) && l.contains(" — ")),
        "no problem line holds {needles:?}:\n{all}"
    );
    all
}

#[test]
fn good_layouts_pass() {
    let env = Env::new();

    let (repo, _) = attempt(&env, "work-then-note");
    work(&repo, "a.txt");
    let last = work(&repo, "b.txt");
    commit_note(&repo, 7, &agent_note(7, &last));
    assert_passes(&repo, &[]);

    let (repo, base) = attempt(&env, "note-without-work");
    commit_note(&repo, 7, &agent_note(7, &base));
    assert_passes(&repo, &[]);

    let (repo, _) = attempt(&env, "note-then-seal");
    let last = work(&repo, "a.txt");
    commit_note(&repo, 7, &agent_note(7, &last));
    seal(&repo, "dirty.txt");
    assert_passes(&repo, &[]);

    let (repo, _) = attempt(&env, "seal-then-emergency");
    work(&repo, "a.txt");
    let sealed = seal(&repo, "dirty.txt");
    commit_note(&repo, 7, &emergency_note(7, &sealed));
    assert_passes(&repo, &[]);
    let json: Value = serde_json::from_slice(&validate(&repo, &["--json"]).stdout).unwrap();
    assert_eq!(json["ok"], true);
    assert_eq!(json["notes"][0]["kind"], "emergency");

    // Run as `git handoff` through git's dispatch too.
    let out = repo.git_handoff().arg("validate").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn a_range_without_notes_and_an_unborn_branch_pass() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "r");
    work(&repo, "a.txt");
    assert_passes(&repo, &[]);
    let empty = env.repo("empty");
    assert_passes(&empty, &[]);
}

#[test]
fn crlf_bom_notes_and_configured_reasons_pass() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "r");
    let last = work(&repo, "a.txt");
    let note = agent_note(7, &last).replace("token_soft_threshold", "ci_timeout");
    let crlf = format!("\u{feff}{}", note.replace('\n', "\r\n"));
    repo.write(".handoff.toml", "reasons = [\"ci_timeout\"]\n");
    commit_note(&repo, 7, &crlf);
    assert_passes(&repo, &[]);
}

#[test]
fn missing_and_reordered_fields_are_named_with_their_line() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "missing");
    let last = work(&repo, "a.txt");
    commit_note(&repo, 7, &agent_note(7, &last).replace("reason: token_soft_threshold\n", ""));
    assert_fails_with(&repo, &[".agent/handoff/7.md:5:", "`reason` is missing"]);

    let (repo, _) = attempt(&env, "reordered");
    let last = work(&repo, "a.txt");
    let swapped = agent_note(7, &last).replace(
        &format!("reason: token_soft_threshold\nlast_work_commit: {last}"),
        &format!("last_work_commit: {last}\nreason: token_soft_threshold"),
    );
    commit_note(&repo, 7, &swapped);
    assert_fails_with(&repo, &[".agent/handoff/7.md:6:", "`reason` is out of order"]);
}

#[test]
fn wrong_last_work_commit_names_the_parent() {
    let env = Env::new();
    let (repo, base) = attempt(&env, "r");
    let last = work(&repo, "a.txt");
    commit_note(&repo, 7, &agent_note(7, &base));
    assert_fails_with(&repo, &[".agent/handoff/7.md:6:", "last_work_commit", &last]);
}

#[test]
fn work_after_the_note_is_named() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "r");
    let last = work(&repo, "a.txt");
    let note = commit_note(&repo, 7, &agent_note(7, &last));
    let after = work(&repo, "late.txt");
    let all = assert_fails_with(&repo, &[&after[..12], "work on late.txt", "above the note"]);
    assert!(all.contains(&note[..12]), "{all}");
}

#[test]
fn two_seals_and_a_seal_touching_the_note_fail() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "two");
    let last = work(&repo, "a.txt");
    commit_note(&repo, 7, &agent_note(7, &last));
    seal(&repo, "one.txt");
    let second = seal(&repo, "two.txt");
    assert_fails_with(&repo, &[&second[..12], "second seal"]);

    let (repo, _) = attempt(&env, "touching");
    let last = work(&repo, "a.txt");
    let text = agent_note(7, &last);
    commit_note(&repo, 7, &text);
    repo.write(note_path(7), format!("{text}- edited later\n"));
    let sealed = seal(&repo, "dirty.txt");
    assert_fails_with(&repo, &[&sealed[..12], "seal commit", "changes the note file"]);
}

/// REV is read as git reads it: HEAD (on a branch, detached, in a linked worktree), a branch, a
/// tag, a tag and a branch of one name (the tag wins), revision syntax, a full id. Each range holds
/// the commits `git rev-list --count` counts.
#[test]
fn a_rev_names_the_commit_git_names() {
    let env = Env::new();
    let repo = env.repo("revs");
    for i in 0..5 {
        work(&repo, &format!("f{i}.txt"));
    }
    repo.git(["tag", "v1", "HEAD~2"]);
    repo.git(["branch", "dup", "HEAD~1"]);
    repo.git(["tag", "-a", "-m", "annotated", "dup", "HEAD~3"]);
    let check = |at: &Repo, rev: &str| {
        let out = at.handoff().args(["validate", rev, "--json"]).output().unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        let count: u64 = at.git_text(["rev-list", "--count", rev]).trim().parse().unwrap();
        assert_eq!(report["commits"].as_u64(), Some(count), "{rev}: {report}");
    };
    let full = repo.git_text(["rev-parse", "HEAD~4"]);
    for rev in ["HEAD", "main", "v1", "dup", "refs/heads/dup", "HEAD~1", "dup^", full.trim()] {
        check(&repo, rev);
    }
    repo.git(["checkout", "-q", "--detach", "HEAD~1"]);
    check(&repo, "HEAD");
    let linked = repo.path.with_file_name("revs-linked");
    repo.git(["worktree", "add", "-q", "--detach", linked.to_str().unwrap(), "HEAD~2"]);
    check(&repo.at(&linked), "HEAD");
    check(&repo, "HEAD");
}

/// The files a note commit changes besides its note are those `git diff-tree -r --no-renames`
/// lists, on random trees: nested and renamed files, deletions, mode changes, symlinks, a file
/// turned into a symlink, unicode, spaces and newlines in names.
#[test]
fn the_other_files_a_note_commit_changes_are_those_git_lists() {
    let env = Env::new();
    for seed in 0..12 {
        let repo = env.repo(&format!("others-{seed}"));
        common::random_dirty_tree(&repo, seed);
        repo.git(["add", "-A"]);
        let note = commit_file_as_note(&repo, &note_path(7), 7, agent_note(7, ZERO).as_bytes());
        let out = validate(&repo, &["--base", "HEAD~1", "--json"]);
        let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        let listed = report["problems"].as_array().unwrap().iter().find_map(|p| {
            p["what"].as_str()?.strip_prefix("the note commit also changes ").map(str::to_string)
        });
        let mut ours: Vec<String> =
            listed.map(|l| l.split(", ").map(str::to_string).collect()).unwrap_or_default();
        let raw =
            repo.git(["diff-tree", "-r", "-z", "--no-renames", "--name-only", "HEAD~1", &note]);
        let mut git: Vec<String> = raw
            .split(|&b| b == 0)
            .filter(|name| !name.is_empty() && *name != note_path(7).as_bytes())
            .map(|name| String::from_utf8_lossy(name).into_owned())
            .collect();
        ours.sort();
        git.sort();
        assert_eq!(ours, git, "seed {seed}");
    }
}

#[test]
fn a_note_commit_touching_other_files_lists_them() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "r");
    let last = work(&repo, "a.txt");
    repo.write("other.txt", "x\n");
    repo.write("src/more.rs", "y\n");
    repo.git(["add", "other.txt", "src/more.rs"]);
    let note = commit_note(&repo, 7, &agent_note(7, &last));
    assert_fails_with(&repo, &[&note[..12], "also changes", "other.txt", "src/more.rs"]);
}

#[test]
fn bad_values_are_named() {
    let env = Env::new();
    let cases: [(&str, &str, &str, &[&str]); 4] = [
        ("reason", "reason: token_soft_threshold", "reason: sleepy", &["7.md:5:", "\"sleepy\""]),
        (
            "time",
            &format!("started_at: {STARTED}"),
            "started_at: yesterday",
            &["7.md:4:", "RFC 3339"],
        ),
        ("title", "# Handoff note: issue #7", "# Handoff note: issue #8", &["7.md:3:", "title"]),
        ("field", "issue: 7", "issue: 9", &["7.md:3:", "file name 7.md"]),
    ];
    for (name, from, to, needles) in cases {
        let (repo, _) = attempt(&env, name);
        let last = work(&repo, "a.txt");
        commit_note(&repo, 7, &agent_note(7, &last).replace(from, to));
        assert_fails_with(&repo, needles);
    }
}

#[test]
fn missing_section_and_binary_notes_fail() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "section");
    let last = work(&repo, "a.txt");
    let note = agent_note(7, &last);
    let cut = note.split("## Evidence").next().unwrap();
    commit_note(&repo, 7, cut);
    assert_fails_with(&repo, &[".agent/handoff/7.md:", "`## Evidence` is missing"]);

    let (repo, _) = attempt(&env, "binary");
    let last = work(&repo, "a.txt");
    let mut bytes = agent_note(7, &last).into_bytes();
    bytes.extend_from_slice(b"\x00\x01\x02\xff");
    commit_file_as_note(&repo, &note_path(7), 7, &bytes);
    assert_fails_with(&repo, &[".agent/handoff/7.md:", "binary"]);

    let (repo, _) = attempt(&env, "latin1");
    let last = work(&repo, "a.txt");
    let bytes = agent_note(7, &last).replace("Added", "Add\u{e9}d").into_bytes();
    let latin1: Vec<u8> =
        bytes.iter().flat_map(|&b| if b == 0xc3 { None } else { Some(b) }).collect();
    let latin1: Vec<u8> = latin1.into_iter().map(|b| if b == 0xa9 { 0xe9 } else { b }).collect();
    commit_file_as_note(&repo, &note_path(7), 7, &latin1);
    assert_fails_with(&repo, &[".agent/handoff/7.md:10:", "not UTF-8"]);
}

#[test]
fn every_problem_is_reported_and_json_has_the_same_list() {
    let env = Env::new();
    let (repo, base) = attempt(&env, "r");
    work(&repo, "a.txt");
    let note = agent_note(7, &base)
        .replace("reason: token_soft_threshold", "reason: sleepy")
        .replace(&format!("started_at: {STARTED}"), "started_at: soon")
        .replace("## Evidence", "## Proof");
    repo.write("stray.txt", "x\n");
    repo.git(["add", "stray.txt"]);
    commit_note(&repo, 7, &note);
    work(&repo, "late.txt");
    let out = validate(&repo, &[]);
    let human = String::from_utf8(out.stdout).unwrap();
    let problem_lines: Vec<&str> = human.lines().filter(|l| l.contains(" — ")).collect();
    assert!(problem_lines.len() >= 6, "{human}");

    let out = validate(&repo, &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["ok"], false);
    let problems = json["problems"].as_array().unwrap();
    assert_eq!(problems.len(), problem_lines.len());
    for (p, line) in problems.iter().zip(&problem_lines) {
        let loc = match p["line"].as_u64() {
            Some(n) => format!("{}:{n}: ", p["location"].as_str().unwrap()),
            None => format!("{}: ", p["location"].as_str().unwrap()),
        };
        assert!(line.starts_with(&loc), "{line} vs {p}");
        assert!(
            line.contains(p["what"].as_str().unwrap())
                && line.contains(p["mend"].as_str().unwrap())
        );
    }
    assert_eq!(json["notes"][0]["path"], ".agent/handoff/7.md");
    assert_eq!(json["notes"][0]["issue"], 7);
}

#[test]
fn issue_filter_base_and_rev_choose_what_is_checked() {
    let env = Env::new();
    let (repo, base) = attempt(&env, "r");
    let last = work(&repo, "a.txt");
    commit_note(&repo, 7, &agent_note(7, &last));
    let bad = commit_note(&repo, 8, &agent_note(8, "nope"));
    assert_fails_with(&repo, &["8.md:6:", "last_work_commit"]);
    // --issue 8 still sees its own problems; --issue 7 sees the commit above its note.
    let out = validate(&repo, &["--issue", "8"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out).contains("7.md"));
    // REV and --base cut the range.
    assert_passes(&repo, &[&format!("{bad}~1")]);
    assert_passes(&repo, &["--base", &bad]);
    // Without an attempt and without an upstream, all history is checked.
    std::fs::remove_dir_all(repo.path.join(".git/handoff")).unwrap();
    assert_fails_with(&repo, &["8.md:6:"]);
    assert_passes(&repo, &["--base", &bad]);
    // The full id of an annotated tag is peeled to its commit, as `git rev-parse REV^{commit}`
    // peels it; the full id of a blob names no commit.
    repo.git(["tag", "-a", "-m", "cut", "cut", &bad]);
    let tag = repo.git_text(["rev-parse", "cut"]);
    assert_ne!(tag, bad);
    assert_passes(&repo, &["--base", &tag]);
    let blob = repo.git_text(["rev-parse", &format!("{bad}:{}", note_path(8))]);
    let out = validate(&repo, &["--base", &blob]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let _ = base;
}

#[test]
fn a_path_only_note_commit_is_found_and_needs_the_message() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "r");
    let last = work(&repo, "a.txt");
    repo.write(note_path(7), agent_note(7, &last));
    let id = repo.commit_all("notes");
    assert_fails_with(&repo, &[&id[..12], "Handoff note: issue #7"]);
    // Deleting a note is a clean-up, not a note commit.
    let (repo, _) = attempt(&env, "deleted");
    let last = work(&repo, "a.txt");
    let note = commit_note(&repo, 7, &agent_note(7, &last));
    repo.git(["rm", "-q", &note_path(7)]);
    repo.git(["commit", "-q", "-m", "drop the note"]);
    assert_passes(&repo, &["--base", &note]);
}

fn pre_push(repo: &Repo, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = repo.handoff();
    cmd.args(["validate", "--pre-push"]).args(args).envs(env.iter().copied());
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn pre_push_checks_only_what_the_push_adds() {
    let env = Env::new();
    let remote = env.root.path().join("remote.git");
    let (repo, base) = attempt(&env, "r");
    repo.git(["init", "-q", "--bare", remote.to_str().unwrap()]);
    repo.git(["remote", "add", "origin", remote.to_str().unwrap()]);
    // An old broken note, already on the remote.
    let old = commit_note(&repo, 3, &agent_note(3, &base[..12]));
    repo.git(["push", "-q", "origin", "main"]);
    let last = work(&repo, "a.txt");
    let good = commit_note(&repo, 7, &agent_note(7, &last));

    let line =
        |local: &str, remote: &str| format!("refs/heads/main {local} refs/heads/main {remote}\n");
    let ok = pre_push(&repo, &["origin", "url"], &line(&good, &old), &[]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok));
    assert!(ok.stdout.is_empty() && ok.stderr.is_empty(), "{}", text(&ok));
    // New branch: the remote's other refs are excluded.
    let new_branch = format!("refs/heads/x {good} refs/heads/x {ZERO}\n");
    assert_eq!(pre_push(&repo, &["origin", "url"], &new_branch, &[]).status.code(), Some(0));
    // Deletions and empty input pass; 64-zero ids are zeros too.
    let deletion = format!(
        "(delete) {ZERO} refs/heads/x {good}\n(delete) {} refs/heads/y {good}\n",
        "0".repeat(64)
    );
    assert_eq!(pre_push(&repo, &["origin", "url"], &deletion, &[]).status.code(), Some(0));
    assert_eq!(pre_push(&repo, &["origin", "url"], "", &[]).status.code(), Some(0));
    // A push that adds the old broken note fails, on stderr.
    let all = format!("refs/heads/x {good} refs/heads/x {ZERO}\n");
    let out = pre_push(&repo, &["elsewhere", "/nowhere"], &all, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3.md:6: last_work_commit") && err.contains("push refused"), "{err}");
    // The pre-commit framework's variables.
    let vars = [("PRE_COMMIT_FROM_REF", old.as_str()), ("PRE_COMMIT_TO_REF", good.as_str())];
    assert_eq!(pre_push(&repo, &[], "", &vars).status.code(), Some(0));
    let vars = [("PRE_COMMIT_FROM_REF", base.as_str()), ("PRE_COMMIT_TO_REF", good.as_str())];
    assert_eq!(pre_push(&repo, &[], "", &vars).status.code(), Some(1));
    // Annotated tags are peeled; a tag of a tree adds no commits.
    repo.git(["tag", "-a", "-m", "t", "t", &good]);
    repo.git(["tag", "-a", "-m", "tree", "tt", &format!("{good}^{{tree}}")]);
    let tags = format!(
        "refs/tags/t {} refs/tags/t {ZERO}\nrefs/tags/tt {} refs/tags/tt {ZERO}\n",
        repo.git_text(["rev-parse", "t"]),
        repo.git_text(["rev-parse", "tt"])
    );
    let out = pre_push(&repo, &["origin", "url"], &tags, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Malformed input is an error of the command.
    assert_eq!(pre_push(&repo, &["origin"], "garbage\n", &[]).status.code(), Some(2));
}

/// A small deterministic mutation of a valid note.
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    let pieces: &[&[u8]] = &[
        b"\n",
        b"\r\n",
        b"## ",
        b"# ",
        b"issue: ",
        b"```\n",
        b"~~~",
        b"- ",
        b"1. ",
        b":",
        b"\xEF\xBB\xBF",
        b"\xff",
        b"\x00",
        b"\xe2\x82",
        b"## Provenance\n",
        b"reason: x\n",
        b"#",
        b"\t",
        b" ",
    ];
    for _ in 0..1 + rng.below(6) {
        let at = if bytes.is_empty() { 0 } else { rng.below(bytes.len() + 1) };
        match rng.below(5) {
            0 if !bytes.is_empty() && at < bytes.len() => {
                bytes.remove(at);
            }
            1 if at < bytes.len() => bytes[at] = rng.next() as u8,
            2 => {
                let piece = rng.pick(pieces);
                bytes.splice(at..at, piece.iter().copied());
            }
            3 if !bytes.is_empty() => {
                let end = (at + rng.below(40)).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            _ => {
                let end = (at + rng.below(30)).min(bytes.len());
                let copy: Vec<u8> = bytes[at.min(end)..end].to_vec();
                let to = rng.below(bytes.len() + 1);
                bytes.splice(to..to, copy);
            }
        }
    }
}

#[test]
fn mutated_notes_never_panic_and_round_trip() {
    let config = Config::default();
    let seeds = [agent_note(7, &"a".repeat(40)), emergency_note(7, &"b".repeat(40))];
    let mut rng = Rng::new(4);
    for case in 0..20_000 {
        let mut bytes = seeds[case % 2].clone().into_bytes();
        mutate(&mut rng, &mut bytes);
        let problems = check_note_file(&config, ".agent/handoff/7.md", &bytes);
        for p in &problems {
            assert!(p.line.is_some_and(|l| l >= 1), "case {case}: {p:?}");
            assert!(!p.what.is_empty() && !p.mend.is_empty());
        }
        if let Ok(mut note) = Note::parse(&bytes) {
            assert_eq!(note.render(), bytes, "case {case}: render is not byte-stable");
            let sections = note.sections().to_vec();
            for s in &sections {
                for item in note.items(s) {
                    assert!(item.line <= item.last_line && item.last_line <= note.line_count());
                }
            }
            let n = note.line_count();
            note.append_to_line(rng.below(n + 2), " [unverified: x]");
            note.set_field("reason", "agent_request");
            note.insert_lines(rng.below(n + 3), &["- x"]);
            let _ = Note::parse(&note.render()).expect("an edited text note stays text");
        }
    }
}

#[test]
fn a_note_changed_on_a_side_branch_a_merge_left_out_is_still_found() {
    // git's path-limited walk without --full-history follows only the parent a merge kept, so it
    // never sees the side branch; the pushed range still holds that commit.
    let env = Env::new();
    let (repo, _) = attempt(&env, "r");
    repo.git(["checkout", "-q", "-b", "side"]);
    repo.write(note_path(7), "# draft\n");
    let side = repo.commit_all("draft a note");
    repo.git(["checkout", "-q", "main"]);
    work(&repo, "main.txt");
    repo.git(["merge", "-q", "--no-edit", "-s", "ours", "side"]);
    assert_fails_with(&repo, &[&side[..12], "Handoff note: issue #7"]);
}

#[test]
fn user_config_and_merges_do_not_confuse_the_listing() {
    let env = Env::new();
    let (repo, base) = attempt(&env, "r");
    for (key, value) in [
        ("log.showSignature", "true"),
        ("diff.relative", "true"),
        ("color.ui", "always"),
        ("log.decorate", "full"),
        ("diff.renames", "copies"),
    ] {
        repo.git(["config", key, value]);
    }
    repo.git(["checkout", "-q", "-b", "side"]);
    work(&repo, "side.txt");
    repo.git(["checkout", "-q", "main"]);
    work(&repo, "main.txt");
    repo.git(["merge", "-q", "--no-edit", "side"]);
    let merge = repo.head();
    commit_note(&repo, 7, &agent_note(7, &merge));
    std::fs::create_dir_all(repo.path.join("src")).unwrap();
    let sub = repo.at(repo.path.join("src"));
    assert_passes(&sub, &[]);
    let json: Value = serde_json::from_slice(&validate(&sub, &["--json"]).stdout).unwrap();
    assert_eq!(json["commits"], 4);
    assert_eq!(json["notes"][0]["path"], ".agent/handoff/7.md");
    let _ = base;
}

#[test]
fn any_byte_in_a_commit_message_is_fine() {
    let env = Env::new();
    let repo = env.repo("odd");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    repo.write("a.txt", "b\n");
    repo.git(["add", "a.txt"]);
    repo.git(["commit", "-q", "-m", "odd \u{1} \u{2} \u{3} bytes"]);
    let out = repo.handoff().args(["validate", "--base", "HEAD~1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// validate's own output is plain, so git's colour setting is asked for only when an error is
/// styled; it is still git's setting that decides there.
#[test]
fn an_error_is_coloured_as_git_says() {
    let env = Env::new();
    let (repo, _) = attempt(&env, "r");
    let stderr = |repo: &Repo| {
        let out = validate(repo, &["--base", "no-such-branch"]);
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let plain = stderr(&repo);
    assert!(plain.starts_with("error: ") && plain.contains("no-such-branch"), "{plain}");
    repo.git(["config", "color.ui", "always"]);
    let coloured = stderr(&repo);
    assert!(coloured.starts_with("\x1b[") && coloured.contains("no-such-branch"), "{coloured}");
    repo.git(["config", "color.handoff", "never"]);
    assert_eq!(stderr(&repo), plain);
}
