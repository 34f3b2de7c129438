#!/usr/bin/env bash
# The side-by-side table of issues #20 and #49: snapshot (and seal) against the plain git commands
# doing the same job, on real repositories given by path and on generated trees, all with the same
# agent-like dirty state (201 modified, 20 deleted, 100 untracked files, ignored build output), in
# each configuration git users run large trees with (see configs.sh).
#
#   bash bench/table.sh /tmp/test262 /tmp/ripgrep     real clones (any work tree or bare repo)
#   BENCH_REAL="/tmp/test262" bash bench/table.sh      the same through the environment
#   TABLE_GENERATED="30000 101500"                     generated trees (default; "" for none)
#   TABLE_CONFIGS="plain fsmonitor"                    configurations (default: all five:
#                                                       plain untracked-cache many-files
#                                                       split-index fsmonitor)
#   TABLE_BASES="near far"                             the attempt's base: HEAD~5 (near, the
#                                                       default) or 35 commits back, 750 more
#                                                       files changed since (far)
#   TABLE_PARTS="floor snapshot seal recall"          what to measure (default: snapshot seal
#                                                       recall; "prepare" only makes the trees;
#                                                       recall includes record)
#   TABLE_TEMPS="warm cold"                            the snapshot warm (its own caches kept)
#                                                       and cold (removed before each run, git's
#                                                       kept warm by a `git status`), default both
#   BENCH_RUNS=9                                       A/B pairs per figure (medians)
#   TABLE_TIMEOUT=3600                                 seconds before the whole run is ended
#
# Each repository is cloned once under bench/work/table/ (reused); its content is never
# committed anywhere else. Snapshot is timed against `git status --short; git log --oneline B..;
# git diff --stat B`; the floor beside it is one walk of the work tree (readdir + lstat of every
# entry, `find -printf`), which any status without a monitor needs. Seal is timed against
# `git add -A && git commit -q` in a second clone of the same dirty tree; before each run both get
# their index and HEAD back and lose the objects the previous run wrote, so every run writes what a
# first run would, and both must make one tree. The fsmonitor configuration starts watchman (from
# Debian's packages) and ends it when the run ends; without watchman it is skipped.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/configs.sh"
parts=${TABLE_PARTS:-snapshot seal recall}
read -r -a temps <<<"${TABLE_TEMPS:-warm cold}"
read -r -a configs <<<"${TABLE_CONFIGS:-$CONFIGS_ALL}"
read -r -a bases <<<"${TABLE_BASES:-near}"
# The whole run is bounded; watchman, when this run started it, is ended with it.
trap 'stop_watchman; exit 143' TERM INT
# (The watchdog's sleep holds no output open, and goes with it.)
(
  trap 'kill $sleeper 2>/dev/null; exit 0' TERM
  sleep "${TABLE_TIMEOUT:-3600}" &
  sleeper=$!
  wait $sleeper && kill -TERM $$
) >/dev/null 2>&1 &
WATCHDOG=$!
trap 'stop_watchman; kill $WATCHDOG 2>/dev/null' EXIT
[ "$parts" = prepare ] || build_release

