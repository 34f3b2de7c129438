//! Running the narrowed diff (see [`narrowed_diff`](super::narrowed_diff)): its parts, each a
//! git on a private index and a tree of the base's, side by side; their lines laid out as git lays
//! out the whole; and status's tracked letters from the first part's raw records (see
//! [`narrowed_status`]).

use std::path::PathBuf;

use anyhow::Result;
use tempfile::{NamedTempFile, TempDir};

use super::git_read::{join, run_git};
use super::{narrowed_status, stat_cache, stat_render, worktree_cache};
use crate::git::{Git, pack_write};

/// One part of the narrowed diff: a private index and the base's tree at the same paths.
pub(super) struct Part {
    pub index: NamedTempFile,
    pub tree: String,
}

/// The private index and the base's tree that narrow the diff (or two of each, for its two
/// parts), kept until git has run.
pub(super) struct Narrowed {
    /// The first part's private index, which holds every entry the walk doubted.
    pub first: NamedTempFile,
    /// A copy of it for status's git where that runs beside the first part's diff.
    pub status_index: Option<NamedTempFile>,
    /// How the first part is diffed: against the base's tree at its paths, or in two pieces.
    pub first_diff: FirstDiff,
    pub second: Option<Second>,
    pub objects: TempDir,
    pub base: String,
    pub width: i64,
    /// Where status's tracked letters come from the first part's raw records: the paths HEAD
    /// changed since the base, sorted (see [`narrowed_status::from_raw`]).
    pub letters: Option<Vec<Vec<u8>>>,
    /// The first part's lines kept by an earlier snapshot, where git diffs only the other paths
    /// (see [`worktree_cache`]).
    pub cache: Option<worktree_cache::Plan>,
}

/// What one git of the narrowed diff printed.
type Ran = Result<Vec<u8>>;

/// Status's tracked letters and paths, from the narrowed diff's raw records.
pub(super) type Letters = Vec<(u8, Vec<u8>)>;

/// How the first part of the narrowed diff runs: one git, on the first part's index against this
/// tree of the base's, or two side by side, each on a piece of it (from `PIECES_FROM` entries, see
/// [`narrowed_diff`](super::narrowed_diff)); where some of its lines are kept, one git on the rest
/// (`Part`), or none.
pub(super) enum FirstDiff {
    Whole(String),
    Pieces(Box<[Part; 2]>),
    Part(Box<Part>),
    Nothing,
}

/// The narrowed diff's second part: to run (its lines then kept in the git dir under the key), or
/// its lines as kept by an earlier snapshot (see [`stat_cache`]).
pub(super) enum Second {
    Run { part: Part, keep: Option<(PathBuf, String)> },
    Kept(Vec<u8>),
}

impl Narrowed {
    /// `git` reading the private `index` and the object directory of the new trees.
    fn git(&self, git: &Git, index: &NamedTempFile) -> Git {
        // No monitor: the few entries are stat'ed by git, and a configured hook would cost a
        // process for nothing. `git diff` may write the index it refreshed back, here the private
        // one: never as a split index, whose shared part would be left in the git dir.
        git.clone()
            .with_env("GIT_INDEX_FILE", index.path())
            .with_env(
                "GIT_ALTERNATE_OBJECT_DIRECTORIES",
                pack_write::alternates_with(self.objects.path()),
            )
            .with_config("core.fsmonitor=false")
            .with_config("core.preloadIndex=false")
            .with_config("core.splitIndex=false")
    }

    /// `git` reading the first part's private index, which holds every entry the walk doubted
    /// (see [`narrowed_status`](super::narrowed_status)).
    pub(super) fn first_git(&self, git: &Git) -> Git {
        self.git(git, self.status_index.as_ref().unwrap_or(&self.first))
    }

    /// The outputs of the first part, or of its pieces diffed side by side (with raw records
    /// when status's letters are to come from them), and of `second` when it runs, beside them.
    fn numstats(&self, git: &Git, second: Option<&Part>) -> (Vec<Ran>, Option<Ran>) {
        let part = |index: &NamedTempFile, tree: &str, raw: bool| {
            let raw = raw.then_some("--raw");
            let rest = ["--numstat", "-z", "--stat=1000000,1000000", tree, "--"];
            let args = std::iter::once("diff").chain(raw).chain(rest).map(String::from);
            run_git(&self.git(git, index), &args.collect::<Vec<_>>())
        };
        let raw = self.letters.is_some();
        std::thread::scope(|s| {
            let second =
                second.map(|second| s.spawn(move || part(&second.index, &second.tree, false)));
            let first = match &self.first_diff {
                FirstDiff::Whole(tree) => vec![part(&self.first, tree, raw)],
                FirstDiff::Part(own) => vec![part(&own.index, &own.tree, raw)],
                FirstDiff::Nothing => Vec::new(),
                FirstDiff::Pieces(pieces) => {
                    let [a, b] = &**pieces;
                    let a = s.spawn(move || part(&a.index, &a.tree, raw));
                    let b = part(&b.index, &b.tree, raw);
                    vec![join(a), b]
                }
            };
            (first, second.map(join))
        })
    }

