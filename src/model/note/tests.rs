//! Notes parsed, rendered and checked: the bytes survive, and each broken field is named.

use super::*;

#[test]
fn a_note_commit_message_names_its_issue_on_its_first_line() {
    for (message, issue) in [
        ("Handoff note: issue #7", Some(7)),
        ("Handoff note: issue #7\n\nbody\n", Some(7)),
        ("  \tHandoff note: issue #12  \r\nbody", Some(12)),
        ("\nHandoff note: issue #7", None),
        ("\r\nHandoff note: issue #7", None),
        ("Handoff note: issue #7x", None),
        ("Handoff note: issue #", None),
        ("handoff note: issue #7", None),
        ("work commit 3\n\nHandoff note: issue #7", None),
        ("", None),
    ] {
        assert_eq!(issue_of_commit_message(message), issue, "{message:?}");
    }
}

/// Composes a new note (LF endings) from its header and `(section, body)` pairs. Bodies are written
/// as given, with a final newline added when missing.
fn compose(header: &Header, sections: &[(&str, &str)]) -> String {
    let mut text = header.render();
    for (name, body) in sections {
        text.push_str(&format!("\n## {name}\n\n"));
        text.push_str(body);
        if !body.is_empty() && !body.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

use crate::model::config::Config;

const GOOD: &str = "# Handoff note: issue #179\n\nissue: 179\nstarted_at: 2026-11-30T03:48:52Z\n\
    reason: token_soft_threshold\nlast_work_commit: 0123456789abcdef0123456789abcdef01234567\n\n\
    ## Summary\n\n- Added the parser\n- Tests pass\n  on every platform\n\n## Remaining work\n\n\
    - more\n\n## Evidence\n\n```\n## not a heading\n```\n";

fn problems(text: &[u8]) -> Vec<Problem> {
    Note::parse(text).unwrap().check(&Config::default(), Some(179))
}

#[test]
fn good_note_has_no_problems_and_round_trips() {
    assert_eq!(problems(GOOD.as_bytes()), vec![]);
    let note = Note::parse(GOOD.as_bytes()).unwrap();
    assert_eq!(note.render(), GOOD.as_bytes());
    assert_eq!(note.kind(), Kind::Agent);
    assert_eq!(note.sections().len(), 3);
    let items = note.items(note.section("Summary").unwrap());
    assert_eq!(items.len(), 2);
    assert_eq!(items[1].text, "Tests pass on every platform");
    assert_eq!((items[1].line, items[1].last_line), (11, 12));
}

#[test]
fn crlf_and_bom_round_trip_and_validate() {
    let crlf = format!("\u{feff}{}", GOOD.replace('\n', "\r\n"));
    assert_eq!(problems(crlf.as_bytes()), vec![]);
    let mut note = Note::parse(crlf.as_bytes()).unwrap();
    assert_eq!(note.render(), crlf.as_bytes());
    assert!(note.append_to_line(12, " [unverified: x]"));
    assert!(String::from_utf8(note.render()).unwrap().contains("platform [unverified: x]\r\n"));
}

#[test]
fn binary_and_non_utf8_fail_to_parse_with_a_line() {
    let err = Note::parse(b"# t\n\nx\0y").unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.what.contains("binary"));
    let err = Note::parse(b"# t\n\xff\n").unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.what.contains("UTF-8"));
}

#[test]
fn reordered_and_missing_fields_are_named() {
    let swapped = GOOD.replace(
        "reason: token_soft_threshold\nlast_work_commit: 0123456789abcdef0123456789abcdef01234567",
        "last_work_commit: 0123456789abcdef0123456789abcdef01234567\nreason: token_soft_threshold",
    );
    let p = problems(swapped.as_bytes());
    assert!(p.iter().any(|p| p.line == 6 && p.what.contains("`reason` is out of order")), "{p:?}");
    let missing = GOOD.replace("reason: token_soft_threshold\n", "");
    let p = problems(missing.as_bytes());
    assert!(p.iter().any(|p| p.what.contains("`reason` is missing")), "{p:?}");
}

#[test]
fn emergency_notes_need_their_eight_sections() {
    let mut text = GOOD.split("## Summary").next().unwrap().to_string();
    for name in EMERGENCY_SECTIONS {
        text.push_str(&format!("## {name}\n\nnot available\n\n"));
    }
    let note = Note::parse(text.as_bytes()).unwrap();
    assert_eq!(note.kind(), Kind::Emergency);
    assert_eq!(note.check(&Config::default(), Some(179)), vec![]);
    let without = text.replace("## Budget facts\n", "");
    let p = problems(without.as_bytes());
    assert!(p.iter().any(|p| p.what.contains("`## Budget facts` is missing")), "{p:?}");
}

#[test]
fn compose_and_edits() {
    let header = Header {
        issue: 5,
        started_at: "2026-11-30T03:48:52Z".into(),
        reason: "agent_request".into(),
        last_work_commit: "a".repeat(40),
    };
    let text =
        compose(&header, &[("Summary", "- a"), ("Remaining work", "none\n"), ("Evidence", "")]);
    let mut note = Note::parse(text.as_bytes()).unwrap();
    assert_eq!(note.check(&Config::default(), Some(5)), vec![]);
    assert!(note.set_field("reason", "turn_limit"));
    assert_eq!(note.field("reason").unwrap().value, "turn_limit");
    note.insert_lines(note.line_count() + 1, &["- tail"]);
    assert!(note.render().ends_with(b"- tail\n"));
}
