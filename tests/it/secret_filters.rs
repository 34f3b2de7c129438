//! A secret behind a clean filter never reaches the filter: `git add` would run it (git-lfs copies
//! the content into `.git/lfs/objects`) and stage only a pointer, so seal scans such files in the
//! work tree first and keeps a secret one out of `git add`. Played with a filter that keeps what
//! it is given in a store of its own, and with the real git-lfs where it is installed.

use crate::common;

use common::{Env, Repo, started, stderr};

const TOKEN: &str = "ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3";

fn seal_json(repo: &Repo) -> serde_json::Value {
    let out = repo.handoff().args(["seal", "--json"]).output().unwrap();
    // Exit 1: a file was left out, as the report says.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn skipped(report: &serde_json::Value) -> Vec<String> {
    let list = report["skipped"].as_array().unwrap();
    list.iter().map(|s| s["path"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_secret_behind_a_clean_filter_never_reaches_the_filter() {
    let env = Env::new();
    let repo = started(&env, "r", 56);
    // The filter keeps every byte it is given, as git-lfs keeps objects, and stages a pointer.
    let clean = "sh -c 'tee -a \"$(git rev-parse --git-dir)/filter-store\" | wc -c'";
    repo.git(["config", "filter.store.clean", clean]);
    repo.git(["config", "filter.store.smudge", "cat"]);
    repo.write(".gitattributes", "*.bin filter=store\n");
    repo.write("assets/key.bin", format!("token {TOKEN}\n"));
    repo.write("assets/image.bin", "plain bytes\n");
    let report = seal_json(&repo);
    assert_eq!(skipped(&report), ["assets/key.bin"], "{report}");
    let why = report["skipped"][0]["why"].as_str().unwrap();
    assert!(why.contains("before the `store` clean filter"), "{why}");
    let store = std::fs::read_to_string(repo.path.join(".git/filter-store")).unwrap_or_default();
    assert!(!store.contains(TOKEN), "the filter saw the secret: {store}");
    assert!(store.contains("plain bytes"), "the other file went through the filter: {store}");
    let sealed = repo.git_text(["show", "--name-only", "--format="]);
    assert!(sealed.contains("assets/image.bin") && !sealed.contains("key.bin"), "{sealed}");
    // The secret stays in the work tree, uncommitted.
    assert!(repo.git_text(["status", "--porcelain"]).contains("assets/key.bin"));
}

#[test]
fn a_secret_tracked_by_git_lfs_stays_out_of_its_store() {
    if std::process::Command::new("git-lfs").arg("version").output().is_err() {
        eprintln!("SKIPPED: git-lfs is not installed (apt-get install git-lfs)");
        return;
    }
    let env = Env::new();
    let repo = started(&env, "r", 56);
    repo.git(["lfs", "install", "--local"]);
    repo.git(["lfs", "track", "*.pem"]);
    repo.write(
        "deploy/id.pem",
        format!(
            "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----\n",
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW".repeat(3)
        ),
    );
    let report = seal_json(&repo);
    assert!(skipped(&report).contains(&"deploy/id.pem".to_string()), "{report}");
    let objects = repo.path.join(".git/lfs/objects");
    let stored = std::process::Command::new("grep")
        .args(["-r", "-l", "PRIVATE KEY"])
        .arg(&objects)
        .output()
        .unwrap();
    assert!(
        stored.stdout.is_empty(),
        "in the LFS store: {}",
        String::from_utf8_lossy(&stored.stdout)
    );
}
