//! `snapshot` against the real git: its three parts must be byte-identical to what git prints.

use crate::common;

use common::{Env, Repo, random_dirty_tree, stdout_ok};
use serde_json::Value;

/// git's own output, split the way the spec says: lines, and for `--stat` the summary apart.
fn git_lines(repo: &Repo, args: &[&str]) -> Vec<String> {
    let out = repo.git(args);
    let text = String::from_utf8_lossy(&out).into_owned();
    text.lines().map(str::to_string).collect()
}

fn snapshot_json(repo: &Repo, extra: &[&str]) -> Value {
    let out = repo.handoff().arg("snapshot").arg("--json").args(extra).output().unwrap();
    serde_json::from_str(&stdout_ok(out)).unwrap()
}

/// The snapshot with status split in two halves beside the diff, the tracked files walked once
/// (`split`) or by each git (`halves`), or with status whole (`two`), whatever the size of the
/// tree.
pub fn snapshot_walks(repo: &Repo, walks: &str, extra: &[&str]) -> Value {
    let mut cmd = repo.handoff();
    cmd.env("GIT_HANDOFF_SNAPSHOT_WALKS", walks).args(["snapshot", "--json"]).args(extra);
    serde_json::from_str(&stdout_ok(cmd.output().unwrap())).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// What git prints for the snapshot's three parts: `status --short`, `log --oneline base..HEAD`
/// and `diff --stat base`.
pub struct GitView {
    status: Vec<String>,
    log: Vec<String>,
    stat: Vec<String>,
    summary: String,
}

impl GitView {
    pub fn of(repo: &Repo, base: &str) -> GitView {
        let status = git_lines(repo, &["status", "--short"]);
        let log = git_lines(repo, &["log", "--oneline", &format!("{base}..HEAD")]);
        let mut stat = git_lines(repo, &["diff", "--stat", base]);
        let summary = stat.pop().unwrap_or_default();
        GitView { status, log, stat, summary }
    }

    /// Asserts the snapshot's parts equal git's, for a cap.
    pub fn assert_matches(&self, snap: &Value, max: usize) {
        let capped = |lines: &[String]| lines.iter().take(max).cloned().collect::<Vec<_>>();
        assert_eq!(strings(&snap["status"]["lines"]), capped(&self.status));
        assert_eq!(snap["status"]["more"], self.status.len().saturating_sub(max));
        assert_eq!(strings(&snap["log"]["lines"]), capped(&self.log));
        assert_eq!(snap["log"]["more"], self.log.len().saturating_sub(max));
        assert_eq!(snap["diff_stat"]["summary"], self.summary);
        assert_eq!(strings(&snap["diff_stat"]["lines"]), capped(&self.stat));
        assert_eq!(snap["diff_stat"]["more"], self.stat.len().saturating_sub(max));
    }
}

/// Asserts the snapshot's parts equal git's, for a base and a cap.
pub fn assert_matches_git(repo: &Repo, snap: &Value, base: &str, max: usize) {
    GitView::of(repo, base).assert_matches(snap, max);
}

#[test]
fn random_dirty_trees_match_git_byte_for_byte() {
    let env = Env::new();
    for seed in 0..40 {
        let repo = env.repo(&format!("r{seed}"));
        random_dirty_tree(&repo, seed);
        let base = repo.head();
        // A few work commits so the log has something, and a dirty tree on top.
        repo.write("work.txt", format!("work {seed}\n"));
        repo.commit_all("work: first");
        repo.write("work.txt", format!("work {seed} again\n"));
        repo.git(["add", "work.txt"]);
        repo.git(["commit", "-q", "-m", "work: second"]);
        repo.write("dirty-after.txt", "x\n");
        stdout_ok(
            repo.handoff().args(["start", "--issue", "5", "--base", &base]).output().unwrap(),
        );
        // git's view is read once, after the first snapshot: its `status` refreshes the index,
        // so the first snapshot sees the stale index and the others the refreshed one.
        let (head, mut git) = (repo.head(), None);
        for (max, walks) in [(40, "split"), (3, "two"), (2, "split"), (40, "halves")] {
            let snap = snapshot_walks(&repo, walks, &["--max-lines", &max.to_string()]);
            git.get_or_insert_with(|| GitView::of(&repo, &base)).assert_matches(&snap, max);
            assert_eq!(snap["base"], base);
            assert_eq!(snap["head"], head);
        }
    }
}

/// Status split in two (tracked changes, untracked files) and the diff beside it print what git
/// prints with clean filters, autocrlf, intent-to-add, submodules (new commits, dirty content,
/// untracked content, which `-uno` alone would hide) and conflicts.
#[test]
fn split_status_matches_git_with_filters_intent_to_add_submodules_and_conflicts() {
    let env = Env::new();
    let sub = env.repo("sub");
    sub.write("s.txt", "s\n");
    sub.commit_all("sub: first");

    let repo = env.repo("r");
    repo.write(".gitattributes", "*.up filter=up\n*.crlf text eol=crlf\n");
    repo.git(["config", "filter.up.clean", "tr a-z A-Z"]);
    repo.git(["config", "filter.up.smudge", "cat"]);
    repo.write("a.up", "shout\n");
    repo.write("b.crlf", "one\r\ntwo\r\n");
    repo.write("auto.txt", "lf\n");
    repo.write("conflict.txt", "base\n");
    repo.write("kept.txt", "kept\n");
    repo.git(["clone", "-q", sub.path.to_str().unwrap(), "sub"]);
    repo.git(["add", "-A"]);
    let base = repo.commit_all("base");
    repo.write("work.txt", "work\n");
    repo.commit_all("work");

    // Filters and line endings: the diff sees what the filter makes of the file.
    repo.write("a.up", "shout louder\n");
    repo.write("b.crlf", "one\r\ntwo\r\nthree\r\n");
    repo.git(["config", "core.autocrlf", "true"]);
    repo.write("auto.txt", "lf\r\nnow crlf\r\n");
    // Intent to add: a new file the diff shows whole.
    repo.write("ita.txt", "intent\n");
    repo.git(["add", "-N", "ita.txt"]);
    // A deleted file, and a staged change edited again.
    std::fs::remove_file(repo.path.join("kept.txt")).unwrap();
    repo.write("work.txt", "staged\n");
    repo.git(["add", "work.txt"]);
    repo.write("work.txt", "staged and edited\n");
    stdout_ok(repo.handoff().args(["start", "--issue", "5", "--base", &base]).output().unwrap());
    let check = |what: &str| {
        for walks in ["split", "two"] {
            let snap = snapshot_walks(&repo, walks, &[]);
            assert_matches_git(&repo, &snap, &base, 40);
            assert!(!snap["diff_stat"]["summary"].as_str().unwrap().is_empty(), "{what}");
        }
    };
    check("filters, autocrlf, intent-to-add");

    // A submodule with a new commit, then with modified and untracked content.
    let in_sub = repo.at(repo.path.join("sub"));
    in_sub.write("s.txt", "s2\n");
    in_sub.commit_all("sub: second");
    check("submodule with a new commit");
    in_sub.write("untracked.txt", "u\n");
    check("submodule with untracked content");
    in_sub.write("s.txt", "dirty\n");
    check("submodule with modified and untracked content");

    // A conflict: unmerged entries.
    repo.git(["reset", "-q", "--hard"]);
    repo.git(["checkout", "-q", "-b", "other", &base]);
    repo.write("conflict.txt", "theirs\n");
    repo.commit_all("theirs");
    repo.git(["checkout", "-q", "-"]);
    repo.write("conflict.txt", "ours\n");
    repo.commit_all("ours");
    let merge = repo.git_cmd(["merge", "-q", "other"]).output().unwrap();
    assert!(!merge.status.success(), "the merge must conflict");
    repo.write("ita2.txt", "x\n");
    check("conflict");
}

/// The untracked half: names status quotes (spaces, tabs, quotes, backslashes, non-ASCII under
/// either `core.quotePath`), collapsed and empty directories, a nested repository, ignored files,
/// and every `status.showUntrackedFiles`; colour and a branch line from the config.
#[test]
fn split_status_quotes_and_lists_untracked_files_as_status_does() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".gitignore", "*.o\nbuild/\n");
    repo.write("tracked.txt", "t\n");
    repo.write("d/inner.txt", "i\n");
    let base = repo.commit_all("base");
    repo.write("tracked.txt", "changed\n");
    for name in ["a b.txt", "tab\there", "q\"uote", "back\\slash", "ü.txt", "d/new file", "x.o"] {
        repo.write(name, "u\n");
    }
    repo.write("fresh/deep/one.txt", "1\n");
    repo.write("build/out.txt", "ignored\n");
    std::fs::create_dir_all(repo.path.join("empty/dir")).unwrap();
    let nested = repo.at(repo.path.join("nested"));
    std::fs::create_dir_all(&nested.path).unwrap();
    nested.git(["init", "-q"]);
    stdout_ok(repo.handoff().args(["start", "--issue", "5", "--base", &base]).output().unwrap());
    let check = |what: &str| {
        let snap = snapshot_walks(&repo, "split", &[]);
        assert_matches_git(&repo, &snap, &base, 40);
        let two = snapshot_walks(&repo, "two", &[]);
        assert_eq!(snap["status"], two["status"], "{what}");
    };
    check("defaults");
    repo.git(["config", "core.quotePath", "false"]);
    check("core.quotePath=false");
    for setting in ["all", "no", "normal", "false", "true"] {
        repo.git(["config", "status.showUntrackedFiles", setting]);
        check(setting);
    }
    repo.git(["config", "status.branch", "true"]);
    check("status.branch");
    repo.git(["config", "color.ui", "always"]);
    check("color.ui=always");
}

