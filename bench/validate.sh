#!/usr/bin/env bash
# validate --pre-push for a push of 1,000 new commits (work, then a note commit) on top of a long
# history, against `git rev-list <new> --not --remotes` on the same range; at 10,000 and 100,000
# commits of history, to show the time does not grow with it. Target: <= 1.0x, for the command
# the installed hook runs (`git-handoff validate --pre-push`) and for `git-handoff validate
# --base`; both also shown through `git handoff`, whose dispatch (git's own start, its config read
# for `pager.handoff`, a fork and exec) adds 1.2-1.8 ms that no work of ours can take back. Also
# against the rev-lists that read what validate reads: `--format=%B` (every commit's message) and
# `-- <note dir>` (every commit's root tree, to find those that touch the note directory).
# Histories are made with `git fast-import` under bench/work/ (reused). The pushed commits are
# measured as objects lie after five ways of making them, since reading them costs differently
# in each:
#   pack      as fast-import packs them, each tree a delta against the one before
#   loose     as `git commit` leaves them, until gc packs them (most pushes)
#   repacked  after `git repack -adf`: git's own deltas, newest objects whole
#   graph     repacked, then `git commit-graph write --reachable` (what `git gc` leaves, and
#             `fetch.writeCommitGraph` or scalar keep up to date). rev-list then reads parents
#             and dates from the graph and inflates no commit, while validate must read every
#             commit's message (a note commit is known by its subject, a seal by its trailer):
#             here git-handoff is not held to rev-list itself but to the rev-lists that read
#             what it reads, `--format=%B` (every message) and `-- .agent/handoff` (every tree).
#   loose-graph  loose, with a commit-graph of the history the remote has: a repository that gc
#             wrote a graph for before the agent's commits (the pushed commits are not in it)
#   bash bench/validate.sh          VALIDATE_HISTORIES="10000 100000" VALIDATE_NEW=1000
#                                   VALIDATE_LAYOUTS="pack loose repacked graph loose-graph"
source "$(dirname "$0")/lib.sh"
build_release

NEW=${VALIDATE_NEW:-1000}

# fast_import_commits FROM_REF COUNT START: COUNT linear commits on refs/heads/main, each changing
# one of 100 files; the first has FROM_REF as parent (none when empty).
fast_import_commits() {
  python3 - "$1" "$2" "$3" <<'PY' | git fast-import --quiet
import sys
frm, count, start = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
out = sys.stdout
for i in range(start, start + count):
    data = f"line {i}\n"
    msg = f"work commit {i}\n"
    out.write("commit refs/heads/main\n")
    out.write(f"committer bench <bench@example.com> {1764471600 + i} +0000\n")
    out.write(f"data {len(msg)}\n{msg}")
    if i == start and frm:
        out.write(f"from {frm}\n")
    out.write(f"M 100644 inline f{i % 100}.txt\ndata {len(data)}\n{data}\n")
PY
}

for HISTORY in ${VALIDATE_HISTORIES:-10000 100000}; do
  repo=$WORK/validate-$HISTORY-$NEW
  if [ ! -f "$repo/.ready" ]; then
    rm -rf "$repo" && mkdir -p "$repo" && cd "$repo"
    git init -q -b main
    fast_import_commits "" "$HISTORY" 0
    # What the remote already has: a configured remote whose tracking ref is the old history.
    git remote add origin "$repo-remote.git"
    git update-ref refs/remotes/origin/main refs/heads/main
    fast_import_commits "refs/heads/main^0" $((NEW - 1)) "$HISTORY"
    git checkout -q main
    last=$(git rev-parse HEAD)
    mkdir -p .agent/handoff
    printf '# Handoff note: issue #1\n\nissue: 1\nstarted_at: 2026-11-30T03:48:52Z\nreason: agent_request\nlast_work_commit: %s\n\n## Summary\n\n- work\n\n## Remaining work\n\n- none\n\n## Evidence\n\n- bench\n' "$last" > .agent/handoff/1.md
    git add .agent/handoff/1.md && git commit -q -m "Handoff note: issue #1"
    touch .ready
  fi
  for LAYOUT in ${VALIDATE_LAYOUTS:-pack loose repacked graph loose-graph}; do
    at=$repo
    if [ "$LAYOUT" != pack ]; then
      at=$repo-$LAYOUT
      if [ ! -f "$at/.ready" ]; then
        rm -rf "$at" && cp -a "$repo" "$at" && rm -f "$at/.ready" && cd "$at"
        if [ "$LAYOUT" = loose ] || [ "$LAYOUT" = loose-graph ]; then
          # The pushed commits' pack, unpacked (unpack-objects skips objects the repository has,
          # so the pack leaves first).
          small=$(ls -S .git/objects/pack/*.pack | tail -1)
          mv "$small" "$WORK/unpack.pack" && rm -f "${small%.pack}".*
          git unpack-objects -q < "$WORK/unpack.pack" && rm -f "$WORK/unpack.pack"
          if [ "$LAYOUT" = loose-graph ]; then
            git rev-parse refs/remotes/origin/main | git commit-graph write --stdin-commits
          fi
        else
          git repack -adfq
          if [ "$LAYOUT" = graph ]; then git commit-graph write --reachable; fi
        fi
        touch .ready
      fi
    fi
    cd "$at"
    old=$(git rev-parse refs/remotes/origin/main)
    new=$(git rev-parse HEAD)
    printf 'refs/heads/main %s refs/heads/main %s\n' "$new" "$old" > "$WORK/validate-$HISTORY.stdin"
    added=$(git rev-list --count "$new" --not --remotes)
    # The check must pass (exit 0) on this push; show it once.
    git handoff validate --pre-push origin "$repo-remote.git" < "$WORK/validate-$HISTORY.stdin"
    git handoff validate --json --base "$old" | grep -q '"ok": true'

    # As the installed hook runs it: the binary itself. Then through git's dispatch (`git handoff`),
    # which adds a git start, as a pre-push hook written by hand may call it.
    header "validate --pre-push ($added new on $HISTORY, $LAYOUT)"
    side_by_side "pre-push vs rev-list <new> --not --remotes" \
      "git-handoff validate --pre-push origin $repo-remote.git < $WORK/validate-$HISTORY.stdin" \
      "git rev-list $new --not --remotes"
    side_by_side "  the same through \`git handoff\`" \
      "git handoff validate --pre-push origin $repo-remote.git < $WORK/validate-$HISTORY.stdin" \
      "git rev-list $new --not --remotes"
    # What git itself pays to read every message of the range, which validate reads.
    side_by_side "pre-push vs rev-list ... --format=%B" \
      "git-handoff validate --pre-push origin $repo-remote.git < $WORK/validate-$HISTORY.stdin" \
      "git rev-list --format=%B $new --not --remotes"
    # What git itself pays to know which of those commits touch the note directory.
    side_by_side "pre-push vs rev-list ... -- .agent/handoff" \
      "git-handoff validate --pre-push origin $repo-remote.git < $WORK/validate-$HISTORY.stdin" \
      "git rev-list $new --not --remotes -- .agent/handoff"
    # Checking a branch by hand, or in CI: the binary itself, then through git's dispatch.
    side_by_side "validate --base <old> vs rev-list <old>..<new>" \
      "git-handoff validate --base $old" \
      "git rev-list $old..$new"
    side_by_side "  the same through \`git handoff\`" \
      "git handoff validate --base $old" \
      "git rev-list $old..$new"
  done
done
