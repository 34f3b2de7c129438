//! The moves of the lifecycle test, each as a person, an agent or a runtime makes it, with what
//! the model expects of its exit status and what it knows afterwards.

use serde_json::Value;

use crate::common::payloads::{edit, record};

use super::{Attempt, Run};

impl Run {
    pub(super) fn start(&mut self) {
        let issue = 100 + self.attempts.len() as u64;
        let started_at = format!("2026-11-30T04:{:02}:00Z", self.attempts.len());
        let head = self.repo.head();
        self.trail.push(format!("start --issue {issue}"));
        let code =
            self.command(&["start", "--issue", &issue.to_string(), "--started-at", &started_at]);
        self.expect(code, 0, "start");
        self.attempts.push(Attempt {
            issue,
            started_at,
            base: head,
            noted: false,
            sealed: false,
            seal: None,
            pending_seal: None,
            by_session: false,
        });
        self.log_check = None;
    }

    pub(super) fn work_commit(&mut self) {
        self.counter += 1;
        self.trail.push(format!("work commit {}", self.counter));
        self.repo.write(format!("src/w{}.txt", self.counter), format!("work {}\n", self.counter));
        self.repo.git(["add", "-A", "src"]);
        self.repo.git(["commit", "-q", "-m", &format!("work {}", self.counter), "--", "src"]);
        self.current().pending_seal = None;
    }

    pub(super) fn dirty(&mut self) {
        self.counter += 1;
        let n = self.counter;
        match self.rng.below(3) {
            0 => {
                self.trail.push(format!("dirty: edit src/a.txt ({n})"));
                self.repo.write("src/a.txt", format!("a {n}\n"));
            }
            1 => {
                self.trail.push(format!("dirty: new src/u{n}.txt"));
                self.repo.write(format!("src/u{n}.txt"), format!("untracked {n}\n"));
            }
            _ => {
                self.trail.push(format!("dirty: edit src/b.txt and record the edit ({n})"));
                self.repo.write("src/b.txt", format!("b {n}\n"));
                record(&self.repo, &edit(&self.repo, "src/b.txt"));
            }
        }
    }

    pub(super) fn note_text(&self, last_work_commit: &str, tagged: bool) -> String {
        let a = self.attempts.last().unwrap();
        let tag = if tagged { " [unverified: no check ran]" } else { "" };
        format!(
            "# Handoff note: issue #{0}\n\nissue: {0}\nstarted_at: {1}\nreason: agent_request\n\
             last_work_commit: {last_work_commit}\n\n## Summary\n\n- All tests pass now{tag}\n\
             - Wrote step {2}\n\n## Remaining work\n\n- Finish issue {0}\n\n## Evidence\n\n\
             - no check run\n",
            a.issue, a.started_at, self.counter
        )
    }

    /// Writes the note (a fresh one, or keeps the edited file) and runs `git handoff note`.
    pub(super) fn note(&mut self) {
        let path = self.note_path();
        let fresh =
            self.attempts.last().unwrap().by_session && !self.attempts.last().unwrap().noted;
        if fresh || !self.repo.path.join(&path).exists() || self.rng.chance(40) {
            let text = self.note_text(&self.repo.head(), false);
            self.repo.write(&path, text);
            self.trail.push("write the note".into());
        }
        self.trail.push("note".into());
        let code = self.command(&["note"]);
        let sealed = self.attempts.last().unwrap().sealed;
        self.expect(code, if sealed { 1 } else { 0 }, "note");
        if !sealed {
            self.noted();
        }
    }

    pub(super) fn edit_note(&mut self) {
        self.counter += 1;
        let path = self.repo.path.join(self.note_path());
        let text = std::fs::read_to_string(&path).unwrap();
        let edited = text.replacen(
            "## Remaining work\n",
            &format!("- Edit {}\n\n## Remaining work\n", self.counter),
            1,
        );
        std::fs::write(&path, edited).unwrap();
        self.trail.push(format!("edit the note ({})", self.counter));
    }

    /// The agent writes its note but runs nothing: a draft that a later move commits.
    pub(super) fn write_draft(&mut self) {
        self.counter += 1;
        let text = self.note_text(&self.repo.head(), false);
        self.repo.write(self.note_path(), text);
        self.trail.push(format!("write a draft note ({})", self.counter));
    }