/// The text form's headings follow git's colour settings as git's own commands do (color.handoff
/// over color.ui, a bare key meaning auto), wherever the setting is: the repository's config, a
/// file it includes (read without starting git), or git's command line.
#[test]
fn the_text_form_follows_gits_colour_settings() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    let coloured = |config: &[&str], extra: &[&str]| {
        let mut args: Vec<&str> = config.iter().flat_map(|c| ["-c", *c]).collect();
        args.extend(["handoff", "snapshot"]);
        args.extend(extra);
        let mut cmd = repo.git_cmd(args);
        stdout_ok(cmd.env("PATH", common::path_with_binary()).output().unwrap()).contains('\x1b')
    };
    assert!(!coloured(&[], &[]), "no colour in a pipe by default");
    repo.git(["config", "color.ui", "always"]);
    assert!(coloured(&[], &[]));
    assert!(!coloured(&[], &["--json"]), "JSON is never coloured");
    repo.git(["config", "color.handoff", "never"]);
    assert!(!coloured(&[], &[]));
    assert!(coloured(&["color.handoff=always"], &[]), "the command line wins");
    repo.git(["config", "color.handoff", "auto"]);
    assert!(!coloured(&[], &[]), "auto over always: a pipe is not a terminal");
    repo.git(["config", "--unset-all", "color.handoff"]);
    repo.git(["config", "--unset-all", "color.ui"]);
    std::fs::write(repo.path.join("../colours"), "[color]\n\thandoff = always\n").unwrap();
    repo.git(["config", "include.path", "../../colours"]);
    assert!(coloured(&[], &[]), "an included file");
    std::fs::write(repo.path.join("../colours"), "[color]\n\tui = always\n\thandoff\n").unwrap();
    assert!(!coloured(&[], &[]), "a bare key is auto");
}

