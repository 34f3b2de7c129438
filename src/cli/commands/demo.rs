//! `git handoff demo`: a whole interrupted attempt, played through the real commands in a
//! throwaway repository.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde::Serialize;

use crate::cli::context::Ctx;
use crate::cli::output;
use crate::util::shell::{quote, quote_all};

/// Play a whole interrupted attempt in a throwaway repository, printing each step.
///
/// start, hook events with a failing test, an agent summary claiming success, the checked note,
/// seal, validate, an emergency note on a second attempt, and recall. Nothing outside a temporary
/// directory is touched; it is removed at the end (pass --keep to look around). Each command is
/// printed as it can be copied and run in that directory (hook payloads piped in with printf).
///
/// --json prints {"dir": <kept directory or null>, "steps": [{"title", "commands": [{"command",
/// "stdout", "stderr", "exit"}]}]}.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Keep the throwaway repository and print where it is.
    #[arg(long)]
    pub keep: bool,
}

struct Demo<'a, W: Write> {
    dir: PathBuf,
    exe: PathBuf,
    out: &'a mut W,
    /// With --json, the steps are collected here and printed at the end.
    steps: Option<Vec<Step>>,
}

#[derive(Serialize)]
struct Step {
    title: String,
    commands: Vec<Ran>,
}

#[derive(Serialize)]
struct Ran {
    command: String,
    stdout: String,
    stderr: String,
    exit: i32,
}

pub fn run(ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let tmp = tempfile::Builder::new()
        .prefix("git-handoff-demo")
        .tempdir()
        .context("creating a temporary directory")?;
    let dir = tmp.path().join("project");
    std::fs::create_dir_all(&dir)?;
    let exe = std::env::current_exe().context("finding this binary")?;
    let steps = ctx.json.then(Vec::new);
    let mut demo = Demo { dir: dir.clone(), exe, out, steps };
    demo.play()?;
    if let Some(steps) = demo.steps.take() {
        let kept = args.keep.then(|| tmp.keep().join("project"));
        let report = serde_json::json!({"dir": kept, "steps": steps});
        return Ok(output::write_json(demo.out, &report)?);
    }
    if args.keep {
        let kept = tmp.keep();
        writeln!(demo.out, "\nThe repository is kept in {}", kept.join("project").display())?;
    } else {
        writeln!(demo.out, "\n{}", output::dim("The throwaway repository was removed."))?;
    }
    Ok(())
}

