//! git hooks that git-handoff installs: the pre-push check.
//!
//! The hook goes where git looks for it (`git rev-parse --git-path hooks`: `core.hooksPath`, taken
//! relative to the top of the work tree, else the common git dir's `hooks/`). A user's existing hook
//! is kept: git-handoff adds one marked block right after its shebang line and never touches the
//! rest. Installing again replaces only that block (so it stays one block), and uninstalling
//! removes only the block, and the file when nothing but the shebang we wrote remains.
//!
//! The block must let both checks see git's full stdin and refuse the push when either fails,
//! whatever the user's script does (`exit 0`, its own traps, `set -e`, `exec`). So the block saves
//! stdin to a temporary file, runs `git-handoff validate --pre-push "$@"` on it, then runs this very
//! hook file again as a child (`"$0" "$@"`, marked by `GIT_HANDOFF_PRE_PUSH_INNER=1` so the block is
//! skipped there) on the same stdin, and exits with the first failure. The user's logic thus runs
//! unchanged in its own process, and cannot mask our status.
//!
//! The block runs the `git-handoff` binary itself, not `git handoff`: git's dispatch to a command
//! of another binary costs one more git process start (3 ms here) on every push. Both find the
//! binary the same way, since git puts its exec path first on PATH for the hooks it runs.
//!
//! With `--push-notes` the block also carries the handoff records to the remote: once both checks
//! pass, it runs `git-handoff sync <remote>` (which pushes with `--no-verify`, so this hook is not
//! started again), and a failure only warns, never failing the user's push. A push of notes refs
//! alone is left alone. Installing also adds the notes ref to `notes.rewriteRef` (multi-valued;
//! other values are kept), so records follow `commit --amend` and rebase.
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::Serialize;

use crate::git::repo::Repo;
use crate::hooks::Action;
use crate::hooks::change::{self, FileChange};
use crate::hooks::managers::{self, Evidence, Manager};

pub const BEGIN: &str = "# >>> git-handoff >>>";
pub const END: &str = "# <<< git-handoff <<<";
const SHEBANG: &str = "#!/bin/sh";

/// The block added to the pre-push hook, from BEGIN to END, each line LF-terminated; with
/// `push_notes`, it also syncs the handoff records with the remote once the checks pass.
pub fn pre_push_block(push_notes: bool) -> String {
    let notes: &[&str] = if push_notes { &PUSH_NOTES } else { &[] };
    [
        BEGIN,
        "# Added by `git handoff hooks install --pre-push`; `git handoff hooks uninstall` removes it.",
        "# Runs the handoff check, then the rest of this hook as a child process, each with git's",
        "# full stdin; the push is refused if either fails, whatever the rest of the hook does.",
        "if [ -z \"${GIT_HANDOFF_PRE_PUSH_INNER:-}\" ]; then",
        "\tgit_handoff_stdin=$(mktemp \"${TMPDIR:-/tmp}/git-handoff-pre-push.XXXXXX\") || exit 1",
        "\tcat >\"$git_handoff_stdin\"",
        "\tgit_handoff_check=0",
        "\tgit-handoff validate --pre-push \"$@\" <\"$git_handoff_stdin\" || git_handoff_check=$?",
        "\tgit_handoff_rest=0",
        "\tif [ -x \"$0\" ]; then",
        "\t\tGIT_HANDOFF_PRE_PUSH_INNER=1 \"$0\" \"$@\" <\"$git_handoff_stdin\" || git_handoff_rest=$?",
        "\telse",
        "\t\tGIT_HANDOFF_PRE_PUSH_INNER=1 sh \"$0\" \"$@\" <\"$git_handoff_stdin\" || git_handoff_rest=$?",
        "\tfi",
    ]
    .iter()
    .chain(notes)
    .chain(&[
        "\trm -f \"$git_handoff_stdin\"",
        "\tif [ \"$git_handoff_check\" -ne 0 ]; then exit \"$git_handoff_check\"; fi",
        "\texit \"$git_handoff_rest\"",
        "fi",
        END,
    ])
    .map(|l| format!("{l}\n"))
    .collect()
}

/// The lines `--push-notes` adds: sync the records when the push goes ahead (not for a push of
/// notes refs alone), and only warn when that fails.
const PUSH_NOTES: [&str; 5] = [
    "\t# --push-notes: carry the handoff records along; a failure warns and the push goes on.",
    "\tif [ \"$git_handoff_check\" -eq 0 ] && [ \"$git_handoff_rest\" -eq 0 ] && grep -qv '^[^ ]* [^ ]* refs/notes/' \"$git_handoff_stdin\"; then",
    "\t\tgit-handoff sync \"$1\" >/dev/null ||",
    "\t\t\techo \"warning: git-handoff: the handoff records were not pushed to $1 (the push goes on); run \\`git handoff sync $1\\` later\" >&2",
    "\tfi",
];