#[test]
fn text_form_carries_git_bytes_and_more_lines() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    let base = repo.commit_all("init");
    for i in 0..5 {
        repo.write(format!("f{i}.txt"), "x\n");
        repo.commit_all(&format!("commit {i}"));
    }
    repo.write("a.txt", "changed\n");
    repo.write("tick`s ```.txt", "x\n");
    stdout_ok(repo.handoff().args(["start", "--issue", "12", "--base", &base]).output().unwrap());
    let text = stdout_ok(
        repo.handoff()
            .args(["snapshot", "--max-lines", "2", "--reason", "turn_limit"])
            .output()
            .unwrap(),
    );
    let status = String::from_utf8(repo.git(["status", "--short"])).unwrap();
    let first_two: String = status.lines().take(2).map(|l| format!("{l}\n")).collect();
    assert!(text.contains(&first_two), "{text}");
    assert!(text.contains("+4 more\n"), "log of 5 commits capped at 2: {text}");
    let summary = String::from_utf8(repo.git(["diff", "--stat", &base])).unwrap();
    assert!(text.contains(summary.lines().last().unwrap()), "{text}");
    // A name with a run of backticks cannot close the fence around it.
    assert!(text.contains("````\n"), "{text}");
    assert!(text.contains("# Handoff note: issue #12\n\nissue: 12\n"), "{text}");
    assert!(text.contains("reason: turn_limit\n"), "{text}");
    assert!(text.contains(&format!("last_work_commit: {}\n", repo.head())), "{text}");
}

