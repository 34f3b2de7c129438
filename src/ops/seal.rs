//! The seal: one commit on top of HEAD that holds all uncommitted work exactly as `git add -A`
//! would stage it, so an interrupted attempt loses nothing. This is the command that must never
//! lose data, so it is built from git's own plumbing rather than a re-implementation of staging.
//!
//! **Design: git plumbing on a private index, swapped in under the held lock.** We take
//! `index.lock` first (O_CREAT|O_EXCL, as git does), hard-link the index to a private file in the
//! git dir (git only ever replaces index files by rename, so the link is a free private copy that
//! keeps the mtime git's racy-stat check needs), and run `git add -A` on it (`GIT_INDEX_FILE`).
//! Staging is then git's own under every setting that shapes it (`core.fileMode`, `core.autocrlf`
//! and eol attributes, clean filters, symlinks, sparse checkouts, submodules, index extensions and
//! versions), which a port from gix parts would have to chase one key at a time (gix 0.90 has no
//! `add`, and the research notes list where a probe built from its parts fell short). Then the
//! changes against HEAD are listed from the two indexes, and while the secrets guard streams their
//! blobs from `git cat-file`, the tree is built in-process from HEAD's tree and that list and
//! stored as one pack (see [`tree`]; `git write-tree` only where that fails); a path the scan
//! holds back means building it again without that path, whose index entry goes back to what it
//! was; the commit is written in-process as `git commit-tree --no-gpg-sign` writes it, with the
//! author and committer git itself gives (`git var`), or by commit-tree where the bytes could
//! differ (no hooks run, nothing signs); `git update-ref HEAD <new> <old>` moves the branch with a
//! compare-and-swap; and only then is the private index renamed over the index while our lock is
//! still held. Until the ref moves, nothing the user can see has changed: the real index, HEAD
//! and the work tree are never written, and a failure anywhere removes only our own lock and temp
//! files. Objects written along the way stay in the quarantine and go with it.
//!
//! Because `git add -A` refreshes the copy, the index we install carries fresh stat data, so
//! `git status` afterwards is as fast as after `git commit` (the cache tree of the changed
//! directories is missing until git's next commit writes it). Skipped files keep the index entries they had before (intent-to-add included), so the seal
//! never stages a secret even in the index. When git has no identity, the commit is authored by
//! [`FALLBACK_NAME`](crate::git::identity::FALLBACK_NAME) `<`[`FALLBACK_EMAIL`](crate::git::identity::FALLBACK_EMAIL)`>`; the caller's `GIT_AUTHOR_*`/`GIT_COMMITTER_*` and
//! the repository's `user.*` always win.
//!
//! `attempt` is where `git handoff seal` starts (note changes kept out), `commit` the seal itself,
//! `request` what it is asked and what it answers; `stage`, `changes`, `tree`, `lock` and
//! `quarantine` are its git steps, `guard`, `prescan`, `scan` and `utf16` the secrets guard.

mod attempt;
mod changes;
mod commit;
mod filtered;
mod git_config;
mod guard;
mod lock;
mod prescan;
mod quarantine;
mod request;
mod scan;
mod stage;
mod tree;
mod utf16;

pub use attempt::seal_attempt;
pub use request::{Request, Sealed, redact_path};

#[cfg(test)]
mod tests {
    use super::request::{Request, commit_message};
    use super::stage::parse_raw;
    use crate::util::time;

    fn request(message: Option<&str>) -> Request {
        Request {
            issue: 7,
            started_at: time::parse("2026-11-30T03:48:52Z").unwrap(),
            message: message.map(str::to_string),
            allow_secrets: false,
            hold: Vec::new(),
        }
    }

    #[test]
    fn default_message_names_the_issue_and_carries_the_trailer() {
        assert_eq!(
            commit_message(&request(None)).unwrap(),
            "Seal leftover work: issue #7\n\nHandoff-Seal: 2026-11-30T03:48:52Z\n"
        );
    }

    #[test]
    fn custom_message_keeps_the_trailer() {
        assert_eq!(
            commit_message(&request(Some("\n\nWIP: parser\n\nhalf done\n\n"))).unwrap(),
            "WIP: parser\n\nhalf done\n\nHandoff-Seal: 2026-11-30T03:48:52Z\n"
        );
        assert!(commit_message(&request(Some(" \n \n"))).is_err());
    }

    #[test]
    fn raw_diff_records_parse() {
        let raw = b":100644 000000 aaaa 0000 D\0gone.txt\0:000000 100755 0000 bbbb A\0new\tname\0";
        let changes = parse_raw(raw).unwrap();
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].path, b"gone.txt");
        assert_eq!(changes[0].new_mode, 0);
        assert_eq!(changes[1].new_mode, 0o100755);
        assert_eq!(changes[1].path, b"new\tname");
        assert!(parse_raw(b"garbage\0x\0").is_err());
    }
}
