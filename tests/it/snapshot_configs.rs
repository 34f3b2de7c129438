//! The snapshot against git under each configuration git users run large trees with: plain,
//! `core.untrackedCache`, `feature.manyFiles` (index version 4 and the untracked cache),
//! `core.splitIndex`, and `core.fsmonitor` with git's watchman hook. Random dirty trees, changed
//! again after the configuration took hold (so the untracked cache and the monitor have something
//! to report) and, on every other seed, staged, must print git's bytes, the walk forced and as the
//! planner chooses.
//!
//! `SNAPSHOT_CONFIG_SEEDS=N` runs N seeds per configuration (default 3). The fsmonitor one needs
//! watchman (`apt-get install -y watchman`) and says `SKIPPED:` without it; each test starts its
//! own server on a socket in its temporary directory and shuts it down.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Env, Repo, Rng, content, random_dirty_tree, stdout_ok};
use crate::snapshot::{GitView, snapshot_walks};

fn seeds() -> u64 {
    std::env::var("SNAPSHOT_CONFIG_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3)
}

/// A watchman server of this test's own, ended when dropped. Every client (git's hook, the
/// `watch` here) runs through a `watchman` wrapper first on PATH that names the server's socket,
/// state, log and pid files under the test's directory.
struct Watchman {
    bin: PathBuf,
    pid: u32,
}

impl Watchman {
    /// A server under `dir`, or `None` (said loudly) where watchman or git's hook template is
    /// missing.
    fn start(dir: &Path) -> Option<Watchman> {
        let real = Command::new("sh").args(["-c", "command -v watchman"]).output().ok()?;
        let real = String::from_utf8(real.stdout).ok()?.trim().to_string();
        if template().is_none() || real.is_empty() {
            eprintln!("SKIPPED: watchman or git's fsmonitor-watchman hook is not installed");
            return None;
        }
        let bin = dir.join("watchman-bin");
        std::fs::create_dir_all(&bin).unwrap();
        let files = ["sockname", "statefile", "logfile", "pidfile"]
            .map(|f| format!("--{f}='{}'", dir.join(format!("watchman.{f}")).display()))
            .join(" ");
        let wrapper = format!("#!/bin/sh\nexec '{real}' {files} \"$@\"\n");
        std::fs::write(bin.join("watchman"), wrapper).unwrap();
        let chmod = Command::new("chmod").arg("755").arg(bin.join("watchman")).status().unwrap();
        assert!(chmod.success());
        let out = Command::new(bin.join("watchman")).arg("get-pid").output().ok()?;
        assert!(out.status.success(), "watchman: {}", String::from_utf8_lossy(&out.stderr));
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let pid = answer["pid"].as_u64().and_then(|p| u32::try_from(p).ok()).expect("its pid");
        Some(Watchman { bin, pid })
    }
}

impl Drop for Watchman {
    fn drop(&mut self) {
        // watchman 4.9 answers `shutdown-server` and keeps running: it is ended by its pid.
        let _ = Command::new("kill").arg(self.pid.to_string()).output();
    }
}

/// git's `fsmonitor-watchman.sample`, where this git keeps its templates.
fn template() -> Option<PathBuf> {
    let exec = Command::new("git").arg("--exec-path").output().ok()?;
    let exec = PathBuf::from(String::from_utf8(exec.stdout).ok()?.trim());
    let candidates = [
        exec.join("../../share/git-core/templates/hooks/fsmonitor-watchman.sample"),
        PathBuf::from("/usr/share/git-core/templates/hooks/fsmonitor-watchman.sample"),
    ];
    candidates.into_iter().find(|p| p.is_file())
}

/// Puts `repo` in configuration `name`; for `fsmonitor`, git's hook run against `watchman`, each
/// call counted in `.git/hook-calls`.
fn configure(repo: &Repo, name: &str, watchman: Option<&Watchman>) {
    match name {
        "plain" => {}
        "untracked-cache" => {
            repo.git(["config", "core.untrackedCache", "true"]);
            repo.git(["update-index", "--untracked-cache"]);
        }
        "many-files" => {
            repo.git(["config", "feature.manyFiles", "true"]);
            repo.git(["update-index", "--index-version", "4", "--untracked-cache"]);
        }
        "split-index" => {
            repo.git(["config", "core.splitIndex", "true"]);
            repo.git(["update-index", "--split-index"]);
        }
        "fsmonitor" => {
            let watchman = watchman.expect("a watchman server");
            let hook = repo.path.join(".git/hooks/query-watchman");
            let script = format!(
                "#!/bin/sh\necho called >>'{}'\nPATH='{}':$PATH exec '{}' \"$@\"\n",
                repo.path.join(".git/hook-calls").display(),
                watchman.bin.display(),
                template().unwrap().display(),
            );
            std::fs::create_dir_all(hook.parent().unwrap()).unwrap();
            std::fs::write(&hook, script).unwrap();
            repo.chmod(".git/hooks/query-watchman", 0o755);
            repo.git(["config", "core.fsmonitor", ".git/hooks/query-watchman"]);
            let out = Command::new(watchman.bin.join("watchman"))
                .arg("watch")
                .arg(&repo.path)
                .output()
                .unwrap();
            assert!(out.status.success(), "watch: {}", String::from_utf8_lossy(&out.stderr));
        }
        _ => unreachable!("no configuration {name}"),
    }
    // The first status fills what the configuration keeps, the second writes it in the index.
    repo.git(["status", "--porcelain"]);
    repo.git(["status", "--porcelain"]);
}

fn hook_calls(repo: &Repo) -> usize {
    std::fs::read_to_string(repo.path.join(".git/hook-calls")).map_or(0, |s| s.lines().count())
}

/// Random trees with history since the base and a dirty state, put in configuration `name`, then
/// changed again: the snapshot prints git's bytes.
fn random_trees_match_git_under(name: &str) {
    let env = Env::new();
    let watchman = if name == "fsmonitor" {
        match Watchman::start(env.root.path()) {
            Some(watchman) => Some(watchman),
            None => return,
        }
    } else {
        None
    };
    for seed in 0..seeds() {
        let repo = env.repo(&format!("{name}-{seed}"));
        random_dirty_tree(&repo, 300 + seed);
        let base = repo.git_text(["rev-list", "--max-parents=0", "HEAD"]);
        repo.write("work.txt", format!("work {seed}\n"));
        repo.commit_all("work since the base");
        stdout_ok(
            repo.handoff().args(["start", "--issue", "5", "--base", &base]).output().unwrap(),
        );
        configure(&repo, name, watchman.as_ref());
        // Changed again, after the index took in the configuration's data.
        let mut rng = Rng::new(seed);
        let tracked = repo.git_text(["ls-files"]);
        for rel in tracked.lines() {
            let path = repo.path.join(rel);
            if rng.chance(30) && path.is_file() && !path.is_symlink() {
                repo.write(rel, content(&mut rng, rel));
            }
        }
        repo.write(format!("later-{seed}/new.txt"), "new\n");
        if seed % 2 == 1 {
            // Staged: an addition and a removal (a split index's own entries and deletions).
            repo.write("staged-new.txt", "staged\n");
            repo.git(["add", "staged-new.txt"]);
            let first = tracked.lines().next().unwrap();
            repo.git(["rm", "-q", "--cached", "--", first]);
        }
        repo.write("work.txt", "edited after\n");
        // git's view is read once, after the first snapshot (its `status` refreshes the index).
        let mut git = None;
        for walks in ["split", "two"] {
            let before = hook_calls(&repo);
            let snap = snapshot_walks(&repo, walks, &["--max-lines", "500"]);
            if name == "fsmonitor" && walks == "split" {
                // The user's monitor is asked once, for status and the diff together.
                assert_eq!(hook_calls(&repo) - before, 1, "seed {seed}: hook calls");
            }
            git.get_or_insert_with(|| GitView::of(&repo, &base)).assert_matches(&snap, 500);
        }
        let planned = repo.handoff().args(["snapshot", "--json", "--max-lines", "500"]).output();
        let planned = serde_json::from_str(&stdout_ok(planned.unwrap())).unwrap();
        git.expect("read above").assert_matches(&planned, 500);
    }
}

#[test]
fn random_trees_match_git_plain() {
    random_trees_match_git_under("plain");
}

#[test]
fn random_trees_match_git_with_the_untracked_cache() {
    random_trees_match_git_under("untracked-cache");
}

#[test]
fn random_trees_match_git_with_many_files() {
    random_trees_match_git_under("many-files");
}

#[test]
fn random_trees_match_git_with_a_split_index() {
    random_trees_match_git_under("split-index");
}

#[test]
fn random_trees_match_git_with_fsmonitor() {
    random_trees_match_git_under("fsmonitor");
}
