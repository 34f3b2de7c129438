//! Generated documentation: man pages (clap_mangen) and shell completions (clap_complete), made
//! from the same clap definitions as `--help`, so the three cannot drift apart. The committed
//! copies under `man/` and `completions/` are checked by `tests/generated.rs`.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

/// The command tree as the installed binary is named.
fn command() -> clap::Command {
    Cli::command().name("git-handoff").bin_name("git-handoff")
}

/// Every man page: `git-handoff.1` and one `git-handoff-<command>.1` per subcommand.
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let mut cmd = command();
    cmd.build();
    let mut pages = vec![("git-handoff.1".to_string(), render_man(cmd.clone()))];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("git-handoff-{}", sub.get_name());
        let words = format!("git handoff {}", sub.get_name());
        pages.push((format!("{name}.1"), render_man(sub.clone().name(&name).bin_name(&words))));
        // Groups (`hooks`, `progress`) get a page per member too, with its own options.
        for inner in sub.get_subcommands().filter(|s| s.get_name() != "help") {
            let name = format!("{name}-{}", inner.get_name());
            let words = format!("{words} {}", inner.get_name());
            pages
                .push((format!("{name}.1"), render_man(inner.clone().name(&name).bin_name(words))));
        }
    }
    pages
}

fn render_man(cmd: clap::Command) -> Vec<u8> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .source(format!("git-handoff {}", env!("CARGO_PKG_VERSION")))
        .manual("Git Manual")
        .render(&mut out)
        .expect("rendering to memory cannot fail");
    out
}

/// Every completion script, by file name.
pub fn completions() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (shell, file) in [
        (Shell::Bash, "git-handoff.bash"),
        (Shell::Zsh, "_git-handoff"),
        (Shell::Fish, "git-handoff.fish"),
        (Shell::Elvish, "git-handoff.elv"),
        (Shell::PowerShell, "_git-handoff.ps1"),
    ] {
        let mut bytes = Vec::new();
        clap_complete::generate(shell, &mut command(), "git-handoff", &mut bytes);
        if shell == Shell::Bash {
            bytes.extend_from_slice(git_completion().as_bytes());
        }
        out.push((file.to_string(), bytes));
    }
    out
}

/// `_git_handoff`, which git's own bash completion calls for `git handoff <TAB>`.
fn git_completion() -> String {
    let mut cmd = command();
    cmd.build();
    let subs: Vec<&clap::Command> =
        cmd.get_subcommands().filter(|s| s.get_name() != "help").collect();
    let names: Vec<&str> = subs.iter().map(|s| s.get_name()).collect();
    let mut arms = String::new();
    for sub in &subs {
        let nested: Vec<&str> =
            sub.get_subcommands().map(|s| s.get_name()).filter(|n| *n != "help").collect();
        if !nested.is_empty() {
            arms.push_str(&format!(
                "\t{name},*)\n\t\tlocal nested=\"$(__git_find_on_cmdline \"{list}\")\"\n\
                 \t\tif [ -z \"$nested\" ]; then\n\t\t\t__gitcomp \"{list}\"\n\t\t\treturn\n\t\tfi\n\
                 \t\tcase \"$nested\" in\n",
                name = sub.get_name(),
                list = nested.join(" ")
            ));
            for inner in sub.get_subcommands().filter(|s| s.get_name() != "help") {
                arms.push_str(&format!(
                    "\t\t{}) __gitcomp \"{}\" ;;\n",
                    inner.get_name(),
                    long_flags(inner)
                ));
            }
            arms.push_str("\t\tesac\n\t\t;;\n");
        } else {
            arms.push_str(&format!(
                "\t{},-*)\n\t\t__gitcomp \"{}\"\n\t\t;;\n",
                sub.get_name(),
                long_flags(sub)
            ));
        }
    }
    format!(
        "\n# git's bash completion calls this for `git handoff <TAB>` (load git's completion first).\n\
         _git_handoff ()\n{{\n\tlocal subcommands=\"{subs}\"\n\
         \tlocal subcommand=\"$(__git_find_on_cmdline \"$subcommands\")\"\n\
         \tif [ -z \"$subcommand\" ]; then\n\t\tcase \"$cur\" in\n\
         \t\t-*) __gitcomp \"{global}\" ;;\n\t\t*) __gitcomp \"$subcommands\" ;;\n\t\tesac\n\
         \t\treturn\n\tfi\n\tcase \"$subcommand,$cur\" in\n{arms}\tesac\n}}\n",
        subs = names.join(" "),
        global = long_flags(&cmd),
    )
}

/// `--issue= --json ...`: the long flags of a command, `=` marking those that take a value.
fn long_flags(cmd: &clap::Command) -> String {
    let mut flags: Vec<String> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| {
            let long = a.get_long()?;
            let takes_value = a.get_action().takes_values();
            Some(if takes_value { format!("--{long}=") } else { format!("--{long}") })
        })
        .collect();
    flags.sort();
    flags.dedup();
    flags.join(" ")
}
