#!/usr/bin/env bash
# Growth (issue 61): what `note --emergency`, `recall` and `record` cost in a repository that
# already holds the records of 10, 1,000 and 10,000 attempts (one emergency note per issue, each on
# its own branch, its record on the note commit and on its issue's and branch's keys), with as many
# branches and as many writers' refs fetched by sync (refs/handoff/remotes/origin/writers/*). The
# repositories are generated with git fast-import, in the layout the build writes (keys under
# `handoff-keys/`, or with OLD_BIN's layout: a top-level `handoff-key-<id>` entry each). For each
# size it prints the medians of GROWTH_RUNS (default 7) runs, how much `.git/objects` grew (apparent size) per
# `note --emergency` (gc.auto=0: the note, its seal and its records, as loose objects), and the
# entries at the top of the notes tree. Plain git beside them: `git notes
# --ref=handoff add` of one note (one notes commit) and `git notes show`.
#   bash bench/growth.sh
#   GROWTH_SIZES="10 1000 10000" OLD_BIN=/tmp/git-handoff-old HANDOFF_BIN=... bash bench/growth.sh
source "$(dirname "$0")/lib.sh"
build_release
NEW_BIN=$HANDOFF
SIZES=${GROWTH_SIZES:-"10 1000 10000"}
GRUNS=${GROWTH_RUNS:-7}

# generate DIR N LAYOUT: a repository with N attempts' records.
generate() {
  local dir=$1 n=$2 layout=$3
  rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" && git init -q -b main
  git config gc.auto 0
  echo base > README && git add README && git commit -q -m base
  python3 - "$n" <<'PY' | git fast-import --quiet --export-marks=../marks-$$
import sys
n = int(sys.argv[1]); out = sys.stdout.buffer
def data(b):
    out.write(b"data %d\n" % len(b)); out.write(b); out.write(b"\n")
t = 1764468000
for i in range(1, n + 1):
    out.write(b"commit refs/heads/a%d\nmark :%d\n" % (i, i))
    out.write(b"author A <a@x> %d +0000\ncommitter A <a@x> %d +0000\n" % (t + i, t + i))
    data(b"Handoff note: issue #%d\n\nReason: time_limit\n" % i)
    out.write(b"from refs/heads/main^0\n")
    out.write(b"M 100644 inline .agent/handoff/%d.md\n" % i); data(b"# Handoff note: issue #%d\n" % i)
PY
  python3 - "$n" "$layout" "../marks-$$" <<'PY' | git fast-import --quiet
import hashlib, sys
n, layout, marks = int(sys.argv[1]), sys.argv[2], sys.argv[3]
out = sys.stdout.buffer
commits = {}
for line in open(marks):
    mark, sha = line.split()
    commits[int(mark[1:])] = sha
def data(b):
    out.write(b"data %d\n" % len(b)); out.write(b); out.write(b"\n")
def blob_id(b):
    return hashlib.sha1(b"blob %d\0" % len(b) + b).hexdigest()
# The fanout git itself writes (notes.c's determine_fanout): one more level of two-digit folders
# where all 16 children of a trie node at an even depth hold two notes or more.
def fanout_paths(shas):
    out = {}
    def assign(group, n, fanout):
        buckets = {}
        for sha in group:
            buckets.setdefault(sha[n], []).append(sha)
        if n % 2 == 0 and n <= 2 * fanout and len(buckets) == 16 and all(len(b) > 1 for b in buckets.values()):
            fanout += 1
        for b in buckets.values():
            if len(b) == 1:
                sha = b[0]
                out[sha] = "/".join([sha[2 * i:2 * i + 2] for i in range(fanout)] + [sha[2 * fanout:]])
            else:
                assign(b, n + 1, fanout)
    assign(shas, 0, 0)
    return out
entries = []
for i in range(1, n + 1):
    c = commits[i]
    rec = (f'[[record]]\nversion = 1\nkind = "emergency"\nissue = {i}\nbranch = "refs/heads/a{i}"\n'
           f'started_at = "2026-11-30T03:00:00Z"\nreason = "time_limit"\n'
           f'written_at = "2026-11-30T04:00:00Z"\ncommit = "{c}"\nnote_path = ".agent/handoff/{i}.md"\n'
           f'digest_line = "1 file edited"\n').encode()
    out.write(b"blob\nmark :%d\n" % (i + 10**6)); data(rec)
    entries.append((c, i + 10**6))
    for key in (b"git-handoff issue %d\n" % i, b"git-handoff branch refs/heads/a%d\n" % i):
        k = blob_id(key)
        out.write(b"blob\n"); data(key)
        entries.append((k, i + 10**6))
        if layout == "flat":
            out.write(b"")
            entries.append((f"handoff-key-{k}", None, k))
        else:
            entries.append((f"handoff-keys/{k[:2]}/{k[2:]}", None, k))
out.write(b"commit refs/notes/handoff\ncommitter A <a@x> 1764500000 +0000\n"); data(b"records")
paths = fanout_paths([e[0] for e in entries if e[1] is not None])
for e in entries:
    if e[1] is not None:
        e = (paths[e[0]], e[1])
    if e[1] is None:
        out.write(f"M 100644 {e[2]} {e[0]}\n".encode())
    else:
        out.write(f"M 100644 :{e[1]} {e[0]}\n".encode())
PY
  rm -f "../marks-$$"
  local tip
  tip=$(git rev-parse refs/notes/handoff)
  seq "$n" | sed "s|.*|create refs/handoff/remotes/origin/writers/w& $tip|" | git update-ref --stdin
  cd - >/dev/null
}

