#!/usr/bin/env bash
# Where a build from source spends its time: the release binary (what `cargo install --path .`
# builds) and the test build (`cargo test --no-run`, what CI compiles), each from an empty target
# directory, with cargo's own `--timings` report. Prints the wall time of each and the crates that
# took longest; the HTML reports stay under bench/work/build-time/<rev>/.
#
# Usage: bench/build-time.sh [REV ...]   (default: the work tree; a REV is built from `git archive`)
# Dependencies come from the registry cache as they are (CARGO_HOME); only target/ starts empty.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$ROOT/bench/work/build-time
mkdir -p "$WORK"
[ $# -gt 0 ] || set -- worktree

# The slowest crates of a cargo-timing report, as "seconds name" lines.
slowest() {
  python3 - "$1" <<'EOF'
import json, re, sys
html = open(sys.argv[1]).read()
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S).group(1))
by_name = {}
for unit in units:
    key = f"{unit['name']} ({unit.get('target', '').strip() or 'lib'})"
    by_name[key] = by_name.get(key, 0) + unit["duration"]
for name, seconds in sorted(by_name.items(), key=lambda kv: -kv[1])[:10]:
    print(f"    {seconds:6.1f} s  {name}")
EOF
}

for rev in "$@"; do
  dir=$WORK/$rev
  rm -rf "$dir" && mkdir -p "$dir/src"
  if [ "$rev" = worktree ]; then
    git ls-files -z | xargs -0 tar -c | tar -x -C "$dir/src"
  else
    git archive "$rev" | tar -x -C "$dir/src"
  fi
  for build in release test; do
    target=$dir/target-$build
    args=(build --release --locked --timings)
    [ "$build" = test ] && args=(test --locked --no-run --timings)
    started=$(date +%s.%N)
    (cd "$dir/src" && cargo "${args[@]}" --target-dir "$target" >"$dir/$build.log" 2>&1)
    seconds=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.0f}')" \
      "$started" "$(date +%s.%N)")
    report=$(ls -t "$target"/cargo-timings/cargo-timing-*.html | head -1)
    cp "$report" "$dir/$build-timings.html"
    echo "$rev: cargo ${args[*]}: ${seconds} s on $(nproc) cores; slowest crates:"
    slowest "$report"
  done
  cp "$dir/target-release/release/git-handoff" "$dir/git-handoff"
  ls -l "$dir/git-handoff" | awk '{print "  release binary: " $5 " bytes"}'
  rm -rf "$dir"/target-*
done
