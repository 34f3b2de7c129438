//! `hooks uninstall` undoes `hooks install` (the user's files back byte for byte, no file left that
//! was not there), parts can be picked, an invalid settings file makes install change nothing,
//! and `hooks status` / `--dry-run` tell what is where.

use crate::common;

use common::{Env, stdout_ok};
use serde_json::Value;

/// A user's Claude settings in their own style: 4-space indent, compact arrays, their own hooks.
const CLAUDE: &str = r#"{
    "permissions": {"allow": ["Bash(npm test)"], "deny": []},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npx prettier --write"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
    },
    "env": {"FOO": "1"}
}
"#;

fn run(repo: &common::Repo, args: &[&str]) -> String {
    stdout_ok(repo.handoff().args(args).output().unwrap())
}

#[test]
fn uninstall_gives_back_every_file_as_it_was() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".claude/settings.json", CLAUDE);
    repo.git(["config", "--add", "notes.rewriteRef", "refs/notes/commits"]);
    run(&repo, &["hooks", "install", "--claude", "--codex", "--pre-push"]);
    let merged = String::from_utf8(repo.read(".claude/settings.json")).unwrap();
    assert!(merged.starts_with(r#"{
    "permissions": {"allow": ["Bash(npm test)"], "deny": []},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npx prettier --write"}]},
            {
                "matcher": "*","#), "the user's formatting is kept: {merged}");
    assert!(repo.path.join(".codex/hooks.json").is_file());
    assert!(repo.path.join(".claude/skills/handoff/SKILL.md").is_file());
    assert!(repo.path.join(".agents/skills/handoff/SKILL.md").is_file());

    let out = run(&repo, &["hooks", "uninstall"]);
    assert_eq!(String::from_utf8(repo.read(".claude/settings.json")).unwrap(), CLAUDE, "{out}");
    assert!(!repo.path.join(".codex").exists(), "{out}");
    assert!(!repo.path.join(".claude/skills").exists(), "{out}");
    assert!(!repo.path.join(".agents").exists(), "{out}");
    assert!(!repo.path.join(".git/hooks/pre-push").exists());
    assert_eq!(repo.git_text(["config", "--get-all", "notes.rewriteRef"]), "refs/notes/commits");
}

#[test]
fn containers_the_user_had_stay_even_empty() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".codex/hooks.json", "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n");
    repo.write(".claude/settings.json", "{}\n");
    run(&repo, &["hooks", "install", "--claude", "--codex"]);
    assert!(repo.path.join(".git/handoff-installed.json").is_file());
    run(&repo, &["start", "--issue", "1"]); // an attempt's start archives handoff/, not this
    run(&repo, &["hooks", "uninstall", "--claude", "--codex"]);
    let codex = String::from_utf8(repo.read(".codex/hooks.json")).unwrap();
    assert_eq!(codex, "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n");
    assert_eq!(repo.read(".claude/settings.json"), b"{}\n");
    assert!(!repo.path.join(".git/handoff-installed.json").exists());
}

#[test]
fn parts_are_picked_and_an_edited_skill_is_kept() {
    let env = Env::new();
    let repo = env.repo("r");
    run(&repo, &["hooks", "install", "--claude", "--codex"]);
    repo.write(".claude/skills/handoff/SKILL.md", "my edits\n");
    let json: Value =
        serde_json::from_str(&run(&repo, &["hooks", "uninstall", "--codex", "--json"])).unwrap();
    // The Codex hooks, the Codex MCP server registration and the skill where Codex reads it.
    assert_eq!(json["hooks"].as_array().unwrap().len(), 3, "{json}");
    assert_eq!(json["hooks"][0]["action"], "removed_file");
    assert_eq!(json["hooks"][1]["action"], "removed_file");
    assert_eq!(json["hooks"][2]["action"], "removed_file");
    assert!(!repo.path.join(".agents").exists(), "{json}");
    assert!(repo.path.join(".claude/settings.json").is_file());
    let json: Value =
        serde_json::from_str(&run(&repo, &["hooks", "uninstall", "--claude", "--json"])).unwrap();
    let skill = json["hooks"].as_array().unwrap().iter().find(|h| h["hook"] == "handoff skill");
    assert_eq!(skill.unwrap()["action"], "kept", "{json}");
    assert_eq!(repo.read(".claude/skills/handoff/SKILL.md"), b"my edits\n");
    assert!(!repo.path.join(".claude/settings.json").exists());
}

#[test]
fn an_invalid_settings_file_makes_install_change_nothing() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".codex/hooks.json", "{\n  \"hooks\": [,]\n}\n");
    let out = repo.handoff().args(["hooks", "install", "--claude", "--codex"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(".codex/hooks.json:2"));
    assert!(!repo.path.join(".claude").exists(), "nothing is written when one file is bad");
}

