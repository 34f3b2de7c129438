//! Generated documentation: man pages (clap_mangen) and shell completions (clap_complete), made
//! from the same clap definitions as `--help`, so the three cannot drift apart. The committed
//! copies under `man/` and `completions/` are checked by `tests/it/generated.rs`.
//!
//! The man pages follow git's own: a `GIT-HANDOFF-<COMMAND>(1)` header over "Git Manual", the
//! version and date in the footer, and a synopsis that names every option's value
//! (`-C <PATH>`), which clap_mangen leaves out.
//!
//! The clap tree is handed in (by the dispatch, which knows every command), so nothing here
//! imports the commands: `completions` and `install-man` are commands too.

mod arg_kind;
pub mod completions;
mod git_bash;

/// The date the man pages carry in their footer: the date of this version. Bump it with the
/// version in Cargo.toml.
pub const MAN_DATE: &str = "2026-11-30";

/// The command line's clap tree `cli` as the installed binary is named.
fn installed(cli: clap::Command) -> clap::Command {
    cli.name("git-handoff").bin_name("git-handoff")
}

/// Every man page for the command line's clap tree `cli`: `git-handoff.1` and one
/// `git-handoff-<command>.1` per subcommand.
pub fn man_pages(cli: clap::Command) -> Vec<(String, Vec<u8>)> {
    let mut cmd = installed(cli);
    cmd.build();
    let mut pages =
        vec![("git-handoff.1".to_string(), render_man(cmd.clone().bin_name("git handoff")))];
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
    let synopsis = synopsis(&cmd);
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .title(cmd.get_name().to_uppercase())
        .date(MAN_DATE)
        .source(format!("git-handoff {}", env!("CARGO_PKG_VERSION")))
        .manual("Git Manual")
        .render(&mut out)
        .expect("rendering to memory cannot fail");
    let text = String::from_utf8(out).expect("clap_mangen writes UTF-8");
    replace_synopsis(&text, &synopsis).into_bytes()
}

/// Puts `synopsis` in place of the line clap_mangen wrote under `.SH SYNOPSIS`.
fn replace_synopsis(page: &str, synopsis: &str) -> String {
    const HEADING: &str = ".SH SYNOPSIS\n";
    let Some(start) = page.find(HEADING).map(|i| i + HEADING.len()) else { return page.into() };
    let end = page[start..].find('\n').map_or(page.len(), |i| start + i);
    format!("{}{synopsis}{}", &page[..start], &page[end..])
}

/// The synopsis as roff: `git handoff validate [--base <B>] [-C <PATH>]... [REV]`.
fn synopsis(cmd: &clap::Command) -> String {
    let name = cmd.get_bin_name().unwrap_or_else(|| cmd.get_name());
    let mut words = vec![bold(name)];
    for arg in cmd.get_arguments().filter(|a| !a.is_hide_set() && !a.is_positional()) {
        let flag = match (arg.get_short(), arg.get_long()) {
            (Some(short), Some(long)) => {
                format!("{}|{}", bold(&format!("-{short}")), bold(&format!("--{long}")))
            }
            (Some(short), None) => bold(&format!("-{short}")),
            (None, Some(long)) => bold(&format!("--{long}")),
            (None, None) => continue,
        };
        let value = match arg.get_value_names() {
            Some(names) if arg.get_action().takes_values() => {
                names.iter().map(|n| format!(" {}", italic(&format!("<{n}>")))).collect::<String>()
            }
            _ if arg.get_action().takes_values() => {
                format!(" {}", italic(&format!("<{}>", arg.get_id().as_str().to_uppercase())))
            }
            _ => String::new(),
        };
        let repeat = if matches!(arg.get_action(), clap::ArgAction::Append) { "..." } else { "" };
        words.push(if arg.is_required_set() {
            format!("{flag}{value}{repeat}")
        } else {
            format!("[{flag}{value}]{repeat}")
        });
    }
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let names = arg.get_value_names().map(|n| n.join(" "));
        let value = italic(&names.unwrap_or_else(|| arg.get_id().as_str().to_uppercase()));
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        let repeat = if many { "..." } else { "" };
        words.push(if arg.is_required_set() {
            format!("{value}{repeat}")
        } else {
            format!("[{value}]{repeat}")
        });
    }
    if cmd.has_subcommands() {
        words.push(format!("<{}>", italic("command")));
    }
    words.join(" ")
}

fn bold(text: &str) -> String {
    format!("\\fB{}\\fR", escape(text))
}

fn italic(text: &str) -> String {
    format!("\\fI{}\\fR", escape(text))
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('-', "\\-")
}
