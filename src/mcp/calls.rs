//! `tools/call`: each tool runs the operation its command runs, on the repository found afresh for
//! the call, and answers with text for the model and the command's JSON as structured content.
//! A failure is a tool result with `isError: true` and the message the command prints.

use anyhow::{Result, bail};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::agent::attempt::{Attempt, Overrides};
use crate::agent::progress::Mode;
use crate::ops::note::{self, NoteSource};
use crate::ops::open::{Configuration, Opened, open};
use crate::ops::progress::{self, Change, Report};
use crate::ops::recall;
use crate::ops::snapshot::{self, Request};
use crate::store::handoff::place::NoteAttempt;
use crate::store::records::Summary;
use crate::util::error::{self, NotPassed, Refused};

use super::rpc_error::{INVALID_PARAMS, RpcError};
use super::{schema, tools};

/// What a tool answers: text for the model, the command's JSON, and whether it failed.
struct Reply {
    text: String,
    structured: Option<Value>,
    is_error: bool,
}

/// Runs the tool named in `params` with its arguments.
pub fn call(params: &Map<String, Value>) -> Result<Value, RpcError> {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Err(RpcError::new(INVALID_PARAMS, "tools/call needs the tool's name in `name`"));
    };
    let Some(tool) = tools::find(name) else {
        let names: Vec<&str> = tools::TOOLS.iter().map(|t| t.name).collect();
        let why = format!("unknown tool {name:?}; the tools are: {}", names.join(", "));
        return Err(RpcError::new(INVALID_PARAMS, why));
    };
    let mut args = match params.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(args) => args.clone(),
    };
    let reply = schema::check(tool.fields, &mut args, "").and_then(|()| run(tool.name, args));
    let reply = reply.unwrap_or_else(|err| Reply {
        text: error_text(&err),
        structured: None,
        is_error: true,
    });
    // The text goes into the model's context: control characters from notes, records, payloads
    // and file names shown escaped (the structured content is JSON, escaped by its writer).
    let text = crate::util::text::escape_controls(&reply.text, true);
    let mut result = json!({
        "content": [{"type": "text", "text": text}],
        "isError": reply.is_error,
    });
    if let Some(structured) = reply.structured {
        result["structuredContent"] = structured;
    }
    Ok(result)
}

/// The message the command prints for `err`: a failed check's report, else the error's chain.
fn error_text(err: &anyhow::Error) -> String {
    if err.is::<NotPassed>() {
        let report = error::not_passed_report(err);
        if !report.is_empty() {
            return report.join("\n");
        }
    }
    if err.is::<Refused>() {
        return format!("error: {err}");
    }
    error::render(err)
}

