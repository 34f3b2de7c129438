#!/usr/bin/env bash
# Benchmark of what a repository's `.handoff.toml` patterns cost `git handoff record` (one call per
# agent tool call): median wall time with no configuration, with 200 valid patterns (over the cap
# of 64 a key: refused at once), and with the most that is taken (64 patterns in each of
# `secrets.patterns` and `redact.patterns`, simple ones and ones near the 256 KiB compiled cap).
# Target: record's cost independent of the patterns within a few milliseconds.
#
# Usage: bench/patterns.sh [RUNS]     (RUNS per configuration, default 200)
# Builds the release binary; generated data goes to bench/work/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-200}
ROOT=$PWD
WORK=$ROOT/bench/work/patterns
cargo build --release --quiet
BIN=$ROOT/target/release/git-handoff

rm -rf "$WORK" && mkdir -p "$WORK"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
unset GIT_DIR GIT_WORK_TREE
REPO=$WORK/repo
git init -q -b main "$REPO"
git -C "$REPO" -c user.name=bench -c user.email=bench@example.com commit -q --allow-empty -m init
"$BIN" -C "$REPO" start --issue 1 >/dev/null
cat >"$WORK/payload.json" <<JSON
{"session_id":"s-1","cwd":"$REPO","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"t-1","tool_input":{"command":"cargo test --workspace"},"tool_response":{"stdout":"ok","stderr":"","interrupted":false}}
JSON

# `[KEY] patterns = [...]` of N patterns made from FORMAT (one %d for the index).
key() {
  python3 -c 'import json, sys
key, fmt, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
print("[%s]\npatterns = [%s]" % (key, ", ".join(json.dumps(fmt % i) for i in range(n))))' "$@"
}

# The median wall time of RUNS `record` calls, in milliseconds, and record's exit code.
median_ms() {
  local times=() t0 t1 code=0
  (cd "$REPO" && "$BIN" record <"$WORK/payload.json" 2>/dev/null) || code=$?
  for ((i = 0; i < RUNS; i++)); do
    t0=$EPOCHREALTIME
    (cd "$REPO" && "$BIN" record <"$WORK/payload.json" 2>/dev/null) || true
    t1=$EPOCHREALTIME
    times+=("$(echo "($t1 - $t0) * 1000" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk -v code="$code" \
    '{ a[NR] = $1 } END { printf "%7.2f ms  exit %s", a[int((NR + 1) / 2)], code }'
}

run() {
  local label=$1; shift
  if [ $# -eq 0 ]; then rm -f "$REPO/.handoff.toml"; else printf '%s\n' "$@" >"$REPO/.handoff.toml"; fi
  printf '%-56s %s\n' "$label" "$(median_ms)"
}

echo "git handoff record, median of $RUNS runs"
run "no .handoff.toml"
run "200 patterns in redact.patterns (refused)" "$(key redact 'CORP%d_[A-Z0-9]{20}' 200)"
run "64 patterns in redact.patterns" "$(key redact 'CORP%d_[A-Z0-9]{20}' 64)"
run "64 secrets.patterns + 64 redact.patterns" \
  "$(key secrets 'CORP%d_[A-Z0-9]{20}' 64)" "$(key redact 'TOK%d_[a-f0-9]{32}' 64)"
run "64 + 64 near the compiled-size cap" \
  "$(key secrets '(?i)K%d_[[:alnum:]]{8}' 64)" "$(key redact '(?i)T%d_[[:alnum:]]{8}' 64)"
run "2 patterns over the compiled-size cap (refused)" "$(key redact '\w{50}x%d' 2)"
