# Shared helpers for the benchmark scripts: hermetic git, a release build, and side-by-side
# median timing. Source it; do not run it.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
WORK=${BENCH_WORK:-$BENCH_DIR/work}
RUNS=${BENCH_RUNS:-11}
mkdir -p "$WORK"

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 TZ=UTC LC_ALL=C
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
export GIT_AUTHOR_DATE=2026-11-30T03:00:00Z GIT_COMMITTER_DATE=2026-11-30T03:00:00Z

# The release binary, built once, first on PATH so `git handoff` finds it. HANDOFF_BIN=path uses
# that binary instead, without building (to compare two builds, or while cargo is busy).
build_release() {
  if [ -n "${HANDOFF_BIN:-}" ]; then
    HANDOFF=$(cd "$(dirname "$HANDOFF_BIN")" && pwd)/$(basename "$HANDOFF_BIN")
  else
    (cd "$ROOT" && cargo build --release --quiet)
    HANDOFF=${CARGO_TARGET_DIR:-$ROOT/target}/release/git-handoff
  fi
  local bindir
  bindir=$(mktemp -d)
  ln -s "$HANDOFF" "$bindir/git-handoff"
  export PATH="$bindir:$PATH"
}

# time_once CMD... : wall milliseconds (3 decimals) of one run, output discarded. $EPOCHREALTIME
# needs no fork, so the harness adds almost nothing to what it times.
time_once() {
  local start end
  start=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || true
  end=$EPOCHREALTIME
  printf '%d.%03d\n' $(((${end/./} - ${start/./}) / 1000)) $(((${end/./} - ${start/./}) % 1000))
}

# run_snippet SNIPPET: a shell snippet in a subshell (a fork, not a new bash), so both sides of a
# comparison pay the same small start-up.
run_snippet() { (eval "$1"); }

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# side_by_side LABEL "OURS" "THEIRS" ["PREP"]: runs both shell snippets alternately $RUNS times
# (after one warm-up each) and prints both medians and the ratio ours/theirs. PREP, when given,
# runs untimed before every timed run of either side (to clear a cache, say).
side_by_side() {
  local label=$1 ours=$2 theirs=$3 prep=${4:-} a=() b=() i
  run_snippet "$ours" >/dev/null 2>&1 || true
  run_snippet "$theirs" >/dev/null 2>&1 || true
  for ((i = 0; i < RUNS; i++)); do
    [ -z "$prep" ] || run_snippet "$prep" >/dev/null 2>&1 || true
    a+=("$(time_once run_snippet "$ours")")
    [ -z "$prep" ] || run_snippet "$prep" >/dev/null 2>&1 || true
    b+=("$(time_once run_snippet "$theirs")")
  done
  local ma mb
  ma=$(printf '%s\n' "${a[@]}" | median)
  mb=$(printf '%s\n' "${b[@]}" | median)
  printf '%-44s %10s ms %10s ms %7s\n' "$label" "$ma" "$mb" "$(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2fx", a / b }')"
}

header() {
  printf '\n%-44s %13s %13s %7s\n' "$1" "git-handoff" "plain git" "ratio"
}
