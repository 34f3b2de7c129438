//! The emergency handoff note: written from reconstructed facts when the agent hit a limit without
//! writing one. Its sections are fixed (Provenance, Changes, Last model intent, Activity trail,
//! Check state, Budget facts, Pointers, Remaining work); every missing fact renders as
//! `not available` or `none recorded`, so the note always validates.

use serde::Deserialize;

/// What the runtime knows and hands in with `--facts FILE` (JSON). Every key is optional; the
/// event log fills in what the facts leave out.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Facts {
    pub last_assistant_text: Option<String>,
    pub handoff_skill_invoked: Option<bool>,
    pub budget: Budget,
    pub archive_dir: Option<String>,
    pub session_id: Option<String>,
    pub baseline_check: Option<BaselineCheck>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Budget {
    pub budget_tokens: Option<u64>,
    pub max_budget_tokens: Option<u64>,
    pub soft_threshold_crossed: Option<bool>,
    pub peak_main_context_tokens: Option<u64>,
    pub cache_hit_rate: Option<f64>,
    pub turns: Option<u64>,
    pub elapsed_seconds: Option<f64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct BaselineCheck {
    pub command: String,
    pub ok: bool,
}

/// One tool call of the activity trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    pub name: String,
    pub target: Option<String>,
    pub ok: bool,
}

/// The last check-command call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckCall {
    pub command: String,
    pub ok: bool,
    pub exit_code: Option<i64>,
}

/// Everything the emergency note is rendered from.
#[derive(Debug, Clone, Default)]
pub struct Input {
    pub issue: u64,
    pub started_at: String,
    pub reason: String,
    pub last_work_commit: String,
    pub written_at: String,
    /// `git diff --stat <base>..<seal or HEAD>` as git printed it, and the range.
    pub diff_stat: String,
    pub diff_range: String,
    /// `git log --oneline <base>..HEAD` as git printed it, and the range.
    pub log: String,
    pub log_range: String,
    /// The seal commit and the files it committed.
    pub seal: Option<(String, Vec<String>)>,
    pub files_edited: Vec<String>,
    pub last_assistant_text: Option<String>,
    pub handoff_skill: Option<bool>,
    pub tool_calls: Vec<ToolCall>,
    pub last_check: Option<CheckCall>,
    pub turns: Option<u64>,
    pub facts: Facts,
    pub log_dir: Option<String>,
    /// The note the agent began and left uncommitted, kept verbatim.
    pub draft: Option<String>,
    /// The progress plan's status line and every item with its status, if a plan exists.
    pub plan_status: Option<String>,
    pub plan_items: Vec<String>,
}

const MAX_FILES: usize = 50;
const MAX_CALLS: usize = 15;
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

    section(&mut out, "Changes");
    out.push_str(&format!("Diff stat (`git diff --stat {}`):\n\n", input.diff_range));
    block(&mut out, &input.diff_stat, "no changes");
    out.push_str(&format!("\nCommits (`git log --oneline {}`):\n\n", input.log_range));
    block(&mut out, &input.log, "none");
    match &input.seal {
        Some((commit, files)) => {
            out.push_str(&format!("\nSealed in {commit}:\n"));
            list(&mut out, files, files.len().max(1), "none");
        }
        None => out.push_str("\nSealed files: none\n"),
    }
    out.push_str("\nFiles edited (event log):\n");
    list(&mut out, &input.files_edited, MAX_FILES, NONE_RECORDED);

    section(&mut out, "Last model intent");
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
        block(&mut out, draft, "(empty)");
    }
    let skill = match input.handoff_skill {
        Some(true) => "invoked",
        Some(false) => "not invoked",
        None => NOT_AVAILABLE,
    };
    out.push_str(&format!("\nHandoff skill: {skill}\n"));

    section(&mut out, "Activity trail");
    out.push_str("Files edited or created:\n");
    list(&mut out, &input.files_edited, MAX_FILES, NONE_RECORDED);
    out.push_str(&format!("\nLast {MAX_CALLS} tool calls:\n"));
    let start = input.tool_calls.len().saturating_sub(MAX_CALLS);
    let calls: Vec<String> = input.tool_calls[start..]
        .iter()
        .map(|c| {
            let status = if c.ok { "ok" } else { "error" };
            match &c.target {
                Some(target) => format!("{} `{}` — {status}", c.name, one_line(target, 120)),
                None => format!("{} — {status}", c.name),
            }
        })
        .collect();
    list(&mut out, &calls, MAX_CALLS, NONE_RECORDED);
    let check = match &input.last_check {
        Some(c) => check_line(&c.command, c.ok, c.exit_code),
        None => NONE_RECORDED.to_string(),
    };
    out.push_str(&format!("\nLast check command: {check}\n"));

    section(&mut out, "Check state");
    out.push_str("Final check: not run\n");
    let baseline = match &input.facts.baseline_check {
        Some(b) => check_line(&b.command, b.ok, None),
        None => NOT_AVAILABLE.to_string(),
    };
    out.push_str(&format!("Baseline check (before the model): {baseline}\n"));

    section(&mut out, "Budget facts");
    let b = &input.facts.budget;
    let soft = match b.soft_threshold_crossed {
        Some(true) => "crossed".to_string(),
        Some(false) => "not crossed".to_string(),
        None => NOT_AVAILABLE.to_string(),
    };
    let rate = b
        .cache_hit_rate
        .map(|r| if r <= 1.0 { format!("{:.1}%", r * 100.0) } else { format!("{r:.1}%") });
    let elapsed = b.elapsed_seconds.map(format_duration);
    let turns = b.turns.or(input.turns);
    for (name, value) in [
        ("budget_tokens", b.budget_tokens.map(|v| v.to_string())),
        ("max_budget_tokens", b.max_budget_tokens.map(|v| v.to_string())),
        ("soft threshold", Some(soft)),
        ("peak_main_context_tokens", b.peak_main_context_tokens.map(|v| v.to_string())),
        ("cache hit rate", rate),
        ("turns", turns.map(|v| v.to_string())),
        ("elapsed", elapsed),
    ] {
        out.push_str(&format!("- {name}: {}\n", value.as_deref().unwrap_or(NOT_AVAILABLE)));
    }

    section(&mut out, "Pointers");
    for (name, value) in [
        ("Attempt log directory", &input.log_dir),
        ("Archive", &input.facts.archive_dir),
        ("Session id", &input.facts.session_id),
    ] {
        out.push_str(&format!("- {name}: {}\n", value.as_deref().unwrap_or(NOT_AVAILABLE)));
    }

    section(&mut out, "Remaining work");
    out.push_str(
        "The runtime could not determine what remains. The issue's acceptance criteria are the \
         reference; none of them were verified.\n",
    );
    if let Some(status) = &input.plan_status {
        out.push_str(&format!("\nProgress plan: {status}.\n"));
        list(&mut out, &input.plan_items, usize::MAX, "none");
    }
    out
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

