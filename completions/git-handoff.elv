
use builtin;
use str;

set edit:completion:arg-completer[git-handoff] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'git-handoff'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'git-handoff'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand start 'Begin an attempt: its issue, base and start time, and a fresh event log'
            cand snapshot 'Print the repository state for a prompt, with a pre-filled note header'
            cand seal 'Commit all uncommitted work as one seal commit on top of HEAD, exactly as `git add -A` would stage it (never ignored files), and print its id and files'
            cand note 'Check the agent''s handoff note against the event log, tag what it cannot support, commit it alone, and store its record'
            cand progress 'Keep a progress plan that survives interruption'
            cand record 'Record one agent hook payload (JSON on stdin) in the attempt''s event log.'
            cand digest 'Print the digest of the attempt''s event log: files edited, tool calls, errors and the last check'
            cand validate 'Check the handoff notes in BASE..REV and their layout'
            cand sync 'Exchange handoff records with a remote, losing none from either side'
            cand recall 'Print the last handoff for the next session, before its first turn'
            cand show 'Show the latest handoff on the branch (or at or below REV) for a person picking up the work'
            cand log 'List every attempt''s handoff on the branch, newest first, like `git log` for handoffs'
            cand mcp 'Serve the handoff as agent tools (an MCP server on stdin/stdout)'
            cand hooks 'Install, remove or show git-handoff''s hooks (pre-push check, agent hooks), keeping what is there'
            cand demo 'Play a whole interrupted attempt in a throwaway repository, printing each step'
            cand install-man 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them'
            cand completions 'Print the shell completion script for SHELL on stdout.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-handoff;start'= {
            cand --issue 'The issue number the attempt works on'
            cand --base 'The base revision [default: HEAD]'
            cand --started-at 'When the attempt began, RFC 3339 [default: now]'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;snapshot'= {
            cand --max-lines 'Lines kept from each git output [default: caps.snapshot_lines, 40]'
            cand --issue 'The issue number this attempt works on (overrides the attempt state)'
            cand --base 'The base revision of the attempt (overrides the attempt state)'
            cand --started-at 'When the attempt began, RFC 3339 (overrides the attempt state)'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --reason 'The reason written into the note header [default: token_soft_threshold with --prompt, else agent_request]'
            cand --prompt 'Print the block a runtime injects at the token soft threshold: snapshot, header, steps'
            cand --followup 'The shorter form of the prompt, for the one follow-up'
            cand --plain-git 'The agent has no git-handoff on its PATH: the prompt commits the note with plain git'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;seal'= {
            cand -m 'The commit subject (and body) instead of "Seal leftover work: issue #N"; the Handoff-Seal trailer is always added. Secrets in it are redacted'
            cand --message 'The commit subject (and body) instead of "Seal leftover work: issue #N"; the Handoff-Seal trailer is always added. Secrets in it are redacted'
            cand --issue 'The issue number this attempt works on (overrides the attempt state)'
            cand --base 'The base revision of the attempt (overrides the attempt state)'
            cand --started-at 'When the attempt began, RFC 3339 (overrides the attempt state)'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --allow-secrets 'Seal secret-looking files too'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;note'= {
            cand --from 'Take the note from this Markdown file instead of the note path'
            cand --summary 'Render the note from this TOML summary'
            cand --facts 'Facts from the runtime for the emergency note (JSON: last_assistant_text, handoff_skill_invoked, budget {budget_tokens, max_budget_tokens, soft_threshold_crossed (true, false or where: "turn 41 at 750,112 tokens"), peak_main_context_tokens, cache_hit_rate, turns, elapsed_seconds}, archive_dir, session_id, baseline_check). Each fact stands alone: one of the wrong type is shown as given (or as not available) with a warning, and a file that cannot be read is a warning; the note is always written'
            cand --issue 'The issue number this attempt works on (overrides the attempt state)'
            cand --base 'The base revision of the attempt (overrides the attempt state)'
            cand --started-at 'When the attempt began, RFC 3339 (overrides the attempt state)'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --reason 'Why the handoff happens [default: the note header''s, else agent_request]'
            cand --emergency 'Write the emergency note (the agent wrote none); needs --reason'
            cand --digest-only 'Store this session''s digest as a record on HEAD when it made tool calls and its attempt has no note (for SessionEnd hooks; one record per session, the payload''s session_id)'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;progress'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand plan 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)'
            cand set 'Set an item''s status, with an optional note and the files it touched'
            cand show 'Show the change summary: status, each item, files changed, quality gates, deferred items'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-handoff;progress;plan'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --findings 'Items are review findings given as "F1: title"'
            cand --force 'Replace a plan whose items already have progress'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;progress;set'= {
            cand --note 'A short note: the outcome (the action, for a finding), why it was abandoned ... A finding set without one reads `Action: none given`'
            cand --files 'Files the item changed'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;progress;show'= {
            cand --write 'Also (over)write the summary to this file (any path, relative to the current directory, outside the repository too); later changes, edits and checks rewrite it'
            cand --issue 'The issue number this attempt works on (overrides the attempt state)'
            cand --base 'The base revision of the attempt (overrides the attempt state)'
            cand --started-at 'When the attempt began, RFC 3339 (overrides the attempt state)'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;progress;help'= {
            cand plan 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)'
            cand set 'Set an item''s status, with an optional note and the files it touched'
            cand show 'Show the change summary: status, each item, files changed, quality gates, deferred items'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-handoff;progress;help;plan'= {
        }
        &'git-handoff;progress;help;set'= {
        }
        &'git-handoff;progress;help;show'= {
        }
        &'git-handoff;progress;help;help'= {
        }
        &'git-handoff;record'= {
            cand --agent 'Which runtime sent the payload [default: detected from the payload]'
            cand --event 'The hook event that sent the payload, for payloads that do not name it (GitHub Copilot CLI''s: preToolUse, postToolUse ...) [default: read off the payload''s keys]'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;digest'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;validate'= {
            cand --base 'The oldest commit left out [default: the attempt''s base, else the merge-base with the upstream, else none: all history]'
            cand --issue 'Check only the notes of this issue'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --pre-push 'Run as git''s pre-push hook: REV is the remote''s name, and git''s stdin says what is pushed'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;sync'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --compact 'Also fold every writer''s ref into the remote''s notes ref and remove them (one atomic push; best run when no one else is syncing, e.g. after a fleet of agents finished)'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;recall'= {
            cand --max-lines 'Lines of recall at most [default: caps.recall_lines, 10]'
            cand --source 'What started the session [default: resume, or the hook payload''s source]'
            cand --hook 'Read a SessionStart hook payload on stdin and answer in that agent''s hook JSON'
            cand --issue 'The issue number this attempt works on (overrides the attempt state)'
            cand --base 'The base revision of the attempt (overrides the attempt state)'
            cand --started-at 'When the attempt began, RFC 3339 (overrides the attempt state)'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;show'= {
            cand --issue 'The issue number this attempt works on (overrides the attempt state)'
            cand --base 'The base revision of the attempt (overrides the attempt state)'
            cand --started-at 'When the attempt began, RFC 3339 (overrides the attempt state)'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;log'= {
            cand --issue 'Only this issue''s handoffs'
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --oneline 'One line per handoff'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;mcp'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;hooks'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand install 'Install git-handoff''s hooks, keeping what is there'
            cand uninstall 'Undo what `hooks install` did: all of it, or the parts picked with the flags'
            cand status 'Show what git-handoff has installed where, and whether it runs'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-handoff;hooks;install'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --pre-push 'Install the pre-push check'
            cand --claude 'Install Claude Code hooks into .claude/settings.json and the MCP server into .mcp.json'
            cand --codex 'Install Codex hooks into .codex/hooks.json and the MCP server into .codex/config.toml'
            cand --gemini 'Install Gemini CLI hooks into .gemini/settings.json'
            cand --copilot 'Install GitHub Copilot CLI hooks into .github/hooks/git-handoff.json and the MCP server into .mcp.json'
            cand --opencode 'Install the opencode plugin into .opencode/plugin/git-handoff.js and the MCP server into opencode.json'
            cand --dry-run 'Show what would change (paths and diffs) and write nothing'
            cand --push-notes 'Also push the handoff records with every push (a failed notes push only warns)'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;hooks;uninstall'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --pre-push 'Remove the pre-push check (and the notes ref from notes.rewriteRef)'
            cand --claude 'Remove the Claude Code hooks, MCP server and the unchanged handoff skill'
            cand --codex 'Remove the Codex hooks, MCP server and the unchanged handoff skill'
            cand --gemini 'Remove the Gemini CLI hooks and the unchanged handoff skill'
            cand --copilot 'Remove the GitHub Copilot CLI hooks file (and the MCP server, unless Claude Code''s stays)'
            cand --opencode 'Remove the opencode plugin and its MCP server entry'
            cand --dry-run 'Show what would change and write nothing'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;hooks;status'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --check 'Exit 1 when an installed hook will not run, or the configuration cannot be read whole'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;hooks;help'= {
            cand install 'Install git-handoff''s hooks, keeping what is there'
            cand uninstall 'Undo what `hooks install` did: all of it, or the parts picked with the flags'
            cand status 'Show what git-handoff has installed where, and whether it runs'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-handoff;hooks;help;install'= {
        }
        &'git-handoff;hooks;help;uninstall'= {
        }
        &'git-handoff;hooks;help;status'= {
        }
        &'git-handoff;hooks;help;help'= {
        }
        &'git-handoff;demo'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --keep 'Keep the throwaway repository and print where it is'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;install-man'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;completions'= {
            cand -C 'Run as if started in <PATH> (like `git -C`); may be given more than once'
            cand --color 'When to colour human output'
            cand --json 'Print one JSON document on stdout instead of text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-handoff;help'= {
            cand start 'Begin an attempt: its issue, base and start time, and a fresh event log'
            cand snapshot 'Print the repository state for a prompt, with a pre-filled note header'
            cand seal 'Commit all uncommitted work as one seal commit on top of HEAD, exactly as `git add -A` would stage it (never ignored files), and print its id and files'
            cand note 'Check the agent''s handoff note against the event log, tag what it cannot support, commit it alone, and store its record'
            cand progress 'Keep a progress plan that survives interruption'
            cand record 'Record one agent hook payload (JSON on stdin) in the attempt''s event log.'
            cand digest 'Print the digest of the attempt''s event log: files edited, tool calls, errors and the last check'
            cand validate 'Check the handoff notes in BASE..REV and their layout'
            cand sync 'Exchange handoff records with a remote, losing none from either side'
            cand recall 'Print the last handoff for the next session, before its first turn'
            cand show 'Show the latest handoff on the branch (or at or below REV) for a person picking up the work'
            cand log 'List every attempt''s handoff on the branch, newest first, like `git log` for handoffs'
            cand mcp 'Serve the handoff as agent tools (an MCP server on stdin/stdout)'
            cand hooks 'Install, remove or show git-handoff''s hooks (pre-push check, agent hooks), keeping what is there'
            cand demo 'Play a whole interrupted attempt in a throwaway repository, printing each step'
            cand install-man 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them'
            cand completions 'Print the shell completion script for SHELL on stdout.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-handoff;help;start'= {
        }
        &'git-handoff;help;snapshot'= {
        }
        &'git-handoff;help;seal'= {
        }
        &'git-handoff;help;note'= {
        }
        &'git-handoff;help;progress'= {
            cand plan 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)'
            cand set 'Set an item''s status, with an optional note and the files it touched'
            cand show 'Show the change summary: status, each item, files changed, quality gates, deferred items'
        }
        &'git-handoff;help;progress;plan'= {
        }
        &'git-handoff;help;progress;set'= {
        }
        &'git-handoff;help;progress;show'= {
        }
        &'git-handoff;help;record'= {
        }
        &'git-handoff;help;digest'= {
        }
        &'git-handoff;help;validate'= {
        }
        &'git-handoff;help;sync'= {
        }
        &'git-handoff;help;recall'= {
        }
        &'git-handoff;help;show'= {
        }
        &'git-handoff;help;log'= {
        }
        &'git-handoff;help;mcp'= {
        }
        &'git-handoff;help;hooks'= {
            cand install 'Install git-handoff''s hooks, keeping what is there'
            cand uninstall 'Undo what `hooks install` did: all of it, or the parts picked with the flags'
            cand status 'Show what git-handoff has installed where, and whether it runs'
        }
        &'git-handoff;help;hooks;install'= {
        }
        &'git-handoff;help;hooks;uninstall'= {
        }
        &'git-handoff;help;hooks;status'= {
        }
        &'git-handoff;help;demo'= {
        }
        &'git-handoff;help;install-man'= {
        }
        &'git-handoff;help;completions'= {
        }
        &'git-handoff;help;help'= {
        }
    ]
    $completions[$command]
}
