//! The emergency handoff note: written from reconstructed facts when the agent hit a limit without
//! writing one. Its sections are fixed (Provenance, Changes, Last model intent, Activity trail,
//! Check state, Budget facts, Pointers, Remaining work); every missing fact renders as
//! `not available` or `none recorded`, so the note always validates.
//!
//! The note stays short on any tree: every list in it (the diff stat, the commits, the sealed
//! files, the edited files, the plan) holds at most [`MAX_LIST`] lines and a `+N more` line, the
//! tool-call trail the last [`MAX_CALLS`] calls, the model's intent about [`INTENT_CHARS`]
//! characters. Commands and paths sit in code spans and fences their content cannot close.
//!
//! This file renders the note; what it is rendered from is [`input`]'s, and the runtime's facts
//! file is [`facts`]'.

use crate::model::markdown::{self, code_span, count};

mod facts;
mod input;

pub use facts::{Facts, SoftThreshold};
pub use input::{CallEnd, CheckCall, Input, ToolCall};

/// Lines any list of the note holds before its `+N more` line.
pub const MAX_LIST: usize = 50;
/// Tool calls in the trail.
pub const MAX_CALLS: usize = 15;
const INTENT_CHARS: usize = 1500;
const NOT_AVAILABLE: &str = "not available";
const NONE_RECORDED: &str = "none recorded";

/// Renders the note.
pub fn render(input: &Input) -> String {
    let mut out = crate::model::note::Header {
        issue: input.issue,
        started_at: input.started_at.clone(),
        reason: input.reason.clone(),
        last_work_commit: input.last_work_commit.clone(),
    }
    .render();
    section(&mut out, "Provenance");
    out.push_str(&format!(
        "The runtime wrote this note because the model did not write one: {} (`{}`).\n\
         Written by git-handoff at {}.\n",
        describe_reason(&input.reason),
        input.reason,
        input.written_at
    ));
    if let Some(error) = &input.ended_on_error {
        out.push_str(&format!("The last turn ended on an API error: {}.\n", one_line(error, 400)));
    }
    for problem in &input.facts.config_problems {
        out.push_str(&format!("Configuration: {}\n", one_line(problem, 600)));
    }
    changes(&mut out, input);
    intent(&mut out, input);
    activity(&mut out, input);

    section(&mut out, "Check state");
    out.push_str("Final check: not run\n");
    let baseline = match &input.facts.baseline_check {
        Some(b) => check_line(&b.command, if b.ok { CallEnd::Ok } else { CallEnd::Error }, None),
        None => given(input, "baseline_check").unwrap_or_else(|| NOT_AVAILABLE.to_string()),
    };
    out.push_str(&format!("Baseline check (before the model): {baseline}\n"));

    budget(&mut out, input);

    section(&mut out, "Pointers");
    let facts = &input.facts;
    let session = facts.session_id.clone().or_else(|| given(input, "session_id"));
    let archive = facts.archive_dir.clone().or_else(|| given(input, "archive_dir"));
    for (name, value) in [
        ("Attempt log directory", input.log_dir.clone()),
        ("Archive", archive),
        ("Session id", session.or(input.session_id.clone())),
    ] {
        let value = value.map_or_else(|| NOT_AVAILABLE.to_string(), |v| one_line(&v, 300));
        out.push_str(&format!("- {name}: {value}\n"));
    }

    section(&mut out, "Remaining work");
    out.push_str(
        "The runtime could not determine what remains. The issue's acceptance criteria are the \
         reference; none of them were verified.\n",
    );
    if let Some(status) = &input.plan_status {
        out.push_str(&format!("\nProgress plan: {status}.\n"));
        list(&mut out, &input.plan_items, "none");
    }
    out
}

