//! `git handoff validate`: check the handoff notes in a range and their layout; in a pre-push hook,
//! the notes a push would add.

use std::io::{IsTerminal, Read, Write};

use anyhow::{Context, Result, bail};

use crate::agent::attempt::Attempt;
use crate::cli::context::Ctx;
use crate::git::repo::Repo;
use crate::ops::validate::{self, Range, Report, pre_push};
use crate::util::error::NotPassed;

/// Check the handoff notes in BASE..REV and their layout.
///
/// Finds every note commit (message `Handoff note: issue #N`, or a commit that adds or changes a
/// file under the note directory) and checks: title, one blank line, the header fields issue,
/// started_at, reason, last_work_commit in that order; the issue agrees with the title, the file
/// name and the commit message; started_at is RFC 3339; reason is allowed; last_work_commit is the
/// note commit's first parent; the required sections in order (agent note: Summary, Remaining
/// work, Evidence; emergency note, told by a first section `Provenance`: Provenance, Changes, Last
/// model intent, Activity trail, Check state, Budget facts, Pointers, Remaining work); the note
/// commit changes only the note file; above it sits at most one seal commit (trailer
/// `Handoff-Seal:`), which leaves the note alone, and nothing else of its attempt. A branch may
/// carry several attempts: commits of a later attempt (up to its note or its seal, which name
/// another issue or started_at, or above a base where this worktree started a later attempt) are
/// no fault of an earlier note.
///
/// Every problem is printed as `<path or commit>:<line>: <what> — <how to mend>`. Exit 0 when there
/// is none (a range without notes passes), 1 when there are problems, 2 on errors.
///
/// With --pre-push (as git's pre-push hook, `git handoff hooks install --pre-push`), reads git's
/// stdin lines `<local ref> <local oid> <remote ref> <remote oid>` and checks only the commits the
/// push would add; deletions pass; a new branch is compared with the remote's other refs. Under
/// the pre-commit framework (its hook `git-handoff-validate`), PRE_COMMIT_FROM_REF/TO_REF give the
/// range instead, and on a first push, when pre-commit gives only PRE_COMMIT_LOCAL_BRANCH, that
/// branch is checked less what the remote (PRE_COMMIT_REMOTE_NAME) already has. pre-commit hands
/// over only the first branch of a push of several: `hooks install --pre-push` checks them all.
/// Problems go to stderr there, and nothing is printed on success.
///
/// --json prints one document: {"ok": bool, "commits": N, "notes": [{"commit", "path", "issue",
/// "kind": "agent"|"emergency"|null, "seal": id|null, "problems": N}], "problems": [{"location",
/// "line": N|null, "commit", "what", "mend"}]}.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The newest commit to check [default: HEAD]; with --pre-push, the remote's name.
    #[arg(value_name = "REV")]
    pub rev: Option<String>,

    /// With --pre-push: the remote's URL, as git passes it to the hook.
    #[arg(value_name = "URL", requires = "pre_push")]
    pub url: Option<String>,

    /// The oldest commit left out [default: the attempt's base, else the merge-base with the
    /// upstream, else none: all history].
    #[arg(long, value_name = "B", conflicts_with = "pre_push")]
    pub base: Option<String>,

    /// Check only the notes of this issue.
    #[arg(long, value_name = "N")]
    pub issue: Option<u64>,

    /// Run as git's pre-push hook: REV is the remote's name, and git's stdin says what is pushed.
    #[arg(long)]
    pub pre_push: bool,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (repo, config) = ctx.open()?;
    let range = if args.pre_push { pushed_range(&repo, &args)? } else { range(&repo, &args)? };
    let report = validate::validate(&repo, &config, &range, args.issue)?;
    if ctx.json {
        crate::cli::output::write_json(out, &report)?;
    } else if args.pre_push {
        out.flush()?;
        let mut err = std::io::stderr().lock();
        print_pre_push(&report, &mut err)?;
    } else {
        print(&report, out)?;
    }
    if report.ok { Ok(()) } else { Err(NotPassed.into()) }
}

/// BASE..REV for the ordinary mode.
fn range(repo: &Repo, args: &Args) -> Result<Range> {
    let head = match &args.rev {
        Some(rev) => Some(repo.resolve_commit(rev).context("REV")?),
        None => repo.head()?.id,
    };
    let Some(head) = head else { return Ok(Range::default()) }; // unborn: nothing to check
    let base = match &args.base {
        Some(rev) => Some(repo.resolve_commit(rev).context("--base")?),
        None => match Attempt::load(repo)? {
            Some(attempt) => attempt.base,
            None => repo.upstream_merge_base(),
        },
    };
    Ok(Range { include: vec![head], exclude: base.into_iter().collect(), ..Range::default() })
}

/// What the push adds, from the pre-commit variables or git's stdin.
fn pushed_range(repo: &Repo, args: &Args) -> Result<Range> {
    let env = |key: &str| std::env::var(key).ok();
    let remote = args.rev.clone().or_else(|| env("PRE_COMMIT_REMOTE_NAME"));
    let from = env("PRE_COMMIT_FROM_REF");
    let to = env("PRE_COMMIT_TO_REF");
    if let Some(range) =
        pre_push::range_from_env(repo, remote.as_deref(), from.as_deref(), to.as_deref())?
    {
        return Ok(range);
    }
    let mut stdin = std::io::stdin().lock();
    let mut input = Vec::new();
    if !stdin.is_terminal() {
        stdin.read_to_end(&mut input).context("reading the pre-push lines on stdin")?;
    }
    let Ok(input) = String::from_utf8(input) else {
        bail!("the pre-push input on stdin is not text; run this as git's pre-push hook");
    };
    // pre-commit's first push: no FROM/TO, an empty stdin, only the local branch.
    if input.trim().is_empty()
        && let Some(local) = env("PRE_COMMIT_LOCAL_BRANCH").filter(|l| !l.trim().is_empty())
    {
        return pre_push::range_from_local_branch(repo, remote.as_deref(), &local);
    }
    pre_push::range_from_stdin(repo, remote.as_deref(), &input)
}

fn print(report: &Report, out: &mut impl Write) -> Result<()> {
    for problem in &report.problems {
        writeln!(out, "{problem}")?;
    }
    let notes = plural(report.notes.len(), "note commit");
    let commits = plural(report.commits, "commit");
    if report.ok {
        writeln!(out, "ok: {notes} checked in {commits}")?;
    } else {
        let problems = plural(report.problems.len(), "problem");
        writeln!(out, "{problems} in {notes} ({commits} checked)")?;
    }
    Ok(())
}

fn print_pre_push(report: &Report, err: &mut impl Write) -> Result<()> {
    if report.ok {
        return Ok(());
    }
    for problem in &report.problems {
        writeln!(err, "{problem}")?;
    }
    writeln!(
        err,
        "git-handoff: push refused: {} in the handoff notes this push adds; mend them and push \
         again (`git push --no-verify` skips the check)",
        plural(report.problems.len(), "problem")
    )?;
    Ok(())
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}
