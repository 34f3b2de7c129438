//! The shared test harness: hermetic git, temporary repositories, the built binary (also as
//! `git handoff` through PATH), and a seeded generator of awkward work trees.
//!
//! Every git and git-handoff process started here gets the same fixed environment: no global or
//! system config, UTC, the C locale, fixed author/committer identity and dates, a temporary HOME.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use assert_cmd::cargo::CommandCargoExt;
use tempfile::TempDir;

pub mod payloads;
pub mod servers;

/// A temporary directory holding a HOME and one or more repositories.
pub struct Env {
    pub root: TempDir,
}

/// A repository under test.
pub struct Repo {
    pub path: PathBuf,
    home: PathBuf,
}

/// The fixed environment every child process gets.
pub fn hermetic(cmd: &mut Command, home: &Path) {
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        if key.starts_with("GIT_")
            || key == "NO_COLOR"
            || key == "CLICOLOR_FORCE"
            || key == "COLUMNS"
        {
            cmd.env_remove(&key);
        }
    }
    cmd.env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("TZ", "UTC")
        .env("LC_ALL", "C")
        .env("LANG", "C")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GIT_AUTHOR_NAME", "A U Thor")
        .env("GIT_AUTHOR_EMAIL", "author@example.com")
        .env("GIT_COMMITTER_NAME", "C O Mitter")
        .env("GIT_COMMITTER_EMAIL", "committer@example.com")
        .env("GIT_AUTHOR_DATE", "2026-11-30T03:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-11-30T03:00:00Z")
        .env("GIT_TERMINAL_PROMPT", "0");
}

/// Where the tests' repositories are made: `HANDOFF_TEST_TMPDIR` when set, else `/dev/shm` when it
/// is a writable memory file system with at least 2 GiB free, else the system's temporary
/// directory. Every test makes and drops thousands of small files and directories and starts git
/// on them; on the ext4 disk of a 2-core CI machine the kernel's side of that (journal, page
/// cache) took as long again as the tests' own work (the suite: 161 s on /tmp, 110 s on
/// /dev/shm), while nothing a test checks depends on the file system's kind.
pub fn scratch() -> PathBuf {
    static SCRATCH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SCRATCH
        .get_or_init(|| {
            if let Some(dir) = std::env::var_os("HANDOFF_TEST_TMPDIR") {
                return PathBuf::from(dir);
            }
            let shm = Path::new("/dev/shm");
            let roomy = rustix::fs::statvfs(shm)
                .map(|s| s.f_bavail.saturating_mul(s.f_frsize) >= 2 << 30)
                .unwrap_or(false);
            let writable =
                roomy && tempfile::Builder::new().prefix("handoff-probe").tempdir_in(shm).is_ok();
            if writable { shm.to_path_buf() } else { std::env::temp_dir() }
        })
        .clone()
}

impl Env {
    pub fn new() -> Env {
        let root =
            tempfile::Builder::new().prefix("handoff-test").tempdir_in(scratch()).expect("tempdir");
        std::fs::create_dir_all(root.path().join("home")).unwrap();
        Env { root }
    }

    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    /// A new repository named `name` (branch `main`), as `git init -q -b main` makes it: a copy
    /// of what one `git init` in this test process made (see [`skeleton`]).
    pub fn repo(&self, name: &str) -> Repo {
        let path = self.root.path().join(name);
        std::fs::create_dir_all(&path).unwrap();
        for entry in skeleton() {
            let at = path.join(&entry.rel);
            match &entry.content {
                None => std::fs::create_dir_all(&at).unwrap(),
                Some(bytes) => {
                    std::fs::write(&at, bytes).unwrap();
                    std::fs::set_permissions(&at, std::fs::Permissions::from_mode(entry.mode))
                        .unwrap();
                }
            }
        }
        Repo { path, home: self.home() }
    }
}

