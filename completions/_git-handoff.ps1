
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'git-handoff' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'git-handoff'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'git-handoff' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Begin an attempt: its issue, base and start time, and a fresh event log')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Print the repository state for a prompt, with a pre-filled note header')
            [CompletionResult]::new('seal', 'seal', [CompletionResultType]::ParameterValue, 'Commit all uncommitted work as one seal commit on top of HEAD, exactly as `git add -A` would stage it (never ignored files), and print its id and files')
            [CompletionResult]::new('note', 'note', [CompletionResultType]::ParameterValue, 'Check the agent''s handoff note against the event log, tag what it cannot support, commit it alone, and store its record')
            [CompletionResult]::new('progress', 'progress', [CompletionResultType]::ParameterValue, 'Keep a progress plan that survives interruption')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Record one agent hook payload (JSON on stdin) in the attempt''s event log.')
            [CompletionResult]::new('digest', 'digest', [CompletionResultType]::ParameterValue, 'Print the digest of the attempt''s event log: files edited, tool calls, errors and the last check')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check the handoff notes in BASE..REV and their layout')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Exchange handoff records with a remote, losing none from either side')
            [CompletionResult]::new('recall', 'recall', [CompletionResultType]::ParameterValue, 'Print the last handoff for the next session, before its first turn')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the latest handoff on the branch (or at or below REV) for a person picking up the work')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List every attempt''s handoff on the branch, newest first, like `git log` for handoffs')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the handoff as agent tools (an MCP server on stdin/stdout)')
            [CompletionResult]::new('hooks', 'hooks', [CompletionResultType]::ParameterValue, 'Install, remove or show git-handoff''s hooks (pre-push check, agent hooks), keeping what is there')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Play a whole interrupted attempt in a throwaway repository, printing each step')
            [CompletionResult]::new('install-man', 'install-man', [CompletionResultType]::ParameterValue, 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the shell completion script for SHELL on stdout.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-handoff;start' {
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'The issue number the attempt works on')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The base revision [default: HEAD]')
            [CompletionResult]::new('--started-at', '--started-at', [CompletionResultType]::ParameterName, 'When the attempt began, RFC 3339 [default: now]')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;snapshot' {
            [CompletionResult]::new('--max-lines', '--max-lines', [CompletionResultType]::ParameterName, 'Lines kept from each git output [default: caps.snapshot_lines, 40]')
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'The issue number this attempt works on (overrides the attempt state)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The base revision of the attempt (overrides the attempt state)')
            [CompletionResult]::new('--started-at', '--started-at', [CompletionResultType]::ParameterName, 'When the attempt began, RFC 3339 (overrides the attempt state)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'The reason written into the note header [default: token_soft_threshold with --prompt, else agent_request]')
            [CompletionResult]::new('--prompt', '--prompt', [CompletionResultType]::ParameterName, 'Print the block a runtime injects at the token soft threshold: snapshot, header, steps')
            [CompletionResult]::new('--followup', '--followup', [CompletionResultType]::ParameterName, 'The shorter form of the prompt, for the one follow-up')
            [CompletionResult]::new('--plain-git', '--plain-git', [CompletionResultType]::ParameterName, 'The agent has no git-handoff on its PATH: the prompt commits the note with plain git')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;seal' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The commit subject (and body) instead of "Seal leftover work: issue #N"; the Handoff-Seal trailer is always added. Secrets in it are redacted')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The commit subject (and body) instead of "Seal leftover work: issue #N"; the Handoff-Seal trailer is always added. Secrets in it are redacted')
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'The issue number this attempt works on (overrides the attempt state)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The base revision of the attempt (overrides the attempt state)')
            [CompletionResult]::new('--started-at', '--started-at', [CompletionResultType]::ParameterName, 'When the attempt began, RFC 3339 (overrides the attempt state)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'Seal secret-looking files too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;note' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Take the note from this Markdown file instead of the note path')
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'Render the note from this TOML summary')
            [CompletionResult]::new('--facts', '--facts', [CompletionResultType]::ParameterName, 'Facts from the runtime for the emergency note (JSON: last_assistant_text, handoff_skill_invoked, budget {budget_tokens, max_budget_tokens, soft_threshold_crossed (true, false or where: "turn 41 at 750,112 tokens"), peak_main_context_tokens, cache_hit_rate, turns, elapsed_seconds}, archive_dir, session_id, baseline_check). Each fact stands alone: one of the wrong type is shown as given (or as not available) with a warning, and a file that cannot be read is a warning; the note is always written')
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'The issue number this attempt works on (overrides the attempt state)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The base revision of the attempt (overrides the attempt state)')
            [CompletionResult]::new('--started-at', '--started-at', [CompletionResultType]::ParameterName, 'When the attempt began, RFC 3339 (overrides the attempt state)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why the handoff happens [default: the note header''s, else agent_request]')
            [CompletionResult]::new('--emergency', '--emergency', [CompletionResultType]::ParameterName, 'Write the emergency note (the agent wrote none); needs --reason')
            [CompletionResult]::new('--digest-only', '--digest-only', [CompletionResultType]::ParameterName, 'Store this session''s digest as a record on HEAD when it made tool calls and its attempt has no note (for SessionEnd hooks; one record per session, the payload''s session_id)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;progress' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set an item''s status, with an optional note and the files it touched')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the change summary: status, each item, files changed, quality gates, deferred items')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-handoff;progress;plan' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--findings', '--findings', [CompletionResultType]::ParameterName, 'Items are review findings given as "F1: title"')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace a plan whose items already have progress')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;progress;set' {
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'A short note: the outcome (the action, for a finding), why it was abandoned ... A finding set without one reads `Action: none given`')
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'Files the item changed')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;progress;show' {
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Also (over)write the summary to this file (any path, relative to the current directory, outside the repository too); later changes, edits and checks rewrite it')
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'The issue number this attempt works on (overrides the attempt state)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The base revision of the attempt (overrides the attempt state)')
            [CompletionResult]::new('--started-at', '--started-at', [CompletionResultType]::ParameterName, 'When the attempt began, RFC 3339 (overrides the attempt state)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;progress;help' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set an item''s status, with an optional note and the files it touched')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the change summary: status, each item, files changed, quality gates, deferred items')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-handoff;progress;help;plan' {
            break
        }
        'git-handoff;progress;help;set' {
            break
        }
        'git-handoff;progress;help;show' {
            break
        }
        'git-handoff;progress;help;help' {
            break
        }
        'git-handoff;record' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Which runtime sent the payload [default: detected from the payload]')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'The hook event that sent the payload, for payloads that do not name it (GitHub Copilot CLI''s: preToolUse, postToolUse ...) [default: read off the payload''s keys]')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;digest' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;validate' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The oldest commit left out [default: the attempt''s base, else the merge-base with the upstream, else none: all history]')
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'Check only the notes of this issue')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--pre-push', '--pre-push', [CompletionResultType]::ParameterName, 'Run as git''s pre-push hook: REV is the remote''s name, and git''s stdin says what is pushed')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;sync' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Also fold every writer''s ref into the remote''s notes ref and remove them (one atomic push; best run when no one else is syncing, e.g. after a fleet of agents finished)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;recall' {
            [CompletionResult]::new('--max-lines', '--max-lines', [CompletionResultType]::ParameterName, 'Lines of recall at most [default: caps.recall_lines, 10]')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'What started the session [default: resume, or the hook payload''s source]')
            [CompletionResult]::new('--hook', '--hook', [CompletionResultType]::ParameterName, 'Read a SessionStart hook payload on stdin and answer in that agent''s hook JSON')
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'The issue number this attempt works on (overrides the attempt state)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The base revision of the attempt (overrides the attempt state)')
            [CompletionResult]::new('--started-at', '--started-at', [CompletionResultType]::ParameterName, 'When the attempt began, RFC 3339 (overrides the attempt state)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;show' {
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'The issue number this attempt works on (overrides the attempt state)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The base revision of the attempt (overrides the attempt state)')
            [CompletionResult]::new('--started-at', '--started-at', [CompletionResultType]::ParameterName, 'When the attempt began, RFC 3339 (overrides the attempt state)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;log' {
            [CompletionResult]::new('--issue', '--issue', [CompletionResultType]::ParameterName, 'Only this issue''s handoffs')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--oneline', '--oneline', [CompletionResultType]::ParameterName, 'One line per handoff')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;mcp' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;hooks' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install git-handoff''s hooks, keeping what is there')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Undo what `hooks install` did: all of it, or the parts picked with the flags')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show what git-handoff has installed where, and whether it runs')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-handoff;hooks;install' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--pre-push', '--pre-push', [CompletionResultType]::ParameterName, 'Install the pre-push check')
            [CompletionResult]::new('--claude', '--claude', [CompletionResultType]::ParameterName, 'Install Claude Code hooks into .claude/settings.json and the MCP server into .mcp.json')
            [CompletionResult]::new('--codex', '--codex', [CompletionResultType]::ParameterName, 'Install Codex hooks into .codex/hooks.json and the MCP server into .codex/config.toml')
            [CompletionResult]::new('--gemini', '--gemini', [CompletionResultType]::ParameterName, 'Install Gemini CLI hooks into .gemini/settings.json')
            [CompletionResult]::new('--copilot', '--copilot', [CompletionResultType]::ParameterName, 'Install GitHub Copilot CLI hooks into .github/hooks/git-handoff.json and the MCP server into .mcp.json')
            [CompletionResult]::new('--opencode', '--opencode', [CompletionResultType]::ParameterName, 'Install the opencode plugin into .opencode/plugin/git-handoff.js and the MCP server into opencode.json')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change (paths and diffs) and write nothing')
            [CompletionResult]::new('--push-notes', '--push-notes', [CompletionResultType]::ParameterName, 'Also push the handoff records with every push (a failed notes push only warns)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;hooks;uninstall' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--pre-push', '--pre-push', [CompletionResultType]::ParameterName, 'Remove the pre-push check (and the notes ref from notes.rewriteRef)')
            [CompletionResult]::new('--claude', '--claude', [CompletionResultType]::ParameterName, 'Remove the Claude Code hooks, MCP server and the unchanged handoff skill')
            [CompletionResult]::new('--codex', '--codex', [CompletionResultType]::ParameterName, 'Remove the Codex hooks, MCP server and the unchanged handoff skill')
            [CompletionResult]::new('--gemini', '--gemini', [CompletionResultType]::ParameterName, 'Remove the Gemini CLI hooks and the unchanged handoff skill')
            [CompletionResult]::new('--copilot', '--copilot', [CompletionResultType]::ParameterName, 'Remove the GitHub Copilot CLI hooks file (and the MCP server, unless Claude Code''s stays)')
            [CompletionResult]::new('--opencode', '--opencode', [CompletionResultType]::ParameterName, 'Remove the opencode plugin and its MCP server entry')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change and write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;hooks;status' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Exit 1 when an installed hook will not run, or the configuration cannot be read whole')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;hooks;help' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install git-handoff''s hooks, keeping what is there')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Undo what `hooks install` did: all of it, or the parts picked with the flags')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show what git-handoff has installed where, and whether it runs')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-handoff;hooks;help;install' {
            break
        }
        'git-handoff;hooks;help;uninstall' {
            break
        }
        'git-handoff;hooks;help;status' {
            break
        }
        'git-handoff;hooks;help;help' {
            break
        }
        'git-handoff;demo' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Keep the throwaway repository and print where it is')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;install-man' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;completions' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH> (like `git -C`); may be given more than once')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-handoff;help' {
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Begin an attempt: its issue, base and start time, and a fresh event log')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Print the repository state for a prompt, with a pre-filled note header')
            [CompletionResult]::new('seal', 'seal', [CompletionResultType]::ParameterValue, 'Commit all uncommitted work as one seal commit on top of HEAD, exactly as `git add -A` would stage it (never ignored files), and print its id and files')
            [CompletionResult]::new('note', 'note', [CompletionResultType]::ParameterValue, 'Check the agent''s handoff note against the event log, tag what it cannot support, commit it alone, and store its record')
            [CompletionResult]::new('progress', 'progress', [CompletionResultType]::ParameterValue, 'Keep a progress plan that survives interruption')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Record one agent hook payload (JSON on stdin) in the attempt''s event log.')
            [CompletionResult]::new('digest', 'digest', [CompletionResultType]::ParameterValue, 'Print the digest of the attempt''s event log: files edited, tool calls, errors and the last check')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check the handoff notes in BASE..REV and their layout')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Exchange handoff records with a remote, losing none from either side')
            [CompletionResult]::new('recall', 'recall', [CompletionResultType]::ParameterValue, 'Print the last handoff for the next session, before its first turn')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the latest handoff on the branch (or at or below REV) for a person picking up the work')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List every attempt''s handoff on the branch, newest first, like `git log` for handoffs')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the handoff as agent tools (an MCP server on stdin/stdout)')
            [CompletionResult]::new('hooks', 'hooks', [CompletionResultType]::ParameterValue, 'Install, remove or show git-handoff''s hooks (pre-push check, agent hooks), keeping what is there')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Play a whole interrupted attempt in a throwaway repository, printing each step')
            [CompletionResult]::new('install-man', 'install-man', [CompletionResultType]::ParameterValue, 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the shell completion script for SHELL on stdout.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-handoff;help;start' {
            break
        }
        'git-handoff;help;snapshot' {
            break
        }
        'git-handoff;help;seal' {
            break
        }
        'git-handoff;help;note' {
            break
        }
        'git-handoff;help;progress' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set an item''s status, with an optional note and the files it touched')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the change summary: status, each item, files changed, quality gates, deferred items')
            break
        }
        'git-handoff;help;progress;plan' {
            break
        }
        'git-handoff;help;progress;set' {
            break
        }
        'git-handoff;help;progress;show' {
            break
        }
        'git-handoff;help;record' {
            break
        }
        'git-handoff;help;digest' {
            break
        }
        'git-handoff;help;validate' {
            break
        }
        'git-handoff;help;sync' {
            break
        }
        'git-handoff;help;recall' {
            break
        }
        'git-handoff;help;show' {
            break
        }
        'git-handoff;help;log' {
            break
        }
        'git-handoff;help;mcp' {
            break
        }
        'git-handoff;help;hooks' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install git-handoff''s hooks, keeping what is there')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Undo what `hooks install` did: all of it, or the parts picked with the flags')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show what git-handoff has installed where, and whether it runs')
            break
        }
        'git-handoff;help;hooks;install' {
            break
        }
        'git-handoff;help;hooks;uninstall' {
            break
        }
        'git-handoff;help;hooks;status' {
            break
        }
        'git-handoff;help;demo' {
            break
        }
        'git-handoff;help;install-man' {
            break
        }
        'git-handoff;help;completions' {
            break
        }
        'git-handoff;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
