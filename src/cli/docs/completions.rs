//! Shell completions: clap_complete's scripts for `git-handoff`, mended and extended.
//!
//! - bash: clap_complete names the `case` arms of a hyphenated binary `git__subcmd__handoff...`
//!   but sets `cmd` to `git__handoff...` (clap issue 6421), so `git-handoff seal --<TAB>` offered
//!   nothing; the arms are renamed here. REV, `--base` and REMOTE complete refs and remotes, and
//!   `_git_handoff` (in [`super::git_bash`]) serves `git handoff <TAB>` inside git's completion.
//! - every shell: `--reason` offers the spec's reasons (a config file may allow more, which is why
//!   the parser itself does not restrict them).
//! - fish: a wrapper completes `git handoff <TAB>` as `git-handoff <TAB>` (fish's own git
//!   completion looks for `git-git-handoff`).

use clap::builder::PossibleValuesParser;
use clap_complete::Shell;

use crate::model::config::SPEC_REASONS;

use super::arg_kind::{Kind, kind};

/// The command tree `cli` with `--reason` given its usual values, for completion only.
fn completion_command(cli: clap::Command) -> clap::Command {
    let mut cmd = super::installed(cli);
    cmd.build();
    with_reasons(cmd)
}

fn with_reasons(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    let mut cmd = cmd;
    if cmd.get_arguments().any(|a| a.get_id() == "reason") {
        cmd = cmd.mut_arg("reason", |a| a.value_parser(PossibleValuesParser::new(SPEC_REASONS)));
    }
    for name in names {
        cmd = cmd.mut_subcommand(name, with_reasons);
    }
    cmd
}

/// The completion script for one shell, from the command line's clap tree `cli`.
pub fn script(cli: clap::Command, shell: Shell) -> Vec<u8> {
    let mut cmd = completion_command(cli);
    let mut bytes = Vec::new();
    clap_complete::generate(shell, &mut cmd, "git-handoff", &mut bytes);
    let text = String::from_utf8(bytes).expect("clap_complete writes UTF-8");
    let text = match shell {
        Shell::Bash => {
            let mended = mend_bash(&text, &cmd);
            format!("{mended}{}{}", BASH_HELPERS, super::git_bash::git_completion(&cmd))
        }
        Shell::Fish => format!("{text}{FISH_WRAPPER}"),
        _ => text,
    };
    text.into_bytes()
}

/// Every completion script, by the file name it is committed as under `completions/`.
pub fn all(cli: &clap::Command) -> Vec<(String, Vec<u8>)> {
    [
        (Shell::Bash, "git-handoff.bash"),
        (Shell::Zsh, "_git-handoff"),
        (Shell::Fish, "git-handoff.fish"),
        (Shell::Elvish, "git-handoff.elv"),
        (Shell::PowerShell, "_git-handoff.ps1"),
    ]
    .into_iter()
    .map(|(shell, file)| (file.to_string(), script(cli.clone(), shell)))
    .collect()
}

/// Mends clap_complete's bash script: the arm names (clap issue 6421), and refs and remotes for
/// REV, `--base` and REMOTE.
fn mend_bash(text: &str, cmd: &clap::Command) -> String {
    let bin = "git-handoff";
    let mut text = text.replace(&bin.replace('-', "__subcmd__"), &bin.replace('-', "__"));
    let files = "COMPREPLY=($(compgen -f \"${cur}\"))";
    for (path, sub) in commands(cmd, bin.replace('-', "__")) {
        let Some(start) = text.find(&format!("\n        {path})\n")) else { continue };
        let end = text[start..].find("\n            ;;\n").map_or(text.len(), |i| start + i);
        let mut arm = text[start..end].to_string();
        for arg in sub.get_arguments() {
            let completer = match kind(arg) {
                Kind::Rev => "COMPREPLY=($(compgen -W \"$(__git_handoff_refs)\" -- \"${cur}\"))",
                Kind::Remote => {
                    "COMPREPLY=($(compgen -W \"$(__git_handoff_remotes)\" -- \"${cur}\"))"
                }
                _ => continue,
            };
            if arg.is_positional() {
                let words = if completer.contains("refs") { "refs" } else { "remotes" };
                arm = arm.replace(
                    "compgen -W \"${opts}\"",
                    &format!("compgen -W \"${{opts}} $(__git_handoff_{words})\""),
                );
            } else if let Some(long) = arg.get_long() {
                let from = format!("--{long})\n                    {files}");
                let to = format!("--{long})\n                    {completer}");
                arm = arm.replace(&from, &to);
            }
        }
        text.replace_range(start..end, &arm);
    }
    text
}

/// Every command below `cmd` with the name of its bash arm (`git__handoff__subcmd__seal`).
fn commands(cmd: &clap::Command, prefix: String) -> Vec<(String, &clap::Command)> {
    let mut out = Vec::new();
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let path = format!("{prefix}__subcmd__{}", sub.get_name().replace('-', "__subcmd__"));
        out.extend(commands(sub, path.clone()));
        out.push((path, sub));
    }
    out
}

const BASH_HELPERS: &str = r#"
# REV and --base complete refs, REMOTE the remotes, as git's own commands do.
__git_handoff_refs ()
{
	git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null
	echo HEAD
}

__git_handoff_remotes ()
{
	git remote 2>/dev/null
}
"#;

const FISH_WRAPPER: &str = r#"
# `git handoff <TAB>`: the words after `handoff`, completed as `git-handoff` completes them.
function __fish_git_handoff_wrapped
    set -l tokens (commandline -opc)
    set -l at (contains -i -- handoff $tokens)
    set -l rest
    if test (count $tokens) -gt $at
        set rest $tokens[(math $at + 1)..-1]
    end
    complete -C (string join ' ' -- git-handoff (string escape -- $rest) (commandline -ct))
end
complete -c git -f -n '__fish_seen_subcommand_from handoff' -a '(__fish_git_handoff_wrapped)'
"#;