    pub(super) fn plain_git_note(&mut self) {
        self.counter += 1;
        let path = self.note_path();
        let text = self.note_text(&self.repo.head(), true);
        self.repo.write(&path, text);
        let issue = self.attempts.last().unwrap().issue;
        self.trail.push(format!("plain-git note: git add {path} && git commit"));
        self.repo.git(["add", "--", path.as_str()]);
        self.repo.git(["commit", "-q", "-m", &format!("Handoff note: issue #{issue}")]);
        self.noted();
    }

    pub(super) fn seal(&mut self) {
        self.trail.push("seal".into());
        let dirty = !self.status().is_empty();
        let (code, stdout) = self.command_out(&["seal", "--json"]);
        let a = self.attempts.last().unwrap().clone();
        if a.sealed && dirty {
            self.expect(code, 1, "seal of a sealed attempt");
            return;
        }
        self.expect(code, 0, "seal");
        let status = self.status();
        if !status.is_empty() {
            self.fail(&format!("after seal, git status is not clean:\n{status}"));
        }
        let sealed: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        if !sealed["note"].is_null() {
            // A draft, or an edit of the note, was committed as the note before sealing.
            self.noted();
        }
        let Some(commit) = sealed["commit"].as_str().map(str::to_string) else { return };
        let current = self.current();
        if current.noted {
            current.sealed = true;
            current.seal = Some(commit);
        } else {
            current.pending_seal = Some(commit);
        }
    }

    pub(super) fn emergency(&mut self) {
        self.trail.push("note --emergency --reason time_limit".into());
        let head = self.repo.head();
        let code = self.command(&["note", "--emergency", "--reason", "time_limit"]);
        self.expect(code, 0, "note --emergency");
        if self.attempts.last().unwrap().noted {
            if self.repo.head() != head {
                self.fail("note --emergency wrote a note although the attempt has one");
            }
        } else {
            self.noted();
        }
    }

    /// The attempt got its note: a seal of the attempt right below it is the attempt's seal.
    pub(super) fn noted(&mut self) {
        let current = self.current();
        if !current.noted {
            current.noted = true;
            current.seal = current.pending_seal.take();
        }
    }

    pub(super) fn digest_only(&mut self) {
        self.trail.push("note --digest-only".into());
        let before = self.state();
        let code = self.command(&["note", "--digest-only"]);
        self.expect(code, 0, "note --digest-only");
        if self.state() != before {
            self.fail("note --digest-only changed HEAD, the index or the work tree");
        }
    }

    pub(super) fn status(&self) -> String {
        self.repo.git_text(["status", "--porcelain"])
    }

    /// A session starts (SessionStart through `recall --hook claude`): after the attempt's note
    /// it begins the next attempt, else it continues this one.
    pub(super) fn session(&mut self, source: &str) {
        self.sessions += 1;
        let id = format!("s{}", self.sessions);
        self.trail.push(format!("session {id} starts ({source})"));
        let payload = serde_json::json!({
            "session_id": id, "cwd": self.repo.path.to_str().unwrap(),
            "hook_event_name": "SessionStart", "source": source,
        });
        let (code, _) =
            self.command_in(&["recall", "--hook", "claude"], Some(&payload.to_string()));
        self.expect(code, 0, "recall --hook claude");
        if !self.attempts.last().unwrap().noted {
            return;
        }
        let state = std::fs::read_to_string(self.repo.path.join(".git/handoff/attempt.toml"));
        let state: toml::Table = toml::from_str(&state.unwrap_or_default()).unwrap_or_default();
        let Some(started_at) = state.get("started_at").and_then(|v| v.as_str()) else {
            self.fail("a session after the note began no next attempt");
        };
        let previous = self.attempts.last().unwrap().clone();
        if started_at == previous.started_at {
            self.fail("a session after the note began no next attempt");
        }
        self.attempts.push(super::Attempt {
            issue: previous.issue,
            started_at: started_at.to_string(),
            base: self.repo.head(),
            noted: false,
            sealed: false,
            seal: None,
            pending_seal: None,
            by_session: true,
        });
        self.log_check = None;
    }