payload='{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"cargo test"},"tool_response":{"stdout":"ok","stderr":"","interrupted":false}}'

# measure LABEL BIN DIR N
measure() {
  local label=$1 bin=$2 dir=$3 n=$4 r notes=() recalls=() records=() plain=() shows=() before after top
  (
    use_dir=$(mktemp -d) && ln -s "$bin" "$use_dir/git-handoff" && export PATH="$use_dir:$PATH"
    cd "$dir"
    top=$(git ls-tree refs/notes/handoff | wc -l)
    local grown=0
    for ((r = 1; r <= GRUNS; r++)); do
      git checkout -q -b "m$r" main
      git handoff start --issue $((90000 + r)) >/dev/null
      echo "work $r" > "m$r.txt"
      printf '%s' "$payload" > /tmp/growth-payload-$$
      records+=("$(time_once sh -c "git handoff record < /tmp/growth-payload-$$")")
      before=$(du -s --apparent-size -B1024 .git/objects | cut -f1)
      notes+=("$(time_once git handoff note --emergency --reason time_limit)")
      after=$(du -s --apparent-size -B1024 .git/objects | cut -f1)
      grown=$((grown + after - before))
      recalls+=("$(time_once git handoff recall --source resume)")
      plain+=("$(time_once git notes --ref=handoff add -f -m "plain $r" "m$r")")
      shows+=("$(time_once git notes --ref=handoff show "m$r")")
    done
    rm -f /tmp/growth-payload-$$
    printf '%-4s %6d %10s %10s %10s %12s %11s %9s %6d\n' "$label" "$n" \
      "$(printf '%s\n' "${notes[@]}" | median)" "$(printf '%s\n' "${recalls[@]}" | median)" \
      "$(printf '%s\n' "${records[@]}" | median)" "$(printf '%s\n' "${plain[@]}" | median)" \
      "$(printf '%s\n' "${shows[@]}" | median)" "$((grown / GRUNS))" "$top"
  )
}

printf '%-4s %6s %10s %10s %10s %12s %11s %9s %6s\n' build N "note ms" "recall ms" "record ms" \
  "notes add ms" "notes show" "KB/note" "top"
for n in $SIZES; do
  if [ -n "${OLD_BIN:-}" ]; then
    generate "$WORK/growth-old-$n" "$n" flat
    measure old "$OLD_BIN" "$WORK/growth-old-$n" "$n"
  fi
  generate "$WORK/growth-new-$n" "$n" folder
  measure new "$NEW_BIN" "$WORK/growth-new-$n" "$n"
done