/// Where git runs hooks from for this repository.
pub fn hooks_dir(repo: &Repo) -> Result<PathBuf> {
    let out = repo.git().text(["rev-parse", "--git-path", "hooks"])?;
    let path = PathBuf::from(out);
    let base = repo.work_tree.as_deref().unwrap_or(&repo.git_dir);
    Ok(if path.is_absolute() { path } else { base.join(path) })
}

/// What installing the pre-push block does: a file change, or nothing because a hook manager owns
/// the hook (then the manager's snippet is the way in).
#[derive(Debug)]
pub struct PrePushPlan {
    pub path: PathBuf,
    pub action: Action,
    pub change: Option<FileChange>,
    pub manager: Option<(Manager, Evidence)>,
}

/// Plans installing (or refreshing) the pre-push block; `push_notes` makes it push the records too.
/// The block always matches the latest install: installing without `push_notes` takes it out again.
pub fn plan_install(repo: &Repo, push_notes: bool) -> Result<PrePushPlan> {
    let dir = hooks_dir(repo)?;
    let path = dir.join("pre-push");
    let existing = read_hook(&path)?;
    if let Some(found) = managers::detect(repo.top().ok(), &dir, &path, existing.as_deref()) {
        return Ok(PrePushPlan {
            path,
            action: Action::Managed,
            change: None,
            manager: Some(found),
        });
    }
    let (text, action) = match &existing {
        None => (format!("{SHEBANG}\n{}", pre_push_block(push_notes)), Action::Created),
        Some(text) => with_block(text, &path, push_notes)?,
    };
    let change =
        FileChange { path: path.clone(), before: existing, after: Some(text), executable: true };
    Ok(PrePushPlan { path, action, change: Some(change), manager: None })
}

/// Plans removing the pre-push block: from the hook, and from the copies hook managers moved aside
/// (`pre-push.legacy`, `pre-push.old`) when they still hold it. A file left with nothing but the
/// shebang we wrote goes.
pub fn plan_uninstall(repo: &Repo) -> Result<Vec<(FileChange, Action)>> {
    let path = hooks_dir(repo)?.join("pre-push");
    let mut plans = Vec::new();
    let aside = managers::moved_aside(&path).map(|(p, _)| p);
    for candidate in std::iter::once(path.clone()).chain(aside) {
        let Some(text) = read_hook(&candidate)? else { continue };
        let Some((before, after)) = split_block(&text, &candidate)? else { continue };
        let rest = format!("{before}{after}");
        let (after, action) = if rest.trim().is_empty() || rest.trim() == SHEBANG {
            (None, Action::RemovedFile)
        } else {
            (Some(rest), Action::Removed)
        };
        let change = FileChange { path: candidate, before: Some(text), after, executable: false };
        plans.push((change, action));
    }
    if plans.is_empty() {
        let change = FileChange { path, before: None, after: None, executable: false };
        plans.push((change, Action::NotInstalled));
    }
    Ok(plans)
}

