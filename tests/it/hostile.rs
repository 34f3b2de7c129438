//! A cloned repository is untrusted: its committed `.handoff.toml` cannot make git-handoff write
//! into a git directory (hooks, config, index, HEAD) by any spelling, nor replace a file that
//! git-handoff did not write.

use crate::common;

use common::payloads::{bash_ok, record};
use common::{Env, Repo, stdout_ok};
use common::{started, stderr};

const HOOK: &str = "#!/bin/sh\necho the user's own hook\n";

/// The bytes of every file git keeps that a hostile path aims at.
fn git_files(repo: &Repo) -> Vec<(String, Option<Vec<u8>>)> {
    ["hooks/pre-push", "config", "index", "HEAD", "x/12.md", "x"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read(repo.path.join(".git").join(f)).ok()))
        .collect()
}

#[test]
fn config_paths_never_reach_the_git_directory() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    repo.write(".git/hooks/pre-push", HOOK);
    repo.chmod(".git/hooks/pre-push", 0o755);
    stdout_ok(repo.handoff().args(["progress", "plan", "One"]).output().unwrap());
    record(&repo, &bash_ok(&repo, "cargo build"));
    let before = git_files(&repo);
    let head = repo.head();
    for target in [
        ".git/hooks/pre-push",
        "./.git/hooks/pre-push",
        ".GIT/hooks/pre-push",
        ".git./hooks/pre-push",
        "GIT~1/hooks/pre-push",
        ".g\u{200c}it/hooks/pre-push",
        ".git/config",
        ".git/index",
        ".git/HEAD",
        "sub/.git/config",
    ] {
        for key in ["[progress]\nwrite", "[recall]\nrules_file", "note_dir"] {
            repo.write(".handoff.toml", format!("{key} = '{target}'\n"));
            for args in [
                &["progress", "set", "0", "done", "--files", "src/$(touch pwned).rs"][..],
                &["snapshot", "--prompt"][..],
            ] {
                let out = repo.handoff().args(args).output().unwrap();
                assert_eq!(out.status.code(), Some(2), "{key} = {target}, {args:?}: {out:?}");
                let err = stderr(&out);
                assert!(err.contains(".handoff.toml") && err.contains("git directory"), "{err}");
            }
        }
        assert_eq!(git_files(&repo), before, "{target}");
        assert_eq!(repo.head(), head);
    }
    // The hard-limit path is never stopped by the config: the emergency note goes where the
    // defaults put it, the warning names the line, and nothing reaches the git directory.
    repo.write(".handoff.toml", "notes_ref = 'refs/notes/handoff'\nnote_dir = '.git/hooks'\n");
    let out = repo.handoff().args(["note", "--emergency", "--reason", "time_limit"]).output();
    let out = out.unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains(".handoff.toml:2: note_dir") && err.contains("git directory"), "{err}");
    assert!(err.contains("`note_dir`"), "{err}");
    let files = repo.git_text(["show", "--name-only", "--format=%s"]);
    assert_eq!(files.trim_end(), "Handoff note: issue #12\n\n.agent/handoff/12.md");
    let note = String::from_utf8(repo.read(".agent/handoff/12.md")).unwrap();
    assert!(
        note.contains("Configuration: ") && note.contains(".handoff.toml:2: note_dir"),
        "{note}"
    );
    assert_eq!(repo.read(".git/hooks/pre-push"), HOOK.as_bytes());
}

#[test]
fn a_link_to_the_git_directory_is_not_followed() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    repo.write(".git/hooks/pre-push", HOOK);
    stdout_ok(repo.handoff().args(["progress", "plan", "One"]).output().unwrap());
    repo.symlink(".git", "meta");
    repo.write(".handoff.toml", "[progress]\nwrite = \"meta/hooks/pre-push\"\n");
    let out = repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(repo.read(".git/hooks/pre-push"), HOOK.as_bytes());
}

#[test]
fn a_git_directory_under_another_name_is_refused_at_run_time() {
    // `git --git-dir=.repo --work-tree=.`: the git dir sits in the work tree, named otherwise.
    let env = Env::new();
    let repo = started(&env, "r", 12);
    stdout_ok(repo.handoff().args(["progress", "plan", "One"]).output().unwrap());
    std::fs::rename(repo.path.join(".git"), repo.path.join(".repo")).unwrap();
    repo.write(".repo/hooks/pre-push", HOOK);
    repo.write(".handoff.toml", "[progress]\nwrite = \".repo/hooks/pre-push\"\n");
    let out = repo
        .handoff()
        .env("GIT_DIR", repo.path.join(".repo"))
        .env("GIT_WORK_TREE", &repo.path)
        .args(["progress", "set", "0", "done"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("inside the git directory"), "{}", stderr(&out));
    assert_eq!(repo.read(".repo/hooks/pre-push"), HOOK.as_bytes());
}

#[test]
fn the_progress_file_replaces_only_a_change_summary() {
    let env = Env::new();
    let repo = started(&env, "r", 12);
    stdout_ok(repo.handoff().args(["progress", "plan", "One", "Two"]).output().unwrap());
    repo.write("NOTES.md", "my own notes\n");
    repo.chmod("NOTES.md", 0o755);
    repo.write(".handoff.toml", "[progress]\nwrite = \"NOTES.md\"\n");
    let out = repo.handoff().args(["progress", "set", "0", "done"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("not a change summary"), "{}", stderr(&out));
    assert_eq!(repo.read("NOTES.md"), b"my own notes\n");

    // A path of its own is written, and written again.
    repo.write(".handoff.toml", "[progress]\nwrite = \".agent/progress.md\"\n");
    for status in ["in_progress", "done"] {
        stdout_ok(repo.handoff().args(["progress", "set", "1", status]).output().unwrap());
        let text = String::from_utf8(repo.read(".agent/progress.md")).unwrap();
        assert!(text.starts_with("# Change summary"), "{text}");
    }
    // A path the caller names on the command line may be anywhere.
    let elsewhere = env.root.path().join("artifacts/summary.md");
    let out = repo.handoff().args(["progress", "show", "--write"]).arg(&elsewhere).output();
    stdout_ok(out.unwrap());
    assert!(std::fs::read_to_string(&elsewhere).unwrap().starts_with("# Change summary"));
}