    /// The agent runs `cargo test`, which passes or fails.
    pub(super) fn check_run(&mut self) {
        let ok = self.rng.chance(50);
        self.trail.push(format!("cargo test {}", if ok { "passes" } else { "fails" }));
        let payload = if ok {
            crate::common::payloads::bash_ok(&self.repo, "cargo test")
        } else {
            crate::common::payloads::bash_failed(&self.repo, "cargo test", 101)
        };
        record(&self.repo, &payload);
        self.log_check = Some(if ok { "passed" } else { "failed" });
    }

    /// A person commits the work with plain git (`git add -A && git commit`), the note file
    /// left out.
    pub(super) fn plain_commit(&mut self) {
        self.counter += 1;
        self.trail.push(format!("plain git commit {}", self.counter));
        self.repo.write(format!("src/p{}.txt", self.counter), format!("plain {}\n", self.counter));
        self.repo.git(["add", "-A", "--", "src"]);
        self.repo.git(["commit", "-q", "-m", &format!("plain {}", self.counter)]);
        self.current().pending_seal = None;
    }

    /// The runner's fault, tried and taken back: the same attempt commits work after its own
    /// note; `validate` must refuse it, here and without the attempt state.
    pub(super) fn fault(&mut self) {
        self.counter += 1;
        self.trail.push(format!("fault: commit {} after the note, then undo it", self.counter));
        let a = self.attempts.last().unwrap().clone();
        self.repo.write(format!("src/f{}.txt", self.counter), "fault\n");
        self.repo.git(["add", "--", &format!("src/f{}.txt", self.counter)]);
        self.repo.git(["commit", "-q", "-m", "fault"]);
        for aside in [false, true] {
            let state = self.repo.path.join(".git/handoff");
            let moved = self.repo.path.join(".git/handoff-aside");
            if aside {
                std::fs::rename(&state, &moved).ok();
            }
            let out = self.handoff(&["validate", "--base", &a.base]);
            if aside {
                std::fs::rename(&moved, &state).ok();
            }
            if out.status.code() != Some(1) {
                self.fail(&format!(
                    "work committed after its own note passed validate (state aside: {aside}):\n{}",
                    String::from_utf8_lossy(&out.stdout)
                ));
            }
        }
        self.repo.git(["reset", "-q", "--soft", "HEAD~1"]);
        self.repo.git(["reset", "-q"]);
    }

    /// The session ends (SessionEnd): a digest-only record of its own when it made tool calls
    /// and its attempt has no note.
    pub(super) fn session_end(&mut self) {
        self.trail.push("session ends (note --digest-only)".into());
        let payload = serde_json::json!({
            "session_id": format!("s{}", self.sessions), "hook_event_name": "SessionEnd",
            "cwd": self.repo.path.to_str().unwrap(), "reason": "other",
        });
        let before = self.state();
        let (code, _) = self.command_in(&["note", "--digest-only"], Some(&payload.to_string()));
        self.expect(code, 0, "note --digest-only at session end");
        if self.state() != before {
            self.fail("the session's end changed HEAD, the index or the work tree");
        }
    }

    /// One random legal move; false when it only changed the work tree (nothing to check).
    pub(super) fn step(&mut self) -> bool {
        let noted = self.attempts.last().unwrap().noted;
        let has_note_file = self.repo.path.join(self.note_path()).exists();
        let sealed = self.attempts.last().unwrap().sealed;
        match self.rng.below(28) {
            20 => self.session("startup"),
            21 => self.session("compact"),
            22 => self.session("resume"),
            23 if !noted => self.plain_commit(),
            24 => {
                self.check_run();
                return false;
            }
            25 => self.session_end(),
            26 if noted && !sealed => self.fault(),
            0..=2 if !noted => self.work_commit(),
            0..=5 => {
                self.dirty();
                return false;
            }
            6..=8 => self.note(),
            9..=10 if has_note_file && noted => {
                self.edit_note();
                return false;
            }
            9..=10 if !noted => {
                self.write_draft();
                return false;
            }
            11 if !noted => self.plain_git_note(),
            11..=13 => self.seal(),
            14..=15 => self.emergency(),
            16 => self.digest_only(),
            17 => self.start(),
            _ => {
                self.dirty();
                return false;
            }
        }
        true
    }
}
