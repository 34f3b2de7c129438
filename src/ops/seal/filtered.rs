//! Files behind a clean filter (git-lfs, git-crypt and the like): `git add` runs the filter,
//! which may copy the content into a store of its own (`.git/lfs/objects`) before the scan of what
//! was staged (a pointer) could hold anything back. So where a clean filter is configured, the
//! files it applies to are scanned in the work tree first, and a secret among them is kept out of
//! `git add` altogether: the filter never sees it.

use std::collections::HashSet;
use std::os::unix::ffi::OsStrExt;

use anyhow::Result;

use crate::git::Git;
use crate::git::repo::Repo;

use super::guard::Guard;
use super::request::Skipped;

/// The drivers with a `clean` or `process` command in the repository's config.
fn drivers(repo: &Repo) -> HashSet<Vec<u8>> {
    let config = repo.gix().config_snapshot();
    let mut names = HashSet::new();
    for section in config.plumbing().sections() {
        let header = section.header();
        if !header.name().eq_ignore_ascii_case(b"filter") {
            continue;
        }
        let Some(name) = header.subsection_name() else { continue };
        if section.value("clean").is_some() || section.value("process").is_some() {
            names.insert(name.to_vec());
        }
    }
    names
}

/// The changed and new files (as `git add -A` would stage them) behind a configured clean
/// filter whose work-tree bytes look like a secret, with why; none where no filter is configured.
pub(super) fn secrets_behind_filters(
    repo: &Repo,
    git: &Git,
    guard: &Guard,
) -> Result<Vec<Skipped>> {
    let drivers = drivers(repo);
    if drivers.is_empty() {
        return Ok(Vec::new());
    }
    let top = repo.top()?;
    let git = git.clone().with_env("GIT_LITERAL_PATHSPECS", "1");
    let listed = git.output(["ls-files", "-z", "--modified", "--others", "--exclude-standard"])?;
    let paths: Vec<&[u8]> = listed.split(|&b| b == 0).filter(|p| !p.is_empty()).collect();
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let mut input = paths.join(&0u8);
    input.push(0);
    let mut cmd = git.command(["check-attr", "-z", "--stdin", "filter"]);
    let attrs = crate::git::plumbing::run_with_input(&mut cmd, &input)?;
    let fields: Vec<&[u8]> = attrs.split(|&b| b == 0).collect();
    let mut skipped = Vec::new();
    for triple in fields.chunks_exact(3) {
        let (path, driver) = (triple[0], triple[2]);
        if !drivers.contains(driver) {
            continue;
        }
        let file = top.join(std::ffi::OsStr::from_bytes(path));
        // A regular file only: a link's target is not what git stages, a FIFO is never read.
        let Ok(meta) = file.symlink_metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let Ok(mut opened) = std::fs::File::open(&file) else { continue };
        let driver = String::from_utf8_lossy(driver);
        if let Some(why) = guard.by_content(path, &mut opened)? {
            let why = format!("{why} (in the work tree, before the `{driver}` clean filter)");
            skipped.push(Skipped { path: path.to_vec(), why });
        }
    }
    Ok(skipped)
}