/// Where the pre-push block is, and whether git runs it.
#[derive(Debug, Clone, Serialize)]
pub struct PrePushStatus {
    /// The hook git runs.
    pub path: PathBuf,
    /// Our block is in that hook.
    pub installed: bool,
    /// A hook manager owns the hook or will take it over.
    pub manager: Option<Manager>,
    pub evidence: Option<Evidence>,
    /// Other files holding the block, and whether git runs them (pre-commit runs
    /// `pre-push.legacy`; lefthook's `pre-push.old` and a hooks dir git no longer uses never run).
    pub elsewhere: Vec<Elsewhere>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Elsewhere {
    pub path: PathBuf,
    pub runs: bool,
}

pub fn status(repo: &Repo) -> Result<PrePushStatus> {
    let dir = hooks_dir(repo)?;
    let path = dir.join("pre-push");
    let text = read_hook(&path)?;
    let has_block =
        |text: &str, path: &Path| split_block(text, path).map(|b| b.is_some()).unwrap_or(true);
    let installed = text.as_deref().is_some_and(|t| has_block(t, &path));
    let found = managers::detect(repo.top().ok(), &dir, &path, text.as_deref());
    let owner = text.as_deref().and_then(managers::owner_of);
    let mut elsewhere = Vec::new();
    for (aside, runs) in managers::moved_aside(&path) {
        if read_hook(&aside)?.is_some_and(|t| has_block(&t, &aside)) {
            // pre-commit runs the legacy hook only while its own hook is in place.
            let runs = runs && owner == Some(Manager::PreCommit);
            elsewhere.push(Elsewhere { path: aside, runs });
        }
    }
    let default = repo.common_dir.join("hooks/pre-push");
    if default != path && read_hook(&default)?.is_some_and(|t| has_block(&t, &default)) {
        elsewhere.push(Elsewhere { path: default, runs: false });
    }
    let (manager, evidence) = found.map_or((None, None), |(m, e)| (Some(m), Some(e)));
    Ok(PrePushStatus { path, installed, manager, evidence, elsewhere })
}

fn read_hook(path: &Path) -> Result<Option<String>> {
    change::read_text(path).map_err(|_| {
        anyhow::anyhow!(
            "{}: the existing hook is not UTF-8 text (or cannot be read); add `git handoff \
             validate --pre-push \"$@\"` to it by hand",
            path.display()
        )
    })
}

/// The hook text with our block in place, and what that changed.
fn with_block(text: &str, path: &Path, push_notes: bool) -> Result<(String, Action)> {
    let block = pre_push_block(push_notes);
    if let Some((before, after)) = split_block(text, path)? {
        let updated = format!("{before}{block}{after}");
        let action = if updated == text { Action::Unchanged } else { Action::Updated };
        return Ok((updated, action));
    }
    let first = text.lines().next().unwrap_or("");
    if first.starts_with("#!") && !is_posix_shell(first) {
        bail!(
            "{}: the existing pre-push hook is not a shell script ({first}); add a call to \
             `git handoff validate --pre-push \"$@\"` (with git's stdin) to it by hand",
            path.display()
        );
    }
    // After the shebang line, if any; before everything else, so the user's `exit` cannot skip us.
    let (head, tail) = match first.starts_with("#!") {
        true => text.split_at(text.find('\n').map_or(text.len(), |i| i + 1)),
        false => ("", text),
    };
    let newline = if head.is_empty() || head.ends_with('\n') { "" } else { "\n" };
    Ok((format!("{head}{newline}{block}{tail}"), Action::Added))
}

/// Splits the hook around our block: `(before, after)`, or `None` when there is no block.
fn split_block<'a>(text: &'a str, path: &Path) -> Result<Option<(&'a str, &'a str)>> {
    let Some(start) = line_start_of(text, BEGIN) else { return Ok(None) };
    let Some(end) = line_start_of(&text[start..], END).map(|i| i + start) else {
        bail!(
            "{}: the git-handoff block opens with `{BEGIN}` but has no `{END}` line; repair or \
             delete the block by hand, then install again",
            path.display()
        );
    };
    let after = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    Ok(Some((&text[..start], &text[after..])))
}

/// The byte offset of the first line that is exactly `marker` (ignoring trailing spaces/CR).
fn line_start_of(text: &str, marker: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == marker {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// True for shebangs of shells that run the POSIX block: sh, bash, dash, ksh, zsh, ash, busybox.
fn is_posix_shell(shebang: &str) -> bool {
    let words: Vec<&str> = shebang.trim_start_matches("#!").split_whitespace().collect();
    let program = match words.as_slice() {
        [env, prog, ..] if env.ends_with("/env") => prog.trim_start_matches("-S"),
        [prog, ..] => prog,
        [] => return true,
    };
    let name = program.rsplit('/').next().unwrap_or(program);
    matches!(name, "sh" | "bash" | "dash" | "ksh" | "zsh" | "ash" | "mksh" | "busybox")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_goes_after_the_shebang_and_is_idempotent() {
        let path = Path::new("pre-push");
        let user = "#!/bin/bash\necho user\nexit 0\n";
        let (once, action) = with_block(user, path, false).unwrap();
        assert_eq!(action, Action::Added);
        assert!(once.starts_with(&format!("#!/bin/bash\n{BEGIN}\n")));
        assert!(once.ends_with("echo user\nexit 0\n"));
        let (twice, action) = with_block(&once, path, false).unwrap();
        assert_eq!((twice.as_str(), action), (once.as_str(), Action::Unchanged));
        let (before, after) = split_block(&once, path).unwrap().unwrap();
        assert_eq!(format!("{before}{after}"), user);
    }

    #[test]
    fn non_shell_hooks_are_refused() {
        assert!(with_block("#!/usr/bin/env python3\nprint(1)\n", Path::new("p"), false).is_err());
        assert!(with_block("#!/usr/bin/env bash\n", Path::new("p"), false).is_ok());
        assert!(with_block("echo no shebang\n", Path::new("p"), true).is_ok());
    }
}
