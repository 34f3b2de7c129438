//! `hooks install|uninstall`, and real `git push`es to a bare remote through the installed
//! pre-push hook (which calls `git handoff`, so the binary's directory is put on PATH).

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{Env, Repo, path_with_binary};
use common::{STARTED, stderr};

const BEGIN: &str = "# >>> git-handoff >>>";

fn note(issue: u64, last: &str) -> String {
    format!(
        "# Handoff note: issue #{issue}\n\nissue: {issue}\nstarted_at: {STARTED}\n\
         reason: agent_request\nlast_work_commit: {last}\n\n## Summary\n\n- done\n\n\
         ## Remaining work\n\n- more\n\n## Evidence\n\nnone\n"
    )
}

fn install(repo: &Repo) -> Output {
    repo.git_handoff().args(["hooks", "install", "--pre-push"]).output().unwrap()
}

fn ok(out: Output) -> String {
    common::stdout_ok(out)
}

fn hook_path(repo: &Repo) -> PathBuf {
    repo.path.join(".git/hooks/pre-push")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o111 == 0o111
}

/// A repository with a bare remote `origin` at a file path, and `main` pushed there.
fn with_remote(env: &Env, name: &str) -> Repo {
    let repo = env.repo(name);
    let remote = env.root.path().join(format!("{name}-remote.git"));
    repo.git(["init", "-q", "--bare", remote.to_str().unwrap()]);
    repo.git(["remote", "add", "origin", remote.to_str().unwrap()]);
    repo.write("README", "base\n");
    repo.commit_all("base");
    repo.git(["push", "-q", "origin", "main"]);
    repo
}

/// `git push` with the binary on PATH, as a user's shell would run it.
fn push(repo: &Repo, args: &[&str]) -> Output {
    let mut cmd = repo.git_cmd(["push"]);
    cmd.args(args).env("PATH", path_with_binary());
    cmd.output().unwrap()
}

/// A branch with a work commit and a good note commit on it.
fn good_branch(repo: &Repo, branch: &str, issue: u64) {
    repo.git(["checkout", "-q", "-b", branch, "main"]);
    repo.write(format!("{branch}.txt"), "work\n");
    let last = repo.commit_all("work");
    repo.write(format!(".agent/handoff/{issue}.md"), note(issue, &last));
    repo.git(["add", "-A"]);
    repo.git(["commit", "-q", "-m", &format!("Handoff note: issue #{issue}")]);
}

/// A branch whose note is followed by a work commit.
fn bad_branch(repo: &Repo, branch: &str) {
    good_branch(repo, branch, 9);
    repo.write("late.txt", "late\n");
    repo.commit_all("late work");
}

#[test]
fn install_creates_an_executable_hook_once_and_uninstall_removes_it() {
    let env = Env::new();
    let repo = env.repo("r");
    let out = ok(install(&repo));
    assert!(out.contains("created"), "{out}");
    let path = hook_path(&repo);
    let first = read(&path);
    assert!(first.starts_with(&format!("#!/bin/sh\n{BEGIN}\n")), "{first}");
    assert!(is_executable(&path));
    let out = ok(install(&repo));
    assert!(out.contains("already installed"), "{out}");
    assert_eq!(read(&path), first);
    assert_eq!(first.matches(BEGIN).count(), 1);
    let json: serde_json::Value = serde_json::from_str(&ok(repo
        .git_handoff()
        .args(["hooks", "uninstall", "--json"])
        .output()
        .unwrap()))
    .unwrap();
    assert_eq!(json["hooks"][0]["action"], "removed_file");
    assert!(!path.exists());
    let out = ok(repo.git_handoff().args(["hooks", "uninstall"]).output().unwrap());
    assert!(out.contains("no git-handoff block"), "{out}");
}

#[test]
fn an_existing_hook_is_kept_and_restored_byte_for_byte() {
    let env = Env::new();
    let repo = env.repo("r");
    let user = "#!/bin/bash\n# the user's hook\necho user-hook-ran >&2\nexit 0\n";
    let path = hook_path(&repo);
    std::fs::write(&path, user).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    ok(install(&repo));
    ok(install(&repo));
    let installed = read(&path);
    assert_eq!(installed.matches(BEGIN).count(), 1);
    assert!(installed.starts_with("#!/bin/bash\n# >>> git-handoff >>>\n"));
    assert!(installed.ends_with("echo user-hook-ran >&2\nexit 0\n"));
    assert!(is_executable(&path));
    ok(repo.git_handoff().args(["hooks", "uninstall"]).output().unwrap());
    assert_eq!(read(&path), user);

    // A hook in another language is not edited.
    std::fs::write(&path, "#!/usr/bin/env python3\nprint('hi')\n").unwrap();
    let out = install(&repo);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a shell script"), "{}", stderr(&out));
}

