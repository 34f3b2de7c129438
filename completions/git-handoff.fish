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
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "seal" -d 'Commit all uncommitted work as one seal commit on top of HEAD, exactly as `git add -A` would stage it (never ignored files), and print its id and files'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "note" -d 'Check the agent\'s handoff note against the event log, tag what it cannot support, commit it alone, and store its record'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "progress" -d 'Keep a progress plan that survives interruption'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "record" -d 'Record one agent hook payload (JSON on stdin) in the attempt\'s event log.'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "digest" -d 'Print the digest of the attempt\'s event log: files edited, tool calls, errors and the last check'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "validate" -d 'Check the handoff notes in BASE..REV and their layout'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "sync" -d 'Exchange handoff records with a remote, losing none from either side'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "recall" -d 'Print the last handoff for the next session, before its first turn'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "show" -d 'Show the latest handoff on the branch (or at or below REV) for a person picking up the work'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "log" -d 'List every attempt\'s handoff on the branch, newest first, like `git log` for handoffs'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "mcp" -d 'Serve the handoff as agent tools (an MCP server on stdin/stdout)'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "hooks" -d 'Install, remove or show git-handoff\'s hooks (pre-push check, agent hooks), keeping what is there'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "demo" -d 'Play a whole interrupted attempt in a throwaway repository, printing each step'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "install-man" -d 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them'
complete -c git-handoff -n "__fish_git_handoff_needs_command" -f -a "completions" -d 'Print the shell completion script for SHELL on stdout.'
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
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l issue -d 'The issue number this attempt works on (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l base -d 'The base revision of the attempt (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l started-at -d 'When the attempt began, RFC 3339 (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l reason -d 'The reason written into the note header [default: token_soft_threshold with --prompt, else agent_request]' -r -f -a "token_soft_threshold\t''
token_hard_limit\t''
turn_limit\t''
time_limit\t''
cost_hard_limit\t''
operator_request\t''
agent_request\t''"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l prompt -d 'Print the block a runtime injects at the token soft threshold: snapshot, header, steps'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l followup -d 'The shorter form of the prompt, for the one follow-up'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l plain-git -d 'The agent has no git-handoff on its PATH: the prompt commits the note with plain git'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand snapshot" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -s m -l message -d 'The commit subject (and body) instead of "Seal leftover work: issue #N"; the Handoff-Seal trailer is always added. Secrets in it are redacted' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -l issue -d 'The issue number this attempt works on (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -l base -d 'The base revision of the attempt (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -l started-at -d 'When the attempt began, RFC 3339 (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -l allow-secrets -d 'Seal secret-looking files too'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand seal" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l from -d 'Take the note from this Markdown file instead of the note path' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l summary -d 'Render the note from this TOML summary' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l facts -d 'Facts from the runtime for the emergency note (JSON: last_assistant_text, handoff_skill_invoked, budget {budget_tokens, max_budget_tokens, soft_threshold_crossed (true, false or where: "turn 41 at 750,112 tokens"), peak_main_context_tokens, cache_hit_rate, turns, elapsed_seconds}, archive_dir, session_id, baseline_check). Each fact stands alone: one of the wrong type is shown as given (or as not available) with a warning, and a file that cannot be read is a warning; the note is always written' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l issue -d 'The issue number this attempt works on (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l base -d 'The base revision of the attempt (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l started-at -d 'When the attempt began, RFC 3339 (overrides the attempt state)' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l reason -d 'Why the handoff happens [default: the note header\'s, else agent_request]' -r -f -a "token_soft_threshold\t''
token_hard_limit\t''
turn_limit\t''
time_limit\t''
cost_hard_limit\t''
operator_request\t''
agent_request\t''"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l emergency -d 'Write the emergency note (the agent wrote none); needs --reason'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l digest-only -d 'Store this session\'s digest as a record on HEAD when it made tool calls and its attempt has no note (for SessionEnd hooks; one record per session, the payload\'s session_id)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand note" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -f -a "plan" -d 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -f -a "set" -d 'Set an item\'s status, with an optional note and the files it touched'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and not __fish_seen_subcommand_from plan set show help" -f -a "show" -d 'Show the change summary: status, each item, files changed, quality gates, deferred items'
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
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -l note -d 'A short note: the outcome (the action, for a finding), why it was abandoned ... A finding set without one reads `Action: none given`' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -l files -d 'Files the item changed' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from show" -l write -d 'Also (over)write the summary to this file (any path, relative to the current directory, outside the repository too); later changes, edits and checks rewrite it' -r -F
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
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show the change summary: status, each item, files changed, quality gates, deferred items'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand progress; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand record" -l agent -d 'Which runtime sent the payload [default: detected from the payload]' -r -f -a "claude\t''
codex\t''
gemini\t''
copilot\t''
generic\t''"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand record" -l event -d 'The hook event that sent the payload, for payloads that do not name it (GitHub Copilot CLI\'s: preToolUse, postToolUse ...) [default: read off the payload\'s keys]' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand record" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand record" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand record" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand record" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand record" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand digest" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand digest" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand digest" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand digest" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand digest" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand validate" -l base -d 'The oldest commit left out [default: the attempt\'s base, else the merge-base with the upstream, else none: all history]' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand validate" -l issue -d 'Check only the notes of this issue' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand validate" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand validate" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand validate" -l pre-push -d 'Run as git\'s pre-push hook: REV is the remote\'s name, and git\'s stdin says what is pushed'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand validate" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand validate" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand sync" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand sync" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand sync" -l compact -d 'Also fold every writer\'s ref into the remote\'s notes ref and remove them (one atomic push; best run when no one else is syncing, e.g. after a fleet of agents finished)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand sync" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand sync" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand sync" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l max-lines -d 'Lines of recall at most [default: caps.recall_lines, 10]' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l source -d 'What started the session [default: resume, or the hook payload\'s source]' -r -f -a "startup\t''
resume\t''
clear\t''
compact\t''
fork\t''"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand recall" -l hook -d 'Read a SessionStart hook payload on stdin and answer in that agent\'s hook JSON' -r -f -a "claude\t''
codex\t''
gemini\t''
copilot\t''"
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
complete -c git-handoff -n "__fish_git_handoff_using_subcommand log" -l issue -d 'Only this issue\'s handoffs' -r
complete -c git-handoff -n "__fish_git_handoff_using_subcommand log" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand log" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand log" -l oneline -d 'One line per handoff'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand log" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand log" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand mcp" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand mcp" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand mcp" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand mcp" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -f -a "install" -d 'Install git-handoff\'s hooks, keeping what is there'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -f -a "uninstall" -d 'Undo what `hooks install` did: all of it, or the parts picked with the flags'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -f -a "status" -d 'Show what git-handoff has installed where, and whether it runs'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l pre-push -d 'Install the pre-push check'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l claude -d 'Install Claude Code hooks into .claude/settings.json and the MCP server into .mcp.json'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l codex -d 'Install Codex hooks into .codex/hooks.json and the MCP server into .codex/config.toml'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l gemini -d 'Install Gemini CLI hooks into .gemini/settings.json'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l copilot -d 'Install GitHub Copilot CLI hooks into .github/hooks/git-handoff.json and the MCP server into .mcp.json'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l opencode -d 'Install the opencode plugin into .opencode/plugin/git-handoff.js and the MCP server into opencode.json'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l dry-run -d 'Show what would change (paths and diffs) and write nothing'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l push-notes -d 'Also push the handoff records with every push (a failed notes push only warns)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from install" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l pre-push -d 'Remove the pre-push check (and the notes ref from notes.rewriteRef)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l claude -d 'Remove the Claude Code hooks, MCP server and the unchanged handoff skill'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l codex -d 'Remove the Codex hooks, MCP server and the unchanged handoff skill'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l gemini -d 'Remove the Gemini CLI hooks and the unchanged handoff skill'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l copilot -d 'Remove the GitHub Copilot CLI hooks file (and the MCP server, unless Claude Code\'s stays)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l opencode -d 'Remove the opencode plugin and its MCP server entry'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l dry-run -d 'Show what would change and write nothing'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from status" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from status" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from status" -l check -d 'Exit 1 when an installed hook will not run, or the configuration cannot be read whole'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from status" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "install" -d 'Install git-handoff\'s hooks, keeping what is there'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Undo what `hooks install` did: all of it, or the parts picked with the flags'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show what git-handoff has installed where, and whether it runs'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand demo" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand demo" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand demo" -l keep -d 'Keep the throwaway repository and print where it is'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand demo" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand demo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand demo" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand install-man" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand completions" -s C -d 'Run as if started in <PATH> (like `git -C`); may be given more than once' -r -F
complete -c git-handoff -n "__fish_git_handoff_using_subcommand completions" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c git-handoff -n "__fish_git_handoff_using_subcommand completions" -l json -d 'Print one JSON document on stdout instead of text'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand completions" -s V -l version -d 'Print version'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "start" -d 'Begin an attempt: its issue, base and start time, and a fresh event log'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "snapshot" -d 'Print the repository state for a prompt, with a pre-filled note header'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "seal" -d 'Commit all uncommitted work as one seal commit on top of HEAD, exactly as `git add -A` would stage it (never ignored files), and print its id and files'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "note" -d 'Check the agent\'s handoff note against the event log, tag what it cannot support, commit it alone, and store its record'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "progress" -d 'Keep a progress plan that survives interruption'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "record" -d 'Record one agent hook payload (JSON on stdin) in the attempt\'s event log.'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "digest" -d 'Print the digest of the attempt\'s event log: files edited, tool calls, errors and the last check'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "validate" -d 'Check the handoff notes in BASE..REV and their layout'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "sync" -d 'Exchange handoff records with a remote, losing none from either side'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "recall" -d 'Print the last handoff for the next session, before its first turn'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "show" -d 'Show the latest handoff on the branch (or at or below REV) for a person picking up the work'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "log" -d 'List every attempt\'s handoff on the branch, newest first, like `git log` for handoffs'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "mcp" -d 'Serve the handoff as agent tools (an MCP server on stdin/stdout)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "hooks" -d 'Install, remove or show git-handoff\'s hooks (pre-push check, agent hooks), keeping what is there'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "demo" -d 'Play a whole interrupted attempt in a throwaway repository, printing each step'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "install-man" -d 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "completions" -d 'Print the shell completion script for SHELL on stdout.'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and not __fish_seen_subcommand_from start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from progress" -f -a "plan" -d 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from progress" -f -a "set" -d 'Set an item\'s status, with an optional note and the files it touched'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from progress" -f -a "show" -d 'Show the change summary: status, each item, files changed, quality gates, deferred items'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from hooks" -f -a "install" -d 'Install git-handoff\'s hooks, keeping what is there'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from hooks" -f -a "uninstall" -d 'Undo what `hooks install` did: all of it, or the parts picked with the flags'
complete -c git-handoff -n "__fish_git_handoff_using_subcommand help; and __fish_seen_subcommand_from hooks" -f -a "status" -d 'Show what git-handoff has installed where, and whether it runs'

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
