//! The handoff skill's two-call path, walked exactly as `skills/handoff/SKILL.md` writes it: the
//! note template and the shell command are taken from the file, not paraphrased.

use crate::common;

use common::payloads::{bash_ok, edit, record};
use common::{Env, stdout_ok};
use serde_json::Value;

/// The fenced blocks of a Markdown file with the given info string, in order.
fn blocks<'a>(text: &'a str, info: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let open = format!("```{info}\n");
    let mut rest = text;
    while let Some(start) = rest.find(&open) {
        let body = &rest[start + open.len()..];
        let end = body.find("\n```").expect("closed block");
        out.push(&body[..end + 1]);
        rest = &body[end + 4..];
    }
    out
}

#[test]
fn the_two_call_path_ends_in_a_layout_that_validates() {
    let skill =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/skills/handoff/SKILL.md"))
            .unwrap();
    assert!(skill.starts_with("---\nname: handoff\ndescription: "));
    let template = blocks(&skill, "markdown")[0];
    let commands = blocks(&skill, "sh");
    let note_call = commands[0];
    assert_eq!(note_call.trim(), "git handoff note");

    let env = Env::new();
    let repo = env.repo("r");
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.commit_all("init");
    stdout_ok(repo.handoff().args(["start", "--issue", "31"]).output().unwrap());
    repo.write("src/lib.rs", "fn a() { b() }\n");
    record(&repo, &edit(&repo, "src/lib.rs"));
    record(&repo, &bash_ok(&repo, "cargo test"));
    let snapshot: Value = serde_json::from_str(&stdout_ok(
        repo.handoff()
            .args(["snapshot", "--json", "--reason", "token_soft_threshold"])
            .output()
            .unwrap(),
    ))
    .unwrap();
    let header = snapshot["header"].as_str().unwrap();

    // Call 1: the template with the snapshot's header as it is, and the placeholders filled.
    let body = &template[template.find("\n## Summary").unwrap()..];
    let body = body
        .replace("<what you finished, one line each; say \"tests pass\" only if the last test run passed>", "Made a call b(); tests pass")
        .replace("<what you were in the middle of>", "Writing b")
        .replace("<path>", "src/lib.rs")
        .replace("<next step, most important first>", "Implement b")
        .replace("<the last check you ran and its result, or \"no check run\">", "cargo test passed");
    assert!(!body.contains('<'), "every placeholder is filled: {body}");
    repo.write(".agent/handoff/31.md", format!("{header}{body}"));

    // Call 2: the skill's one Bash call, through a shell, as the agent runs it.
    let text = stdout_ok(repo.shell(note_call));
    assert!(text.starts_with("Handoff saved for the next session. From the log: "), "{text}");
    assert!(!text.contains("[unverified]"), "an honest note gets no tags: {text}");

    // The runtime seals what is left; the layout validates.
    stdout_ok(repo.handoff().args(["seal"]).output().unwrap());
    stdout_ok(repo.handoff().args(["validate"]).output().unwrap());
    let log = repo.git_text(["log", "--format=%s"]);
    assert!(log.starts_with("Seal leftover work: issue #31\nHandoff note: issue #31\n"), "{log}");
}
