//! The digest computed from crafted event logs: calls, checks, turns and the handoff skill.

use super::*;
use crate::agent::events::FORMAT;

fn ev(kind: Kind, tool: Option<&str>, target: Option<&str>) -> Event<'static> {
    Event {
        v: FORMAT,
        at: "2026-11-30T04:00:00Z".into(),
        kind,
        agent: "claude".into(),
        event: None,
        tool: tool.map(|t| t.to_string().into()),
        target: target.map(|t| t.to_string().into()),
        id: None,
        ok: (kind == Kind::ToolResult).then_some(true),
        exit_code: None,
        error: None,
        paths: Vec::new(),
        text: None,
        sub: false,
        session: None,
    }
}

fn digest(events: &[Event<'_>]) -> Digest {
    let mut builder = Builder::new(Checks::new(&Config::default()));
    for e in events {
        builder.add(e);
    }
    builder.finish()
}

#[test]
fn start_and_result_are_one_call() {
    let mut start = ev(Kind::ToolStart, Some("Bash"), Some("cargo test"));
    start.id = Some("t1".into());
    let mut end = ev(Kind::ToolResult, Some("Bash"), Some("cargo test"));
    end.id = Some("t1".into());
    end.ok = Some(false);
    end.exit_code = Some(101);
    let d = digest(&[start.clone(), end]);
    assert_eq!(d.tool_calls, 1);
    assert_eq!(d.errors, 1);
    assert_eq!(d.recent_calls.len(), 1);
    assert_eq!(d.line(), "0 files edited · last `cargo test` failed · 1 tool call, 1 error");
    let d = digest(&[start]);
    assert_eq!(d.tool_calls, 1);
    assert_eq!(d.recent_calls[0].ok, None);
    assert_eq!(d.check_phrase(), "last `cargo test` did not finish");
}

#[test]
fn a_failed_chain_is_not_blamed_on_its_check() {
    let chain = "cargo build && cargo test";
    let mut failed = ev(Kind::ToolResult, Some("Bash"), Some(chain));
    failed.ok = Some(false);
    assert_eq!(digest(&[failed]).check_phrase(), format!("last `{chain}` failed"));
    let passed = ev(Kind::ToolResult, Some("Bash"), Some(chain));
    assert_eq!(digest(&[passed]).check_phrase(), "last `cargo test` passed");
}

#[test]
fn turns_and_stop_text() {
    let mut stop = ev(Kind::Stop, None, None);
    stop.text = Some("Done.".into());
    let mut sub_stop = ev(Kind::Stop, None, None);
    sub_stop.sub = true;
    sub_stop.text = Some("subagent".into());
    let d = digest(&[
        ev(Kind::Prompt, None, None),
        ev(Kind::ToolResult, Some("Read"), Some("a")),
        stop,
        ev(Kind::ToolResult, Some("Read"), Some("b")),
        sub_stop,
    ]);
    assert_eq!(d.turns, 2);
    assert_eq!(d.last_assistant_text.as_deref(), Some("Done."));
    assert_eq!(d.line(), "0 files edited · no check run · 2 tool calls, 0 errors");
}

#[test]
fn recent_calls_are_capped() {
    let events: Vec<_> = (0..40)
        .map(|i| ev(Kind::ToolResult, Some("Read"), Some(&format!("f{i}"))).clone())
        .collect();
    let d = digest(&events);
    assert_eq!(d.recent_calls.len(), RECENT_CALLS);
    assert_eq!(d.recent_calls[0].target.as_deref(), Some("f25"));
    assert_eq!(d.tool_calls, 40);
}

#[test]
fn the_handoff_tools_count_as_the_skill() {
    assert!(is_handoff_tool("mcp__git-handoff__handoff_note"));
    // Codex and Gemini CLI spell the server and the tool their own way.
    assert!(is_handoff_tool("mcp__git_handoff__handoff_note"));
    assert!(is_handoff_tool("mcp_git-handoff_handoff_recall"));
    assert!(!is_handoff_tool("mcp_git-handoffs_handoff_note"));
    // Copilot CLI (`<server>-<tool>`) and opencode (`<server>_<tool>`) name no `mcp`.
    assert!(is_handoff_tool("git-handoff-handoff_note"));
    assert!(is_handoff_tool("git-handoff_handoff_progress"));
    assert!(!is_handoff_tool("git_handoffs_handoff_note"));
    assert!(!is_handoff_tool("handoff_note"));
    assert!(!is_handoff_tool("mcp__other__handoff_note"));
    assert!(!is_handoff_tool("mcp__git-handoff__other"));
}
