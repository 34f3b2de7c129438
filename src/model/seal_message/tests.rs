//! Telling seal commits by their message.

use super::*;

#[test]
fn a_seal_is_told_by_its_trailer_in_any_case_and_spacing() {
    assert!(is_seal_message("Seal\n\nHandoff-Seal: 2026-11-30T03:48:52Z\n"));
    assert!(is_seal_message("Seal\n\nhandoff-seal: x"));
    assert!(is_seal_message("Seal\n\nSigned-off-by: A\n  HANDOFF-SEAL  : x\n\n \n"));
    assert!(is_seal_message("Handoff-Seal: x"));
}

#[test]
fn a_trailer_name_outside_the_last_paragraph_or_without_its_colon_is_no_seal() {
    assert!(!is_seal_message("work commit 3\n"));
    assert!(!is_seal_message(""));
    assert!(!is_seal_message("Seal\n\nHandoff-Seal: x\n\nmore words\n"));
    assert!(!is_seal_message("Seal\n\nmentions Handoff-Seal but no trailer\n"));
    assert!(!is_seal_message("Seal\n\nHandoff-Sea"));
    assert!(!is_seal_message("Seal\n\nX-Handoff-Seal: x"));
    assert_eq!(
        seal_started_at("s\n\nHandoff-Seal: 2026-11-30T03:48:52Z\n").as_deref(),
        Some("2026-11-30T03:48:52Z")
    );
}

#[test]
fn the_trailer_name_is_found_anywhere_and_in_any_case() {
    assert!(mentions_trailer(b"handoff-seal"));
    assert!(mentions_trailer(b"hhHANDOFF-SEAL"));
    assert!(!mentions_trailer(b"handoff-sea"));
    assert!(!mentions_trailer(b"Handoff Seal"));
    assert!(mentions_trailer("é Handoff-Seal".as_bytes()));
}
