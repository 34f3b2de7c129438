//! The block a runtime injects when a handoff is due, and its one follow-up (seed 001): the
//! snapshot taken at that moment, the pre-filled note header, and five steps. At the token soft
//! threshold every turn re-counts the whole context, so the agent does not commit its work
//! (sealing will) and finishes in one Write and one Bash call. For an operator's request and for
//! turn and time limits the seed keeps the flow that commits the work first, then the note. Every
//! runtime injects the same words, and `skills/handoff/SKILL.md` says the same thing to an agent
//! that reads the skill instead.

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
    /// Why the handoff happens: the header's reason, which chooses the flow.
    pub reason: &'a str,
    pub form: Form,
    pub commit: Commit,
    /// What `git handoff note` needs besides: the attempt overrides the prompt was made with
    /// (` --issue 7 --base … --started-at …`, each word quoted), so that a stateless runtime's
    /// agent runs a command that works without `start`; empty otherwise.
    pub note_args: &'a str,
}

/// Whether the agent leaves its work to the seal or commits it first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// Token and cost budgets: every call costs the whole context, so sealing commits the work.
    SealLater,
    /// An operator's request, a turn or time limit: the work is committed first, then the note.
    CommitFirst,
}

fn flow(reason: &str) -> Flow {
    match reason {
        "token_soft_threshold" | "token_hard_limit" | "cost_hard_limit" => Flow::SealLater,
        _ => Flow::CommitFirst,
    }
}

/// Why the handoff is due, as the prompt's first sentence says it.
fn occasion(reason: &str) -> String {
    match reason {
        "token_soft_threshold" => "The token soft threshold is crossed".into(),
        "token_hard_limit" => "The token limit is close".into(),
        "cost_hard_limit" => "The cost limit is close".into(),
        "turn_limit" => "The turn limit is close".into(),
        "time_limit" => "The time limit is close".into(),
        "operator_request" => "The operator asks for a handoff".into(),
        "agent_request" => "A handoff is due".into(),
        other => format!("The runtime asks for a handoff ({other})"),
    }
}

/// The whole block to inject.
pub fn render(snap: &Snapshot, req: &Request<'_>) -> String {
    let mut state = Vec::new();
    super::markdown::write(snap, &|h: &str| h.to_string(), &mut state);
    let state = String::from_utf8_lossy(&state);
    let steps = match (req.form, flow(req.reason)) {
        (Form::First, Flow::SealLater) => seal_later(req),
        (Form::First, Flow::CommitFirst) => commit_first(req),
        (Form::Followup, flow) => followup(req, flow),
    };
    let (issue, occasion) = (req.issue, occasion(req.reason));
    match req.form {
        Form::First => {
            let calls = match flow(req.reason) {
                Flow::SealLater => "in two tool calls",
                Flow::CommitFirst => "committing your work first",
            };
            format!(
                "# Handoff now: issue #{issue}\n\n\
                 {occasion}: hand off now, {calls}. The state of the repository below was taken \
                 just now.\n\n\
                 {state}\n\
                 ## What to do now, and nothing else\n\n\
                 {steps}"
            )
        }
        Form::Followup => format!(
            "# Handoff reminder: issue #{issue}\n\n\
             {occasion} and the handoff note is not committed yet. The state below is current.\n\n\
             {state}\n\
             {steps}"
        ),
    }
}

/// The plain-git commit of the note alone.
fn plain_commit(req: &Request<'_>) -> String {
    let path = crate::util::shell::quote(req.note_path);
    format!("git add {path} && git commit -m \"Handoff note: issue #{}\"", req.issue)
}

