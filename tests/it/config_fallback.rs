//! A committed `.handoff.toml` that git-handoff cannot take whole (an unknown key, a look-around
//! regex, a table given as a number, bytes that are not UTF-8) never turns off the hard-limit
//! path: `start`, every `record`, `seal`, `note --emergency` and `recall --hook` go on with the
//! defaults for what they cannot read and say so with the file:line, on stderr and in the
//! emergency note; `validate` and `hooks status` report it.

use crate::common;

use common::payloads::{bash_ok, record};
use common::{Env, Repo, STARTED, stderr, stdout_ok};

/// The bad configurations, each with the line its first problem is on.
const BAD: [(&[u8], usize); 5] = [
    (b"note_dir = \".agent/handoff\"\nunknown_key = 1\n", 2),
    (b"[secrets]\npatterns = [\"CORP_[0-9]{4}\", \"(?=look)ahead\"]\n", 2),
    (b"caps = 5\n", 1),
    (b"note_dir = \".agent/\xff\xfe\"\n", 1),
    (b"note_dir = \".agent/$(touch planted)\"\n", 1),
];

fn committed_with(env: &Env, config: &[u8]) -> Repo {
    let repo = env.repo("r");
    repo.write("README.md", "hi\n");
    repo.write(".handoff.toml", config);
    repo.commit_all("init with a bad config");
    repo
}

#[test]
fn a_bad_committed_config_never_stops_the_hard_limit_path() {
    for (config, line) in BAD {
        let env = Env::new();
        let repo = committed_with(&env, config);
        let at = format!(".handoff.toml:{line}: ");
        let said = |out: &std::process::Output, what: &str| {
            let err = stderr(out);
            assert_eq!(out.status.code(), Some(0), "{what}: {err}");
            assert!(err.contains(&at), "{what} names the line: {err}");
        };
        let start = ["start", "--issue", "9", "--started-at", STARTED];
        said(&repo.handoff().args(start).output().unwrap(), "start");
        // Every record is taken: the event log holds the call.
        record(&repo, &bash_ok(&repo, "cargo test"));
        let events = std::fs::read_to_string(repo.path.join(".git/handoff/events.jsonl")).unwrap();
        assert!(events.contains("cargo test"), "{events}");
        // The work is sealed, the emergency note written with the problem in it.
        repo.write("src/work.rs", "fn work() {}\n");
        said(&repo.handoff().args(["seal"]).output().unwrap(), "seal");
        assert_eq!(repo.git_text(["status", "--porcelain"]), "");
        let note = ["note", "--emergency", "--reason", "token_hard_limit"];
        said(&repo.handoff().args(note).output().unwrap(), "note --emergency");
        let text = repo.git_text(["show", "HEAD:.agent/handoff/9.md"]);
        let line = text.lines().find(|l| l.starts_with("Configuration: ")).unwrap_or_default();
        assert!(line.contains(&at), "{text}");
        // The next session's recall is not stopped either.
        let out = repo.handoff().args(["recall"]).output().unwrap();
        said(&out, "recall");
        // The checks report it: validate refuses, hooks status shows it.
        let out = repo.handoff().args(["validate"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "validate: {}", stderr(&out));
        assert!(stderr(&out).contains(&at), "{}", stderr(&out));
        let status = stdout_ok(repo.handoff().args(["hooks", "status"]).output().unwrap());
        let first = status.lines().next().unwrap();
        assert!(first.starts_with("config") && first.contains(&at), "{status}");
        assert!(!repo.path.join("planted").exists());
    }
}

/// What can be read is kept: a good secret pattern beside a bad one still keeps a secret out of
/// the seal.
#[test]
fn the_readable_part_of_a_bad_config_is_kept() {
    let env = Env::new();
    let repo = committed_with(&env, BAD[1].0);
    stdout_ok(repo.handoff().args(["start", "--issue", "9"]).output().unwrap());
    repo.write("src/token.txt", "key = CORP_1234\n");
    repo.write("src/ok.txt", "fine\n");
    let out = repo.handoff().args(["seal"]).output().unwrap();
    let err = stderr(&out);
    assert!(err.contains("`secrets.patterns[1]`"), "{err}");
    let sealed = repo.git_text(["show", "--name-only", "--format="]);
    assert_eq!(sealed.trim_end(), "src/ok.txt", "{err}");
}
