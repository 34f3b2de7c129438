_git__handoff() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="git__handoff"
                ;;
            git__handoff,completions)
                cmd="git__handoff__subcmd__completions"
                ;;
            git__handoff,demo)
                cmd="git__handoff__subcmd__demo"
                ;;
            git__handoff,digest)
                cmd="git__handoff__subcmd__digest"
                ;;
            git__handoff,help)
                cmd="git__handoff__subcmd__help"
                ;;
            git__handoff,hooks)
                cmd="git__handoff__subcmd__hooks"
                ;;
            git__handoff,install-man)
                cmd="git__handoff__subcmd__install__subcmd__man"
                ;;
            git__handoff,log)
                cmd="git__handoff__subcmd__log"
                ;;
            git__handoff,mcp)
                cmd="git__handoff__subcmd__mcp"
                ;;
            git__handoff,note)
                cmd="git__handoff__subcmd__note"
                ;;
            git__handoff,progress)
                cmd="git__handoff__subcmd__progress"
                ;;
            git__handoff,recall)
                cmd="git__handoff__subcmd__recall"
                ;;
            git__handoff,record)
                cmd="git__handoff__subcmd__record"
                ;;
            git__handoff,seal)
                cmd="git__handoff__subcmd__seal"
                ;;
            git__handoff,show)
                cmd="git__handoff__subcmd__show"
                ;;
            git__handoff,snapshot)
                cmd="git__handoff__subcmd__snapshot"
                ;;
            git__handoff,start)
                cmd="git__handoff__subcmd__start"
                ;;
            git__handoff,sync)
                cmd="git__handoff__subcmd__sync"
                ;;
            git__handoff,validate)
                cmd="git__handoff__subcmd__validate"
                ;;
            git__handoff__subcmd__help,completions)
                cmd="git__handoff__subcmd__help__subcmd__completions"
                ;;
            git__handoff__subcmd__help,demo)
                cmd="git__handoff__subcmd__help__subcmd__demo"
                ;;
            git__handoff__subcmd__help,digest)
                cmd="git__handoff__subcmd__help__subcmd__digest"
                ;;
            git__handoff__subcmd__help,help)
                cmd="git__handoff__subcmd__help__subcmd__help"
                ;;
            git__handoff__subcmd__help,hooks)
                cmd="git__handoff__subcmd__help__subcmd__hooks"
                ;;
            git__handoff__subcmd__help,install-man)
                cmd="git__handoff__subcmd__help__subcmd__install__subcmd__man"
                ;;
            git__handoff__subcmd__help,log)
                cmd="git__handoff__subcmd__help__subcmd__log"
                ;;
            git__handoff__subcmd__help,mcp)
                cmd="git__handoff__subcmd__help__subcmd__mcp"
                ;;
            git__handoff__subcmd__help,note)
                cmd="git__handoff__subcmd__help__subcmd__note"
                ;;
            git__handoff__subcmd__help,progress)
                cmd="git__handoff__subcmd__help__subcmd__progress"
                ;;
            git__handoff__subcmd__help,recall)
                cmd="git__handoff__subcmd__help__subcmd__recall"
                ;;
            git__handoff__subcmd__help,record)
                cmd="git__handoff__subcmd__help__subcmd__record"
                ;;
            git__handoff__subcmd__help,seal)
                cmd="git__handoff__subcmd__help__subcmd__seal"
                ;;
            git__handoff__subcmd__help,show)
                cmd="git__handoff__subcmd__help__subcmd__show"
                ;;
            git__handoff__subcmd__help,snapshot)
                cmd="git__handoff__subcmd__help__subcmd__snapshot"
                ;;
            git__handoff__subcmd__help,start)
                cmd="git__handoff__subcmd__help__subcmd__start"
                ;;
            git__handoff__subcmd__help,sync)
                cmd="git__handoff__subcmd__help__subcmd__sync"
                ;;
            git__handoff__subcmd__help,validate)
                cmd="git__handoff__subcmd__help__subcmd__validate"
                ;;
            git__handoff__subcmd__help__subcmd__hooks,install)
                cmd="git__handoff__subcmd__help__subcmd__hooks__subcmd__install"
                ;;
            git__handoff__subcmd__help__subcmd__hooks,status)
                cmd="git__handoff__subcmd__help__subcmd__hooks__subcmd__status"
                ;;
            git__handoff__subcmd__help__subcmd__hooks,uninstall)
                cmd="git__handoff__subcmd__help__subcmd__hooks__subcmd__uninstall"
                ;;
            git__handoff__subcmd__help__subcmd__progress,plan)
                cmd="git__handoff__subcmd__help__subcmd__progress__subcmd__plan"
                ;;
            git__handoff__subcmd__help__subcmd__progress,set)
                cmd="git__handoff__subcmd__help__subcmd__progress__subcmd__set"
                ;;
            git__handoff__subcmd__help__subcmd__progress,show)
                cmd="git__handoff__subcmd__help__subcmd__progress__subcmd__show"
                ;;
            git__handoff__subcmd__hooks,help)
                cmd="git__handoff__subcmd__hooks__subcmd__help"
                ;;
            git__handoff__subcmd__hooks,install)
                cmd="git__handoff__subcmd__hooks__subcmd__install"
                ;;
            git__handoff__subcmd__hooks,status)
                cmd="git__handoff__subcmd__hooks__subcmd__status"
                ;;
            git__handoff__subcmd__hooks,uninstall)
                cmd="git__handoff__subcmd__hooks__subcmd__uninstall"
                ;;
            git__handoff__subcmd__hooks__subcmd__help,help)
                cmd="git__handoff__subcmd__hooks__subcmd__help__subcmd__help"
                ;;
            git__handoff__subcmd__hooks__subcmd__help,install)
                cmd="git__handoff__subcmd__hooks__subcmd__help__subcmd__install"
                ;;
            git__handoff__subcmd__hooks__subcmd__help,status)
                cmd="git__handoff__subcmd__hooks__subcmd__help__subcmd__status"
                ;;
            git__handoff__subcmd__hooks__subcmd__help,uninstall)
                cmd="git__handoff__subcmd__hooks__subcmd__help__subcmd__uninstall"
                ;;
            git__handoff__subcmd__progress,help)
                cmd="git__handoff__subcmd__progress__subcmd__help"
                ;;
            git__handoff__subcmd__progress,plan)
                cmd="git__handoff__subcmd__progress__subcmd__plan"
                ;;
            git__handoff__subcmd__progress,set)
                cmd="git__handoff__subcmd__progress__subcmd__set"
                ;;
            git__handoff__subcmd__progress,show)
                cmd="git__handoff__subcmd__progress__subcmd__show"
                ;;
            git__handoff__subcmd__progress__subcmd__help,help)
                cmd="git__handoff__subcmd__progress__subcmd__help__subcmd__help"
                ;;
            git__handoff__subcmd__progress__subcmd__help,plan)
                cmd="git__handoff__subcmd__progress__subcmd__help__subcmd__plan"
                ;;
            git__handoff__subcmd__progress__subcmd__help,set)
                cmd="git__handoff__subcmd__progress__subcmd__help__subcmd__set"
                ;;
            git__handoff__subcmd__progress__subcmd__help,show)
                cmd="git__handoff__subcmd__progress__subcmd__help__subcmd__show"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        git__handoff)
            opts="-C -h -V --json --color --help --version start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__completions)
            opts="-C -h -V --json --color --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__demo)
            opts="-C -h -V --keep --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__digest)
            opts="-C -h -V --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help)
            opts="start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__demo)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__digest)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__hooks)
            opts="install uninstall status"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__hooks__subcmd__install)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__hooks__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__hooks__subcmd__uninstall)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__install__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__log)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__mcp)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__note)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__progress)
            opts="plan set show"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__progress__subcmd__plan)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__progress__subcmd__set)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__progress__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__recall)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__record)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__seal)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__snapshot)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__start)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__sync)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__help__subcmd__validate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks)
            opts="-C -h -V --json --color --help --version install uninstall status help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks__subcmd__help)
            opts="install uninstall status help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks__subcmd__help__subcmd__install)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks__subcmd__help__subcmd__uninstall)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks__subcmd__install)
            opts="-C -h -V --pre-push --claude --codex --gemini --copilot --opencode --dry-run --push-notes --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks__subcmd__status)
            opts="-C -h -V --check --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__hooks__subcmd__uninstall)
            opts="-C -h -V --pre-push --claude --codex --gemini --copilot --opencode --dry-run --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__install__subcmd__man)
            opts="-C -h -V --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__log)
            opts="-C -h -V --issue --oneline --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts} $(__git_handoff_refs)" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts} $(__git_handoff_refs)" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__mcp)
            opts="-C -h -V --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__note)
            opts="-C -h -V --from --summary --emergency --facts --digest-only --issue --base --started-at --json --color --help --version --reason"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --summary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --facts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -W "$(__git_handoff_refs)" -- "${cur}"))
                    return 0
                    ;;
                --started-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -W "token_soft_threshold token_hard_limit turn_limit time_limit cost_hard_limit operator_request agent_request" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress)
            opts="-C -h -V --json --color --help --version plan set show help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress__subcmd__help)
            opts="plan set show help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress__subcmd__help__subcmd__plan)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress__subcmd__help__subcmd__set)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress__subcmd__plan)
            opts="-C -h -V --findings --force --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress__subcmd__set)
            opts="-C -h -V --note --files --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --note)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --files)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__progress__subcmd__show)
            opts="-C -h -V --write --issue --base --started-at --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --write)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -W "$(__git_handoff_refs)" -- "${cur}"))
                    return 0
                    ;;
                --started-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__recall)
            opts="-C -h -V --max-lines --source --hook --issue --base --started-at --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-lines)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --source)
                    COMPREPLY=($(compgen -W "startup resume clear compact fork" -- "${cur}"))
                    return 0
                    ;;
                --hook)
                    COMPREPLY=($(compgen -W "claude codex gemini copilot" -- "${cur}"))
                    return 0
                    ;;
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -W "$(__git_handoff_refs)" -- "${cur}"))
                    return 0
                    ;;
                --started-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__record)
            opts="-C -h -V --agent --event --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --agent)
                    COMPREPLY=($(compgen -W "claude codex gemini copilot generic" -- "${cur}"))
                    return 0
                    ;;
                --event)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__seal)
            opts="-m -C -h -V --message --allow-secrets --issue --base --started-at --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --message)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -m)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -W "$(__git_handoff_refs)" -- "${cur}"))
                    return 0
                    ;;
                --started-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__show)
            opts="-C -h -V --issue --base --started-at --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts} $(__git_handoff_refs)" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -W "$(__git_handoff_refs)" -- "${cur}"))
                    return 0
                    ;;
                --started-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts} $(__git_handoff_refs)" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__snapshot)
            opts="-C -h -V --max-lines --prompt --followup --plain-git --issue --base --started-at --json --color --help --version --reason"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-lines)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -W "$(__git_handoff_refs)" -- "${cur}"))
                    return 0
                    ;;
                --started-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -W "token_soft_threshold token_hard_limit turn_limit time_limit cost_hard_limit operator_request agent_request" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__start)
            opts="-C -h -V --issue --base --started-at --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -W "$(__git_handoff_refs)" -- "${cur}"))
                    return 0
                    ;;
                --started-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__sync)
            opts="-C -h -V --compact --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts} $(__git_handoff_remotes)" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts} $(__git_handoff_remotes)" -- "${cur}") )
            return 0
            ;;
        git__handoff__subcmd__validate)
            opts="-C -h -V --base --issue --pre-push --json --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts} $(__git_handoff_refs)" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --base)
                    COMPREPLY=($(compgen -W "$(__git_handoff_refs)" -- "${cur}"))
                    return 0
                    ;;
                --issue)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts} $(__git_handoff_refs)" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _git__handoff -o nosort -o bashdefault -o default git-handoff
