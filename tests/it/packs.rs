//! The pack reader of the pre-push walk against `git cat-file`: every object of a repository, as
//! git's repack stores them (deltas by offset, or by id), with large offsets in the index, as
//! fast-import stores them, and with a damaged pack (an error or a miss, never a panic).

use crate::common;

use std::io::Write;
use std::process::Stdio;

use common::{Env, Repo, Rng};
use gix::ObjectId;

/// A history with what deltas are made of: files growing and shrinking over many commits, one
/// file over 64 KiB (a delta copy of 0x10000 bytes has a size field of 0), binary content, an
/// empty file, an empty root tree, unicode and spaces in names, a symlink, an annotated tag.
fn history(repo: &Repo) {
    let mut rng = Rng::new(5);
    repo.git(["commit", "-q", "--allow-empty", "-m", "empty tree"]);
    let mut big: Vec<u8> = (0..70_000u32).map(|i| b"abcdefghij"[(i % 7) as usize]).collect();
    for i in 0..30 {
        let lines: String = (0..(20 + i * 3)).map(|n| format!("line {n} of {i}\n")).collect();
        repo.write("notes/growing file.txt", lines);
        repo.write(format!("dir {}/naïve-{}.md", i % 3, i % 4), format!("version {i}\n"));
        let at = rng.below(big.len() - 10);
        big[at..at + 10].copy_from_slice(format!("{i:010}").as_bytes());
        repo.write("big.bin", &big);
        let binary: Vec<u8> = (0..300).map(|n| (n * 7 + i) as u8).collect();
        repo.write("blob.dat", binary);
        if i == 3 {
            repo.write("empty", "");
            repo.symlink("notes/growing file.txt", "link");
        }
        repo.commit_all(&format!("commit {i}"));
        if i == 10 {
            repo.git(["tag", "-a", "-m", "a tag", "v1"]);
        }
    }
}

fn all_objects(repo: &Repo) -> Vec<(String, String)> {
    repo.git_text(["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"])
        .lines()
        .map(|l| {
            let (id, kind) = l.split_once(' ').unwrap();
            (id.to_string(), kind.to_string())
        })
        .collect()
}

/// The one pack file of `repo`.
fn pack_file(repo: &Repo) -> std::path::PathBuf {
    std::fs::read_dir(repo.path.join(".git/objects/pack"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "pack"))
        .unwrap()
}

