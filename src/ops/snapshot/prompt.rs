//! The block a runtime injects when the token soft threshold is crossed, and its one follow-up
//! (seed 001): the snapshot taken at that moment, the pre-filled note header, and the five steps
//! that finish the handoff in one Write and one Bash call. Every runtime injects the same words,
//! and `skills/handoff/SKILL.md` says the same thing to an agent that reads the skill instead.

use crate::ops::snapshot::Snapshot;

/// The first injection, or the one shorter follow-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    First,
    Followup,
}

/// How step 4 commits the note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commit {
    /// `git handoff note`, with the plain-git command named for an agent without git-handoff.
    Handoff,
    /// The runtime says git-handoff is not on the agent's PATH: plain git only.
    PlainGit,
}

/// What the prompt is for.
pub struct Request<'a> {
    pub issue: u64,
    /// The note path, relative to the top of the work tree (`.agent/handoff/179.md`).
    pub note_path: &'a str,
    pub form: Form,
    pub commit: Commit,
}

/// The whole block to inject.
pub fn render(snap: &Snapshot, req: &Request<'_>) -> String {
    let mut state = Vec::new();
    super::markdown::write(snap, &|h: &str| h.to_string(), &mut state);
    let state = String::from_utf8_lossy(&state);
    let (issue, path) = (req.issue, req.note_path);
    let plain = format!("git add {path} && git commit -m \"Handoff note: issue #{issue}\"");
    match req.form {
        Form::First => {
            let commit = match req.commit {
                Commit::Handoff => format!(
                    "4. In one Bash call, commit the note: `git handoff note`. (Only if \
                     git-handoff is not on your PATH, run `{plain}` instead.)"
                ),
                Commit::PlainGit => format!("4. In one Bash call, commit the note: `{plain}`."),
            };
            format!(
                "# Handoff now: issue #{issue}\n\n\
                 The token soft threshold is crossed: hand off now, in two tool calls. The state \
                 of the repository below was taken just now.\n\n\
                 {state}\n\
                 ## What to do now, and nothing else\n\n\
                 1. Do not run diagnostic commands (`git status`, `git log`, `git diff`, tests, \
                 builds): the state above is current.\n\
                 2. Do not commit your work yourself. Sealing will commit any uncommitted work \
                 after the attempt.\n\
                 3. Write `{path}`: the pre-filled header above verbatim, then the sections \
                 `## Summary`, `## Remaining work` and `## Evidence`. Claim only what you did: \
                 what the event log cannot support is tagged `[unverified: …]`.\n\
                 {commit}\n\
                 5. Stop.\n"
            )
        }
        Form::Followup => {
            let commit = match req.commit {
                Commit::Handoff => {
                    format!("`git handoff note` (without git-handoff on your PATH: `{plain}`)")
                }
                Commit::PlainGit => format!("`{plain}`"),
            };
            format!(
                "# Handoff reminder: issue #{issue}\n\n\
                 The handoff note is not committed yet. The state below is current.\n\n\
                 {state}\n\
                 1. No diagnostic commands: the state above is current.\n\
                 2. Do not commit your work: sealing will.\n\
                 3. Write `{path}`: the header above verbatim, then `## Summary`, \
                 `## Remaining work`, `## Evidence`.\n\
                 4. In one Bash call: {commit}.\n\
                 5. Stop.\n"
            )
        }
    }
}
