#!/usr/bin/env bash
# The hot paths of two builds side by side in instructions (valgrind's callgrind counts the
# instructions of git-handoff's own process, not of the git it starts: repeatable whatever else
# the machine runs): `record` of one hook payload, `snapshot`, `validate` over 300 commits and
# `seal` of 31 changed files, in a generated repository of 2,000 files.
#
# Usage: bench/profiles.sh BINARY...
#   e.g. bench/build-time.sh && bench/profiles.sh bench/work/build-time/worktree/git-handoff-{release,dist}
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: bench/profiles.sh BINARY..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "SKIPPED: bench/profiles.sh needs valgrind" >&2; exit 0; }
source "$(dirname "$0")/lib.sh"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z
W=$WORK/profiles
if [ ! -d "$W/repo" ]; then
  mkdir -p "$W" && git init -q -b main "$W/repo"
  (
    cd "$W/repo"
    for d in $(seq 1 40); do
      mkdir -p "d$d"
      for f in $(seq 1 50); do echo "file $d $f" >"d$d/f$f.txt"; done
    done
    git add -A && git commit -qm base
    for c in $(seq 1 300); do
      echo "change $c" >>"d$((c % 40 + 1))/f$((c % 50 + 1)).txt"
      git commit -qam "commit $c"
    done
  )
fi
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-60s %12s %12s %12s %12s\n' binary record snapshot validate seal
for bin in "$@"; do
  bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
  run=$W/run
  rm -rf "$run" && cp -a "$W/repo" "$run"
  (
    cd "$run"
    "$bin" start --issue 1 --base HEAD~200 >/dev/null
    payload='{"session_id":"s","transcript_path":"/t.jsonl","cwd":"'$run'","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"cargo test"},"tool_response":{"stdout":"test result: ok","stderr":"","interrupted":false}}'
    record=$(echo "$payload" | instructions "$bin" record)
    for f in $(seq 1 30); do echo more >>"d$f/f3.txt"; done
    echo new >d1/new.txt
    snapshot=$(instructions "$bin" snapshot)
    validate=$(instructions "$bin" validate HEAD --base HEAD~300 || true)
    seal=$(instructions "$bin" seal)
    printf '%-60s %12s %12s %12s %12s\n' "$bin" "$record" "$snapshot" "$validate" "$seal"
  )
done
