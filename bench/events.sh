#!/usr/bin/env bash
# Benchmark of the event log: `git handoff record` per call (median wall time, against spawning
# /bin/true) with a log of 0 and of 100,000 events, and `git handoff digest` over 100,000 events
# (median wall time and peak RSS). Targets: record <= 2 ms and flat in log size; digest <= 150 ms.
#
# Usage: bench/events.sh [RUNS]     (RUNS per measurement, default 200; digest runs RUNS/20)
# Builds the release binary; generated data goes to bench/work/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-200}
ROOT=$PWD
WORK=$ROOT/bench/work/events
cargo build --release --quiet
BIN=$ROOT/target/release/git-handoff

rm -rf "$WORK" && mkdir -p "$WORK"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
unset GIT_DIR GIT_WORK_TREE
REPO=$WORK/repo
git init -q -b main "$REPO"
git -C "$REPO" -c user.name=bench -c user.email=bench@example.com commit -q --allow-empty -m init
"$BIN" -C "$REPO" start --issue 1 >/dev/null
LOG=$REPO/.git/handoff/events.jsonl

# A realistic PostToolUse payload: a Bash check with some output (which record must drop).
OUTPUT=$(printf 'test result line %d ok\\n' $(seq 1 60) | tr -d '\n')
cat >"$WORK/payload.json" <<JSON
{"session_id":"9f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b","transcript_path":"/home/u/.claude/projects/p/9f1c.jsonl","cwd":"$REPO","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"toolu_01ABCDEF","tool_input":{"command":"cd crates/core && RUST_BACKTRACE=1 cargo test --workspace 2>&1","description":"Run the tests"},"tool_response":{"stdout":"$OUTPUT","stderr":"","interrupted":false},"duration_ms":5120}
JSON

# Median wall times, in microseconds, of RUNS runs of /bin/true and of "$@", interleaved so that
# load from other processes hits both alike; prints "<true> <command>". The payload is on stdin.
# $EPOCHREALTIME needs no fork, so the harness adds almost nothing to each run.
median_pair_us() {
  local reset=$1; shift
  local base=() times=() t0 t1
  for ((i = 0; i < RUNS; i++)); do
    t0=$EPOCHREALTIME
    /bin/true <"$WORK/payload.json" >/dev/null
    t1=$EPOCHREALTIME
    base+=($(( ${t1/./} - ${t0/./} )))
    [[ $reset == yes ]] && : >"$LOG"
    t0=$EPOCHREALTIME
    "$@" <"$WORK/payload.json" >/dev/null
    t1=$EPOCHREALTIME
    times+=($(( ${t1/./} - ${t0/./} )))
  done
  echo "$(median "${base[@]}") $(median "${times[@]}")"
}

median() {
  printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# 100,000 events of the kinds a session writes, as record writes them.
generate_log() {
  awk -v n="$1" 'BEGIN {
    for (i = 0; i < n; i++) {
      t = sprintf("2026-11-30T%02d:%02d:%02dZ", int(i / 3600) % 24, int(i / 60) % 60, i % 60)
      k = i % 10
      if (k < 4) printf "{\"v\":1,\"at\":\"%s\",\"kind\":\"tool_result\",\"agent\":\"claude\",\"event\":\"PostToolUse\",\"tool\":\"Edit\",\"target\":\"src/m%d.rs\",\"id\":\"t%d\",\"ok\":true,\"paths\":[\"src/m%d.rs\"]}\n", t, i % 500, i, i % 500
      else if (k < 7) printf "{\"v\":1,\"at\":\"%s\",\"kind\":\"tool_result\",\"agent\":\"claude\",\"event\":\"PostToolUse\",\"tool\":\"Read\",\"target\":\"src/r%d.rs\",\"id\":\"t%d\",\"ok\":true}\n", t, i % 300, i
      else if (k < 8) printf "{\"v\":1,\"at\":\"%s\",\"kind\":\"tool_result\",\"agent\":\"claude\",\"event\":\"PostToolUseFailure\",\"tool\":\"Bash\",\"target\":\"cd crates/x && cargo test -p x 2>&1\",\"id\":\"t%d\",\"ok\":false,\"exit_code\":101,\"error\":\"Exit code 101\"}\n", t, i
      else if (k < 9) printf "{\"v\":1,\"at\":\"%s\",\"kind\":\"tool_result\",\"agent\":\"claude\",\"event\":\"PostToolUse\",\"tool\":\"Bash\",\"target\":\"git status --short && git diff --stat\",\"id\":\"t%d\",\"ok\":true,\"exit_code\":0}\n", t, i
      else printf "{\"v\":1,\"at\":\"%s\",\"kind\":\"stop\",\"agent\":\"claude\",\"event\":\"Stop\",\"text\":\"I changed the parser so that nested groups close correctly; the remaining failure is in crate x, test %d.\"}\n", t, i
    }
  }'
}

read -r TRUE0_US REC0_US < <(median_pair_us yes "$BIN" record)
generate_log 100000 >"$WORK/100k.jsonl"
cp "$WORK/100k.jsonl" "$LOG"
read -r TRUE100K_US REC100K_US < <(median_pair_us no "$BIN" record)
LINES=$(wc -l <"$LOG")

cp "$WORK/100k.jsonl" "$LOG"
SIZE=$(du -h "$LOG" | cut -f1)
read -r _ DIGEST_US < <(RUNS=$(( RUNS / 20 > 5 ? RUNS / 20 : 5 )) median_pair_us no "$BIN" -C "$REPO" digest --json)
RSS=n/a
if [[ -x /usr/bin/time ]]; then
  RSS=$({ /usr/bin/time -v "$BIN" -C "$REPO" digest --json >/dev/null; } 2>&1 |
    awk -F': ' '/Maximum resident set size/ {print $2 " KiB"}')
fi

# CPU time (user+sys) per call over RUNS calls: steadier than wall time on a busy machine.
cpu_per_call_us() {
  local out
  out=$({ /usr/bin/time -f '%U %S' bash -c 'for ((i = 0; i < $0; i++)); do "${@}" <"'"$WORK"'/payload.json" >/dev/null; done' "$RUNS" "$@"; } 2>&1 | tail -1)
  awk -v t="$out" -v n="$RUNS" 'BEGIN {split(t, a, " "); printf "%d", (a[1] + a[2]) * 1e6 / n}'
}
CPU_TRUE=n/a CPU_REC=n/a
if [[ -x /usr/bin/time ]]; then
  CPU_TRUE=$(cpu_per_call_us /bin/true)
  CPU_REC=$(cpu_per_call_us "$BIN" record)
fi

ms() { awk -v us="$1" 'BEGIN {printf "%.2f ms", us / 1000}'; }
echo "git-handoff event log benchmark ($RUNS runs each, interleaved with /bin/true; $(nproc) cores; load $(cut -d' ' -f1 /proc/loadavg))"
echo "record, log of 0 events            median $(ms "$REC0_US")   /bin/true $(ms "$TRUE0_US")   record costs +$(ms $((REC0_US - TRUE0_US)))"
echo "record, log of 100,000 events      median $(ms "$REC100K_US")   /bin/true $(ms "$TRUE100K_US")   record costs +$(ms $((REC100K_US - TRUE100K_US)))   (log now $LINES lines)"
[[ $CPU_REC != n/a ]] &&
  echo "record CPU (user+sys) per call     $(ms "$CPU_REC")   /bin/true $(ms "$CPU_TRUE")   (log of 100,000+ events)"
echo "digest --json over 100,000 events  median $(ms "$DIGEST_US")   peak RSS $RSS   (log $SIZE)"
