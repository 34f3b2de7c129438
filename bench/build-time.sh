#!/usr/bin/env bash
# Where a build from source spends its time: the release binary (what `cargo install --path .`
# builds), the dist binary (fat LTO, what the packages carry) and the test build (`cargo test
# --no-run`, what CI compiles), each from an empty target directory, with cargo's own `--timings`
# report. Prints the wall and CPU time of each and the crates that took longest; the HTML reports
# and the two binaries stay under bench/work/build-time/<rev>/ (bench/profiles.sh compares them).
#
# Usage: bench/build-time.sh [REV ...]   (default: the work tree; a REV is built from `git archive`)
#        BUILD_TIME_BUILDS="release dist test"   which builds (default: all three)
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
  for build in ${BUILD_TIME_BUILDS:-release dist test}; do
    target=$dir/target-$build
    args=(build --profile "$build" --locked --timings)
    [ "$build" = test ] && args=(test --locked --no-run --timings)
    (cd "$dir/src" && /usr/bin/time -f "%e %U %S" -o "$dir/$build.time" \
      cargo "${args[@]}" --target-dir "$target" >"$dir/$build.log" 2>&1)
    read -r wall user sys <"$dir/$build.time"
    report=$(ls -t "$target"/cargo-timings/cargo-timing-*.html | head -1)
    cp "$report" "$dir/$build-timings.html"
    echo "$rev: cargo ${args[*]}: ${wall%.*} s wall, $(python3 -c "print(round($user + $sys))") s CPU" \
      "on $(nproc) cores (load $(cut -d' ' -f1 /proc/loadavg)); slowest crates:"
    slowest "$report"
    if [ "$build" != test ]; then
      cp "$target/$build/git-handoff" "$dir/git-handoff-$build"
      ls -l "$dir/git-handoff-$build" | awk -v b="$build" '{print "  " b " binary: " $5 " bytes"}'
    fi
  done
  rm -rf "$dir"/target-*
done
