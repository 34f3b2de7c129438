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
        });
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
        if !self.repo.path.join(&path).exists() || self.rng.chance(40) {
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

    /// One random legal move; false when it only changed the work tree (nothing to check).
    pub(super) fn step(&mut self) -> bool {
        let noted = self.attempts.last().unwrap().noted;
        let has_note_file = self.repo.path.join(self.note_path()).exists();
        match self.rng.below(20) {
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
