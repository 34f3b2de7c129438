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

# The release binary, built once, first on PATH so `git handoff` finds it.
build_release() {
  (cd "$ROOT" && cargo build --release --quiet)
  export PATH="$ROOT/target/release:$PATH"
  HANDOFF="$ROOT/target/release/git-handoff"
}

now_ns() { date +%s%N; }

# time_once CMD... : wall milliseconds (3 decimals) of one run, output discarded.
time_once() {
  local start end
  start=$(now_ns)
  "$@" >/dev/null 2>&1 || true
  end=$(now_ns)
  awk -v d=$((end - start)) 'BEGIN { printf "%.3f\n", d / 1e6 }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# side_by_side LABEL "OURS" "THEIRS": runs both shell snippets alternately $RUNS times (after one
# warm-up each) and prints both medians and the ratio ours/theirs.
side_by_side() {
  local label=$1 ours=$2 theirs=$3 a=() b=() i
  bash -c "$ours" >/dev/null 2>&1 || true
  bash -c "$theirs" >/dev/null 2>&1 || true
  for ((i = 0; i < RUNS; i++)); do
    a+=("$(time_once bash -c "$ours")")
    b+=("$(time_once bash -c "$theirs")")
  done
  local ma mb
  ma=$(printf '%s\n' "${a[@]}" | median)
  mb=$(printf '%s\n' "${b[@]}" | median)
  printf '%-44s %10s ms %10s ms %7s\n' "$label" "$ma" "$mb" "$(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2fx", a / b }')"
}

header() {
  printf '\n%-44s %13s %13s %7s\n' "$1" "git-handoff" "plain git" "ratio"
}
