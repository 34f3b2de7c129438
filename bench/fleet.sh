#!/usr/bin/env bash
# The fleet benchmark (issue 61): N clones, each holding one handoff (an emergency note on its own
# branch and issue), run `git handoff sync` at the same moment against one bare remote, over
# file:// (default), git:// (`git daemon` on 127.0.0.1) or smart HTTP (`git http-backend` behind
# bench/http_backend.py on 127.0.0.1). For each N it prints: wall time until every sync ended,
# syncs that succeeded, tries per writer (median / max, from `sync --json`), pushes the remote
# rejected (the report's `rejected`; tries - 1 for a build without it), records on the remote
# (notes a fresh clone holds after one sync, against 3 per writer: the commit's, the issue key's
# and the branch key's), and the cost of that fresh clone's sync (fetch and merge of every
# record) with the count of refs it read. `reconn` is the connections made again after the server
# dropped one (the report's `reconnects`: total / most of one writer; "-" for a build without it).
# `cpu` is the CPU time the syncs took, theirs and the server's (user and system, every process:
# a steadier measure than the wall time on a machine shared with other work). `objects` is what the remote holds after the fleet, loose and packed: every sync's fetch packs
# the part of it pushed before, so it is the fleet's work on the server. With OLD_BIN (an older
# build) it runs the same fleet for both builds, side by side; the new layout is also timed after
# `sync --compact`.
#   bash bench/fleet.sh
#   FLEET_N="32 128 256" FLEET_TRANSPORT="file git http" OLD_BIN=/tmp/git-handoff-old \
#     HANDOFF_BIN=target/release/git-handoff bash bench/fleet.sh
# Each fleet is bounded by FLEET_TIMEOUT seconds (default 300). `git daemon` runs with its defaults
# (32 connections at most); FLEET_DAEMON_OPTS adds options (`--max-connections=1024`, forge-like).
# FLEET_SLOTS=N sets `handoff.syncConnections` in every clone (the connections per host the syncs
# of this machine share; 0: no limit).
source "$(dirname "$0")/lib.sh"
build_release
NEW_BIN=$HANDOFF
FLEET_N=${FLEET_N:-"32 128 256"}
FLEET_TRANSPORT=${FLEET_TRANSPORT:-file}
FLEET_TIMEOUT=${FLEET_TIMEOUT:-300}
BASE=$WORK/fleet
rm -rf "$BASE"
mkdir -p "$BASE"

# children_cpu: CPU time, in centiseconds (user and system), of this shell's children that ended
# (the syncs, and every git they ran); server_cpu: the same of the server's (git-daemon's
# upload-pack and receive-pack, http_backend.py's http-backend); 0 for file://.
# (`times` must run in the shell whose children they are, not in a `$(...)`.)
children_cpu() {
  times >"$BASE/times"
  awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 6000 + t[2] * 100 } printf "%d\n", s }' "$BASE/times"
}
server_cpu() {
  if [ -n "$SERVER_PID" ]; then awk '{ print $16 + $17 }' "/proc/$SERVER_PID/stat"; else echo 0; fi
}

# use_bin PATH: `git handoff` is PATH's binary from now on.
use_bin() {
  local dir
  dir=$(mktemp -d)
  ln -s "$1" "$dir/git-handoff"
  export PATH="$dir:$PATH"
}

# serve KIND ROOT: starts the server for ROOT and sets SERVER_URL to the URL base and SERVER_PID
# to the server (none for file://). Not in a `$(...)`: the caller kills SERVER_PID at the end, so no
# server outlives the run (nor keeps open a lock file the run was started under).
SERVER_PID=
SERVER_URL=
serve() {
  local kind=$1 root=$2 port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  case $kind in
    file) SERVER_URL="file://$root" ;;
    git)
      # git-daemon itself, not `git daemon` (a parent that waits for it): killing $SERVER_PID ends
      # the server, and no orphan keeps the port (or a lock file the caller holds) open.
      # shellcheck disable=SC2086
      "$(git --exec-path)/git-daemon" --reuseaddr --export-all --enable=receive-pack --listen=127.0.0.1 --port="$port" \
        --base-path="$root" ${FLEET_DAEMON_OPTS:-} "$root" >/dev/null 2>&1 &
      SERVER_PID=$!
      SERVER_URL="git://127.0.0.1:$port" ;;
    http)
      python3 "$BENCH_DIR/http_backend.py" "$root" "$port" >/dev/null 2>&1 &
      SERVER_PID=$!
      SERVER_URL="http://127.0.0.1:$port" ;;
  esac
  if [ "$kind" != file ]; then
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
  fi
}

# one_clone URL DIR I: a clone with one emergency handoff for issue I.
one_clone() {
  local url=$1 dir=$2 i=$3
  git clone -q "$url" "$dir"
  cd "$dir"
  git checkout -q -b "b$i"
  if [ -n "${FLEET_SLOTS:-}" ]; then git config handoff.syncConnections "$FLEET_SLOTS"; fi
  git handoff start --issue "$i" >/dev/null
  echo "work $i" > "f$i.txt"
  git handoff note --emergency --reason time_limit >/dev/null 2>&1
}
export -f one_clone

