#!/usr/bin/env bash
# snapshot on a 50,000-file work tree with a realistic dirty state, against the three git commands
# it reproduces run in sequence (`git status --short; git log --oneline B..HEAD; git diff --stat B`).
source "$(dirname "$0")/lib.sh"
build_release

FILES=${SNAPSHOT_FILES:-50000}
repo=$WORK/snapshot-$FILES
if [ ! -d "$repo/.git" ]; then
  rm -rf "$repo" && mkdir -p "$repo" && cd "$repo"
  git init -q -b main
  python3 - "$FILES" <<'PY'
import os, sys
n = int(sys.argv[1])
for i in range(n):
    d = f"src/mod{i // 100:04d}"
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/file{i:05d}.rs", "w") as f:
        f.write("".join(f"fn f{i}_{j}() -> u32 {{ {j} }}\n" for j in range(20)))
PY
  git add -A && git commit -q -m "initial tree of $FILES files"
  git tag base
  for i in $(seq 1 20); do
    f=$(printf 'src/mod%04d/file%05d.rs' $((i * 7)) $((i * 700)))
    echo "// work $i" >> "$f"; git commit -q -am "work commit $i"
  done
  # The dirty state: 300 edits (50 staged), 50 deletions, a staged rename, 200 untracked files.
  for i in $(seq 0 299); do echo "// dirty" >> "$(printf 'src/mod%04d/file%05d.rs' $((i + 100)) $(((i + 100) * 100)))"; done
  for i in $(seq 0 49); do git add "$(printf 'src/mod%04d/file%05d.rs' $((i + 100)) $(((i + 100) * 100)))"; done
  for i in $(seq 0 49); do rm "$(printf 'src/mod%04d/file%05d.rs' $((i + 300)) $(((i + 300) * 100 + 1)))"; done
  git mv src/mod0001/file00100.rs src/mod0001/renamed.rs
  mkdir -p new/a new/b; for i in $(seq 0 199); do echo "new $i" > "new/$((i % 2 == 0 ? 0 : 1))-$i.txt"; done
  git status >/dev/null
fi
cd "$repo"
base=$(git rev-parse base)
git handoff start --issue 1 --base "$base" >/dev/null

header "snapshot ($FILES files, $(git status --short | wc -l) status lines)"
side_by_side "snapshot vs status + log + diff --stat" \
  "git handoff snapshot" \
  "git status --short; git log --oneline $base..HEAD; git diff --stat $base"
side_by_side "snapshot --json vs the same" \
  "git handoff snapshot --json" \
  "git status --short; git log --oneline $base..HEAD; git diff --stat $base"
