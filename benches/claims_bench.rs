//! The claims benchmark (`bench/claims.sh`): how long `git handoff note` takes to check a note's
//! claims. A 10,000-event log (edits, reads, checks passing and failing, piped runs, the
//! handoff's own calls) is written once as `git handoff record` writes it; each run then
//! recomputes the digest from the log file and checks a 200-item note against it, exactly as
//! `note` does before it commits. Prints the median and the slowest of the runs.
//!
//! Usage: cargo bench --bench claims_bench -- [RUNS]   (default 51)

use std::path::Path;
use std::time::Instant;

use git_handoff::api::{self, Config};
use serde_json::json;

const EVENTS: usize = 10_000;
const ITEMS: usize = 200;

fn main() -> anyhow::Result<()> {
    // `cargo bench` passes `--bench` before the runs.
    let runs: usize =
        std::env::args().skip(1).find(|a| !a.starts_with("--")).map_or(Ok(51), |r| r.parse())?;
    let config = Config::default();
    let dir = tempfile::tempdir()?;
    let top = Path::new("/work/repo");
    let log = dir.path().join("events.jsonl");
    let mut lines = Vec::new();
    let checks =
        ["cargo test", "npm test 2>&1 | tail -20", "cargo clippy -- -D warnings", "pytest -x"];
    for n in 0..EVENTS {
        let common = json!({"session_id": "s", "transcript_path": "/t", "cwd": "/work/repo"});
        let mut payload = match n % 5 {
            0 | 1 => json!({"hook_event_name": "PostToolUse", "tool_name": "Edit",
                "tool_use_id": format!("t{n}"),
                "tool_input": {"file_path": format!("/work/repo/src/m{}.rs", n % 700),
                    "old_string": "a", "new_string": "b"}, "tool_response": {}}),
            2 => json!({"hook_event_name": "PostToolUse", "tool_name": "Read",
                "tool_use_id": format!("t{n}"),
                "tool_input": {"file_path": format!("/work/repo/src/m{}.rs", n % 900)},
                "tool_response": {}}),
            3 => {
                json!({"hook_event_name": if n % 3 == 0 { "PostToolUseFailure" } else { "PostToolUse" },
                "tool_name": "Bash", "tool_use_id": format!("t{n}"),
                "tool_input": {"command": checks[n % checks.len()]},
                "tool_response": {"stdout": "", "stderr": "", "interrupted": false},
                "error": "Exit code 101"})
            }
            _ => json!({"hook_event_name": "PostToolUse", "tool_name": "Bash",
                "tool_use_id": format!("t{n}"), "tool_input": {"command": format!("ls src/{n}")},
                "tool_response": {"stdout": "", "stderr": "", "interrupted": false}}),
        };
        for (k, v) in common.as_object().unwrap() {
            payload[k] = v.clone();
        }
        lines.extend(api::event_line(&payload, top, top, &config)?);
    }
    std::fs::write(&log, lines)?;

    let kinds = [
        "All tests pass now",
        "Fixed the parser; clippy is clean",
        "Could not get the integration tests to pass",
        "The build is green and no type errors remain",
        "Refactored the cache layer",
        "No longer crashes on empty input ✅",
        "Tests should pass once the fixture lands",
        "Implemented `parse_header` for quoted values (see src/header.rs)",
    ];
    let mut note = String::from(
        "# Handoff note: issue #1\n\nissue: 1\nstarted_at: 2026-11-30T03:48:52Z\n\
         reason: agent_request\nlast_work_commit: 0123456789abcdef0123456789abcdef01234567\n\n\
         ## Summary\n\n",
    );
    for i in 0..ITEMS * 3 / 4 {
        note.push_str(&format!("- {} ({i})\n", kinds[i % kinds.len()]));
    }
    note.push_str("\n### Files touched\n\n");
    for i in 0..ITEMS / 4 {
        note.push_str(&format!("- /work/repo/src/m{}.rs — change {i}\n", i * 37 % 1000));
    }
    note.push_str("\n## Remaining work\n\n- more\n\n## Evidence\n\n- cargo test: all green\n");

    let (mut times, mut digests, mut checks) = (Vec::new(), Vec::new(), Vec::new());
    let mut tagged = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let evidence = api::evidence_of_log(&log, &config, top)?;
        let read = start.elapsed();
        tagged = api::tag_note(note.as_bytes(), &evidence)?.len();
        let all = start.elapsed();
        times.push(all);
        digests.push(read);
        checks.push(all - read);
    }
    let median = |v: &mut Vec<std::time::Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64() * 1e3
    };
    let slowest = times.iter().max().unwrap().as_secs_f64() * 1e3;
    println!(
        "claims check: {ITEMS}-item note against a {EVENTS}-event log: median {:.2} ms (digest \
         from the log {:.2} ms, claims {:.2} ms), slowest {slowest:.2} ms over {runs} runs \
         ({tagged} claims tagged)",
        median(&mut times),
        median(&mut digests),
        median(&mut checks),
    );
    Ok(())
}
