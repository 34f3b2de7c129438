//! `git handoff demo`: a whole interrupted attempt, played through the real commands in a
//! throwaway repository.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::cli::commands::Ctx;
use crate::cli::output;

/// Play a whole interrupted attempt in a throwaway repository, printing each step.
///
/// start, hook events with a failing test, an agent summary claiming success, the checked note,
/// seal, validate, an emergency note on a second attempt, and recall. Nothing outside a temporary
/// directory is touched; it is removed at the end (pass --keep to look around).
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
}

pub fn run(_ctx: &Ctx, args: Args, out: &mut impl Write) -> Result<()> {
    let tmp = tempfile::Builder::new()
        .prefix("git-handoff-demo")
        .tempdir()
        .context("creating a temporary directory")?;
    let dir = tmp.path().join("project");
    std::fs::create_dir_all(&dir)?;
    let exe = std::env::current_exe().context("finding this binary")?;
    let mut demo = Demo { dir: dir.clone(), exe, out };
    demo.play()?;
    if args.keep {
        let kept = tmp.keep();
        writeln!(demo.out, "\nThe repository is kept in {}", kept.join("project").display())?;
    } else {
        writeln!(demo.out, "\n{}", output::dim("The throwaway repository was removed."))?;
    }
    Ok(())
}

impl<W: Write> Demo<'_, W> {
    fn play(&mut self) -> Result<()> {
        self.say("A project with one commit")?;
        self.git(&["init", "-q", "-b", "main"])?;
        self.write(
            "src/parser.rs",
            "pub fn parse(s: &str) -> Vec<&str> { s.split(',').collect() }\n",
        )?;
        self.write("README.md", "# demo\n")?;
        self.git(&["add", "-A"])?;
        self.git(&["commit", "-q", "-m", "Initial commit"])?;

        self.say("The runtime begins an attempt on issue #42")?;
        self.handoff(&["start", "--issue", "42", "--started-at", "2026-11-30T03:48:52Z"], None, 0)?;

        self.say("The agent works; its hooks record every tool call (a test run fails)")?;
        let repo = self.dir.display().to_string();
        self.write(
            "src/parser.rs",
            "pub fn parse(s: &str) -> Vec<&str> { s.split(';').collect() }\n",
        )?;
        self.write("tests/parser.rs", "#[test] fn splits() { assert_eq!(2, 2); }\n")?;
        for payload in [
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
        ] {
            self.handoff(&["record"], Some(&payload), 0)?;
        }
        self.handoff(&["digest"], None, 0)?;

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

        self.say("The session ends; the runtime seals the leftover work")?;
        std::fs::remove_file(self.dir.join(".agent/summary.toml"))?;
        self.handoff(&["seal"], None, 0)?;
        self.git_show(&["log", "--oneline"])?;

        self.say("Validation, as the pre-push hook runs it")?;
        self.handoff(&["validate"], None, 0)?;

        self.say("A second attempt hits the hard token limit without writing a note")?;
        self.handoff(&["start", "--issue", "43", "--started-at", "2026-11-30T05:00:00Z"], None, 0)?;
        self.write("src/lexer.rs", "pub fn lex() {}\n")?;
        let edit = format!(
            r#"{{"session_id":"demo2","hook_event_name":"PostToolUse","cwd":"{repo}","tool_name":"Write","tool_input":{{"file_path":"{repo}/src/lexer.rs"}},"tool_response":{{"filePath":"{repo}/src/lexer.rs"}}}}"#
        );
        self.handoff(&["record"], Some(&edit), 0)?;
        self.handoff(&["seal"], None, 0)?;
        self.handoff(&["note", "--emergency", "--reason", "token_hard_limit"], None, 0)?;
        self.git_show(&["show", "--stat", "--format=%h %s", "HEAD"])?;
        self.handoff(&["validate"], None, 0)?;

        self.say("The next session starts with the recall")?;
        self.handoff(&["recall", "--source", "resume"], None, 0)?;
        Ok(())
    }

    fn say(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "\n{}", output::heading(&format!("== {text}")))?;
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

    fn git(&self, args: &[&str]) -> Result<()> {
        let status = self.command(Path::new("git")).args(args).stdout(Stdio::null()).status()?;
        if !status.success() {
            bail!("demo step `git {}` failed", args.join(" "));
        }
        Ok(())
    }

    fn git_show(&mut self, args: &[&str]) -> Result<()> {
        writeln!(self.out, "$ git {}", args.join(" "))?;
        let output = self.command(Path::new("git")).args(args).output()?;
        self.out.write_all(&output.stdout)?;
        Ok(())
    }

    /// Runs `git handoff ARGS` (this binary), shows it and its output, and checks its exit code.
    fn handoff(&mut self, args: &[&str], stdin: Option<&str>, expect: i32) -> Result<()> {
        let shown = match stdin {
            Some(payload) => {
                let event = serde_json::from_str::<serde_json::Value>(payload)
                    .ok()
                    .and_then(|v| v["hook_event_name"].as_str().map(str::to_string))
                    .unwrap_or_default();
                format!("$ git handoff {}   # {event} payload on stdin", args.join(" "))
            }
            None => format!("$ git handoff {}", args.join(" ")),
        };
        writeln!(self.out, "{shown}")?;
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
        self.out.write_all(&output.stdout)?;
        self.out.write_all(&output.stderr)?;
        let code = output.status.code().unwrap_or(-1);
        if code != expect {
            bail!(
                "demo step `git handoff {}` exited with {code}, expected {expect}",
                args.join(" ")
            );
        }
        Ok(())
    }
}