fn changes(out: &mut String, input: &Input) {
    section(out, "Changes");
    out.push_str(&format!("Diff stat (`git diff --stat {}`):\n\n", input.diff_range));
    // The last line of `--stat` is its summary: kept after the capped file lines.
    let mut stat: Vec<&str> = input.diff_stat.lines().collect();
    let summary = stat.pop();
    let (kept, more) = markdown::capped(&stat, MAX_LIST);
    let mut text: Vec<&str> = kept;
    text.extend(more.as_deref());
    text.extend(summary);
    markdown::fenced_block(out, &text.join("\n"), "no changes");
    out.push_str(&format!("\nCommits (`git log --oneline {}`):\n\n", input.log_range));
    let log: Vec<&str> = input.log.lines().collect();
    let (kept, more) = markdown::capped(&log, MAX_LIST);
    let mut text = kept;
    text.extend(more.as_deref());
    markdown::fenced_block(out, &text.join("\n"), "none");
    match &input.seal {
        Some((commit, files)) => {
            out.push_str(&format!("\nSealed in {commit}:\n"));
            list(out, files, "none");
        }
        None if !input.not_sealed.is_empty() => {
            let files =
                count(input.not_sealed.len() as u64, "uncommitted file", "uncommitted files");
            out.push_str(&format!(
                "\nNot sealed yet: {files} (`git handoff seal` commits them, leaving out files \
                 that look like secrets):\n"
            ));
            list(out, &input.not_sealed, "none");
        }
        None => out.push_str("\nSealed files: none (nothing was uncommitted)\n"),
    }
    if !input.left_out.is_empty() {
        out.push_str("\nLeft out of the seal, uncommitted in the work tree:\n");
        list(out, &input.left_out, "none");
    }
}

fn intent(out: &mut String, input: &Input) {
    section(out, "Last model intent");
    match input.last_assistant_text.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => {
            for line in cut_at_word(text, INTENT_CHARS).lines() {
                out.push_str(&format!("> {line}\n").replace("> \n", ">\n"));
            }
        }
        None => out.push_str(&format!("Last assistant text: {NOT_AVAILABLE}\n")),
    }
    if let Some(draft) = &input.draft {
        out.push_str("\nThe agent's unfinished note, kept as it was:\n\n");
        markdown::fenced_block(out, draft, "(empty)");
    }
    let skill = match (input.handoff_skill, given(input, "handoff_skill_invoked")) {
        (Some(true), _) => "invoked".to_string(),
        (Some(false), _) => "not invoked".to_string(),
        (None, Some(text)) => text,
        (None, None) => NOT_AVAILABLE.to_string(),
    };
    out.push_str(&format!("\nHandoff skill: {skill}\n"));
}

fn activity(out: &mut String, input: &Input) {
    section(out, "Activity trail");
    out.push_str("Files edited or created (event log):\n");
    list(out, &input.files_edited, NONE_RECORDED);
    let start = input.tool_calls.len().saturating_sub(MAX_CALLS);
    let shown = &input.tool_calls[start..];
    let total = input.tool_call_total.max(shown.len() as u64);
    if shown.is_empty() {
        out.push_str(&format!("\nTool calls: {NONE_RECORDED}\n"));
    } else if total as usize == shown.len() {
        out.push_str(&format!("\n{} recorded:\n", count(total, "tool call", "tool calls")));
    } else {
        out.push_str(&format!("\nLast {} of {total} tool calls recorded:\n", shown.len()));
    }
    for call in shown {
        let end = end_phrase(call.end, None);
        match &call.target {
            Some(target) => out.push_str(&format!(
                "- {} {} — {end}\n",
                call.name,
                code_span(&one_line(target, 120))
            )),
            None => out.push_str(&format!("- {} — {end}\n", call.name)),
        }
    }
    let check = match &input.last_check {
        Some(c) => check_line(&c.command, c.end, c.exit_code),
        None => NONE_RECORDED.to_string(),
    };
    out.push_str(&format!("\nLast check command: {check}\n"));
}