/// A file (with its content and mode) or a directory (`content` is `None`) of the skeleton.
struct Entry {
    rel: PathBuf,
    content: Option<Vec<u8>>,
    mode: u32,
}

/// The `.git` directory `git init -q -b main` makes, read once per test process: every file and
/// directory with its mode, directories before what they hold. A copy is the same repository
/// (nothing in it names its own path) without a git start for each of the suite's 850
/// repositories. Its config turns off `git maintenance run --auto`, which each `git commit` would
/// start otherwise: a thousand git starts in the suite that no test looks at. (Set in the
/// repository's config, not through GIT_CONFIG_*, which git-handoff reads as config given on
/// git's command line.)
fn skeleton() -> &'static [Entry] {
    static SKELETON: std::sync::OnceLock<Vec<Entry>> = std::sync::OnceLock::new();
    SKELETON.get_or_init(|| {
        let dir = tempfile::Builder::new().prefix("handoff-init").tempdir_in(scratch()).unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        let repo = Repo { path: dir.path().join("r"), home };
        std::fs::create_dir(&repo.path).unwrap();
        repo.git(["init", "-q", "-b", "main"]);
        let config = repo.path.join(".git/config");
        let mut file = std::fs::OpenOptions::new().append(true).open(config).unwrap();
        std::io::Write::write_all(&mut file, b"[maintenance]\n\tauto = false\n").unwrap();
        let mut entries = Vec::new();
        let mut pending = vec![PathBuf::from(".git")];
        while let Some(rel) = pending.pop() {
            let meta = std::fs::symlink_metadata(repo.path.join(&rel)).unwrap();
            let mode = meta.permissions().mode() & 0o7777;
            if meta.is_dir() {
                let mut names: Vec<_> = std::fs::read_dir(repo.path.join(&rel))
                    .unwrap()
                    .map(|e| rel.join(e.unwrap().file_name()))
                    .collect();
                names.sort();
                pending.extend(names.into_iter().rev());
                entries.push(Entry { rel, content: None, mode });
            } else {
                assert!(meta.is_file(), "git init made {rel:?}, neither file nor directory");
                let content = Some(std::fs::read(repo.path.join(&rel)).unwrap());
                entries.push(Entry { rel, content, mode });
            }
        }
        entries
    })
}

impl Repo {
    /// An existing directory as a repository of this environment.
    pub fn at(&self, path: impl Into<PathBuf>) -> Repo {
        Repo { path: path.into(), home: self.home.clone() }
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    /// A `git` command in the repository with the hermetic environment.
    pub fn git_cmd<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new("git");
        hermetic(&mut cmd, &self.home);
        cmd.current_dir(&self.path).args(args);
        cmd
    }

    /// Runs git, asserts success, returns stdout.
    pub fn git<I, S>(&self, args: I) -> Vec<u8>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = self.git_cmd(args);
        let out = cmd.output().expect("running git");
        assert!(out.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    }