RUNS=${BENCH_RUNS:-9}
TABLE=$WORK/table
mkdir -p "$TABLE"
real=("$@")
if [ ${#real[@]} -eq 0 ] && [ -n "${BENCH_REAL:-}" ]; then read -r -a real <<<"$BENCH_REAL"; fi
read -r -a generated <<<"${TABLE_GENERATED-30000 101500}"

# dirty DIR: the agent-like dirty state, the same on every tree. Files are picked evenly from
# `git ls-files` (regular files only), so the edits spread over the whole tree.
dirty() {
  (
    cd "$1"
    git ls-files -s | awk '$1 == "100644" || $1 == "100755"' | cut -f2- >"$TABLE/.files"
    local n
    n=$(wc -l <"$TABLE/.files")
    awk -v n="$n" 'BEGIN { for (i = 0; i < 201; i++) print int(i * n / 201) + 1 }' >"$TABLE/.pick"
    awk 'NR == FNR { want[$1] = 1; next } FNR in want' "$TABLE/.pick" "$TABLE/.files" |
      while IFS= read -r f; do printf '\n// edited by the agent\n' >>"$f"; done
    awk -v n="$n" 'BEGIN { for (i = 0; i < 20; i++) print int(i * n / 20 + n / 40) + 2 }' >"$TABLE/.pick"
    awk 'NR == FNR { want[$1] = 1; next } FNR in want' "$TABLE/.pick" "$TABLE/.files" |
      while IFS= read -r f; do rm -f "$f"; done
    # 100 untracked files: half in a new directory, half next to tracked files.
    mkdir -p handoff-new/a handoff-new/b
    for i in $(seq 0 49); do printf 'new file %d\n' "$i" >"handoff-new/$([ $((i % 2)) = 0 ] && echo a || echo b)/n$i.txt"; done
    awk -v n="$n" 'BEGIN { for (i = 0; i < 50; i++) print int(i * n / 50) + 1 }' >"$TABLE/.pick"
    awk 'NR == FNR { want[$1] = 1; next } FNR in want' "$TABLE/.pick" "$TABLE/.files" |
      awk '{ print NR "\t" $0 }' | while IFS=$'\t' read -r i f; do
        d=$(dirname "$f"); [ -d "$d" ] || d=.
        printf 'untracked %s\n' "$i" >"$d/handoff-untracked-$i.txt"
      done
    # Ignored build output, as a build leaves it.
    printf 'handoff-build/\n*.o\n' >>.git/info/exclude
    mkdir -p handoff-build/deps
    for i in $(seq 1 200); do printf 'obj %d\n' "$i" >"handoff-build/deps/o$i.o"; done
    rm -f "$TABLE/.files" "$TABLE/.pick"
    # A refreshed index, written a second after the edits (no racily clean entries).
    sleep 1
    git update-index -q --refresh >/dev/null || true
    git status --porcelain >/dev/null
  )
}

# clone_real SRC NAME: a working clone of SRC with the dirty state, reused once made.
clone_real() {
  local dst=$TABLE/$2
  if [ ! -f "$dst/.git/handoff-bench-ready-2" ]; then
    rm -rf "$dst"
    git clone -q --no-hardlinks "$1" "$dst"
    git -C "$dst" config gc.auto 0
    git -C "$dst" tag handoff-bench-base "HEAD~5"
    git -C "$dst" tag handoff-bench-far "HEAD~35"
    dirty "$dst"
    touch "$dst/.git/handoff-bench-ready-2"
  fi
}

# generate N NAME: N files in directories of 100, five work commits, the dirty state.
generate() {
  local dst=$TABLE/$2
  if [ ! -f "$dst/.git/handoff-bench-ready-2" ]; then
    rm -rf "$dst" && mkdir -p "$dst"
    (
      cd "$dst"
      git init -q -b main
      git config gc.auto 0
      python3 - "$1" <<'PY'
import os, sys
n = int(sys.argv[1])
for i in range(n):
    d = f"src/m{i // 1000:03d}/d{i // 100:04d}"
    if i % 100 == 0:
        os.makedirs(d, exist_ok=True)
    with open(f"{d}/f{i:06d}.rs", "w") as f:
        f.write("".join(f"pub fn f{i}_{j}() -> u32 {{ {j} }}\n" for j in range(12)))
PY
      git add -A && git commit -q -m "initial tree of $1 files" && git gc -q
      git tag handoff-bench-far
      # 30 commits of 25 files each before the agent's own: a base 35 commits back has 750 more
      # files changed since it.
      git ls-files | awk -v n="$1" 'NR % int(n / 750) == 7' | head -750 >../.far
      for i in $(seq 0 29); do
        sed -n "$((i * 25 + 1)),$((i * 25 + 25))p" ../.far | while IFS= read -r f; do
          echo "// earlier work $i" >>"$f"
        done
        git commit -q -am "earlier work $i"
      done
      rm -f ../.far
      for i in 1 2 3 4 5 6; do
        f=$(git ls-files | sed -n "$((i * 997))p")
        echo "// work $i" >>"$f"
        git commit -q -am "work commit $i"
      done
      git tag handoff-bench-base "HEAD~5"
    )
    dirty "$dst"
    touch "$dst/.git/handoff-bench-ready-2"
  fi
}

# floor DIR: median milliseconds of one readdir + lstat walk of the work tree (not .git).
floor() {
  local t=() i
  for ((i = 0; i < RUNS; i++)); do
    t+=("$(time_once find "$1" -path "$1/.git" -prune -o -printf '%s\n')")
  done
  printf '%s\n' "${t[@]}" | median
}

# seal_pair DIR: median ms of seal and of `git add -A && git commit -q` (each in its own clone).
seal_pair() {
  local src=$1 a=$1.seal-a b=$1.seal-b s=() g=() i
  for d in "$a" "$b"; do
    if [ ! -f "$d/.git/handoff-bench-ready-2" ]; then
      rm -rf "$d" && cp -a "$src" "$d"
      # A copy has new inode numbers and change times: refresh its index as a real work tree's
      # would be, or every entry looks changed and both sides re-hash the whole tree.
      git -C "$d" update-index -q --refresh >/dev/null || true
      cp -p "$d/.git/index" "$d/.git/handoff-bench-index"
      git -C "$d" rev-parse HEAD >"$d/.git/handoff-bench-head"
    fi
  done
  reset_copy() { # put index and HEAD back, drop the objects the last run wrote
    cp -p "$1/.git/handoff-bench-index" "$1/.git/index"
    git -C "$1" update-ref HEAD "$(cat "$1/.git/handoff-bench-head")"
    find "$1/.git/objects" -newer "$1/.git/handoff-bench-head" -type f -path '*/objects/??/*' -delete
    find "$1/.git/objects/pack" -newer "$1/.git/handoff-bench-head" -type f -delete
    rm -rf "$1"/.git/handoff
    (cd "$1" && git handoff start --issue 1 --base handoff-bench-base --started-at 2026-11-30T03:48:52Z >/dev/null)
  }
  for ((i = 0; i <= RUNS; i++)); do
    reset_copy "$a" && reset_copy "$b" && sync
    local ts tg
    if ((i % 2)); then
      ts=$(time_once bash -c "cd '$a' && git handoff seal --issue 1 --started-at 2026-11-30T03:48:52Z")
      tg=$(time_once bash -c "cd '$b' && git add -A && git commit -q -m x")
    else
      tg=$(time_once bash -c "cd '$b' && git add -A && git commit -q -m x")
      ts=$(time_once bash -c "cd '$a' && git handoff seal --issue 1 --started-at 2026-11-30T03:48:52Z")
    fi
    if [ "$(git -C "$a" rev-parse 'HEAD^{tree}')" != "$(git -C "$b" rev-parse 'HEAD^{tree}')" ]; then
      echo "seal and git add -A made different trees in $src" >&2
      exit 1
    fi
    # The first pair is a warm-up.
    if ((i > 0)); then s+=("$ts") g+=("$tg"); fi
  done
  echo "$(printf '%s\n' "${s[@]}" | median) $(printf '%s\n' "${g[@]}" | median)"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

# The snapshot's own caches, kept between snapshots; a cold run (the first snapshot of an
# attempt) starts without them, after a `git status` that left git's own caches warm.
COLD_PREP='rm -f .git/handoff-snapshot-dirs .git/handoff-snapshot-stat .git/handoff-snapshot-worktree; git status --porcelain >/dev/null'

rows=() seals=()
measure() { # DIR LABEL
  local dir=$1 label=$2 files config base fl temp
  files=$(git -C "$dir" ls-files | wc -l)
  if [[ " $parts " == *" seal "* ]]; then
    configure "$dir" plain
    (cd "$dir" && git handoff start --issue 1 --base handoff-bench-base --started-at 2026-11-30T03:48:52Z >/dev/null)
    local s g
    header "$label, seal ($files files)"
    read -r s g <<<"$(seal_pair "$dir")"
    printf '%-44s %10s ms %10s ms %7s\n' "seal vs git add -A && git commit -q" "$s" "$g" "$(ratio "$s" "$g")"
    seals+=("| $label ($files files) | seal vs \`git add -A && git commit -q\` | $(ratio "$s" "$g") ($s vs $g ms) |")
  fi
  for config in "${configs[@]}"; do
    if [ "$config" = fsmonitor ]; then
      if ! have_watchman; then
        echo "SKIPPED: fsmonitor (no watchman or no fsmonitor-watchman.sample)" >&2
        continue
      fi
      start_watchman
    fi
    configure "$dir" "$config"
    for base in "${bases[@]}"; do
      fl="-"
      local tag=handoff-bench-base cells=()
      [ "$base" = far ] && tag=handoff-bench-far
      (cd "$dir" && git handoff start --issue 1 --base "$tag" --started-at 2026-11-30T03:48:52Z >/dev/null)
      header "$label, $config, base $base ($files files, $(git -C "$dir" status --short | wc -l) status lines, $(git -C "$dir" diff --name-only "$tag" | wc -l) paths since the base)"
      if [[ " $parts " == *" floor "* ]]; then
        fl=$(floor "$dir")
        printf '%-44s %10s ms\n' "lstat floor (find -printf)" "$fl"
      fi
      for temp in "${temps[@]}"; do
        if [[ " $parts " != *" snapshot "* ]]; then cells+=("-"); continue; fi
        local line prep=
        [ "$temp" = cold ] && prep=$COLD_PREP
        line=$(cd "$dir" && side_by_side "snapshot ($temp) vs status + log + diff --stat" \
          "git handoff snapshot" \
          "git status --short; git log --oneline $tag..; git diff --stat $tag" "$prep")
        echo "$line"
        read -r ms_a ms_b <<<"$(awk '{ print $(NF-4), $(NF-2) }' <<<"$line")"
        cells+=("$(ratio "$ms_a" "$ms_b") ($ms_a vs $ms_b ms)")
      done
      rows+=("| $label | $config | $base | $files | $(IFS='|'; echo "${cells[*]}" | sed 's/|/ | /g') | $fl |")
    done
  done
  configure "$dir" plain
}

# startup_rows: recall (as `git handoff` and as the hooks run the binary) against `git notes show`
# on the same note, beside git's own dispatch of a command that does nothing (the floor under
# recall through git), and record (one tool call's payload) against `git rev-parse HEAD`, in the
# repository of bench/recall.sh, with more pairs (each run takes milliseconds); then recall again
# where a runner left an attempt (lifecycle_repo: the note commit and a commit above it).
startup=()
startup_rows() {
  source "$BENCH_DIR/recall_repo.sh"
  recall_repo
  local RUNS=$((RUNS * 5)) line ours
  cd "$repo"
  git handoff start --issue 1 >/dev/null 2>&1 || true
  record_payload "$WORK/payload.json"
  header "recall and record ($COMMITS commits, $RECORDS records)"
  for ours in "git handoff recall --source resume" "$HANDOFF recall --source resume"; do
    line=$(side_by_side "${ours##*/} vs git notes show" "$ours" "git notes --ref=handoff show HEAD")
    echo "$line"
    read -r ms_a ms_b <<<"$(awk '{ print $(NF-4), $(NF-2) }' <<<"$line")"
    startup+=("| recall-$COMMITS-$RECORDS | \`${ours/#$HANDOFF/git-handoff}\` vs \`git notes --ref=handoff show HEAD\` | $(ratio "$ms_a" "$ms_b") ($ms_a vs $ms_b ms) |")
  done
  # The floor under recall through git: git running an external command that does nothing
  # (`true`, as `git handoff-floor`), the dispatch every `git handoff ...` pays before our binary
  # starts.
  mkdir -p "$WORK/floor-bin"
  ln -sf "$(type -P true)" "$WORK/floor-bin/git-handoff-floor"
  line=$(side_by_side "git's dispatch (git true) vs git notes show" \
    "PATH='$WORK/floor-bin':\$PATH git handoff-floor" "git notes --ref=handoff show HEAD")
  echo "$line"
  read -r ms_a ms_b <<<"$(awk '{ print $(NF-4), $(NF-2) }' <<<"$line")"
  startup+=("| recall-$COMMITS-$RECORDS | git's own dispatch of an external command that does nothing (\`git handoff-floor\`, \`true\`) vs \`git notes --ref=handoff show HEAD\` | $(ratio "$ms_a" "$ms_b") ($ms_a vs $ms_b ms) |")
  line=$(side_by_side "git-handoff record vs git rev-parse HEAD" \
    "$HANDOFF record <'$WORK/payload.json'" "git rev-parse HEAD")
  echo "$line"
  read -r ms_a ms_b <<<"$(awk '{ print $(NF-4), $(NF-2) }' <<<"$line")"
  startup+=("| recall-$COMMITS-$RECORDS | \`git-handoff record\` (a PostToolUse payload) vs \`git rev-parse HEAD\` | $(ratio "$ms_a" "$ms_b") ($ms_a vs $ms_b ms) |")
  # As a runner leaves a repository: the note commit on the branch and a commit above it.
  lifecycle_repo
  cd "$life"
  for ours in "git handoff recall --source resume" "$HANDOFF recall --source resume"; do
    line=$(side_by_side "${ours##*/} vs git notes show (lifecycle)" "$ours" \
      "git notes --ref=handoff show $note")
    echo "$line"
    read -r ms_a ms_b <<<"$(awk '{ print $(NF-4), $(NF-2) }' <<<"$line")"
    startup+=("| lifecycle (a note commit, a commit above it) | \`${ours/#$HANDOFF/git-handoff}\` vs \`git notes --ref=handoff show <note commit>\` | $(ratio "$ms_a" "$ms_b") ($ms_a vs $ms_b ms) |")
  done
  cd "$ROOT"
}

for path in "${real[@]}"; do
  name=$(basename "$path" .git)
  [ "$name" = repo ] && name=$(basename "$(dirname "$path")")
  clone_real "$path" "$name"
  [ "$parts" = prepare ] || measure "$TABLE/$name" "$name"
done
for n in "${generated[@]}"; do
  generate "$n" "generated-$n"
  [ "$parts" = prepare ] || measure "$TABLE/generated-$n" "generated"
done
if [[ " $parts " == *" recall "* ]]; then startup_rows; fi

echo
printf '| repository | configuration | base | files |'
for temp in "${temps[@]}"; do printf ' snapshot, %s |' "$temp"; done
printf ' walk floor (ms) |\n|---|---|---|---|'
for temp in "${temps[@]}"; do printf -- '---|'; done
printf -- '---|\n'
[ ${#rows[@]} -eq 0 ] || printf '%s\n' "${rows[@]}"
echo
echo "(snapshot: \`git handoff snapshot\` against \`git status --short; git log --oneline B..; git diff --stat B\`; cold: the snapshot's own caches removed and \`git status\` run before each run of either side)"
if [ ${#seals[@]} -gt 0 ] || [ ${#startup[@]} -gt 0 ]; then
  echo
  echo "| repository | command | ratio |"
  echo "|---|---|---|"
  printf '%s\n' "${seals[@]}" "${startup[@]}" | grep -v '^$' || true
fi
echo "($RUNS interleaved A/B pairs each ($((RUNS * 5)) for recall and record), medians; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(date -u +%Y-%m-%d))"