/// What step 3 says about claims: `git handoff note` tags what the log cannot support; a plain
/// commit checks nothing, so it promises no tags.
fn claims(req: &Request<'_>) -> &'static str {
    match req.commit {
        Commit::Handoff => {
            "Claim only what you did: what the event log cannot support is tagged \
                            `[unverified: …]`."
        }
        Commit::PlainGit => {
            "Claim only what you did, and in Evidence name the last check you \
                             ran and its result (or \"no check run\")."
        }
    }
}

/// Step 4 of the first injection: the one Bash call that commits the note.
fn commit_step(req: &Request<'_>) -> String {
    let plain = plain_commit(req);
    match req.commit {
        Commit::Handoff => format!(
            "4. In one Bash call, commit the note: `git handoff note{}`. (Only if git-handoff is \
             not on your PATH, run `{plain}` instead.)",
            req.note_args
        ),
        Commit::PlainGit => format!("4. In one Bash call, commit the note: `{plain}`."),
    }
}

/// The token soft threshold's five steps: no diagnostics, no work commit, one Write, one Bash.
fn seal_later(req: &Request<'_>) -> String {
    format!(
        "1. Do not run diagnostic commands (`git status`, `git log`, `git diff`, tests, builds): \
         the state above is current.\n\
         2. Do not commit your work yourself. Sealing will commit any uncommitted work after the \
         attempt.\n\
         3. Write `{path}`: the pre-filled header above verbatim, then the sections \
         `## Summary`, `## Remaining work` and `## Evidence`. {claims}\n\
         {commit}\n\
         5. Stop.\n",
        path = req.note_path,
        claims = claims(req),
        commit = commit_step(req),
    )
}

/// The commit-first flow (operator request, turn or time limit): the work in one commit, then
/// the note, committed alone on top of it.
fn commit_first(req: &Request<'_>) -> String {
    let (work, header) = match req.commit {
        Commit::Handoff => (
            "`git add -A && git commit -m \"<what the work does>\"`",
            "the pre-filled header above verbatim (`git handoff note` sets `last_work_commit` to \
             your new commit)",
        ),
        Commit::PlainGit => (
            "`git add -A && git commit -m \"<what the work does>\" && git rev-parse HEAD`",
            "the pre-filled header above, with `last_work_commit` set to the id that \
             `git rev-parse HEAD` printed (unchanged when you committed nothing)",
        ),
    };
    format!(
        "1. Do not run diagnostic commands (`git status`, `git log`, `git diff`, tests, builds): \
         the state above is current.\n\
         2. Commit your work first, in one Bash call: {work} (skip it when the status above is \
         empty).\n\
         3. Write `{path}`: {header}, then the sections `## Summary`, `## Remaining work` and \
         `## Evidence`. {claims}\n\
         {commit}\n\
         5. Stop.\n",
        path = req.note_path,
        claims = claims(req),
        commit = commit_step(req),
    )
}

/// The follow-up's shorter steps, in the same flow as the first injection.
fn followup(req: &Request<'_>, flow: Flow) -> String {
    let plain = plain_commit(req);
    let commit = match req.commit {
        Commit::Handoff => {
            format!(
                "`git handoff note{}` (without git-handoff on your PATH: `{plain}`)",
                req.note_args
            )
        }
        Commit::PlainGit => format!("`{plain}`"),
    };
    let work = match (flow, req.commit) {
        (Flow::SealLater, _) => "2. Do not commit your work: sealing will.".to_string(),
        (Flow::CommitFirst, Commit::Handoff) => {
            "2. Commit your work first if you have not: `git add -A && git commit -m \"…\"`."
                .to_string()
        }
        (Flow::CommitFirst, Commit::PlainGit) => {
            "2. Commit your work first if you have not: `git add -A && git commit -m \"…\" && \
             git rev-parse HEAD`, and put that id in `last_work_commit`."
                .to_string()
        }
    };
    format!(
        "1. No diagnostic commands: the state above is current.\n\
         {work}\n\
         3. Write `{path}`: the header above verbatim, then `## Summary`, `## Remaining work`, \
         `## Evidence`.\n\
         4. In one Bash call: {commit}.\n\
         5. Stop.\n",
        path = req.note_path,
    )
}
