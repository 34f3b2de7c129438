
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
            [CompletionResult]::new('progress', 'progress', [CompletionResultType]::ParameterValue, 'Keep a progress plan that survives interruption')
            [CompletionResult]::new('recall', 'recall', [CompletionResultType]::ParameterValue, 'Print the last handoff for the next session, before its first turn')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the latest handoff (or the one on REV) for a person picking up the branch')
            [CompletionResult]::new('install-man', 'install-man', [CompletionResultType]::ParameterValue, 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them')
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
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'The reason written into the note header')
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
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the change summary: status line, items, files changed, quality gates, deferred items')
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
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'A short note: what was done, why it was abandoned ...')
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
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Also (over)write the summary to this file')
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
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the change summary: status line, items, files changed, quality gates, deferred items')
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
        'git-handoff;help' {
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Begin an attempt: its issue, base and start time, and a fresh event log')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Print the repository state for a prompt, with a pre-filled note header')
            [CompletionResult]::new('progress', 'progress', [CompletionResultType]::ParameterValue, 'Keep a progress plan that survives interruption')
            [CompletionResult]::new('recall', 'recall', [CompletionResultType]::ParameterValue, 'Print the last handoff for the next session, before its first turn')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the latest handoff (or the one on REV) for a person picking up the branch')
            [CompletionResult]::new('install-man', 'install-man', [CompletionResultType]::ParameterValue, 'Install the man pages, so that `git handoff --help` (which runs `man git-handoff`) finds them')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-handoff;help;start' {
            break
        }
        'git-handoff;help;snapshot' {
            break
        }
        'git-handoff;help;progress' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Write the plan: one item per argument (ids 0, 1, 2 ... or, with --findings, F1, W2 ...)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set an item''s status, with an optional note and the files it touched')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the change summary: status line, items, files changed, quality gates, deferred items')
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
        'git-handoff;help;recall' {
            break
        }
        'git-handoff;help;show' {
            break
        }
        'git-handoff;help;install-man' {
            break
        }
        'git-handoff;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
