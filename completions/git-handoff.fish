# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_git_handoff_global_optspecs
    string join \n C= json color= h/help V/version
end

function __fish_git_handoff_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_git_handoff_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_git_handoff_using_subcommand
    set -l cmd (__fish_git_handoff_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c git-handoff -n "__fish_git_handoff_needs_command" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_needs_command" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_needs_command" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "start" -d 'Begin an attempt: its issue, base and start time, and a fresh event log'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "snapshot" -d 'Print the repository state for a prompt, with a pre-filled note header'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "progress" -d 'Keep a progress plan that survives interruption'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "recall" -d 'Print the last handoff for the next session, before its first turn'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "show" -d 'Show the latest handoff (or the one on REV) for a person picking up the branch'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "install-man" -d 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand start" -l issue -d 'The issue number the attempt works on' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand start" -l base -d 'The base revision [default: HEAD]' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand start" -l started-at -d 'When the attempt began, RFC 3339 [default: now]' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand start" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand start" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand start" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand start" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l max-lines -d 'Lines kept from each git output [default: caps.snapshot_lines, 40]' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l reason -d 'The reason written into the note header' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l issue -d 'The issue number this attempt works on (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l base -d 'The base revision of the attempt (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l started-at -d 'When the attempt began, RFC 3339 (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -f -a "plan" -d 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -f -a "set" -d 'Set an item\'s status, with an optional note and the files it touched'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -f -a "show" -d 'Show the change summary: status line, items, files changed, quality gates, deferred items'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from plan" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from plan" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from plan" -l findings -d 'Items are review findings given as "F1: title"'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from plan" -l force -d 'Replace a plan whose items already have progress'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from plan" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -l note -d 'A short note: what was done, why it was abandoned ...' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -l files -d 'Files the item changed' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -l write -d 'Also (over)write the summary to this file' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -l issue -d 'The issue number this attempt works on (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -l base -d 'The base revision of the attempt (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -l started-at -d 'When the attempt began, RFC 3339 (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from help" -f -a "set" -d 'Set an item\'s status, with an optional note and the files it touched'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show the change summary: status line, items, files changed, quality gates, deferred items'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l max-lines -d 'Lines of recall at most [default: caps.recall_lines, 10]' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l source -d 'What started the session [default: resume, or the hook payload\'s source]' -r -f -a "startup\t''
resume\t''
clear\t''
compact\t''
fork\t''"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l hook -d 'Read a SessionStart hook payload on stdin and answer in that agent\'s hook JSON' -r -f -a "claude\t''
codex\t''"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l issue -d 'The issue number this attempt works on (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l base -d 'The base revision of the attempt (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l started-at -d 'When the attempt began, RFC 3339 (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand show" -l issue -d 'The issue number this attempt works on (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand show" -l base -d 'The base revision of the attempt (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand show" -l started-at -d 'When the attempt began, RFC 3339 (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand show" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand show" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand show" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand show" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot progress recall show install-man help" -f -a "start" -d 'Begin an attempt: its issue, base and start time, and a fresh event log'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot progress recall show install-man help" -f -a "snapshot" -d 'Print the repository state for a prompt, with a pre-filled note header'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot progress recall show install-man help" -f -a "progress" -d 'Keep a progress plan that survives interruption'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot progress recall show install-man help" -f -a "recall" -d 'Print the last handoff for the next session, before its first turn'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot progress recall show install-man help" -f -a "show" -d 'Show the latest handoff (or the one on REV) for a person picking up the branch'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot progress recall show install-man help" -f -a "install-man" -d 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot progress recall show install-man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from progress" -f -a "plan" -d 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from progress" -f -a "set" -d 'Set an item\'s status, with an optional note and the files it touched'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from progress" -f -a "show" -d 'Show the change summary: status line, items, files changed, quality gates, deferred items'
