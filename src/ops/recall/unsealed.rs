//! What the unsealed-work warning on a fresh session start may count: only work an agent left.
//! An attempt whose event log holds no tool call has no agent work to seal (right after `start`
//! and `hooks install`, say), and the files `hooks install` writes are set-up, not work.

use std::io::Read;
use std::path::Path;

use crate::agent::attempt::EVENTS_FILE;
use crate::agent::digest::INSTALLED;
use crate::git::repo::Repo;

/// How much of the event log is searched for a tool call; a longer log without one in its start
/// is taken as holding one (a warning too many rather than one missing).
const LOG_PREFIX: u64 = 256 << 10;

/// Whether an agent ran a tool in this attempt: the event log holds a tool call.
pub fn agent_worked(repo: &Repo) -> bool {
    let path = repo.handoff_dir().join(EVENTS_FILE);
    let Ok(Some(file)) = crate::util::fs::open_regular_if_any(&path, "the event log") else {
        return false;
    };
    let mut bytes = Vec::new();
    if file.take(LOG_PREFIX + 1).read_to_end(&mut bytes).is_err() {
        return true;
    }
    let found = |kind: &str| memchr::memmem::find(&bytes, kind.as_bytes()).is_some();
    bytes.len() as u64 > LOG_PREFIX
        || found("\"kind\":\"tool_start\"")
        || found("\"kind\":\"tool_result\"")
}

/// How many entries of `git status --porcelain` output are work: neither a file `hooks install`
/// wrote nor an untracked directory holding only such files.
pub fn work_count(top: &Path, porcelain: &[u8]) -> usize {
    porcelain
        .split(|&b| b == b'\n')
        .filter(|line| line.len() > 3)
        .filter(|line| {
            let path = String::from_utf8_lossy(&line[3..]);
            !(INSTALLED.contains(&path.as_ref())
                || path.ends_with('/') && only_installed(top, &path, &mut 0))
        })
        .count()
}

/// Whether the directory `dir` (relative, ending in `/`) holds install's files and nothing else.
fn only_installed(top: &Path, dir: &str, seen: &mut usize) -> bool {
    if !INSTALLED.iter().any(|f| f.starts_with(dir)) {
        return false;
    }
    let Ok(entries) = std::fs::read_dir(top.join(dir)) else { return false };
    for entry in entries {
        *seen += 1;
        let Ok(entry) = entry else { return false };
        let Ok(kind) = entry.file_type() else { return false };
        let name = entry.file_name();
        let path = format!("{dir}{}", name.to_string_lossy());
        let ours = if kind.is_dir() {
            *seen < 1000 && only_installed(top, &format!("{path}/"), seen)
        } else {
            INSTALLED.contains(&path.as_str())
        };
        if !ours {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_files_and_their_directories_are_not_work() {
        let top = tempfile::tempdir().unwrap();
        let write = |rel: &str| {
            let path = top.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        };
        write(".claude/settings.json");
        write(".claude/skills/handoff/SKILL.md");
        write(".agents/skills/handoff/SKILL.md");
        write(".agents/skills/other/SKILL.md");
        let status = b"?? .claude/\n?? .mcp.json\n M .codex/hooks.json\n?? .agents/\n M src/a.rs\n";
        assert_eq!(work_count(top.path(), status), 2, ".agents/ holds another skill");
        std::fs::remove_dir_all(top.path().join(".agents/skills/other")).unwrap();
        assert_eq!(work_count(top.path(), status), 1);
        assert_eq!(work_count(top.path(), b"?? .github/\n"), 1);
    }
}
