//! `git handoff sync`: handoff records across machines over a git remote.

use std::io::Write;

use anyhow::Result;

use crate::cli::context::Ctx;
use crate::cli::output;
use crate::ops::sync::{self, Joined, Report};

/// Exchange handoff records with a remote, losing none from either side.
///
/// Fetches, in one `git fetch`, the remote's notes ref (`notes_ref`, default refs/notes/handoff)
/// into refs/notes/remotes/<REMOTE>/handoff and every writer's ref (refs/handoff/writers/*) into
/// refs/handoff/remotes/<REMOTE>/writers/; merges what moved into the local notes ref (an object
/// annotated on several sides keeps the records of all); pushes the result to this clone's own
/// writer's ref, refs/handoff/writers/<writer> (`handoff.writer` in git config, random when unset),
/// with a lease on its old value; and then moves the local ref. No other clone pushes that ref, so
/// many clones syncing at once do not contend. A push the remote refuses is tried once more; a lost
/// race (another worktree of this clone) starts the round over. Each fetch and push is one
/// connection: the syncs of one user on one machine share 16 connections per host
/// (`handoff.syncConnections` in git config; 0: no limit), and a connection the server dropped or
/// hung up on is made again after a random, growing wait (up to 8 times; once for a local remote
/// or one that refuses connections). A remote without records is not an error. When the fetch or the push fails, the local notes ref is left as it was and the command
/// exits 2. The push skips the pre-push hook (`--no-verify`). recall and show read the local notes
/// ref and refs/notes/remotes/*/handoff.
///
/// --compact then folds every writer's ref into the remote's notes ref and removes them, in one
/// atomic push with a lease on each ref (a writer that pushed in between makes it start over).
///
/// --json prints {"remote", "notes_ref", "tracking_ref", "writer_ref", "outcome" (up_to_date |
/// fast_forward | pushed | merged), "fetched" (records received), "pushed" (records sent),
/// "merge_commit" (id or null), "local" (the local notes ref afterwards, or null), "writers"
/// (writers' refs on the remote), "tries" (fetch-merge-push rounds), "reconnects" (connections
/// made again after the server dropped one), "rejected" (pushes the remote rejected), "compacted"
/// (writers' refs folded, or null without --compact)}.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The remote to sync with [default: the current branch's remote, else origin].
    #[arg(value_name = "REMOTE")]
    pub remote: Option<String>,
    /// Also fold every writer's ref into the remote's notes ref and remove them (one atomic push;
    /// best run when no one else is syncing, e.g. after a fleet of agents finished).
    #[arg(long)]
    pub compact: bool,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let (mut repo, config) = ctx.open()?;
    let remote = match args.remote {
        Some(remote) => remote,
        None => sync::default_remote(&repo)?,
    };
    let report = sync::sync(&mut repo, &config.notes_ref, &remote, args.compact)?;
    if ctx.json {
        return Ok(output::write_json(out, &report)?);
    }
    writeln!(out, "{}", summary(&report))?;
    Ok(())
}

/// One line: what came in, what went out, and how.
fn summary(report: &Report) -> String {
    let remote = &report.remote;
    let records = |n: usize| match n {
        0 => "no new records".to_string(),
        1 => "1 record".to_string(),
        n => format!("{n} records"),
    };
    let short =
        |id: &Option<String>| id.as_deref().map(|i| crate::util::text::short_id(i).to_string());
    let tip = short(&report.local).unwrap_or_default();
    let mut line = match report.outcome {
        Joined::UpToDate if report.local.is_none() => {
            format!("{remote}: no handoff records on either side yet")
        }
        Joined::UpToDate => format!("{remote}: up to date ({} at {tip})", report.notes_ref),
        Joined::FastForward => {
            format!(
                "{remote}: fetched {} ({} now at {tip})",
                records(report.fetched),
                report.notes_ref
            )
        }
        Joined::Pushed => format!("{remote}: pushed {}", records(report.pushed)),
        Joined::Merged => format!(
            "{remote}: fetched {}, merged in {}, pushed {}",
            records(report.fetched),
            short(&report.merge_commit).unwrap_or_default(),
            records(report.pushed)
        ),
    };
    if report.tries > 1 {
        line.push_str(&format!(" (after {} tries: another writer raced)", report.tries));
    }
    if report.reconnects > 0 {
        let times = if report.reconnects == 1 { "once" } else { "times" };
        let n =
            if report.reconnects == 1 { String::new() } else { format!("{} ", report.reconnects) };
        line.push_str(&format!(" (the server dropped a connection; reconnected {n}{times})"));
    }
    line
}
