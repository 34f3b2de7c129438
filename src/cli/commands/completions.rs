//! `git handoff completions <SHELL>`: the completion script on stdout, for users who installed
//! with `cargo install` and have no `completions/` folder (as `gh completion` and
//! `git lfs completion` do).

use std::io::Write;

use anyhow::Result;
use clap_complete::Shell;

use crate::cli::context::Ctx;
use crate::cli::docs::completions;

/// Print the shell completion script for SHELL on stdout.
///
/// Install it where the shell looks (one line each):
///
///   bash        git handoff completions bash > ~/.local/share/bash-completion/completions/git-handoff
///               (serves `git-handoff <TAB>` and, through git's own completion, `git handoff <TAB>`)
///   zsh         git handoff completions zsh > "${fpath[1]}/_git-handoff"
///   fish        git handoff completions fish > ~/.config/fish/conf.d/git-handoff.fish
///               (conf.d, not completions/, so that `git handoff <TAB>` completes too)
///   elvish      git handoff completions elvish >> ~/.config/elvish/rc.elv
///   powershell  git handoff completions powershell >> $PROFILE
///
/// Then open a new shell. REV and --base complete refs, --color, --agent and --reason their
/// values. --json prints {"shell": ..., "script": ...}.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

#[derive(serde::Serialize)]
struct Report {
    shell: String,
    script: String,
}

/// `cli` is the command line's clap tree, handed in by the dispatch.
pub fn run(ctx: &Ctx, args: Args, cli: clap::Command, out: &mut impl Write) -> Result<()> {
    let script = completions::script(cli, args.shell);
    if ctx.json {
        let script = String::from_utf8_lossy(&script).into_owned();
        let report = Report { shell: args.shell.to_string(), script };
        return Ok(crate::cli::output::write_json(out, &report)?);
    }
    out.write_all(&script)?;
    Ok(())
}
