# The configurations git users run large trees with, set up on one repository in turn. Source it
# (after lib.sh); do not run it.
#
#   configure DIR NAME   puts DIR's repository in configuration NAME (undoing the others first):
#     plain              git's defaults, index version 2
#     untracked-cache    core.untrackedCache=true, the cache filled
#     many-files         feature.manyFiles=true: index version 4 and the untracked cache
#     split-index        core.splitIndex=true, the index split
#     fsmonitor          core.fsmonitor with git's watchman hook (fsmonitor-watchman.sample),
#                        watchman watching the tree and the index holding its token
#   stop_watchman        shuts down the watchman this script started (also on exit)
#
# watchman comes from Debian's packages (`apt-get install -y watchman`); without it the fsmonitor
# configuration is skipped with a message. Every watchman call is bounded by `timeout`.

CONFIGS_ALL="plain untracked-cache many-files split-index fsmonitor"
WATCHMAN_STARTED=

# The hook git ships as a template, wherever this git keeps its templates.
watchman_hook_template() {
  local dir
  for dir in "$(git --exec-path)/../../share/git-core/templates/hooks" \
    /usr/local/share/git-core/templates/hooks /usr/share/git-core/templates/hooks; do
    if [ -f "$dir/fsmonitor-watchman.sample" ]; then
      echo "$dir/fsmonitor-watchman.sample"
      return
    fi
  done
  return 1
}

have_watchman() { command -v watchman >/dev/null 2>&1 && watchman_hook_template >/dev/null; }

start_watchman() {
  [ -n "$WATCHMAN_STARTED" ] && return 0
  # One already running (someone else's) is used and left running.
  if pgrep -u "$(id -u)" -x watchman >/dev/null; then
    WATCHMAN_STARTED=theirs
  else
    WATCHMAN_PID=$(timeout 30 watchman get-pid | sed -n 's/.*"pid": *\([0-9]*\).*/\1/p')
    # Ended by the caller's EXIT trap (table.sh's also ends its watchdog, which a trap set here
    # would replace).
    WATCHMAN_STARTED=ours
  fi
}

stop_watchman() {
  # watchman 4.9 answers `shutdown-server` and may keep running: it is ended by its pid.
  if [ "$WATCHMAN_STARTED" = ours ]; then
    timeout 30 watchman shutdown-server >/dev/null 2>&1 || true
    [ -n "${WATCHMAN_PID:-}" ] && kill "$WATCHMAN_PID" 2>/dev/null || true
  fi
  WATCHMAN_STARTED=
}

configure() {
  local dir=$1 name=$2
  (
    cd "$dir"
    for key in core.untrackedCache feature.manyFiles core.splitIndex core.fsmonitor \
      core.fsmonitorHookVersion index.version; do
      git config --unset-all "$key" 2>/dev/null || true
    done
    git update-index --no-split-index --no-untracked-cache --no-fsmonitor --index-version 2 \
      >/dev/null 2>&1 || true
    rm -f .git/sharedindex.*
    case "$name" in
    plain) ;;
    untracked-cache)
      git config core.untrackedCache true
      git update-index --untracked-cache >/dev/null
      ;;
    many-files)
      git config feature.manyFiles true
      git update-index --index-version 4 --untracked-cache >/dev/null
      ;;
    split-index)
      git config core.splitIndex true
      git update-index --split-index >/dev/null
      ;;
    fsmonitor)
      cp "$(watchman_hook_template)" .git/hooks/query-watchman
      chmod +x .git/hooks/query-watchman
      git config core.fsmonitor .git/hooks/query-watchman
      timeout 60 watchman watch "$PWD" >/dev/null
      ;;
    *)
      echo "no configuration $name" >&2
      exit 2
      ;;
    esac
    # Twice: the first status of a configuration fills what it keeps (the untracked cache, the
    # monitor's token), the second writes an index that holds it.
    git status --porcelain >/dev/null
    sleep 1
    git status --porcelain >/dev/null
  )
}
