//! The snapshot: the repository state at one moment, cheap enough to put in a prompt.
//!
//! Its three git parts are produced by git itself: the bytes are then git's own under every config
//! key (`status.*`, `diff.*`, `log.*`, `core.quotePath`, colour settings, `COLUMNS`), including
//! rename detection in status and `--stat`, which gix does not match and a port would chase
//! forever. The log runs beside the other two; how status and the diff run is chosen in one place,
//! [`plan`], from the repository's configuration and size: on a small tree as two gits at once (the
//! diff of large changes in two parts, [`diff_split`]); on a large one status in two halves
//! ([`status_split`]) beside a diff narrowed to the paths that can differ ([`narrowed_diff`]), the
//! tracked files walked once, by us, for both ([`tracked_walk`]), or not at all where the user's
//! file system monitor knows them unchanged ([`monitor`]). See `bench/table.sh` for the figures.

mod diff_split;
mod dir_cache;
mod git_read;
mod git_untracked;
mod kept_lines;
mod monitor;
mod narrowed_diff;
mod narrowed_parts;
mod narrowed_run;
mod narrowed_status;
mod plan;
mod private_index;
mod stat_cache;
mod stat_render;
mod status_split;
mod tracked_walk;
mod untracked_lines;
mod untracked_names;
mod worktree_cache;

use anyhow::{Result, bail};
use gix::ObjectId;
use serde::{Serialize, Serializer};

use crate::agent::attempt::Resolved;
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::util::time;
use git_read::{join, run_git};

pub mod markdown;
pub mod prompt;

/// One git output, cut to the first `max` lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Capped {
    #[serde(serialize_with = "lossy_lines")]
    pub lines: Vec<Vec<u8>>,
    /// How many lines were left out.
    pub more: usize,
}

/// `git diff --stat`: the file lines capped, the summary line kept apart.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DiffStat {
    #[serde(serialize_with = "lossy_lines")]
    pub lines: Vec<Vec<u8>>,
    /// ` 1 file changed, 2 insertions(+), 1 deletion(-)`, or empty when nothing differs.
    #[serde(serialize_with = "lossy")]
    pub summary: Vec<u8>,
    pub more: usize,
}

/// The snapshot, in the shape of `snapshot --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    pub branch: Option<String>,
    pub base: Option<String>,
    pub head: Option<String>,
    pub issue: Option<u64>,
    pub started_at: Option<String>,
    pub taken_at: String,
    pub status: Capped,
    pub log: Capped,
    pub diff_stat: DiffStat,
    pub header: Option<String>,
}

/// What a snapshot is taken of.
pub struct Request {
    pub issue: Option<u64>,
    /// The attempt's base: `Some(None)` for an attempt begun on an unborn branch; `None` when
    /// unknown (then the upstream merge-base, else HEAD).
    pub base: Option<Option<ObjectId>>,
    pub started_at: Option<jiff::Timestamp>,
    pub reason: String,
    pub max_lines: usize,
}

impl Request {
    /// The request for the attempt `resolved`: the reason checked against the configured ones, the
    /// cap defaulting to `caps.snapshot_lines`.
    pub fn for_attempt(
        config: &Config,
        resolved: Resolved,
        reason: String,
        max_lines: Option<usize>,
    ) -> Result<Request> {
        config.check_reason(&reason)?;
        let max_lines = max_lines.unwrap_or(config.caps.snapshot_lines);
        if max_lines == 0 {
            bail!("--max-lines must be at least 1 (it caps each git output; the default is 40)");
        }
        Ok(Request {
            issue: resolved.issue,
            base: resolved.base,
            started_at: resolved.started_at,
            reason,
            max_lines,
        })
    }
}

/// Takes the snapshot.
pub fn take(repo: &Repo, req: &Request) -> Result<Snapshot> {
    repo.top()?;
    let head = repo.head()?;
    let base = match req.base {
        Some(base) => base,
        None => repo.upstream_merge_base().or(head.id),
    };
    let git = repo.git();
    let empty_tree = repo.empty_tree().to_string();
    let base_hex = base.map(|id| id.to_string());

    let mut status_args = vec!["status".to_string(), "--short".to_string()];
    if plan::status_without_preload() {
        status_args.splice(0..0, ["-c".to_string(), "core.preloadIndex=false".to_string()]);
    }
    let log_args = match (base, head.id) {
        (_, None) => None,
        (Some(b), Some(h)) if b == h => None,
        (Some(b), Some(_)) => Some(vec!["log".into(), "--oneline".into(), format!("{b}..HEAD")]),
        (None, Some(_)) => Some(vec!["log".into(), "--oneline".into(), "HEAD".into()]),
    };
    let diff_base = base_hex.clone().unwrap_or(empty_tree);
    let diff_args = vec!["diff".into(), "--stat".into(), diff_base.clone(), "--".into()];

    let taken_at = time::now();
    let (status_and_diff, log) = std::thread::scope(|s| {
        let log = s.spawn(|| log_args.as_ref().map(|args| run_git(&git, args)).transpose());
        let status_and_diff = match plan::choose(repo, base) {
            plan::Strategy::Split(plan) => {
                let narrow = base.map(|base| status_split::Narrow {
                    repo: repo.gix(),
                    base,
                    arg: &diff_base,
                });
                status_split::run(&git, &plan, &status_args, &diff_args, narrow)
            }
            plan::Strategy::Whole { diff } => {
                // Status is the shorter part: it runs while the diff runs here.
                let status = s.spawn(|| run_git(&git, &status_args));
                let diff = match diff {
                    Some(halves) => diff_split::run(&git, &halves, &diff_base, &diff_args),
                    None => run_git(&git, &diff_args),
                };
                let status = join(status);
                status.and_then(|status| Ok((status, diff?)))
            }
        };
        (status_and_diff, join(log))
    });
    let ((status, diff), log) = (status_and_diff?, log?.unwrap_or_default());

    let head_hex = head.id.map(|id| id.to_string());
    let header = req.issue.map(|issue| {
        let started = req.started_at.unwrap_or(taken_at);
        let header = crate::model::note::Header {
            issue,
            started_at: time::format(started),
            reason: req.reason.clone(),
            // On an unborn branch there is no commit to name yet; the note cannot be committed
            // before one exists, and validate would say so.
            last_work_commit: head_hex.clone().unwrap_or_else(|| "(no commit yet)".into()),
        };
        header.render()
    });
    Ok(Snapshot {
        branch: head.branch,
        base: base_hex,
        head: head_hex,
        issue: req.issue,
        started_at: req.started_at.map(time::format),
        taken_at: time::format(taken_at),
        status: cap(split_lines(&status), req.max_lines),
        log: cap(split_lines(&log), req.max_lines),
        diff_stat: diff_stat(split_lines(&diff), req.max_lines),
        header,
    })
}

/// Splits output into lines without their `\n`.
pub fn split_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    if bytes.is_empty() {
        return Vec::new();
    }
    bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

/// Keeps the first `max` lines and counts the rest.
pub fn cap(mut lines: Vec<Vec<u8>>, max: usize) -> Capped {
    let more = lines.len().saturating_sub(max);
    lines.truncate(max);
    Capped { lines, more }
}

fn diff_stat(mut lines: Vec<Vec<u8>>, max: usize) -> DiffStat {
    let summary = lines.pop().unwrap_or_default();
    let Capped { lines, more } = cap(lines, max);
    DiffStat { lines, summary, more }
}

fn lossy_lines<S: Serializer>(lines: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(lines.iter().map(|l| String::from_utf8_lossy(l)))
}

fn lossy<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&String::from_utf8_lossy(bytes))
}