fn budget(out: &mut String, input: &Input) {
    section(out, "Budget facts");
    let b = &input.facts.budget;
    let soft = match &b.soft_threshold_crossed {
        Some(SoftThreshold::Crossed(true)) => "crossed".to_string(),
        Some(SoftThreshold::Crossed(false)) => "not crossed".to_string(),
        Some(SoftThreshold::At(at)) if !at.trim().is_empty() => {
            format!("crossed ({})", one_line(at.trim(), 200))
        }
        _ => NOT_AVAILABLE.to_string(),
    };
    let soft = match (soft.as_str(), given(input, "budget.soft_threshold_crossed")) {
        (NOT_AVAILABLE, Some(text)) => text,
        _ => soft,
    };
    let rate = b
        .cache_hit_rate
        .map(|r| if r <= 1.0 { format!("{:.1}%", r * 100.0) } else { format!("{r:.1}%") });
    // Without the runtime's figure, the time since the attempt's started_at.
    let elapsed = b.elapsed_seconds.map(format_duration).or_else(|| {
        input.elapsed_seconds.map(|s| format!("{} (since started_at)", format_duration(s)))
    });
    let turns = b.turns.or(input.turns);
    let given_first = |key: &str, value: Option<String>| value.or_else(|| given(input, key));
    for (name, key, value) in [
        ("budget_tokens", "budget_tokens", b.budget_tokens.map(|v| v.to_string())),
        ("max_budget_tokens", "max_budget_tokens", b.max_budget_tokens.map(|v| v.to_string())),
        ("soft threshold", "", Some(soft)),
        (
            "peak_main_context_tokens",
            "peak_main_context_tokens",
            b.peak_main_context_tokens.map(|v| v.to_string()),
        ),
        ("cache hit rate", "cache_hit_rate", rate),
        ("turns", "turns", b.turns.map(|v| v.to_string())),
        ("elapsed", "elapsed_seconds", b.elapsed_seconds.map(format_duration)),
    ] {
        // A typed fact first, then one given with the wrong type, then what the log knows.
        let value = given_first(&format!("budget.{key}"), value).or(match key {
            "turns" => turns.map(|v| v.to_string()),
            "elapsed_seconds" => elapsed.clone(),
            _ => None,
        });
        out.push_str(&format!("- {name}: {}\n", value.as_deref().unwrap_or(NOT_AVAILABLE)));
    }
}

/// A fact the runtime gave with the wrong type, as given (`budget.turns`: `57`).
fn given(input: &Input, path: &str) -> Option<String> {
    input.facts.as_given.get(path).map(|text| one_line(text, 200))
}

/// A human phrase for a reason.
pub fn describe_reason(reason: &str) -> String {
    match reason {
        "token_soft_threshold" => "the token soft threshold was crossed".into(),
        "token_hard_limit" => "the token hard limit fired".into(),
        "turn_limit" => "the turn limit fired".into(),
        "time_limit" => "the time limit fired".into(),
        "cost_hard_limit" => "the cost limit fired".into(),
        "operator_request" => "the operator asked for a handoff".into(),
        "agent_request" => "the agent asked for a handoff".into(),
        other => format!("the runtime ended the session ({other})"),
    }
}

fn section(out: &mut String, name: &str) {
    out.push_str(&format!("\n## {name}\n\n"));
}

/// A list of at most [`MAX_LIST`] items and a `+N more` item.
fn list(out: &mut String, items: &[String], empty: &str) {
    if items.is_empty() {
        out.push_str(&format!("{empty}\n"));
        return;
    }
    let (kept, more) = markdown::capped(items, MAX_LIST);
    for item in kept {
        out.push_str(&format!("- {}\n", one_line(item, 300)));
    }
    if let Some(more) = more {
        out.push_str(&format!("- {more}\n"));
    }
}

/// `ok`, `error`, `error (exit 101)`, `did not finish`.
fn end_phrase(end: CallEnd, exit_code: Option<i64>) -> String {
    match (end, exit_code) {
        (CallEnd::Ok, _) => "ok".to_string(),
        (CallEnd::Error, Some(code)) => format!("error (exit {code})"),
        (CallEnd::Error, None) => "error".to_string(),
        (CallEnd::DidNotFinish, _) => "did not finish".to_string(),
    }
}

fn check_line(command: &str, end: CallEnd, exit_code: Option<i64>) -> String {
    format!("{} — {}", code_span(&one_line(command, 200)), end_phrase(end, exit_code))
}

/// Cuts `text` near `max` characters at a word boundary, marking the cut with `…`.
pub fn cut_at_word(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let byte_end = text.char_indices().nth(max).map(|(i, _)| i).unwrap_or(text.len());
    let head = &text[..byte_end];
    let cut = head.rfind(char::is_whitespace).filter(|&i| i > byte_end / 2).unwrap_or(byte_end);
    format!("{}…", head[..cut].trim_end())
}

fn one_line(text: &str, max: usize) -> String {
    let line = text.split('\n').next().unwrap_or("").trim_end();
    let more = text.contains('\n');
    if line.chars().count() > max {
        format!("{}…", line.chars().take(max).collect::<String>())
    } else if more {
        format!("{line} …")
    } else {
        line.to_string()
    }
}

