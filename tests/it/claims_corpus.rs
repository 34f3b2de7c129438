//! The labelled claims corpus (`tests/corpus/claims/*.toml`): claims as agents write them, each
//! with the log it is checked against and the verdict a careful reader gives by the four rules of
//! seed 002. Every log is turned into Claude Code hook payloads, recorded as `git handoff record`
//! records them, and every claim checked as `git handoff note` checks it. Prints precision and
//! recall, overall and for each file (each file is a kind of claim or an agent's house style, so
//! a weak style shows); fails below precision 0.99 or recall 0.97 overall, or when a tag's reason
//! is not the one labelled.
//!
//! A case's `log` is a list of steps: `edit PATH`, `write PATH`, `edit-failed PATH`, `read PATH`
//! (a path absolute under `/REPO`, `./x`, or relative to the session's directory), `ok CMD`,
//! `fail CMD` (a Bash call that exited 1), `start CMD` (a Bash call that never reported),
//! `note-mcp`, `note-bash`, `note-write` (the handoff's own calls), `grep`, `ls`. `cwd` is the
//! session's directory below the top of the work tree. A claim is `{ done = ... }`,
//! `{ evidence = ... }` or `{ files = ... }` with `tag` (whether it should be tagged) and
//! optionally `why` (text the tag's reason must contain).

use std::path::{Path, PathBuf};

use git_handoff::api::{self, Config};
use serde::Deserialize;
use serde_json::{Value, json};

const TOP: &str = "/REPO";

#[derive(Deserialize)]
struct Corpus {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    #[serde(default)]
    cwd: Option<String>,
    log: Vec<String>,
    claims: Vec<Claim>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    done: Option<String>,
    evidence: Option<String>,
    files: Option<String>,
    tag: bool,
    why: Option<String>,
}