fn run(name: &str, args: Value) -> Result<Reply> {
    match name {
        tools::NOTE => note(serde_json::from_value(args)?),
        tools::RECALL => recall(serde_json::from_value(args)?),
        tools::SNAPSHOT => snapshot(serde_json::from_value(args)?),
        tools::PROGRESS => progress(serde_json::from_value(args)?),
        _ => bail!("no tool {name}"),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct NoteArgs {
    goal: Option<String>,
    done: Vec<String>,
    in_progress: Vec<String>,
    decisions: Vec<String>,
    next: Vec<String>,
    files_touched: Vec<String>,
    reason: Option<String>,
    issue: Option<u64>,
}

/// The summary route of `note`: checked, tagged, committed alone, recorded.
fn note(args: NoteArgs) -> Result<Reply> {
    // As the command: a configuration it cannot take whole never stops the note.
    let Opened { mut repo, config, problems: config_problems } = open(Configuration::Saving)?;
    let overrides = Overrides { issue: args.issue, ..Overrides::default() };
    let resolved = Attempt::resolve(&repo, &overrides)?;
    if resolved.issue.is_none() {
        bail!(
            "no attempt is started here; run `git handoff start --issue N`, or give the issue \
             number as the argument `issue`"
        );
    }
    let attempt = NoteAttempt::from_resolved(&resolved)?;
    let summary = Summary {
        goal: args.goal,
        done: args.done,
        in_progress: args.in_progress,
        decisions: args.decisions,
        next: args.next,
        files_touched: args.files_touched,
    };
    let reason = args.reason.as_deref();
    let outcome =
        note::agent_note(&mut repo, &config, &attempt, reason, NoteSource::Given(summary))?;
    let mut text = outcome.saved_reply("[unverified]").join("\n");
    if !outcome.problems.is_empty() {
        text.push_str("\nThe note was committed, but its layout check failed:");
        for problem in &outcome.problems {
            text.push_str(&format!("\n{problem}"));
        }
    }
    // What the command would print as warnings, the model reads here.
    for warning in config_problems.iter().chain(&outcome.warnings) {
        text.push_str(&format!("\nwarning: {warning}"));
    }
    let is_error = !outcome.problems.is_empty();
    Ok(Reply { text, structured: Some(serde_json::to_value(&outcome)?), is_error })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RecallArgs {
    source: Option<recall::SessionSource>,
    max_lines: Option<usize>,
}

fn recall(args: RecallArgs) -> Result<Reply> {
    let Opened { repo, config, problems: config_problems } = open(Configuration::Saving)?;
    let resolved = Attempt::resolve(&repo, &Overrides::default())?;
    let source = args.source.unwrap_or(recall::SessionSource::Resume);
    let asked = recall::Asked { issue: None, source, max_lines: args.max_lines, tool: true };
    let recall = recall::for_session(&repo, &config, &resolved, &asked)?;
    let mut text = recall.text();
    if text.is_empty() {
        text = "No handoff is recorded for this branch or issue yet.".to_string();
    }
    for warning in config_problems.iter().chain(&recall.warnings) {
        text.push_str(&format!("\nwarning: {warning}"));
    }
    Ok(Reply { text, structured: Some(serde_json::to_value(&recall)?), is_error: false })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SnapshotArgs {
    max_lines: Option<usize>,
    reason: Option<String>,
}

fn snapshot(args: SnapshotArgs) -> Result<Reply> {
    let Opened { repo, config, .. } = open(Configuration::Strict)?;
    let resolved = Attempt::resolve(&repo, &Overrides::default())?;
    let reason = args.reason.unwrap_or_else(|| "agent_request".to_string());
    let request = Request::for_attempt(&config, resolved, reason, args.max_lines)?;
    let value = serde_json::to_value(snapshot::take(&repo, &request)?)?;
    Ok(Reply {
        text: serde_json::to_string_pretty(&value)?,
        structured: Some(value),
        is_error: false,
    })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ProgressArgs {
    plan: Option<Vec<String>>,
    findings: bool,
    force: bool,
    set: Option<SetArgs>,
}

#[derive(Deserialize)]
struct SetArgs {
    id: String,
    status: String,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    files: Vec<String>,
}

fn progress(args: ProgressArgs) -> Result<Reply> {
    let Opened { repo, config, .. } = open(Configuration::Strict)?;
    let mut set_id = None;
    let change = match (args.plan, args.set) {
        (Some(_), Some(_)) => bail!("give the argument `plan` or `set`, not both"),
        (Some(items), None) => {
            let mode = if args.findings { Mode::Findings } else { Mode::Tasks };
            Change::Plan { mode, items, force: args.force }
        }
        (None, _) if args.findings || args.force => {
            bail!("the arguments `findings` and `force` go with `plan`")
        }
        (None, Some(set)) => {
            set_id = Some(set.id.clone());
            Change::Set { id: set.id, status: set.status, note: set.note, files: set.files }
        }
        (None, None) => {
            let plan = progress::load(&repo)?;
            let (text, files) = progress::summary(&repo, &config, &plan, &Overrides::default())?;
            let value = serde_json::to_value(Report::of(&plan, files))?;
            return Ok(Reply { text, structured: Some(value), is_error: false });
        }
    };
    let plan = progress::change(&repo, &config, change)?;
    let mut text = plan.status_line();
    // What the set did, its Action included, comes first.
    let set = set_id.and_then(|id| plan.items.iter().find(|i| i.id.eq_ignore_ascii_case(&id)));
    if let Some(item) = set {
        let said = crate::agent::change_summary::set_line(plan.mode, item, "`set.note`");
        text = format!("{said}\n{text}");
    }
    for item in &plan.items {
        text.push_str(&format!("\n{}: {} — {}", item.id, item.title, item.status.as_str()));
    }
    let value = serde_json::to_value(Report::of(&plan, Vec::new()))?;
    Ok(Reply { text, structured: Some(value), is_error: false })
}
