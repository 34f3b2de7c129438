#!/usr/bin/env bash
# Start-up cost of `git handoff record` (run on every agent tool call) in two release builds side
# by side: a base revision's and the work tree's. For changes that add code the record path does
# not run (a new command, a dependency): the binary grows, and this says whether starting it got
# slower. Prints the binary sizes, the median wall time per call of each build and of /bin/true
# (interleaved, so load from other processes hits all three alike), and CPU time per call.
#
# Usage: bench/startup.sh [BASE_REV] [RUNS]   (default: the merge-base with main; 300 runs)
# Builds both with `cargo build --release` (CARGO_TARGET_DIR honoured); work goes to bench/work/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BASE=$(git rev-parse --short "${1:-$(git merge-base HEAD main)}")
RUNS=${2:-300}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
WORK=$ROOT/bench/work/startup
rm -rf "$WORK" && mkdir -p "$WORK/base"

# Both builds land in the same target dir (dependencies are shared); each binary is copied away.
git archive "$BASE" | tar -x -C "$WORK/base"
(cd "$WORK/base" && cargo build --release --locked --quiet --target-dir "$TARGET")
cp "$TARGET/release/git-handoff" "$WORK/git-handoff-base"
# Cargo takes the two trees for one package: without this the second build finds the first fresh.
cargo clean --release --quiet -p git-handoff --target-dir "$TARGET"
cargo build --release --locked --quiet
cp "$TARGET/release/git-handoff" "$WORK/git-handoff-head"
A=$WORK/git-handoff-base B=$WORK/git-handoff-head

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
unset GIT_DIR GIT_WORK_TREE
REPO=$WORK/repo
git init -q -b main "$REPO"
git -C "$REPO" -c user.name=bench -c user.email=bench@example.com commit -q --allow-empty -m init
"$B" -C "$REPO" start --issue 1 >/dev/null
cat >"$WORK/payload.json" <<JSON
{"session_id":"s","transcript_path":"/t.jsonl","cwd":"$REPO","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"cargo test 2>&1"},"tool_response":{"stdout":"test result: ok","stderr":"","interrupted":false}}
JSON

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Microseconds of one run of "$@" with the payload on stdin ($EPOCHREALTIME: no fork to time it).
us() {
  local t0 t1
  t0=$EPOCHREALTIME
  (cd "$REPO" && "$@" <"$WORK/payload.json" >/dev/null)
  t1=$EPOCHREALTIME
  echo $(( ${t1/./} - ${t0/./} ))
}
ta=() tb=() tt=()
for ((i = 0; i < RUNS; i++)); do
  tt+=("$(us /bin/true)")
  ta+=("$(us "$A" record)")
  tb+=("$(us "$B" record)")
done
cpu_us() {
  { /usr/bin/time -f '%U %S' bash -c 'cd "$1"; shift; for ((i = 0; i < '"$RUNS"'; i++)); do "$@" <"'"$WORK"'/payload.json" >/dev/null; done' _ "$REPO" "$@"; } 2>&1 |
    tail -1 | awk -v n="$RUNS" '{printf "%d", ($1 + $2) * 1e6 / n}'
}
ms() { awk -v us="$1" 'BEGIN {printf "%.2f ms", us / 1000}'; }
size() { awk -v b="$(stat -c %s "$1")" 'BEGIN {printf "%.2f MiB", b / 1048576}'; }

echo "record start-up, $RUNS runs interleaved ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-22s %10s %14s %14s\n' build size "median wall" "CPU per call"
printf '%-22s %10s %14s %14s\n' "base $BASE" "$(size "$A")" "$(ms "$(median "${ta[@]}")")" \
  "$( [[ -x /usr/bin/time ]] && ms "$(cpu_us "$A" record)" || echo n/a)"
printf '%-22s %10s %14s %14s\n' "work tree" "$(size "$B")" "$(ms "$(median "${tb[@]}")")" \
  "$( [[ -x /usr/bin/time ]] && ms "$(cpu_us "$B" record)" || echo n/a)"
printf '%-22s %10s %14s %14s\n' "/bin/true" "" "$(ms "$(median "${tt[@]}")")" \
  "$( [[ -x /usr/bin/time ]] && ms "$(cpu_us /bin/true)" || echo n/a)"