    /// The raw records at the start of a first part's output, read for status's letters (into
    /// `letters`, `None` once one cannot be), and the rest; all of it when none were asked for.
    fn take_raw<'o>(&self, out: &'o [u8], letters: &mut Option<Letters>) -> Option<&'o [u8]> {
        let Some(changed) = &self.letters else { return Some(out) };
        let Some((raw, rest)) = narrowed_status::split_raw(out) else {
            *letters = None;
            return None;
        };
        match (narrowed_status::from_raw(&raw, changed), letters.as_mut()) {
            (Some(got), Some(letters)) => {
                letters.extend(got.into_iter().map(|(letter, path)| (letter, path.to_vec())));
            }
            _ => *letters = None,
        }
        Some(rest)
    }

    /// Whether status's tracked letters come with the diff (see [`Narrowed::run`]).
    pub(super) fn gives_letters(&self) -> bool {
        self.letters.is_some()
    }

    /// `git diff --stat` (`diff_args`) narrowed: one git with the base's tree in place of the base;
    /// in parts, a git for each at once (the second's lines perhaps kept), their lines laid out as
    /// git lays out the whole (see [`stat_render`]). The stat is `None` when the parts' lines are
    /// not what the layout knows: the caller runs the diff whole. With it, where
    /// [`Narrowed::gives_letters`], status's tracked letters from the first part's raw records
    /// (`None` where they could not be read: the caller asks git).
    pub(super) fn run(
        &self,
        git: &Git,
        diff_args: &[String],
    ) -> Result<(Option<Vec<u8>>, Option<Letters>)> {
        let mut letters = self.letters.as_ref().map(|_| Vec::new());
        if let (None, FirstDiff::Whole(tree)) = (&self.second, &self.first_diff) {
            let swap = |arg: &String| if *arg == self.base { tree.clone() } else { arg.clone() };
            let mut args: Vec<String> = diff_args.iter().map(swap).collect();
            if self.letters.is_some() && args.first().is_some_and(|a| a == "diff") {
                // The raw records come first; `-z` leaves the stat after them as it is.
                args.splice(1..1, ["--raw".to_string(), "-z".to_string()]);
            } else {
                letters = None;
            }
            let out = run_git(&self.git(git, &self.first), &args)?;
            let stat = self.take_raw(&out, &mut letters).map(<[u8]>::to_vec);
            return Ok((stat, letters));
        }
        let (to_run, keep) = match &self.second {
            Some(Second::Run { part, keep }) => (Some(part), keep.as_ref()),
            _ => (None, None),
        };
        let (first, ran) = self.numstats(git, to_run);
        let second = match (ran, &self.second) {
            (Some(ran), _) => {
                let ran = ran?;
                let parsed = stat_render::parse(&ran);
                if let (Some(_), Some((git_dir, key))) = (&parsed, keep) {
                    stat_cache::write(git_dir, key, &ran);
                }
                parsed
            }
            (None, Some(Second::Kept(lines))) => stat_render::parse(lines),
            (None, _) => Some(Vec::new()),
        };
        let first = first.into_iter().collect::<Result<Vec<_>>>()?;
        let mut merged = second;
        for out in &first {
            let parsed = self.take_raw(out, &mut letters).and_then(stat_render::parse);
            merged = merged.zip(parsed).and_then(|(a, b)| stat_render::merge(a, b));
        }
        if let Some(cache) = &self.cache {
            merged = merged.and_then(|files| stat_render::merge(files, cache.stats()));
            let changed = self.letters.as_deref().unwrap_or_default();
            match (narrowed_status::from_raw(&cache.raw(), changed), letters.as_mut()) {
                (Some(got), Some(letters)) => {
                    letters.extend(got.into_iter().map(|(letter, path)| (letter, path.to_vec())));
                }
                _ => letters = None,
            }
            if merged.is_some() {
                cache.write(&first.iter().map(Vec::as_slice).collect::<Vec<_>>());
            }
        }
        Ok((merged.map(|files| stat_render::render(&files, self.width)), letters))
    }
}
