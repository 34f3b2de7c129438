//! The in-process range walk against `git rev-list` itself, on random histories: branches and
//! merges, committer dates with clock skew, note files added, changed and deleted, objects loose
//! and packed (as git's repack and as fast-import store them), and a shallow clone.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::process::Stdio;

use common::{Env, Repo, Rng};
use gix::ObjectId;

const NOTE_DIR: &str = ".agent/handoff";

/// Writes a random history of `count` commits with `git fast-import`; commit `i` is
/// `refs/heads/c<i>`. Returns the commit ids in creation order.
fn random_history(repo: &Repo, seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut script = Vec::new();
    for i in 1..=count {
        // Mostly a steady clock, sometimes a committer whose clock is off by up to an hour.
        let skew = if rng.chance(12) { rng.below(7200) as i64 - 3600 } else { 0 };
        let date = 1_764_471_600 + 60 * i as i64 + skew;
        let message = match rng.below(10) {
            0 => format!("Handoff note: issue #{}\n", 1 + rng.below(3)),
            1 => format!("Seal leftover work\n\nHandoff-Seal: {date}\n"),
            _ => format!("work {i}\n"),
        };
        writeln!(script, "commit refs/heads/c{i}\nmark :{i}").unwrap();
        writeln!(script, "committer C <c@example.com> {date} +0000").unwrap();
        write!(script, "data {}\n{message}", message.len()).unwrap();
        if i == 1 && seed.is_multiple_of(2) {
            // Files sorting before `.agent`: the note directory's entry then sits past what a
            // lookup in a loose tree inflates first.
            for pad in 0..20 {
                writeln!(script, "M 100644 inline -pad-{pad:02}.txt\ndata 0").unwrap();
            }
        }
        if i > 1 {
            // Mostly on top of a recent commit; now and then a merge of two lines of history.
            let first = i - 1 - rng.below((i - 1).min(6));
            writeln!(script, "from :{first}").unwrap();
            if i > 3 && rng.chance(15) {
                let second = 1 + rng.below(i - 1);
                if second != first {
                    writeln!(script, "merge :{second}").unwrap();
                }
            }
        }
        match rng.below(8) {
            0 | 1 => {
                let note = format!("{NOTE_DIR}/{}.md", 1 + rng.below(3));
                let body = format!("note {i}\n");
                write!(script, "M 100644 inline {note}\ndata {}\n{body}", body.len()).unwrap();
            }
            2 => writeln!(script, "D {NOTE_DIR}/{}.md", 1 + rng.below(3)).unwrap(),
            3 => writeln!(script, "M 100755 inline {NOTE_DIR}/x.sh\ndata 0").unwrap(),
            _ => {}
        }
        let body = format!("line {i}\n");
        write!(script, "M 100644 inline f{}.txt\ndata {}\n{body}\n", rng.below(5), body.len())
            .unwrap();
    }
    let mut child = repo
        .git_cmd(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("git fast-import");
    child.stdin.take().unwrap().write_all(&script).unwrap();
    assert!(child.wait().unwrap().success(), "fast-import failed");
    let mut rev_parse = vec!["rev-parse".to_string()];
    rev_parse.extend((1..=count).map(|i| format!("c{i}")));
    repo.git_text(&rev_parse).lines().map(str::to_string).collect()
}

/// The raw text of each commit in `ids`, from one `git cat-file --batch`.
fn commit_texts(repo: &Repo, ids: &[String]) -> HashMap<String, Vec<u8>> {
    if ids.is_empty() {
        return HashMap::new();
    }
    let mut child = repo
        .git_cmd(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("git cat-file --batch");
    let mut stdin = child.stdin.take().unwrap();
    let input = ids.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "cat-file --batch failed");
    let mut texts = HashMap::new();
    let mut rest = &out.stdout[..];
    for id in ids {
        let header_end = rest.iter().position(|&b| b == b'\n').unwrap();
        let header = std::str::from_utf8(&rest[..header_end]).unwrap();
        let size: usize = header.rsplit(' ').next().unwrap().parse().unwrap();
        assert!(header.starts_with(&format!("{id} commit ")), "{header}");
        let body = &rest[header_end + 1..header_end + 1 + size];
        texts.insert(id.clone(), body.to_vec());
        rest = &rest[header_end + 1 + size + 1..];
    }
    texts
}

fn oid(hex: &str) -> ObjectId {
    ObjectId::from_hex(hex.trim().as_bytes()).unwrap()
}

fn open(repo: &Repo) -> gix::Repository {
    gix::open_opts(&repo.path, gix::open::Options::isolated()).expect("open the test repository")
}

fn ids(text: &str) -> BTreeSet<String> {
    text.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect()
}

/// Compares the walk with git on `ranges` of `repo`.
fn compare(repo: &Repo, ranges: &[(Vec<String>, Vec<String>)]) {
    let gix = open(repo);
    for (include, exclude) in ranges {
        let mut args: Vec<String> = include.clone();
        args.push("--not".into());
        args.extend(exclude.iter().cloned());
        let what = format!("rev-list {}", args.join(" "));
        let listed = git_handoff::api::range(
            &gix,
            &include.iter().map(|h| oid(h)).collect::<Vec<_>>(),
            &exclude.iter().map(|h| oid(h)).collect::<Vec<_>>(),
            NOTE_DIR,
        )
        .unwrap_or_else(|err| panic!("{what}: {err:#}"));

        // The commits, their parents, and parents before children (`rev-list --parents` lists
        // each commit first on its line).
        let mut parents_args = vec!["rev-list".to_string(), "--parents".to_string()];
        parents_args.extend(args.iter().cloned());
        let parents: HashMap<String, Vec<String>> = repo
            .git_text(&parents_args)
            .lines()
            .map(|l| {
                let mut words = l.split(' ').map(str::to_string);
                (words.next().unwrap(), words.collect())
            })
            .collect();
        let expected: BTreeSet<String> = parents.keys().cloned().collect();
        let got: BTreeSet<String> = listed.iter().map(|c| c.id.to_string()).collect();
        assert_eq!(got, expected, "{what}: the commits differ");
        assert_eq!(got.len(), listed.len(), "{what}: a commit is listed twice");
        let mut at = HashMap::new();
        for (n, commit) in listed.iter().enumerate() {
            let id = commit.id.to_string();
            let own: Vec<String> = commit.parents.iter().map(ObjectId::to_string).collect();
            assert_eq!(own, parents[&id], "{what}: the parents of {id} differ");
            for parent in &own {
                if let Some(&p) = at.get(parent) {
                    assert!(p < n, "{what}: {parent} is listed after its child {id}");
                }
            }
            at.insert(id, n);
        }

        // Which commits change the note directory, as git's path-limited walk says when it looks
        // at every commit (without --full-history git skips side branches a merge left out).
        let mut touching_args =
            vec!["rev-list".to_string(), "--no-merges".to_string(), "--full-history".to_string()];
        touching_args.extend(args.iter().cloned());
        touching_args.extend(["--".to_string(), NOTE_DIR.to_string()]);
        let expected = ids(&repo.git_text(&touching_args));
        let got: BTreeSet<String> =
            listed.iter().filter(|c| c.touches == Some(true)).map(|c| c.id.to_string()).collect();
        assert_eq!(got, expected, "{what}: the commits touching {NOTE_DIR} differ");
        for commit in &listed {
            assert_eq!(commit.touches.is_none(), commit.parents.len() > 1, "{what}: merges");
        }

        // Messages as git has them.
        let first: Vec<String> = listed.iter().take(5).map(|c| c.id.to_string()).collect();
        let texts = commit_texts(repo, &first);
        for commit in listed.iter().take(5) {
            let id = commit.id.to_string();
            let raw = &texts[&id];
            let body = raw.windows(2).position(|w| w == b"\n\n").map(|p| &raw[p + 2..]).unwrap();
            assert_eq!(commit.message, body, "{what}: the message of {id}");
        }
    }
}

fn random_ranges(
    rng: &mut Rng,
    commits: &[String],
    count: usize,
) -> Vec<(Vec<String>, Vec<String>)> {
    (0..count)
        .map(|_| {
            let include = (0..1 + rng.below(2)).map(|_| rng.pick(commits).clone()).collect();
            let exclude = (0..rng.below(4)).map(|_| rng.pick(commits).clone()).collect();
            (include, exclude)
        })
        .collect()
}

#[test]
fn the_walk_lists_what_git_rev_list_lists() {
    let env = Env::new();
    for seed in 1..=3 {
        let repo = env.repo(&format!("history-{seed}"));
        let commits = random_history(&repo, seed, 150);
        let mut rng = Rng::new(seed + 100);
        let ranges = random_ranges(&mut rng, &commits, 40);

        // As fast-import packed it (each tree a delta against the one before).
        compare(&repo, &ranges);

        // Loose, as commits are before git packs them (unpack-objects skips what the repository
        // already has, so the packs go first).
        let pack_dir = repo.path.join(".git/objects/pack");
        let packs: Vec<_> =
            std::fs::read_dir(&pack_dir).unwrap().map(|e| e.unwrap().path()).collect();
        let mut data = Vec::new();
        for pack in &packs {
            if pack.extension().is_some_and(|e| e == "pack") {
                data.push(std::fs::read(pack).unwrap());
            }
            std::fs::remove_file(pack).unwrap();
        }
        for bytes in data {
            let mut child =
                repo.git_cmd(["unpack-objects", "-q"]).stdin(Stdio::piped()).spawn().unwrap();
            child.stdin.take().unwrap().write_all(&bytes).unwrap();
            assert!(child.wait().unwrap().success());
        }
        compare(&repo, &ranges);

        // Repacked by git, newest objects whole and older ones deltas against them.
        repo.git(["repack", "-adf", "-q"]);
        compare(&repo, &ranges);
    }
}

#[test]
fn the_walk_stops_where_a_shallow_clone_does() {
    let env = Env::new();
    let origin = env.repo("origin");
    let commits = random_history(&origin, 7, 80);
    origin.git(["branch", "-f", "main", commits.last().unwrap()]);
    let clone_path = env.root.path().join("shallow");
    let url = format!("file://{}", origin.path.display());
    let clone = origin.at(&clone_path);
    let mut cmd = origin.git_cmd(["clone", "-q", "--depth", "12", "--branch", "main"]);
    cmd.arg(&url).arg(&clone_path);
    assert!(cmd.status().unwrap().success(), "git clone --depth");
    let head = clone.git_text(["rev-parse", "HEAD"]);
    let mut ranges = vec![(vec![head.clone()], vec![])];
    let listed = ids(&clone.git_text(["rev-list", &head]));
    let some = listed.iter().nth(listed.len() / 2).unwrap().clone();
    ranges.push((vec![head], vec![some]));
    compare(&clone, &ranges);
}