#[test]
fn runs_as_git_handoff_from_a_subdirectory_with_top_relative_paths() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("sub/dir/a.txt", "a\n");
    repo.write("top.txt", "t\n");
    let base = repo.commit_all("init");
    repo.write("top.txt", "changed\n");
    repo.write("sub/dir/a.txt", "changed\n");
    repo.write("sub/new.txt", "new\n");
    let out = repo
        .git_handoff()
        .current_dir(repo.path.join("sub/dir"))
        .args(["snapshot", "--json"])
        .output()
        .unwrap();
    let snap: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_matches_git(&repo, &snap, &base, 40);
    assert_eq!(
        strings(&snap["status"]["lines"]),
        [" M sub/dir/a.txt", " M top.txt", "?? sub/new.txt"]
    );
    // No attempt: no issue, no header, base is HEAD.
    assert_eq!(snap["issue"], Value::Null);
    assert_eq!(snap["header"], Value::Null);
    assert_eq!(snap["base"], base);
}

#[test]
fn honours_dash_c_git_dir_and_repository_config() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("ünï.txt", "a\n");
    repo.write("b.txt", "b\n");
    let base = repo.commit_all("init");
    repo.write("ünï.txt", "changed\n");
    repo.git(["mv", "b.txt", "renamed.txt"]);
    // Repository config that changes git's output must change ours the same way.
    repo.git(["config", "core.quotePath", "false"]);
    repo.git(["config", "status.renames", "false"]);
    let out = repo
        .handoff()
        .current_dir(env.root.path())
        .args(["-C", "r", "snapshot", "--json"])
        .output()
        .unwrap();
    let snap: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_matches_git(&repo, &snap, &base, 40);
    assert!(strings(&snap["status"]["lines"]).contains(&" M ünï.txt".to_string()));

    let out = repo
        .handoff()
        .current_dir(env.root.path())
        .env("GIT_DIR", repo.path.join(".git"))
        .env("GIT_WORK_TREE", &repo.path)
        .args(["snapshot", "--json"])
        .output()
        .unwrap();
    let via_env: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_eq!(via_env["status"], snap["status"]);
    assert_eq!(via_env["diff_stat"], snap["diff_stat"]);
}

#[test]
fn columns_from_the_caller_reach_diff_stat() {
    let env = Env::new();
    let repo = env.repo("r");
    let long = format!("{}/file.txt", "very-long-directory-name".repeat(4));
    repo.write(&long, "a\n");
    let base = repo.commit_all("init");
    repo.write(&long, (0..200).map(|i| format!("{i}\n")).collect::<String>());
    for columns in ["40", "200"] {
        let out =
            repo.handoff().env("COLUMNS", columns).args(["snapshot", "--json"]).output().unwrap();
        let snap: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
        let git = repo.git_cmd(["diff", "--stat", &base]).env("COLUMNS", columns).output().unwrap();
        let git = String::from_utf8(git.stdout).unwrap();
        assert_eq!(strings(&snap["diff_stat"]["lines"])[0], git.lines().next().unwrap());
    }
}

#[test]
fn unborn_branch_has_null_head_and_diffs_against_the_empty_tree() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("staged.txt", "s\n");
    repo.git(["add", "staged.txt"]);
    repo.write("untracked.txt", "u\n");
    let snap = snapshot_json(&repo, &["--issue", "3"]);
    assert_eq!(snap["head"], Value::Null);
    assert_eq!(snap["base"], Value::Null);
    assert_eq!(snap["branch"], "main");
    assert_eq!(strings(&snap["status"]["lines"]), git_lines(&repo, &["status", "--short"]));
    assert!(strings(&snap["log"]["lines"]).is_empty());
    let empty_tree = repo.git_text(["hash-object", "-t", "tree", "/dev/null"]);
    let mut stat = git_lines(&repo, &["diff", "--stat", &empty_tree]);
    assert_eq!(snap["diff_stat"]["summary"], stat.pop().unwrap());
    assert_eq!(strings(&snap["diff_stat"]["lines"]), stat);
}