fn payload(step: &str, n: usize, cwd: &Path) -> Value {
    let (verb, arg) = step.split_once(' ').unwrap_or((step, ""));
    let arg = arg.replace("/REPO", TOP);
    let common = json!({"session_id": "s", "transcript_path": "/t.jsonl",
        "cwd": cwd.to_str().unwrap(), "permission_mode": "default"});
    let id = format!("t{n}");
    let mut event = match verb {
        "edit" | "write" | "edit-failed" | "read" => {
            let tool = match verb {
                "write" => "Write",
                "read" => "Read",
                _ => "Edit",
            };
            let failed = verb == "edit-failed";
            json!({"hook_event_name": if failed { "PostToolUseFailure" } else { "PostToolUse" },
                "tool_name": tool, "tool_use_id": id,
                "tool_input": {"file_path": arg, "old_string": "a", "new_string": "b", "content": "x"},
                "tool_response": {"filePath": arg}, "error": "String to replace not found"})
        }
        "ok" => json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": id,
            "tool_input": {"command": arg},
            "tool_response": {"stdout": "", "stderr": "", "interrupted": false}}),
        "fail" => json!({"hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
            "tool_use_id": id, "tool_input": {"command": arg}, "error": "Exit code 1\nfailed"}),
        "start" => json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": id,
            "tool_input": {"command": arg}}),
        "note-mcp" => json!({"hook_event_name": "PostToolUse",
            "tool_name": "mcp__git-handoff__handoff_note", "tool_use_id": id,
            "tool_input": {"done": ["x"]}, "tool_response": {}}),
        "note-bash" => json!({"hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_use_id": id, "tool_input": {"command": "git handoff note"},
            "tool_response": {"stdout": "", "stderr": "", "interrupted": false}}),
        "note-write" => json!({"hook_event_name": "PostToolUse", "tool_name": "Write",
            "tool_use_id": id,
            "tool_input": {"file_path": format!("{TOP}/.agent/handoff/7.md"), "content": "x"},
            "tool_response": {"filePath": format!("{TOP}/.agent/handoff/7.md")}}),
        "grep" | "ls" => json!({"hook_event_name": "PostToolUse",
            "tool_name": if verb == "grep" { "Grep" } else { "Bash" }, "tool_use_id": id,
            "tool_input": {"pattern": "x", "command": "ls -la"}, "tool_response": {}}),
        other => panic!("unknown log step {other:?}"),
    };
    for (k, v) in common.as_object().unwrap() {
        event[k] = v.clone();
    }
    event
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/claims");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_claims_corpus_is_judged_as_a_careful_reader_judges_it() {
    let config = Config::default();
    let tmp = tempfile::tempdir_in(crate::common::scratch()).unwrap();
    let (mut tp, mut fp, mut fn_, mut tn) = (0u32, 0u32, 0u32, 0u32);
    let mut wrong = Vec::new();
    let mut per_file = Vec::new();
    for file in corpus_files() {
        let before = (tp, fp, fn_, tn);
        let text = std::fs::read_to_string(&file).unwrap();
        let corpus: Corpus = toml::from_str(&text).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        for (c, case) in corpus.case.iter().enumerate() {
            let cwd = match &case.cwd {
                Some(sub) => Path::new(TOP).join(sub),
                None => PathBuf::from(TOP),
            };
            let log = tmp.path().join(format!("{stem}-{c}.jsonl"));
            let mut lines = Vec::new();
            for (n, step) in case.log.iter().enumerate() {
                let p = payload(step, n, &cwd);
                lines.extend(api::event_line(&p, &cwd, Path::new(TOP), &config).unwrap());
            }
            std::fs::write(&log, lines).unwrap();
            let evidence = api::evidence_of_log(&log, &config, Path::new(TOP)).unwrap();
            for claim in &case.claims {
                let (kind, text, why) = match (&claim.done, &claim.evidence, &claim.files) {
                    (Some(t), None, None) => ("done", t, api::check_done(t, &evidence)),
                    (None, Some(t), None) => ("evidence", t, api::check_evidence(t, &evidence)),
                    (None, None, Some(t)) => ("files", t, api::check_file(t, &evidence)),
                    _ => panic!("{stem}: {}: a claim is one of done, evidence, files", case.name),
                };
                match (claim.tag, &why) {
                    (true, Some(_)) => tp += 1,
                    (false, None) => tn += 1,
                    (false, Some(_)) => fp += 1,
                    (true, None) => fn_ += 1,
                }
                let reason_ok = match (&claim.why, &why) {
                    (Some(want), Some(got)) => got.contains(want.as_str()),
                    _ => true,
                };
                if claim.tag != why.is_some() || !reason_ok {
                    wrong.push(format!(
                        "{stem}: {}: {kind} {text:?}: labelled {}, got {why:?}",
                        case.name,
                        if claim.tag { "tagged" } else { "untagged" }
                    ));
                }
            }
        }
        let counts = (tp - before.0, fp - before.1, fn_ - before.2, tn - before.3);
        per_file.push((stem, counts));
    }
    let total = tp + fp + fn_ + tn;
    let (precision, recall) = scores(tp, fp, fn_);
    println!(
        "claims corpus: {total} claims, {} should be tagged; precision {precision:.3}, recall \
         {recall:.3} (tp {tp}, fp {fp}, fn {fn_}, tn {tn})",
        tp + fn_
    );
    for (stem, (tp, fp, fn_, tn)) in &per_file {
        let (precision, recall) = scores(*tp, *fp, *fn_);
        println!(
            "  {stem:<24} {:>4} claims: precision {precision:.3}, recall {recall:.3} (tp {tp}, \
             fp {fp}, fn {fn_}, tn {tn})",
            tp + fp + fn_ + tn
        );
    }
    for line in &wrong {
        println!("  {line}");
    }
    assert!(total >= 1000, "the corpus holds {total} claims, fewer than 1000");
    assert!(precision >= 0.99 && recall >= 0.97, "precision {precision:.3}, recall {recall:.3}");
    let bad_reasons: Vec<&String> =
        wrong.iter().filter(|l| l.contains("labelled tagged, got Some")).collect();
    assert!(bad_reasons.is_empty(), "tags with the wrong reason: {bad_reasons:#?}");
}

/// Precision and recall of tp true, fp false and fn missed tags (1.0 when nothing is counted).
fn scores(tp: u32, fp: u32, fn_: u32) -> (f64, f64) {
    let precision = if tp + fp == 0 { 1.0 } else { f64::from(tp) / f64::from(tp + fp) };
    let recall = if tp + fn_ == 0 { 1.0 } else { f64::from(tp) / f64::from(tp + fn_) };
    (precision, recall)
}
