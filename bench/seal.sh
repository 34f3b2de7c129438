#!/usr/bin/env bash
# Seal benchmark: `git handoff seal` against `git add -A && git commit -q` on identical copies of a
# dirty 50,000-file repository. Each run gets two fresh copies of the same dirty tree (with the
# index refreshed for the copy, as in a real work tree), times one command in each, and checks
# that both produced the same tree. Prints each run, the medians, and the median ratio
# (seal / git; the target is <= 1.0x).
#
#   bench/seal.sh                      # 50,000 files, 5 runs
#   FILES=10000 RUNS=9 bench/seal.sh   # smaller tree, more runs
#
# Everything it generates lives under bench/work/ (gitignored). The release binary is built if
# missing; BIN=path overrides it.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/bench/work/seal"
files=${FILES:-50000}
runs=${RUNS:-5}
modified=${MODIFIED:-300}
deleted=${DELETED:-60}
new=${NEW:-120}
bin=${BIN:-$root/target/release/git-handoff}

if [[ ! -x $bin ]]; then
    (cd "$root" && cargo build --release --quiet)
fi
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
ln -s "$bin" "$bindir/git-handoff"

# A hermetic git: no user or system config, a fixed identity.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
export PATH="$bindir:$PATH"

now_ns() { date +%s%N; }

# The template: $files committed files in nested directories, then a realistic dirty state.
template="$work/template-$files"
if [[ ! -f $template/.complete ]]; then
    echo "generating $files files in $template ..." >&2
    rm -rf "$template" && mkdir -p "$template"
    cd "$template"
    git init -q -b main
    for d in $(seq 0 499); do echo "src/m$((d % 20))/d$d"; done | xargs mkdir -p
    awk -v n="$files" 'BEGIN {
        for (i = 0; i < n; i++) {
            f = sprintf("src/m%d/d%d/f%05d.rs", (i % 500) % 20, i % 500, i);
            printf "// file %d\npub fn f%d() -> u64 {\n    %d\n}\n\n/// more text to make it realistic\npub const N%d: &str = \"%08x\";\n", i, i, i * 7, i, i * 2654435761 % 4294967296 > f;
            close(f);
        }
    }'
    printf 'target/\n*.log\n' > .gitignore
    git add -A && git -c gc.auto=0 commit -q -m "initial: $files files"
    # Pack the history now, so no run starts with an automatic gc on 50,000 loose objects.
    git gc -q
    # Dirty it: edits spread over the tree, deletions, new files in old and new directories,
    # and ignored build output that must not be sealed.
    awk -v n="$files" -v m="$modified" -v d="$deleted" -v k="$new" 'BEGIN {
        for (j = 0; j < m; j++) {
            i = (j * 7919) % n;
            f = sprintf("src/m%d/d%d/f%05d.rs", (i % 500) % 20, i % 500, i);
            printf "// edited %d\npub fn edited%d() {}\n", j, j >> f; close(f);
        }
        for (j = 0; j < d; j++) {
            i = (j * 104729 + 13) % n;
            f = sprintf("src/m%d/d%d/f%05d.rs", (i % 500) % 20, i % 500, i);
            print f > "/dev/stderr";
        }
        for (j = 0; j < k; j++) {
            if (j % 3 == 0) f = sprintf("src/new%d/n%d.rs", j % 10, j);
            else f = sprintf("src/m%d/d%d/new%d.rs", j % 20, (j * 37) % 500, j);
            print f > "/dev/stdout";
        }
    }' 2> .deleted > .new
    xargs rm -f < .deleted
    while read -r f; do mkdir -p "$(dirname "$f")"; printf '// new file %s\npub fn n() {}\n' "$f" > "$f"; done < .new
    rm -f .deleted .new
    mkdir -p target && for i in $(seq 1 50); do echo "obj $i" > "target/o$i.o"; done
    echo "noise" > build.log
    echo "*.complete" >> .git/info/exclude && touch .complete
    cd "$root"
fi
echo "template: $(git -C "$template" ls-files | wc -l) tracked files, $(git -C "$template" status --porcelain | wc -l) status lines" >&2

fresh_copy() { # $1 = destination
    rm -rf "$1"
    cp -a "$template" "$1"
    git -C "$1" update-index -q --refresh >/dev/null || true
}

time_seal() { # prints milliseconds
    local start end
    start=$(now_ns)
    (cd "$work/run-seal" && git handoff seal --issue 1 --started-at 2026-11-30T03:48:52Z >/dev/null)
    end=$(now_ns)
    echo $(( (end - start) / 1000000 ))
}
time_git() {
    local start end
    start=$(now_ns)
    (cd "$work/run-git" && git add -A && git commit -q -m x)
    end=$(now_ns)
    echo $(( (end - start) / 1000000 ))
}

seal_ms=() git_ms=() ratios=()
for run in $(seq 1 "$runs"); do
    fresh_copy "$work/run-seal"
    fresh_copy "$work/run-git"
    # Let the copies' dirty pages reach the disk first: write-back would slow whoever runs first.
    sync
    # Alternate which goes first, so neither always gets the quieter moment or the warmer cache.
    if (( run % 2 )); then s=$(time_seal); g=$(time_git); else g=$(time_git); s=$(time_seal); fi
    t1=$(git -C "$work/run-seal" rev-parse 'HEAD^{tree}'); t2=$(git -C "$work/run-git" rev-parse 'HEAD^{tree}')
    if [[ $t1 != "$t2" ]]; then echo "run $run: trees differ: seal $t1, git $t2" >&2; exit 1; fi
    ratio=$(awk -v s="$s" -v g="$g" 'BEGIN { printf "%.2f", s / g }')
    echo "run $run: seal ${s} ms, git add -A && git commit ${g} ms, ratio ${ratio}x"
    seal_ms+=("$s") git_ms+=("$g") ratios+=("$ratio")
done

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "seal (${files} files, ${modified} modified, ${deleted} deleted, ${new} new; ${runs} runs):"
echo "  median seal:                       $(median "${seal_ms[@]}") ms"
echo "  median git add -A && git commit:   $(median "${git_ms[@]}") ms"
echo "  median ratio (seal / git):         $(median "${ratios[@]}")x (target <= 1.0x)"