impl<W: Write> Demo<'_, W> {
    /// The demo's scenes, in order.
    fn play(&mut self) -> Result<()> {
        if self.steps.is_none() {
            writeln!(self.out, "$ cd {}", quote(&self.dir.display().to_string()))?;
        }
        self.a_project()?;
        self.the_first_attempt()?;
        self.a_note_that_claims_too_much()?;
        self.the_seal_and_validation()?;
        self.an_attempt_without_a_note()?;
        self.say("The next session starts with the recall")?;
        self.handoff(&["recall", "--source", "resume"], None, 0)?;
        Ok(())
    }

    /// A project with one commit.
    fn a_project(&mut self) -> Result<()> {
        self.say("A project with one commit")?;
        self.git(&["init", "-q", "-b", "main"])?;
        self.write(
            "src/parser.rs",
            "pub fn parse(s: &str) -> Vec<&str> { s.split(',').collect() }\n",
        )?;
        self.write("README.md", "# demo\n")?;
        self.git(&["add", "-A"])?;
        self.git(&["commit", "-q", "-m", "Initial commit"])?;
        Ok(())
    }

    /// An attempt on issue #42, whose hooks record a session's tool calls, a failing test run
    /// among them.
    fn the_first_attempt(&mut self) -> Result<()> {
        self.say("The runtime begins an attempt on issue #42")?;
        self.handoff(&["start", "--issue", "42", "--started-at", "2026-11-30T03:48:52Z"], None, 0)?;

        self.say("The agent works; its hooks record every tool call (a test run fails)")?;
        let repo = self.dir.display().to_string();
        self.write(
            "src/parser.rs",
            "pub fn parse(s: &str) -> Vec<&str> { s.split(';').collect() }\n",
        )?;
        self.write("tests/parser.rs", "#[test] fn splits() { assert_eq!(2, 2); }\n")?;
        for payload in first_session(&repo) {
            self.handoff(&["record"], Some(&payload), 0)?;
        }
        self.handoff(&["digest"], None, 0)?;
        Ok(())
    }

    /// A summary that claims a test run passed, which the log contradicts.
    fn a_note_that_claims_too_much(&mut self) -> Result<()> {
        self.say("At the soft threshold the agent writes a summary that claims too much")?;
        self.write(
            ".agent/summary.toml",
            "goal = \"Parse semicolon-separated input\"\n\
             done = [\"Switched the parser to semicolons\", \"All tests pass now\"]\n\
             next = [\"Fix the failing splits test\"]\n\
             files_touched = [\"src/parser.rs\", \"src/lexer.rs\"]\n",
        )?;
        self.handoff(
            &["note", "--summary", ".agent/summary.toml", "--reason", "token_soft_threshold"],
            None,
            0,
        )?;
        Ok(())
    }

    /// The leftover work sealed, and the history validated as the pre-push hook would.
    fn the_seal_and_validation(&mut self) -> Result<()> {
        self.say("The session ends; the runtime seals the leftover work")?;
        std::fs::remove_file(self.dir.join(".agent/summary.toml"))?;
        self.handoff(&["seal"], None, 0)?;
        self.git_show(&["log", "--oneline"])?;

        self.say("Validation, as the pre-push hook runs it")?;
        self.handoff(&["validate"], None, 0)?;
        Ok(())
    }

    /// A second attempt that ends at the hard token limit: the emergency note.
    fn an_attempt_without_a_note(&mut self) -> Result<()> {
        self.say("A second attempt hits the hard token limit without writing a note")?;
        self.handoff(&["start", "--issue", "43", "--started-at", "2026-11-30T05:00:00Z"], None, 0)?;
        self.write("src/lexer.rs", "pub fn lex() {}\n")?;
        let repo = self.dir.display().to_string();
        let edit = format!(
            r#"{{"session_id":"demo2","hook_event_name":"PostToolUse","cwd":"{repo}","tool_name":"Write","tool_input":{{"file_path":"{repo}/src/lexer.rs"}},"tool_response":{{"filePath":"{repo}/src/lexer.rs"}}}}"#
        );
        self.handoff(&["record"], Some(&edit), 0)?;
        self.handoff(&["seal"], None, 0)?;
        self.handoff(&["note", "--emergency", "--reason", "token_hard_limit"], None, 0)?;
        self.git_show(&["show", "--stat", "--format=%h %s", "HEAD"])?;
        self.handoff(&["validate"], None, 0)?;
        Ok(())
    }

    fn say(&mut self, text: &str) -> Result<()> {
        match &mut self.steps {
            Some(steps) => steps.push(Step { title: text.to_string(), commands: Vec::new() }),
            None => writeln!(self.out, "\n{}", output::heading(&format!("== {text}")))?,
        }
        Ok(())
    }

    /// Shows a command and what it printed, or keeps them for --json.
    fn show(&mut self, command: String, stdout: &[u8], stderr: &[u8], exit: i32) -> Result<()> {
        if let Some(step) = self.steps.as_mut().and_then(|s| s.last_mut()) {
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            step.commands.push(Ran { command, stdout: text(stdout), stderr: text(stderr), exit });
            return Ok(());
        }
        writeln!(self.out, "$ {command}")?;
        self.out.write_all(stdout)?;
        self.out.write_all(stderr)?;
        Ok(())
    }

    fn write(&self, rel: &str, content: &str) -> Result<()> {
        let path = self.dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))?;
        std::fs::write(&path, content).with_context(|| format!("writing {}", path.display()))
    }

    fn command(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Demo Agent")
            .env("GIT_AUTHOR_EMAIL", "agent@example.com")
            .env("GIT_COMMITTER_NAME", "Demo Agent")
            .env("GIT_COMMITTER_EMAIL", "agent@example.com")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        cmd
    }

    fn git(&mut self, args: &[&str]) -> Result<()> {
        let output = self.command(Path::new("git")).args(args).output()?;
        if !output.status.success() {
            bail!("demo step `git {}` failed", args.join(" "));
        }
        self.show(format!("git {}", quote_all(args)), &[], &[], 0)
    }

    fn git_show(&mut self, args: &[&str]) -> Result<()> {
        let output = self.command(Path::new("git")).args(args).output()?;
        let command = format!("git {}", quote_all(args));
        self.show(command, &output.stdout, &[], output.status.code().unwrap_or(-1))
    }

    /// Runs `git handoff ARGS` (this binary), shows it and its output, and checks its exit code.
    fn handoff(&mut self, args: &[&str], stdin: Option<&str>, expect: i32) -> Result<()> {
        let command = match stdin {
            Some(payload) => {
                format!("printf '%s\\n' {} | git handoff {}", quote(payload), quote_all(args))
            }
            None => format!("git handoff {}", quote_all(args)),
        };
        let exe = self.exe.clone();
        let mut cmd = self.command(&exe);
        cmd.args(args).arg("--color=never").stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().context("starting git-handoff")?;
        if let (Some(payload), Some(mut pipe)) = (stdin, child.stdin.take()) {
            pipe.write_all(payload.as_bytes())?;
        }
        let output = child.wait_with_output()?;
        let code = output.status.code().unwrap_or(-1);
        self.show(command, &output.stdout, &output.stderr, code)?;
        if code != expect {
            bail!(
                "demo step `git handoff {}` exited with {code}, expected {expect}",
                args.join(" ")
            );
        }
        Ok(())
    }
}

/// The hook payloads of the first session, as Claude Code sends them from `repo`.
fn first_session(repo: &str) -> [String; 6] {
    [
        format!(
            r#"{{"session_id":"demo","hook_event_name":"SessionStart","cwd":"{repo}","source":"startup"}}"#
        ),
        format!(
            r#"{{"session_id":"demo","hook_event_name":"UserPromptSubmit","cwd":"{repo}","prompt":"Fix issue 42"}}"#
        ),
        format!(
            r#"{{"session_id":"demo","hook_event_name":"PostToolUse","cwd":"{repo}","tool_name":"Edit","tool_input":{{"file_path":"{repo}/src/parser.rs"}},"tool_response":{{"filePath":"{repo}/src/parser.rs"}}}}"#
        ),
        format!(
            r#"{{"session_id":"demo","hook_event_name":"PostToolUse","cwd":"{repo}","tool_name":"Write","tool_input":{{"file_path":"{repo}/tests/parser.rs"}},"tool_response":{{"filePath":"{repo}/tests/parser.rs"}}}}"#
        ),
        format!(
            r#"{{"session_id":"demo","hook_event_name":"PostToolUseFailure","cwd":"{repo}","tool_name":"Bash","tool_input":{{"command":"cargo test"}},"error":"Exit code 101\ntest splits ... FAILED"}}"#
        ),
        format!(
            r#"{{"session_id":"demo","hook_event_name":"Stop","cwd":"{repo}","stop_hook_active":false,"last_assistant_message":"The parser now splits on semicolons; one test still fails."}}"#
        ),
    ]
}