#[test]
fn dry_run_and_status_tell_what_is_where() {
    let env = Env::new();
    let repo = env.repo("r");
    let out = run(&repo, &["hooks", "install", "--pre-push", "--dry-run"]);
    assert!(out.contains("would create the pre-push hook .git/hooks/pre-push"), "{out}");
    assert!(
        out.contains("+# >>> git-handoff >>>")
            && out.contains("+\tgit-handoff validate --pre-push"),
        "{out}"
    );
    assert!(out.contains("refs/notes/handoff would be added to notes.rewriteRef"), "{out}");
    assert!(!repo.path.join(".git/hooks/pre-push").exists());
    let json: Value =
        serde_json::from_str(&run(&repo, &["hooks", "install", "--claude", "--dry-run", "--json"]))
            .unwrap();
    assert_eq!(json["dry_run"], true);
    assert!(
        json["hooks"][1]["diff"].as_str().unwrap().contains("git-handoff record --agent claude"),
        "{json}"
    );
    assert!(!repo.path.join(".claude").exists());

    run(&repo, &["hooks", "install", "--claude"]);
    let status: Value = serde_json::from_str(&run(&repo, &["hooks", "status", "--json"])).unwrap();
    assert_eq!(status["pre_push"]["installed"], false);
    assert_eq!(status["claude"]["missing"].as_array().unwrap().len(), 0, "{status}");
    assert_eq!(status["codex"]["exists"], false);
    assert_eq!(status["skill"]["state"], "unchanged");
    assert_eq!(status["rewrite_ref"]["set"], false);
    let text = run(&repo, &["hooks", "status"]);
    assert!(
        text.contains(".claude/settings.json all ") && text.contains(" git-handoff hooks"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "no colour in a pipe: {text:?}");

    // git's colour settings count, as for git's own commands: color.handoff over color.ui.
    let status = |config: &[&str]| {
        let mut args: Vec<&str> = config.iter().flat_map(|c| ["-c", *c]).collect();
        args.extend(["handoff", "hooks", "status"]);
        let mut cmd = repo.git_cmd(args);
        stdout_ok(cmd.env("PATH", common::path_with_binary()).output().unwrap())
    };
    assert!(status(&["color.ui=always"]).contains('\x1b'));
    assert!(!status(&["color.ui=always", "color.handoff=never"]).contains('\x1b'));
    assert!(status(&["color.ui=never", "color.handoff=always"]).contains('\x1b'));
}

/// Settings an earlier version installed (its hooks ran `git handoff ...`, through git's dispatch):
/// status names them, installing again rewrites them where they are (the user's bytes otherwise
/// kept, nothing added twice), and uninstall takes them out either way.
#[test]
fn hooks_in_the_older_form_are_updated_in_place_and_still_uninstalled() {
    let env = Env::new();
    let repo = env.repo("r");
    repo.write(".claude/settings.json", CLAUDE);
    run(&repo, &["hooks", "install", "--claude"]);
    let current = String::from_utf8(repo.read(".claude/settings.json")).unwrap();
    let older = current.replace("\"git-handoff ", "\"git handoff ");
    assert_ne!(older, current);

    repo.write(".claude/settings.json", &older);
    let status: Value = serde_json::from_str(&run(&repo, &["hooks", "status", "--json"])).unwrap();
    let outdated = status["claude"]["outdated"].as_array().unwrap();
    assert_eq!(outdated.len(), status["claude"]["installed"].as_array().unwrap().len());
    assert_eq!(status["claude"]["missing"].as_array().unwrap().len(), 0, "{status}");
    let text = run(&repo, &["hooks", "status"]);
    assert!(text.contains("in the older `git handoff` form: PreToolUse"), "{text}");

    let out = run(&repo, &["hooks", "install", "--claude"]);
    assert!(out.contains("updated the git-handoff hooks in .claude/settings.json"), "{out}");
    assert_eq!(String::from_utf8(repo.read(".claude/settings.json")).unwrap(), current);
    let status: Value = serde_json::from_str(&run(&repo, &["hooks", "status", "--json"])).unwrap();
    assert!(status["claude"].get("outdated").is_none(), "{status}");

    repo.write(".claude/settings.json", &older);
    run(&repo, &["hooks", "uninstall", "--claude"]);
    let left: Value = serde_json::from_slice(&repo.read(".claude/settings.json")).unwrap();
    assert_eq!(left, serde_json::from_str::<Value>(CLAUDE).unwrap());
}
