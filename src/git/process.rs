//! Running the real `git` binary as a child process.
//!
//! Where git-handoff must print exactly what git prints (status, log, diff --stat) or change the
//! repository exactly as git would (seal's staging), it runs git itself: that is the only way to be
//! byte-identical under every config key, attribute and version. Children run at the top of the
//! work tree with `GIT_DIR`/`GIT_WORK_TREE` set to absolute paths, so they see the same repository
//! as we do wherever we were started, and inherit the caller's environment (`COLUMNS` included).

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use anyhow::{Result, anyhow};

/// How to start git for one repository.
#[derive(Debug, Clone)]
pub struct Git {
    pub git_dir: PathBuf,
    pub work_tree: Option<PathBuf>,
    /// Environment every child gets besides the caller's (seal's object quarantine).
    pub env: Vec<(OsString, OsString)>,
    /// `-c key=value` settings every child gets: hooks off, seal's quarantine.
    pub config: Vec<String>,
    /// Children start in a process group of their own (see [`Git::detached`]).
    pub detached: bool,
}

impl Git {
    /// Git for the repository at `git_dir` (and `work_tree`), hooks on, no extra environment.
    pub fn new(git_dir: PathBuf, work_tree: Option<PathBuf>) -> Git {
        Git { git_dir, work_tree, env: Vec::new(), config: Vec::new(), detached: false }
    }

    /// The same, with every hook off (`-c core.hooksPath=/dev/null`): no hook, failing or slow,
    /// can change or stop what git-handoff does (`post-index-change`, `reference-transaction` ...).
    pub fn without_hooks(self) -> Git {
        self.with_config("core.hooksPath=/dev/null")
    }

    /// The same, with `key=value` in every child's environment.
    pub fn with_env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Git {
        self.env.push((key.into(), value.into()));
        self
    }

    /// The same, with `-c key=value` (`setting`) on every child's command line.
    pub fn with_config(mut self, setting: impl Into<String>) -> Git {
        self.config.push(setting.into());
        self
    }

    /// The same, each child in a process group of its own: for the steps past a command's point of
    /// no return (HEAD moved), which must complete. A signal sent to our group (Ctrl-C, a runtime
    /// killing the agent's process group, with SIGKILL too) then never stops git halfway, holding
    /// `index.lock`: we catch the catchable ones and go on, and a child outlives our own death and
    /// finishes its step. Never for a command that may ask on the terminal (a credential prompt
    /// from another group would stop).
    pub fn detached(mut self) -> Git {
        self.detached = true;
        self
    }

    /// A `git` command bound to this repository, with stdin closed.
    pub fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new(program());
        cmd.env("GIT_DIR", &self.git_dir);
        match &self.work_tree {
            Some(top) => {
                cmd.env("GIT_WORK_TREE", top).current_dir(top);
            }
            None => {
                cmd.env_remove("GIT_WORK_TREE").current_dir(&self.git_dir);
            }
        }
        for setting in &self.config {
            cmd.arg("-c").arg(setting);
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        // No child takes a lock it does not need (`git status` refreshing the index): a child
        // killed with us (SIGKILL to the process group) would leave it, and every git command,
        // its retry too, would refuse to run until someone removed it.
        cmd.env("GIT_OPTIONAL_LOCKS", "0");
        cmd.args(args).stdin(Stdio::null());
        if self.detached {
            std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        }
        cmd
    }

    /// Runs git and returns its stdout; a non-zero exit is an error that carries git's stderr.
    pub fn output<I, S>(&self, args: I) -> Result<Vec<u8>>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = self.command(args);
        let output = run(&mut cmd)?;
        checked(&cmd, output)
    }

    /// Like [`Git::output`], as text with the final newline removed.
    pub fn text<I, S>(&self, args: I) -> Result<String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let out = self.output(args)?;
        let mut text = String::from_utf8_lossy(&out).into_owned();
        if text.ends_with('\n') {
            text.pop();
        }
        Ok(text)
    }
}

/// A `git` command bound to no repository, with stdin closed: started where git-handoff stands and
/// with its environment, it finds the repository (or none) as the user's own `git` would. For the
/// questions asked before any repository is opened (the colour setting).
pub fn command_here<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(program());
    cmd.args(args).stdin(Stdio::null());
    cmd
}