fn block(out: &mut String, text: &str, empty: &str) {
    let text = text.trim_end_matches('\n');
    if text.is_empty() {
        out.push_str(empty);
        out.push('\n');
        return;
    }
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    out.push_str(&format!("{fence}\n{text}\n{fence}\n"));
}

fn list(out: &mut String, items: &[String], max: usize, empty: &str) {
    if items.is_empty() {
        out.push_str(&format!("{empty}\n"));
        return;
    }
    for item in items.iter().take(max) {
        out.push_str(&format!("- {}\n", one_line(item, 300)));
    }
    if items.len() > max {
        out.push_str(&format!("- +{} more\n", items.len() - max));
    }
}

fn check_line(command: &str, ok: bool, exit_code: Option<i64>) -> String {
    let result = match (ok, exit_code) {
        (true, _) => "ok".to_string(),
        (false, Some(code)) => format!("error (exit {code})"),
        (false, None) => "error".to_string(),
    };
    format!("`{}` — {result}", one_line(command, 200))
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

    #[test]
    fn bare_input_renders_every_section_with_not_available() {
        let input = Input {
            issue: 7,
            started_at: "2026-11-30T03:48:52Z".into(),
            reason: "token_hard_limit".into(),
            last_work_commit: "0".repeat(40),
            written_at: "2026-11-30T04:00:00Z".into(),
            diff_range: "a..b".into(),
            log_range: "a..HEAD".into(),
            ..Input::default()
        };
        let text = render(&input);
        let mut at = 0;
        for name in crate::model::note::EMERGENCY_SECTIONS {
            let found = text[at..]
                .find(&format!("\n## {name}\n"))
                .unwrap_or_else(|| panic!("{name}: {text}"));
            at += found + 1;
        }
        assert!(text.starts_with("# Handoff note: issue #7\n\nissue: 7\nstarted_at: 2026-11-30T03:48:52Z\nreason: token_hard_limit\n"));
        assert!(text.contains("Last assistant text: not available"));
        assert!(text.contains("Last check command: none recorded"));
        assert!(text.contains("- Session id: not available"));
        assert!(text.contains("Final check: not run"));
    }

    #[test]
    fn caps_files_calls_and_intent() {
        let input = Input {
            files_edited: (0..60).map(|i| format!("f{i}.rs")).collect(),
            tool_calls: (0..20)
                .map(|i| ToolCall {
                    name: "Bash".into(),
                    target: Some(format!("cmd {i}")),
                    ok: i % 2 == 0,
                })
                .collect(),
            last_assistant_text: Some("word ".repeat(600)),
            ..Input::default()
        };
        let text = render(&input);
        assert!(text.contains("- f49.rs\n- +10 more\n"));
        assert!(!text.contains("cmd 4`"));
        assert!(text.contains("- Bash `cmd 5` — error\n"));
        assert!(text.contains("- Bash `cmd 19` — error\n"));
        let intent: String = text.lines().filter(|l| l.starts_with("> ")).collect();
        assert!(intent.len() <= 1510 && intent.len() > 1400, "{}", intent.len());
        assert!(intent.ends_with("word…"));
    }
}