#[test]
fn detached_head_and_base_equal_to_head() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    let head = repo.commit_all("init");
    repo.git(["checkout", "-q", "--detach"]);
    repo.write("a.txt", "b\n");
    let snap = snapshot_json(&repo, &[]);
    assert_eq!(snap["branch"], Value::Null);
    assert_eq!(snap["head"], head);
    assert_eq!(snap["base"], head);
    assert!(strings(&snap["log"]["lines"]).is_empty());
    assert_matches_git(&repo, &snap, &head, 40);
}

/// Ref names are resolved in-process where that is safe; every name must give git's commit, and
/// a name git cannot take as a commit must be refused.
#[test]
fn base_names_resolve_as_git_rev_parse_resolves_them() {
    let env = Env::new();
    let repo = env.repo("r");
    let mut commits = Vec::new();
    for n in 0..4 {
        repo.write("a.txt", format!("{n}\n"));
        commits.push(repo.commit_all(&format!("c{n}")));
    }
    let [a, b, c, d] = [0, 1, 2, 3].map(|n| commits[n].as_str());
    for (name, at) in [
        ("refs/heads/amb", a),
        ("refs/tags/amb", b),
        ("refs/heads/both", a),
        ("refs/both", c),
        ("refs/heads/feature/x", b),
        ("refs/remotes/origin/main", c),
        ("refs/heads/cafe", b),
        ("refs/heads/v1.0-rc_2", a),
    ] {
        repo.git(["update-ref", name, at]);
    }
    repo.git(["tag", "-a", "-m", "annotated", "ann", d]);
    repo.git(["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"]);
    repo.git(["symbolic-ref", "refs/heads/dangling", "refs/heads/nowhere"]);
    let tree = repo.git_text(["rev-parse", "HEAD^{tree}"]);
    repo.git(["tag", "treetag", &tree]);
    repo.git(["pack-refs", "--all"]);
    repo.git(["update-ref", "refs/tags/loose", c]);
    let names = [
        "amb",
        "both",
        "feature/x",
        "origin/main",
        "origin",
        "cafe",
        "v1.0-rc_2",
        "ann",
        "loose",
        "refs/heads/amb",
        "heads/amb",
        "tags/amb",
        "main",
        "HEAD",
        "HEAD~1",
        "main@{0}",
        "dangling",
        "treetag",
        "nothing",
        "feature",
        "a..b",
        "-main",
    ];
    for name in names {
        let git = repo
            .git_cmd(["rev-parse", "--verify", "--quiet", &format!("{name}^{{commit}}")])
            .output()
            .unwrap();
        let ours = repo.handoff().args(["snapshot", "--json", "--base", name]).output().unwrap();
        if git.status.success() {
            let snap: Value = serde_json::from_str(&stdout_ok(ours)).unwrap();
            let expected = String::from_utf8_lossy(&git.stdout).trim().to_string();
            assert_eq!(snap["base"], expected, "--base {name}");
        } else {
            assert_eq!(ours.status.code(), Some(2), "--base {name} must be refused");
        }
    }
}

/// Without `branch.<name>.merge` the snapshot does not ask git for an upstream; with one it does,
/// also when the setting comes from an included file or git's command line.
#[test]
fn the_upstream_is_found_wherever_the_config_puts_it() {
    let env = Env::new();
    let upstream = env.repo("up");
    upstream.write("a.txt", "a\n");
    let fork_point = upstream.commit_all("init");
    let clone_path = env.root.path().join("clone");
    upstream.git(["clone", "-q", upstream.path.to_str().unwrap(), clone_path.to_str().unwrap()]);
    let clone = upstream.at(clone_path);
    clone.write("b.txt", "b\n");
    let head = clone.commit_all("local work");
    clone.git(["config", "--unset", "branch.main.merge"]);
    assert_eq!(snapshot_json(&clone, &[])["base"], head);
    clone.write(".git/upstream.inc", "[branch \"main\"]\n\tmerge = refs/heads/main\n");
    clone.git(["config", "include.path", "upstream.inc"]);
    assert_eq!(snapshot_json(&clone, &[])["base"], fork_point);
    clone.git(["config", "--unset", "include.path"]);
    let out = clone
        .handoff()
        .env("GIT_CONFIG_PARAMETERS", "'branch.main.merge'='refs/heads/main'")
        .args(["snapshot", "--json"])
        .output()
        .unwrap();
    let snap: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_eq!(snap["base"], fork_point);
}

