//! What an agent hook could not do is never swallowed: the hooks exit non-zero without blocking
//! the agent (`|| exit 1`: every agent takes 1 as a warning, only 2 as a refusal), and the error
//! goes to `<git dir>/handoff-hook-failures.log` as well, the last [`KEPT`] of them, which `hooks
//! status` shows and the next session's recall points to. Kept beside the attempt's state, not in
//! it, so `start` does not archive it away.

use std::path::Path;

/// The log's name in the git dir.
pub const FILE: &str = "handoff-hook-failures.log";

/// The failures kept (the oldest go first).
pub const KEPT: usize = 20;

/// Whether the command line `args` (the binary's, program name first) is one an agent hook runs.
pub fn is_hook(args: &[std::ffi::OsString]) -> bool {
    let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    match words.first() {
        Some(&"record") => true,
        Some(&"recall") => words.contains(&"--hook"),
        Some(&"note") => words.contains(&"--digest-only"),
        _ => false,
    }
}

/// Adds `at`'s failure of `command` (one line, already redacted) to the log in `git_dir`. Best
/// effort: a log that cannot be written costs the hook nothing.
pub fn log(git_dir: &Path, at: &str, command: &str, message: &str) {
    let path = git_dir.join(FILE);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let mut lines: Vec<&str> = old.lines().collect();
    let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    let line = format!("{at} {command}: {}", one_line.chars().take(500).collect::<String>());
    lines.push(&line);
    let keep = lines.len().saturating_sub(KEPT);
    let text: String = lines[keep..].iter().map(|l| format!("{l}\n")).collect();
    let _ = crate::util::fs::write_atomic(&path, text.as_bytes());
}

/// The failures logged in `git_dir`, oldest first.
pub fn read(git_dir: &Path) -> Vec<String> {
    let read = crate::util::fs::read_regular_if_any(&git_dir.join(FILE), 1 << 20, "the hook log");
    let text = read.ok().flatten().map(|b| String::from_utf8_lossy(&b).into_owned());
    text.unwrap_or_default().lines().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_commands_are_known_and_the_log_keeps_the_last() {
        let args = |a: &[&str]| -> Vec<std::ffi::OsString> { a.iter().map(Into::into).collect() };
        assert!(is_hook(&args(&["git-handoff", "record", "--agent", "claude"])));
        assert!(is_hook(&args(&["git-handoff", "recall", "--hook", "codex"])));
        assert!(is_hook(&args(&["git-handoff", "note", "--digest-only"])));
        assert!(!is_hook(&args(&["git-handoff", "recall"])));
        assert!(!is_hook(&args(&["git-handoff", "seal"])));
        let dir = tempfile::tempdir().unwrap();
        for n in 0..25 {
            log(dir.path(), "2026-12-07T00:00:00Z", "record", &format!("failure\n{n}"));
        }
        let kept = read(dir.path());
        assert_eq!(kept.len(), KEPT);
        assert_eq!(kept.last().unwrap(), "2026-12-07T00:00:00Z record: failure 24");
    }
}
