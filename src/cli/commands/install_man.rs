//! `git handoff install-man`: put the man pages where `git handoff --help` finds them.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::cli::context::Ctx;
use crate::cli::docs;
use crate::cli::output;

/// Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them.
///
/// The default directory is `share/man/man1` beside the directory of this binary (for
/// `cargo install`, `~/.cargo/share/man/man1`), which man finds through PATH without setup.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the pages [default: <binary dir>/../share/man/man1].
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report {
    dir: String,
    pages: Vec<String>,
}

/// `cli` is the command line's clap tree, handed in by the dispatch.
pub fn run(ctx: &Ctx, args: Args, cli: clap::Command, out: &mut impl Write) -> Result<()> {
    let dir = match args.dir {
        Some(dir) => dir,
        None => default_dir()?,
    };
    std::fs::create_dir_all(&dir).with_context(|| {
        format!("creating {}; pass a directory you can write to", dir.display())
    })?;
    let mut pages = Vec::new();
    for (name, bytes) in docs::man_pages(cli) {
        let path = dir.join(&name);
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        pages.push(name);
    }
    let report = Report { dir: dir.display().to_string(), pages };
    if ctx.json {
        return Ok(output::write_json(out, &report)?);
    }
    writeln!(out, "Installed {} man pages in {}", report.pages.len(), report.dir)?;
    writeln!(
        out,
        "{}",
        output::dim(
            "`git handoff --help` now opens them (if that directory is not on man's path, add its parent to MANPATH)."
        )
    )?;
    Ok(())
}

fn default_dir() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("finding this binary; pass DIR")?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    let bin = exe.parent().context("this binary has no directory; pass DIR")?;
    let prefix = bin.parent().context("this binary's directory has no parent; pass DIR")?;
    Ok(prefix.join("share/man/man1"))
}