else
    complete -F _git__handoff -o bashdefault -o default git-handoff
fi

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

# git's bash completion calls this for `git handoff <TAB>` (load git's completion first).
_git_handoff ()
{
	local subcommands="start snapshot seal note progress record digest validate sync recall show log mcp hooks demo install-man completions"
	local subcommand="$(__git_find_on_cmdline "$subcommands")"
	if [ -z "$subcommand" ]; then
		case "$cur" in
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--color= --help --json --version"; return ;;
		esac
		case "$prev" in
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		__gitcomp "$subcommands"
		return
	fi
	case "$subcommand" in
	start)
		case "$cur" in
		--base=*) __git_complete_refs --cur="${cur##--base=}"; return ;;
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--base= --color= --help --issue= --json --started-at= --version"; return ;;
		esac
		case "$prev" in
		--issue) :; return ;;
		--base) __git_complete_refs --cur="$cur"; return ;;
		--started-at) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		;;
	snapshot)
		case "$cur" in
		--base=*) __git_complete_refs --cur="${cur##--base=}"; return ;;
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		--reason=*) __gitcomp "token_soft_threshold token_hard_limit turn_limit time_limit cost_hard_limit operator_request agent_request" "" "${cur##--reason=}"; return ;;
		-*) __gitcomp "--base= --color= --followup --help --issue= --json --max-lines= --plain-git --prompt --reason= --started-at= --version"; return ;;
		esac
		case "$prev" in
		--max-lines) :; return ;;
		--issue) :; return ;;
		--base) __git_complete_refs --cur="$cur"; return ;;
		--started-at) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		--reason) __gitcomp "token_soft_threshold token_hard_limit turn_limit time_limit cost_hard_limit operator_request agent_request" "" "$cur"; return ;;
		esac
		;;
	seal)
		case "$cur" in
		--base=*) __git_complete_refs --cur="${cur##--base=}"; return ;;
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--allow-secrets --base= --color= --help --issue= --json --message= --started-at= --version"; return ;;
		esac
		case "$prev" in
		--message) :; return ;;
		--issue) :; return ;;
		--base) __git_complete_refs --cur="$cur"; return ;;
		--started-at) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		;;
	note)
		case "$cur" in
		--base=*) __git_complete_refs --cur="${cur##--base=}"; return ;;
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		--reason=*) __gitcomp "token_soft_threshold token_hard_limit turn_limit time_limit cost_hard_limit operator_request agent_request" "" "${cur##--reason=}"; return ;;
		-*) __gitcomp "--base= --color= --digest-only --emergency --facts= --from= --help --issue= --json --reason= --started-at= --summary= --version"; return ;;
		esac
		case "$prev" in
		--from) :; return ;;
		--summary) :; return ;;
		--facts) :; return ;;
		--issue) :; return ;;
		--base) __git_complete_refs --cur="$cur"; return ;;
		--started-at) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		--reason) __gitcomp "token_soft_threshold token_hard_limit turn_limit time_limit cost_hard_limit operator_request agent_request" "" "$cur"; return ;;
		esac
		;;
	progress)
		local nested="$(__git_find_on_cmdline "plan set show")"
		if [ -z "$nested" ]; then
			__gitcomp "plan set show"
			return
		fi
		case "$nested" in
		plan)
			case "$cur" in
			--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
			-*) __gitcomp "--color= --findings --force --help --json --version"; return ;;
			esac
			case "$prev" in
			--color) __gitcomp "auto always never" "" "$cur"; return ;;
			esac
			;;
		set)
			case "$cur" in
			--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
			-*) __gitcomp "--color= --files= --help --json --note= --version"; return ;;
			esac
			case "$prev" in
			--note) :; return ;;
			--files) :; return ;;
			--color) __gitcomp "auto always never" "" "$cur"; return ;;
			esac
			;;
		show)
			case "$cur" in
			--base=*) __git_complete_refs --cur="${cur##--base=}"; return ;;
			--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
			-*) __gitcomp "--base= --color= --help --issue= --json --started-at= --version --write="; return ;;
			esac
			case "$prev" in
			--write) :; return ;;
			--issue) :; return ;;
			--base) __git_complete_refs --cur="$cur"; return ;;
			--started-at) :; return ;;
			--color) __gitcomp "auto always never" "" "$cur"; return ;;
			esac
			;;
		esac
		;;
	record)
		case "$cur" in
		--agent=*) __gitcomp "claude codex gemini copilot generic" "" "${cur##--agent=}"; return ;;
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--agent= --color= --event= --help --json --version"; return ;;
		esac
		case "$prev" in
		--agent) __gitcomp "claude codex gemini copilot generic" "" "$cur"; return ;;
		--event) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		;;
	digest)
		case "$cur" in
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--color= --help --json --version"; return ;;
		esac
		case "$prev" in
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		;;
	validate)
		case "$cur" in
		--base=*) __git_complete_refs --cur="${cur##--base=}"; return ;;
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--base= --color= --help --issue= --json --pre-push --version"; return ;;
		esac
		case "$prev" in
		--base) __git_complete_refs --cur="$cur"; return ;;
		--issue) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		__git_complete_refs --cur="$cur"
		;;
	sync)
		case "$cur" in
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--color= --compact --help --json --version"; return ;;
		esac
		case "$prev" in
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		__gitcomp_nl "$(__git_remotes)" "" "$cur"
		;;
	recall)
		case "$cur" in
		--source=*) __gitcomp "startup resume clear compact fork" "" "${cur##--source=}"; return ;;
		--hook=*) __gitcomp "claude codex gemini copilot" "" "${cur##--hook=}"; return ;;
		--base=*) __git_complete_refs --cur="${cur##--base=}"; return ;;
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--base= --color= --help --hook= --issue= --json --max-lines= --source= --started-at= --version"; return ;;
		esac
		case "$prev" in
		--max-lines) :; return ;;
		--source) __gitcomp "startup resume clear compact fork" "" "$cur"; return ;;
		--hook) __gitcomp "claude codex gemini copilot" "" "$cur"; return ;;
		--issue) :; return ;;
		--base) __git_complete_refs --cur="$cur"; return ;;
		--started-at) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		;;
	show)
		case "$cur" in
		--base=*) __git_complete_refs --cur="${cur##--base=}"; return ;;
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--base= --color= --help --issue= --json --started-at= --version"; return ;;
		esac
		case "$prev" in
		--issue) :; return ;;
		--base) __git_complete_refs --cur="$cur"; return ;;
		--started-at) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		__git_complete_refs --cur="$cur"
		;;
	log)
		case "$cur" in
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--color= --help --issue= --json --oneline --version"; return ;;
		esac
		case "$prev" in
		--issue) :; return ;;
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		__git_complete_refs --cur="$cur"
		;;
	mcp)
		case "$cur" in
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--color= --help --json --version"; return ;;
		esac
		case "$prev" in
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		;;
	hooks)
		local nested="$(__git_find_on_cmdline "install uninstall status")"
		if [ -z "$nested" ]; then
			__gitcomp "install uninstall status"
			return
		fi
		case "$nested" in
		install)
			case "$cur" in
			--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
			-*) __gitcomp "--claude --codex --color= --copilot --dry-run --gemini --help --json --opencode --pre-push --push-notes --version"; return ;;
			esac
			case "$prev" in
			--color) __gitcomp "auto always never" "" "$cur"; return ;;
			esac
			;;
		uninstall)
			case "$cur" in
			--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
			-*) __gitcomp "--claude --codex --color= --copilot --dry-run --gemini --help --json --opencode --pre-push --version"; return ;;
			esac
			case "$prev" in
			--color) __gitcomp "auto always never" "" "$cur"; return ;;
			esac
			;;
		status)
			case "$cur" in
			--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
			-*) __gitcomp "--check --color= --help --json --version"; return ;;
			esac
			case "$prev" in
			--color) __gitcomp "auto always never" "" "$cur"; return ;;
			esac
			;;
		esac
		;;
	demo)
		case "$cur" in
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--color= --help --json --keep --version"; return ;;
		esac
		case "$prev" in
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		;;
	install-man)
		case "$cur" in
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--color= --help --json --version"; return ;;
		esac
		case "$prev" in
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		;;
	completions)
		case "$cur" in
		--color=*) __gitcomp "auto always never" "" "${cur##--color=}"; return ;;
		-*) __gitcomp "--color= --help --json --version"; return ;;
		esac
		case "$prev" in
		--color) __gitcomp "auto always never" "" "$cur"; return ;;
		esac
		__gitcomp "bash elvish fish powershell zsh" "" "$cur"
		;;
	esac
}
