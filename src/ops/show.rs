//! What `git handoff show` finds: the latest handoff on the branch (or at or below a revision),
//! what happened since it, and what to run next; the command prints it.

use anyhow::{Context, Result, anyhow};

use crate::agent::attempt::{Attempt, Overrides};
use crate::git::repo::Repo;
use crate::model::config::Config;
use crate::store::handoff::since::{self, Since};
use crate::store::handoff::{self, Handoff, Query};

/// What `show` is asked: where to look (HEAD when `None`) and the attempt's overrides.
pub struct Request<'a> {
    pub rev: Option<&'a str>,
    pub attempt: Overrides,
}

/// The handoff found, what happened since it (only when shown at HEAD), the next steps, and what
/// was skipped on the way (a note that could not be read may be why none was found).
pub struct Shown {
    pub handoff: Option<Handoff>,
    pub since: Option<Since>,
    pub next: Vec<String>,
    pub warnings: Vec<String>,
    /// Why no handoff was found, with what to run instead; `Some` exactly when `handoff` is not.
    pub missing: Option<anyhow::Error>,
}

pub fn show(repo: &Repo, config: &Config, request: &Request<'_>) -> Result<Shown> {
    let start = match request.rev {
        Some(rev) => Some(repo.resolve_commit(rev).context("REV")?),
        None => None,
    };
    let resolved = Attempt::resolve(repo, &request.attempt)?;
    let head = repo.head()?;
    let query = Query {
        start,
        issue: request.attempt.issue,
        attempt_issue: resolved.issue,
        branch: if start.is_none() { head.ref_name.as_deref() } else { None },
    };
    let latest = handoff::find(repo, config, &query)?;
    let mut warnings = Vec::new();
    let Some(handoff) = latest.handoff else {
        let at = request.rev.map(|r| format!(" at {r}")).unwrap_or_default();
        let missing = anyhow!(
            "no handoff found{at} for this branch{}: no note commit on it and no record; \
             `git handoff log` lists the branch's handoffs and `git notes --ref={} list` the \
             records",
            query.issue.or(resolved.issue).map(|i| format!(" or issue #{i}")).unwrap_or_default(),
            crate::util::shell::quote(&config.notes_ref)
        );
        let warnings = latest.warnings;
        return Ok(Shown {
            handoff: None,
            since: None,
            next: Vec::new(),
            warnings,
            missing: Some(missing),
        });
    };
    // Only up to HEAD: a handoff shown at REV is shown as it was.
    let since = match start {
        None => since::since(repo, config, &handoff)
            .map_err(|err| warnings.push(format!("{err:#}; what happened since is left out")))
            .ok()
            .filter(|s| !s.is_empty()),
        Some(_) => None,
    };
    warnings.extend(latest.warnings);
    let next = next_steps(&handoff);
    Ok(Shown { handoff: Some(handoff), since, next, warnings, missing: None })
}

fn next_steps(handoff: &Handoff) -> Vec<String> {
    let record = &handoff.record;
    let mut steps = Vec::new();
    if let Some(issue) = record.issue {
        steps.push(format!(
            "git handoff start --issue {issue}    # continue the work in a new attempt"
        ));
    }
    if let Some(seal) = &handoff.seal {
        steps.push(format!(
            "git show --stat {}       # the sealed leftover work",
            crate::util::text::short_id(&seal.commit)
        ));
    }
    if !record.tags.is_empty() {
        steps.push("re-run the last check before trusting the tagged claims".to_string());
    }
    steps.push("git handoff recall --source resume  # the short form for an agent".to_string());
    steps
}