    /// Runs git and returns stdout as text without the final newline.
    pub fn git_text<I, S>(&self, args: I) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let out = self.git(args);
        String::from_utf8(out).unwrap().trim_end_matches('\n').to_string()
    }

    /// The built `git-handoff` binary, run in the repository.
    pub fn handoff(&self) -> Command {
        let mut cmd = Command::cargo_bin("git-handoff").expect("binary built");
        hermetic(&mut cmd, &self.home);
        cmd.current_dir(&self.path);
        cmd
    }

    /// `git handoff ...` through git's own dispatch, with the binary's directory first on PATH.
    pub fn git_handoff(&self) -> Command {
        let mut cmd = Command::new("git");
        hermetic(&mut cmd, &self.home);
        cmd.env("PATH", path_with_binary()).current_dir(&self.path).arg("handoff");
        cmd
    }

    /// `sh -c COMMAND` in the repository, with the binary's directory first on PATH: a command
    /// line run exactly as a person or an agent would type it.
    pub fn shell(&self, command: &str) -> Output {
        let mut sh = Command::new("sh");
        hermetic(&mut sh, &self.home);
        sh.current_dir(&self.path).env("PATH", path_with_binary()).arg("-c").arg(command);
        sh.output().expect("running sh")
    }

    pub fn write(&self, rel: impl AsRef<Path>, content: impl AsRef<[u8]>) {
        let path = self.path.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub fn read(&self, rel: impl AsRef<Path>) -> Vec<u8> {
        std::fs::read(self.path.join(rel)).unwrap()
    }

    pub fn chmod(&self, rel: impl AsRef<Path>, mode: u32) {
        let path = self.path.join(rel);
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    pub fn symlink(&self, target: &str, rel: impl AsRef<Path>) {
        let path = self.path.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, path).unwrap();
    }

    /// `git add -A && git commit -m msg`; returns the new HEAD.
    pub fn commit_all(&self, msg: &str) -> String {
        self.git(["add", "-A"]);
        self.git(["commit", "-q", "--allow-empty", "-m", msg]);
        self.head()
    }

    /// Writes a tree object of exactly these entries (mode, name, object id in hex), in this
    /// order and with these modes, as no git command would write one (`hash-object --literally`,
    /// which checks nothing): the corrupt or legacy trees that other tools and older gits left.
    /// Returns its id.
    pub fn raw_tree(&self, entries: &[(&str, &str, &str)]) -> String {
        use std::io::Write;
        let mut raw = Vec::new();
        for (mode, name, hex) in entries {
            raw.extend_from_slice(format!("{mode} {name}\0").as_bytes());
            raw.extend(
                (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()),
            );
        }
        let mut child = self
            .git_cmd(["hash-object", "-t", "tree", "--literally", "-w", "--stdin"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&raw).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "git hash-object --literally failed");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    /// `git rev-parse HEAD`. A HEAD that names a loose ref (what git's commits here leave) is
    /// read from its files, as git reads it; any other (a linked worktree, a packed or missing
    /// ref) is asked of git.
    pub fn head(&self) -> String {
        let git = self.path.join(".git");
        let read = |rel: &str| std::fs::read_to_string(git.join(rel)).ok();
        let loose = read("HEAD")
            .and_then(|head| Some(head.strip_prefix("ref: ")?.trim_end().to_string()))
            .filter(|name| name.starts_with("refs/heads/") && !name.contains(".."))
            .and_then(|name| read(&name))
            .map(|id| id.trim_end().to_string())
            .filter(|id| id.len() == 40 && id.bytes().all(|b| b.is_ascii_hexdigit()));
        loose.unwrap_or_else(|| self.git_text(["rev-parse", "HEAD"]))
    }
}

/// PATH with the directory of the built binary first.
pub fn path_with_binary() -> std::ffi::OsString {
    let bin = assert_cmd::cargo::cargo_bin("git-handoff");
    let dir = bin.parent().unwrap().to_path_buf();
    let mut paths = vec![dir];
    paths.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    std::env::join_paths(paths).unwrap()
}

/// The attempt start most tests give `start --started-at`.
pub const STARTED: &str = "2026-11-30T03:48:52Z";

/// A repository `name` with one commit (README.md) and attempt `issue` started at [`STARTED`].
pub fn started(env: &Env, name: &str, issue: u64) -> Repo {
    let repo = env.repo(name);
    repo.write("README.md", "hi\n");
    repo.commit_all("init");
    let issue = issue.to_string();
    stdout_ok(
        repo.handoff()
            .args(["start", "--issue", &issue, "--started-at", STARTED])
            .output()
            .unwrap(),
    );
    repo
}

/// Stderr of a finished command as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Stdout of a finished command as text; panics with stderr when it failed unexpectedly.
pub fn stdout_ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// A tiny deterministic generator (xorshift64*), so random trees repeat from their seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Names that exercise git's quoting and our handling: spaces, unicode, quotes, tabs, newlines.
pub const AWKWARD_NAMES: &[&str] = &[
    "plain.txt",
    "with space.txt",
    "ünïcødé.md",
    "日本語.txt",
    "quote\"d.txt",
    "tab\there.txt",
    "new\nline.txt",
    "back\\slash.txt",
    "-dash.txt",
    "emoji-🚀.rs",
    "a b/c d.txt",
    "deep/er/nest.rs",
    "x.bin",
];

/// Builds a committed tree, then dirties it at random: staged and unstaged edits, deletions, mode
/// changes, symlinks, binary files, untracked files and directories, ignored files, staged renames.
/// Returns nothing; the repository's state is the result.
pub fn random_dirty_tree(repo: &Repo, seed: u64) {
    let mut rng = Rng::new(seed);
    repo.write(".gitignore", "*.log\nignored-dir/\n");
    let mut files: Vec<String> = Vec::new();
    let count = 5 + rng.below(20);
    for i in 0..count {
        let base = rng.pick(AWKWARD_NAMES).to_string();
        let dir = match rng.below(4) {
            0 => String::new(),
            1 => "src/".to_string(),
            2 => format!("d{}/", rng.below(3)),
            _ => "n e s t/ü/".to_string(),
        };
        let name = format!("{dir}{i}-{base}");
        repo.write(&name, content(&mut rng, &name));
        if rng.chance(15) {
            repo.chmod(&name, 0o755);
        }
        files.push(name);
    }
    if rng.chance(50) {
        repo.symlink("0-target", "link-to-target");
        files.push("link-to-target".into());
    }
    repo.commit_all("initial");

    for name in files.clone() {
        let path = repo.path.join(&name);
        match rng.below(12) {
            0 => std::fs::remove_file(&path).unwrap(),
            1 => {
                repo.write(&name, content(&mut rng, &name));
            }
            2 => {
                repo.write(&name, content(&mut rng, &name));
                repo.git(["add", "--", name.as_str()]);
            }
            3 => {
                repo.write(&name, content(&mut rng, &name));
                repo.git(["add", "--", name.as_str()]);
                repo.write(&name, content(&mut rng, &name));
            }
            4 if !path.is_symlink() => {
                let mode = std::fs::metadata(&path).unwrap().permissions().mode();
                repo.chmod(&name, if mode & 0o100 != 0 { 0o644 } else { 0o755 });
            }
            5 => {
                let to = format!("renamed-{}", rng.below(1000));
                repo.git(["mv", "--", name.as_str(), to.as_str()]);
            }
            6 => {
                repo.git(["rm", "-q", "--cached", "--", name.as_str()]);
            }
            7 if !path.is_symlink() => {
                std::fs::remove_file(&path).unwrap();
                std::os::unix::fs::symlink("elsewhere", &path).unwrap();
            }
            _ => {}
        }
    }
    for i in 0..rng.below(6) {
        let name = format!(
            "{}new-{i}-{}",
            rng.pick(&["", "newdir/", "src/", "u n/"]),
            rng.pick(AWKWARD_NAMES)
        );
        repo.write(&name, content(&mut rng, &name));
        if rng.chance(20) {
            repo.git(["add", "--", name.as_str()]);
        }
    }
    if rng.chance(50) {
        repo.write("debug.log", "ignored\n");
        repo.write("ignored-dir/x.txt", "ignored\n");
    }
}

/// File content: text of some lines, or binary bytes for `.bin` names.
pub fn content(rng: &mut Rng, name: &str) -> Vec<u8> {
    if name.ends_with(".bin") {
        return (0..rng.below(300) + 1).map(|_| rng.next() as u8).collect();
    }
    let mut text = String::new();
    for i in 0..rng.below(30) {
        text.push_str(&format!("line {i} {}\n", rng.next() % 1000));
    }
    text.into_bytes()
}