#[test]
fn no_attempt_uses_the_upstream_merge_base() {
    let env = Env::new();
    let upstream = env.repo("up");
    upstream.write("a.txt", "a\n");
    let fork_point = upstream.commit_all("init");
    let clone_path = env.root.path().join("clone");
    upstream.git(["clone", "-q", upstream.path.to_str().unwrap(), clone_path.to_str().unwrap()]);
    let clone = upstream.at(clone_path);
    clone.write("b.txt", "b\n");
    clone.commit_all("local work");
    let snap = snapshot_json(&clone, &[]);
    assert_eq!(snap["base"], fork_point);
    assert_eq!(strings(&snap["log"]["lines"]).len(), 1);
    assert_matches_git(&clone, &snap, &fork_point, 40);
}

#[test]
fn linked_worktree_has_its_own_state() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");
    let wt_path = env.root.path().join("wt");
    repo.git(["worktree", "add", "-q", "-b", "other", wt_path.to_str().unwrap()]);
    let wt = repo.at(&wt_path);
    wt.write("wt-only.txt", "w\n");
    stdout_ok(wt.handoff().args(["start", "--issue", "8"]).output().unwrap());
    stdout_ok(repo.handoff().args(["start", "--issue", "9"]).output().unwrap());
    let in_wt = snapshot_json(&wt, &[]);
    let in_main = snapshot_json(&repo, &[]);
    assert_eq!(in_wt["issue"], 8);
    assert_eq!(in_wt["branch"], "other");
    assert_eq!(strings(&in_wt["status"]["lines"]), ["?? wt-only.txt"]);
    assert_eq!(in_main["issue"], 9);
    assert!(strings(&in_main["status"]["lines"]).is_empty());
    let git_dir = wt.git_text(["rev-parse", "--absolute-git-dir"]);
    assert!(std::path::Path::new(&git_dir).join("handoff/attempt.toml").is_file());
}

#[test]
fn bad_input_is_exit_2_with_a_clear_message() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    repo.commit_all("init");

    let out = repo.handoff().args(["snapshot", "--base", "no-such-rev"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("\"no-such-rev\" does not name a commit")
    );

    let out = repo.handoff().args(["snapshot", "--max-lines", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-lines must be at least 1"));

    let out = repo.handoff().current_dir(env.home()).args(["snapshot"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a git repository"));

    repo.write(".handoff.toml", "note_dir = \".agent/handoff\"\n\n[caps]\nsnapshot_line = 3\n");
    let out = repo.handoff().args(["snapshot"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(".handoff.toml:4: unknown field `snapshot_line`"), "{err}");

    repo.write(".handoff.toml", "[caps]\nsnapshot_lines = \"many\"\n");
    let out = repo.handoff().args(["snapshot"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(".handoff.toml:2:"));

    repo.write(".handoff.toml", "[caps]\nsnapshot_lines = 1\n");
    let snap = snapshot_json(&repo, &[]);
    assert_eq!(snap["status"]["lines"].as_array().unwrap().len(), 1);
}

#[test]
fn start_archives_the_previous_attempt() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    let head = repo.commit_all("init");
    let out = repo
        .handoff()
        .args(["start", "--issue", "4", "--started-at", "2026-11-30T04:48:52+01:00", "--json"])
        .output()
        .unwrap();
    let first: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    assert_eq!(first["started_at"], "2026-11-30T03:48:52Z");
    assert_eq!(first["base"], head);
    assert_eq!(first["archived"], Value::Null);
    let events = repo.path.join(".git/handoff/events.jsonl");
    std::fs::write(&events, "{\"kind\":\"tool\"}\n").unwrap();
    let out = repo.handoff().args(["start", "--issue", "5", "--json"]).output().unwrap();
    let second: Value = serde_json::from_str(&stdout_ok(out)).unwrap();
    let archived = std::path::PathBuf::from(second["archived"].as_str().unwrap());
    assert_eq!(
        std::fs::read_to_string(archived.join("events.jsonl")).unwrap(),
        "{\"kind\":\"tool\"}\n"
    );
    assert!(std::fs::read_to_string(archived.join("attempt.toml")).unwrap().contains("issue = 4"));
    assert_eq!(std::fs::read_to_string(&events).unwrap(), "");

    let out = repo
        .handoff()
        .args(["start", "--issue", "5", "--started-at", "yesterday"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an RFC 3339 time"));
}
