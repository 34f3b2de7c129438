//! `_git_handoff`: what git's own bash completion calls for `git handoff <TAB>` (it looks for
//! `_git_<command>`, loading the `git-handoff` completion file on demand). Written with git's
//! helpers (`__gitcomp`, `__git_complete_refs`, `__git_remotes`), so options complete as
//! `--base=<TAB>` and `--base <TAB>` alike, like git's own commands.

use super::arg_kind::{Kind, kind, values};

/// The `_git_handoff` function for the command tree `cmd`.
pub fn git_completion(cmd: &clap::Command) -> String {
    let subs: Vec<&clap::Command> = visible(cmd).collect();
    let names: Vec<&str> = subs.iter().map(|s| s.get_name()).collect();
    let mut arms = String::new();
    for sub in &subs {
        let nested: Vec<&str> = visible(sub).map(|s| s.get_name()).collect();
        if nested.is_empty() {
            arms.push_str(&format!("\t{})\n{}\t\t;;\n", sub.get_name(), body(sub, "\t\t")));
            continue;
        }
        arms.push_str(&format!(
            "\t{name})\n\t\tlocal nested=\"$(__git_find_on_cmdline \"{list}\")\"\n\
             \t\tif [ -z \"$nested\" ]; then\n\t\t\t__gitcomp \"{list}\"\n\t\t\treturn\n\t\tfi\n\
             \t\tcase \"$nested\" in\n",
            name = sub.get_name(),
            list = nested.join(" ")
        ));
        for inner in visible(sub) {
            arms.push_str(&format!(
                "\t\t{})\n{}\t\t\t;;\n",
                inner.get_name(),
                body(inner, "\t\t\t")
            ));
        }
        arms.push_str("\t\tesac\n\t\t;;\n");
    }
    let (current, previous) = option_values(cmd, "\t\t");
    format!(
        "\n# git's bash completion calls this for `git handoff <TAB>` (load git's completion first).\n\
         _git_handoff ()\n{{\n\tlocal subcommands=\"{subs}\"\n\
         \tlocal subcommand=\"$(__git_find_on_cmdline \"$subcommands\")\"\n\
         \tif [ -z \"$subcommand\" ]; then\n\t\tcase \"$cur\" in\n{current}\
         \t\t-*) __gitcomp \"{global}\"; return ;;\n\t\tesac\n\
         \t\tcase \"$prev\" in\n{previous}\t\tesac\n\
         \t\t__gitcomp \"$subcommands\"\n\
         \t\treturn\n\tfi\n\tcase \"$subcommand\" in\n{arms}\tesac\n}}\n",
        subs = names.join(" "),
        global = long_flags(cmd),
    )
}

fn visible(cmd: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    cmd.get_subcommands().filter(|s| s.get_name() != "help" && !s.is_hide_set())
}

/// The completion of one command's words: `--opt=<TAB>`, `--opt <TAB>`, `-<TAB>`, positionals.
fn body(cmd: &clap::Command, indent: &str) -> String {
    let (current, previous) = option_values(cmd, indent);
    let positional = cmd.get_positionals().find(|a| !a.is_hide_set());
    let rest = positional.and_then(|a| completer(a, "\"$cur\"")).unwrap_or_default();
    format!(
        "{indent}case \"$cur\" in\n{current}{indent}-*) __gitcomp \"{flags}\"; return ;;\n\
         {indent}esac\n{indent}case \"$prev\" in\n{previous}{indent}esac\n{rest_line}",
        flags = long_flags(cmd),
        rest_line = if rest.is_empty() { String::new() } else { format!("{indent}{rest}\n") },
    )
}

/// The `case` arms that complete option values: for `$cur` (`--opt=<TAB>`) and for `$prev`
/// (`--opt <TAB>`, where an option without values to offer completes nothing else).
fn option_values(cmd: &clap::Command, indent: &str) -> (String, String) {
    let mut current = String::new();
    let mut previous = String::new();
    let options = cmd.get_arguments().filter(|a| !a.is_positional() && !a.is_hide_set());
    for arg in options.filter(|a| a.get_action().takes_values()) {
        let Some(long) = arg.get_long() else { continue };
        if let Some(with_cur) = completer(arg, &format!("\"${{cur##--{long}=}}\"")) {
            current.push_str(&format!("{indent}--{long}=*) {with_cur}; return ;;\n"));
        }
        let plain = completer(arg, "\"$cur\"").unwrap_or_else(|| ":".to_string());
        previous.push_str(&format!("{indent}--{long}) {plain}; return ;;\n"));
    }
    (current, previous)
}

/// The git helper call that completes an argument's value (the word being `cur`).
fn completer(arg: &clap::Arg, cur: &str) -> Option<String> {
    match kind(arg) {
        Kind::Rev => Some(format!("__git_complete_refs --cur={cur}")),
        Kind::Remote => Some(format!("__gitcomp_nl \"$(__git_remotes)\" \"\" {cur}")),
        Kind::Values => Some(format!("__gitcomp \"{}\" \"\" {cur}", values(arg).join(" "))),
        Kind::Path | Kind::Free => None,
    }
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