#[test]
fn hooks_path_and_linked_worktrees_are_honoured() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("README", "x\n");
    repo.commit_all("base");
    repo.git(["config", "core.hooksPath", ".githooks"]);
    std::fs::create_dir_all(repo.path.join("sub")).unwrap();
    let sub = repo.at(repo.path.join("sub"));
    ok(install(&sub));
    assert!(repo.path.join(".githooks/pre-push").is_file());
    assert!(!hook_path(&repo).exists());
    repo.git(["config", "--unset", "core.hooksPath"]);

    let linked = env.root.path().join("linked");
    repo.git(["worktree", "add", "-q", linked.to_str().unwrap()]);
    ok(install(&repo.at(&linked)));
    assert!(hook_path(&repo).is_file(), "the common git dir's hooks/");
}

#[test]
fn a_real_push_through_the_hook() {
    let env = Env::new();
    let repo = with_remote(&env, "r");
    ok(install(&repo));

    good_branch(&repo, "good", 7);
    let out = push(&repo, &["-q", "origin", "good"]);
    assert!(out.status.success(), "good branch refused: {}", stderr(&out));

    bad_branch(&repo, "bad");
    let out = push(&repo, &["-q", "origin", "bad"]);
    assert!(!out.status.success(), "bad branch pushed");
    let err = stderr(&out);
    assert!(err.contains("late work") && err.contains("above the note commit"), "{err}");
    assert!(err.contains("push refused"), "{err}");
    assert!(
        repo.git_cmd(["ls-remote", "--exit-code", "origin", "bad"]).output().unwrap().status.code()
            == Some(2)
    );

    // Deleting a remote branch passes, as does a push of nothing new.
    let out = push(&repo, &["-q", "origin", "--delete", "good"]);
    assert!(out.status.success(), "deletion refused: {}", stderr(&out));
    let out = push(&repo, &["-q", "origin", "main"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_push_of_several_branches_is_checked_branch_by_branch() {
    // What the pre-commit framework cannot do (it hands its hooks the first branch only): the
    // plain hook sees every pushed ref, so a bad branch behind a good one is still refused.
    let env = Env::new();
    let repo = with_remote(&env, "r");
    ok(install(&repo));
    good_branch(&repo, "good", 7);
    bad_branch(&repo, "bad");
    let out = push(&repo, &["-q", "origin", "good", "bad"]);
    assert!(!out.status.success(), "a bad second branch was pushed");
    assert!(stderr(&out).contains("late work"), "{}", stderr(&out));
}

#[test]
fn the_users_hook_still_runs_with_full_stdin_and_cannot_mask_a_failure() {
    let env = Env::new();
    let repo = with_remote(&env, "r");
    let seen = env.root.path().join("seen.txt");
    // The user's hook reads stdin, records it and its arguments, and ends with `exit 0`.
    let user = format!(
        "#!/bin/sh\ncat > '{seen}'\necho \"args: $1\" >> '{seen}'\necho user-hook-ran >&2\nexit 0\n",
        seen = seen.display()
    );
    let path = hook_path(&repo);
    std::fs::write(&path, user).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    ok(install(&repo));

    good_branch(&repo, "good", 7);
    let out = push(&repo, &["-q", "origin", "good"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("user-hook-ran"));
    let head = repo.head();
    let got = read(&seen);
    assert!(got.starts_with(&format!("refs/heads/good {head} refs/heads/good ")), "{got}");
    assert!(got.ends_with("args: origin\n"), "{got}");

    bad_branch(&repo, "bad");
    std::fs::remove_file(&seen).unwrap();
    let out = push(&repo, &["-q", "origin", "bad"]);
    assert!(!out.status.success(), "the user's `exit 0` masked the failed check");
    assert!(stderr(&out).contains("push refused"));
    assert!(stderr(&out).contains("user-hook-ran"), "the user's hook runs too");
    assert!(read(&seen).contains("refs/heads/bad"), "with the full stdin");

    // And a failing user hook refuses a push our check passes.
    std::fs::write(&path, read(&path).replace("exit 0", "exit 3")).unwrap();
    good_branch(&repo, "good2", 8);
    let out = push(&repo, &["-q", "origin", "good2"]);
    assert!(!out.status.success(), "the user's failure was lost");
    assert!(!stderr(&out).contains("push refused"), "{}", stderr(&out));
}