/// Every object of `repo` read by the pack reader equals what `git cat-file` gives: each by a
/// reader of its own, and all by one reader (its cache warm with what came before), in git's
/// order and in reverse, read in place and copied out.
fn compare(repo: &Repo, layout: &str) {
    let gix = gix::open_opts(&repo.path, gix::open::Options::isolated()).unwrap();
    let objects = all_objects(repo);
    assert!(objects.len() > 100, "{layout}: too few objects to say anything");
    let mut input = Vec::new();
    for (id, _) in &objects {
        writeln!(input, "{id}").unwrap();
    }
    let mut child = repo
        .git_cmd(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap().stdout;
    let mut rest = &out[..];
    let mut expected = Vec::new();
    for (id, kind) in &objects {
        let header_end = rest.iter().position(|&b| b == b'\n').unwrap();
        let header = std::str::from_utf8(&rest[..header_end]).unwrap();
        let size: usize = header.rsplit(' ').next().unwrap().parse().unwrap();
        let content = &rest[header_end + 1..header_end + 1 + size];
        rest = &rest[header_end + 2 + size..];
        expected.push((ObjectId::from_hex(id.as_bytes()).unwrap(), kind.as_str(), content));
    }
    let ids: Vec<ObjectId> = expected.iter().map(|(id, ..)| *id).collect();
    let reversed: Vec<ObjectId> = ids.iter().rev().copied().collect();
    let alone = ids.iter().map(|id| {
        git_handoff::api::read_packed(&gix, std::slice::from_ref(id), false).pop().unwrap()
    });
    let read = |ids: &[ObjectId], in_place| git_handoff::api::read_packed(&gix, ids, in_place);
    let ways = [
        ("alone", alone.collect::<Vec<_>>()),
        ("in order, in place", read(&ids, true)),
        ("in order, copied", read(&ids, false)),
        ("in reverse, in place", read(&reversed, true).into_iter().rev().collect()),
        ("in reverse, copied", read(&reversed, false).into_iter().rev().collect()),
    ];
    for (way, got) in ways {
        for ((id, kind, content), got) in expected.iter().zip(got) {
            let (got_kind, got) = got
                .unwrap_or_else(|err| panic!("{layout}, {way}: {id}: {err:#}"))
                .unwrap_or_else(|| panic!("{layout}, {way}: {id} ({kind}) is in no pack"));
            assert_eq!(got_kind.to_string(), *kind, "{layout}, {way}: the type of {id}");
            assert!(got == *content, "{layout}, {way}: {id} ({kind}) differs from git's");
        }
    }
}

#[test]
fn the_pack_reader_reads_every_object_as_git_does() {
    let env = Env::new();
    let repo = env.repo("packs");
    history(&repo);

    // git's own deltas, each base named by its offset.
    repo.git(["repack", "-adfq"]);
    compare(&repo, "repack");

    // Bases named by id (REF_DELTA), as packs from older clients are.
    repo.git(["-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq"]);
    compare(&repo, "repack, bases by id");

    // Every offset past 32 bytes in the index's table of large offsets, as in a pack over 2 GiB.
    let pack = pack_file(&repo);
    let idx = pack.with_extension("idx");
    std::fs::remove_file(&idx).unwrap();
    repo.git([
        "index-pack".as_ref(),
        "--index-version=2,32".as_ref(),
        "-o".as_ref(),
        idx.as_os_str(),
        pack.as_os_str(),
    ]);
    compare(&repo, "large offsets");

    // As fast-import stores a stream (each tree and blob against the one before), then a second
    // pack beside it for the commits made since, as `git repack -d` leaves them.
    let other = env.repo("fast-import");
    let export = repo.git(["fast-export", "--all"]);
    let mut child =
        other.git_cmd(["fast-import", "--quiet"]).stdin(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(&export).unwrap();
    assert!(child.wait().unwrap().success());
    compare(&other, "fast-import");
    other.git(["checkout", "-q", "main"]);
    for i in 0..5 {
        other.write("notes/growing file.txt", format!("rewritten {i}\n"));
        other.commit_all(&format!("later {i}"));
    }
    other.git(["repack", "-dq"]);
    let packs = std::fs::read_dir(other.path.join(".git/objects/pack"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|e| e == "pack"))
        .count();
    assert_eq!(packs, 2, "a second pack beside fast-import's");
    compare(&other, "two packs");
}

#[test]
fn a_damaged_pack_is_an_error_or_a_miss_never_a_panic() {
    let env = Env::new();
    let repo = env.repo("damaged");
    history(&repo);
    repo.git(["repack", "-adfq"]);
    let objects = all_objects(&repo);
    let pack = pack_file(&repo);
    let original = std::fs::read(&pack).unwrap();
    let read_all = |what: &str| {
        let gix = gix::open_opts(&repo.path, gix::open::Options::isolated()).unwrap();
        let ids: Vec<ObjectId> =
            objects.iter().map(|(id, _)| ObjectId::from_hex(id.as_bytes()).unwrap()).collect();
        // Whatever it says (a wrong object, even: the checksum is not checked on each read, as
        // git does not either), it says it without panicking, and goes on reading after an error
        // with whatever the failed read left in its cache.
        for in_place in [false, true] {
            let _ = (what, git_handoff::api::read_packed(&gix, &ids, in_place));
        }
        for id in &ids {
            let _ = git_handoff::api::read_packed(&gix, std::slice::from_ref(id), false);
        }
    };
    let set = |bytes: &[u8]| {
        let mut perms = std::fs::metadata(&pack).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(&pack, perms).unwrap();
        std::fs::write(&pack, bytes).unwrap();
    };

    // Bytes flipped all through the pack's entries (its checksum kept, so the index still takes
    // it for its own): headers, offsets, zlib streams and deltas all go wrong somewhere.
    let mut rng = Rng::new(9);
    for round in 0..6 {
        let mut damaged = original.clone();
        for _ in 0..40 {
            let at = 12 + rng.below(damaged.len() - 12 - 20);
            damaged[at] ^= 1 << rng.below(8);
        }
        set(&damaged);
        read_all(&format!("flipped bytes, round {round}"));
    }
    // Cut short: the pack no longer matches its index, and nothing is read from it.
    set(&original[..original.len() / 2]);
    let gix = gix::open_opts(&repo.path, gix::open::Options::isolated()).unwrap();
    let (id, _) = &objects[0];
    let oid = ObjectId::from_hex(id.as_bytes()).unwrap();
    let read = git_handoff::api::read_packed(&gix, &[oid], true).pop().unwrap();
    assert!(read.unwrap().is_none());
}