fn format_duration(seconds: f64) -> String {
    let total = seconds.max(0.0).round() as u64;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    if h > 0 { format!("{h}h {m:02}m {s:02}s") } else { format!("{m}m {s:02}s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> Input {
        Input {
            issue: 7,
            started_at: "2026-11-30T03:48:52Z".into(),
            reason: "token_hard_limit".into(),
            last_work_commit: "0".repeat(40),
            written_at: "2026-11-30T04:00:00Z".into(),
            diff_range: "a..b".into(),
            log_range: "a..HEAD".into(),
            ..Input::default()
        }
    }

    #[test]
    fn bare_input_renders_every_section_with_not_available() {
        let text = render(&input());
        let mut at = 0;
        for name in crate::model::note::EMERGENCY_SECTIONS {
            let found = text[at..]
                .find(&format!("\n## {name}\n"))
                .unwrap_or_else(|| panic!("{name}: {text}"));
            at += found + 1;
        }
        assert!(text.starts_with("# Handoff note: issue #7\n\nissue: 7\nstarted_at: 2026-11-30T03:48:52Z\nreason: token_hard_limit\n"));
        assert!(text.contains("Last assistant text: not available"));
        assert!(text.contains("Tool calls: none recorded"));
        assert!(text.contains("Last check command: none recorded"));
        assert!(text.contains("- Session id: not available"));
        assert!(text.contains("Final check: not run"));
    }

    #[test]
    fn caps_every_list_the_calls_and_the_intent() {
        let stat: Vec<String> = (0..70).map(|i| format!(" f{i}.rs | 1 +")).collect();
        let input = Input {
            diff_stat: format!("{}\n 70 files changed, 70 insertions(+)\n", stat.join("\n")),
            log: (0..55).map(|i| format!("abc{i} commit {i}\n")).collect(),
            seal: Some(("c".repeat(40), (0..52).map(|i| format!("s{i}")).collect())),
            files_edited: (0..60).map(|i| format!("f{i}.rs")).collect(),
            tool_calls: (0..20)
                .map(|i| ToolCall {
                    name: "Bash".into(),
                    target: Some(format!("cmd {i}")),
                    end: CallEnd::of(Some(i % 2 == 0)),
                })
                .collect(),
            tool_call_total: 40,
            last_assistant_text: Some("word ".repeat(600)),
            plan_status: Some("In progress — task 0 of 60".into()),
            plan_items: (0..60).map(|i| format!("task {i}")).collect(),
            ..input()
        };
        let text = render(&input);
        assert!(text.contains(" f49.rs | 1 +\n+20 more\n 70 files changed, 70 insertions(+)\n"));
        assert!(text.contains("abc49 commit 49\n+5 more\n```"), "{text}");
        assert!(text.contains("- s49\n- +2 more\n"));
        assert!(text.contains("- f49.rs\n- +10 more\n"));
        assert!(text.contains("- task 49\n- +10 more\n"));
        assert!(text.contains("\nLast 15 of 40 tool calls recorded:\n- Bash `cmd 5` — error\n"));
        assert!(text.contains("- Bash `cmd 19` — error\n"));
        let intent: String = text.lines().filter(|l| l.starts_with("> ")).collect();
        assert!(intent.len() <= 1510 && intent.len() > 1400, "{}", intent.len());
        assert!(intent.ends_with("word…"));
        assert!(text.lines().count() < 350, "{}", text.lines().count());
    }

    #[test]
    fn the_soft_threshold_reads_a_flag_or_a_place() {
        let parse = |json: &str| serde_json::from_str::<Facts>(json).map(|f| f.budget);
        let at = parse(r#"{"budget": {"soft_threshold_crossed": "turn 41 at 750,112 tokens"}}"#);
        assert_eq!(
            at.unwrap().soft_threshold_crossed,
            Some(SoftThreshold::At("turn 41 at 750,112 tokens".into()))
        );
        let flag = parse(r#"{"budget": {"soft_threshold_crossed": false}}"#).unwrap();
        assert_eq!(flag.soft_threshold_crossed, Some(SoftThreshold::Crossed(false)));
        let err = parse(r#"{"budget": {"soft_threshold_crossed": 41}}"#).unwrap_err();
        assert!(
            err.to_string().contains("soft_threshold_crossed as true, false, or a string"),
            "{err}"
        );
    }
}