/// Sets glibc's malloc to keep the memory a git child frees, for a child that compresses many
/// objects (seal's `git add`), unless the caller tuned malloc already (`GLIBC_TUNABLES`, or one of
/// glibc's `MALLOC_*_` variables). zlib allocates about 256 KiB of state for every object it
/// deflates and frees it afterwards; at the top of the heap, glibc hands that back to the kernel
/// each time (the trim threshold is 128 KiB), so every object costs a `brk` pair and some 20 page
/// faults. On ripgrep's dirty tree that was nearly a third of `git add`'s CPU time. The values are
/// the ones glibc's own dynamic thresholds reach in a long-running process (an mmap threshold of
/// 32 MiB, the largest it sets, and a trim threshold twice that). They change no byte git writes,
/// and other C libraries ignore them.
pub fn keep_freed_memory(cmd: &mut Command) {
    if !malloc_tuned(std::env::vars_os().map(|(key, _)| key)) {
        cmd.envs(KEEP_FREED_MEMORY);
    }
}

const KEEP_FREED_MEMORY: [(&str, &str); 2] =
    [("MALLOC_MMAP_THRESHOLD_", "33554432"), ("MALLOC_TRIM_THRESHOLD_", "67108864")];

/// Whether an environment with these variables tunes glibc's malloc.
fn malloc_tuned(mut keys: impl Iterator<Item = OsString>) -> bool {
    keys.any(|key| key == "GLIBC_TUNABLES" || key.as_encoded_bytes().starts_with(b"MALLOC_"))
}

/// The git binary every child runs: the first executable `git` on `PATH`, looked up once, where
/// `execvp` would find it. Started by that path, a child no longer tries to execute `git` in each
/// `PATH` entry before it (on a machine with a few tool directories ahead of git's, that was a
/// quarter of a millisecond per git started). Found nowhere, it is `git`, for the spawn to say so.
fn program() -> &'static OsStr {
    static PROGRAM: OnceLock<OsString> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        for dir in std::env::split_paths(&path) {
            // A relative entry (an empty one is the current directory) is left to the spawn,
            // which resolves it from the child's directory.
            if !dir.is_absolute() {
                break;
            }
            let candidate = dir.join("git");
            if is_executable(&candidate) {
                return candidate.into_os_string();
            }
        }
        OsString::from("git")
    })
}

/// The git binary children run, when it was found on `PATH` (see [`program`]).
pub fn program_path() -> Option<&'static Path> {
    let program = Path::new(program());
    program.is_absolute().then_some(program)
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Spawns `cmd` and waits for it, capturing stdout and stderr.
pub fn run(cmd: &mut Command) -> Result<Output> {
    use crate::util::error::{Kind, hinted};
    cmd.output().map_err(|err| {
        let err = anyhow::Error::new(err).context(format!("running {}", describe(cmd)));
        hinted(
            Kind::Git,
            "git-handoff runs git: install git (2.30 or later) and put it on PATH",
            err,
        )
    })
}

/// Turns a finished git run into its stdout, or an error naming the command and git's message.
pub fn checked(cmd: &Command, output: Output) -> Result<Vec<u8>> {
    if output.status.success() {
        return Ok(output.stdout);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stderr = stderr.trim();
    let err = match output.status.code() {
        Some(code) => anyhow!("{} exited with {code}: {stderr}", describe(cmd)),
        None => anyhow!("{} was killed by a signal: {stderr}", describe(cmd)),
    };
    Err(crate::util::error::kinded(crate::util::error::Kind::Git, err))
}

/// A command line as text for messages: `` `git diff --stat` ``.
pub fn describe(cmd: &Command) -> String {
    // git by the name it is known by, wherever it was found.
    let run = cmd.get_program();
    let name = if run == program() { OsStr::new("git") } else { run };
    let mut words = vec![name.to_string_lossy().into_owned()];
    words.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    format!("`{}`", crate::util::shell::quote_all(&words))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_memory_is_kept_unless_the_caller_tuned_malloc() {
        let keys = |names: &[&str]| names.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(!malloc_tuned(keys(&["PATH", "HOME", "XMALLOC_X"]).into_iter()));
        assert!(malloc_tuned(keys(&["PATH", "GLIBC_TUNABLES"]).into_iter()));
        assert!(malloc_tuned(keys(&["MALLOC_ARENA_MAX"]).into_iter()));

        let mut cmd = Command::new("git");
        keep_freed_memory(&mut cmd);
        let set: Vec<_> = cmd.get_envs().filter_map(|(k, v)| Some((k, v?))).collect();
        if malloc_tuned(std::env::vars_os().map(|(key, _)| key)) {
            assert!(set.is_empty(), "the caller's malloc settings are left alone: {set:?}");
        } else {
            let want: Vec<_> =
                KEEP_FREED_MEMORY.iter().map(|(k, v)| (OsStr::new(k), OsStr::new(v))).collect();
            assert_eq!(set, want);
        }
    }
}