fleet() {
  local label=$1 bin=$2 n=$3 kind=$4 dir url i
  dir=$BASE/$label-$kind-$n
  mkdir -p "$dir/served"
  git init -q --bare -b main "$dir/served/remote.git"
  git -C "$dir/served/remote.git" config http.receivepack true
  git init -q "$dir/seed" && echo base > "$dir/seed/README" && git -C "$dir/seed" add README &&
    git -C "$dir/seed" commit -q -m base && git -C "$dir/seed" push -q "$dir/served/remote.git" HEAD:main
  serve "$kind" "$dir/served"
  url=$SERVER_URL/remote.git
  [ "$kind" = file ] && url="file://$dir/served/remote.git"
  (
    use_bin "$bin"
    seq "$n" | xargs -P 2 -I{} bash -c 'one_clone "$0" "$1/c{}" {}' "$url" "$dir"
    local start end cpu_before
    children_cpu >"$dir/cpu"
    cpu_before=$(($(cat "$dir/cpu") + $(server_cpu)))
    start=$EPOCHREALTIME
    for ((i = 1; i <= n; i++)); do
      (cd "$dir/c$i" && timeout "$FLEET_TIMEOUT" git handoff sync --json >"$dir/r$i.json" 2>"$dir/e$i.txt") &
    done
    wait
    end=$EPOCHREALTIME
    local cpu
    children_cpu >"$dir/cpu"
    cpu=$(((($(cat "$dir/cpu") + $(server_cpu)) - cpu_before) / 10))
    local wall ok tries rejected reconn
    wall=$(awk -v a="${start/./}" -v b="${end/./}" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')
    ok=$(grep -l '"tries"' "$dir"/r*.json | wc -l)
    tries=$(python3 -c '
import json, sys
t = []; rej = 0; rec = []
for name in sys.argv[1:]:
    try: r = json.load(open(name))
    except ValueError: continue
    if "tries" not in r: continue
    t.append(r["tries"]); rej += r.get("rejected", r["tries"] - 1)
    if "reconnects" in r: rec.append(r["reconnects"])
t.sort()
reconn = f"{sum(rec)}/{max(rec)}" if rec else "-"
print(f"{t[len(t) // 2] if t else 0}/{max(t) if t else 0} {rej} {reconn}")' "$dir"/r*.json)
    # A fresh clone reads every record in one sync.
    git clone -q "$url" "$dir/reader"
    local fresh notes refs objects
    fresh=$(cd "$dir/reader" && time_once git handoff sync)
    notes=$(git -C "$dir/reader" notes --ref=handoff list | wc -l)
    refs=$(git -C "$dir/served/remote.git" for-each-ref refs/notes refs/handoff | wc -l)
    objects=$(git -C "$dir/served/remote.git" count-objects -v |
      awk '$1 == "count:" || $1 == "in-pack:" { n += $2 } END { print n }')
    read -r tries rejected reconn <<<"$tries"
    printf '%-5s %-5s %4d %8ss %5d.%ds %5d/%-4d %8s %9s %8s %6d/%-5d %4d %9s ms %7d\n' "$label" \
      "$kind" "$n" "$wall" "$((cpu / 10))" "$((cpu % 10))" "$ok" "$n" "$tries" "$rejected" "$reconn" \
      "$notes" "$((3 * n))" "$refs" "$fresh" "$objects"
    if [ "$label" = new ]; then
      (cd "$dir/reader" && git handoff sync --compact >/dev/null)
      git clone -q "$url" "$dir/reader2"
      fresh=$(cd "$dir/reader2" && time_once git handoff sync)
      notes=$(git -C "$dir/reader2" notes --ref=handoff list | wc -l)
      refs=$(git -C "$dir/served/remote.git" for-each-ref refs/notes refs/handoff | wc -l)
      printf '%-5s %-5s %4d %9s %7s %10s %8s %9s %8s %6d/%-5d %4d %9s ms\n' "new+c" "$kind" "$n" "" "" "" \
        "" "" "" "$notes" "$((3 * n))" "$refs" "$fresh"
    fi
  )
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null || true; fi
  SERVER_PID=
  rm -rf "$dir"
}

printf '%-5s %-5s %4s %9s %7s %10s %8s %9s %8s %12s %4s %12s %7s\n' layout via N wall cpu ok tries \
  rejected reconn "notes/exp" refs "fresh sync" objects
for kind in $FLEET_TRANSPORT; do
  for n in $FLEET_N; do
    [ -n "${OLD_BIN:-}" ] && fleet old "$OLD_BIN" "$n" "$kind"
    fleet new "$NEW_BIN" "$n" "$kind"
  done
done
