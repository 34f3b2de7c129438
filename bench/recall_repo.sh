# The repository recall is timed in: 10,000 commits (RECALL_COMMITS), 1,000 records
# (RECALL_RECORDS) in refs/notes/handoff, the latest also on the branch key, as `note` stores it.
# Source it (after lib.sh); `recall_repo` sets $repo to it, made once under $WORK and reused.
recall_repo() {
  COMMITS=${RECALL_COMMITS:-10000}
  RECORDS=${RECALL_RECORDS:-1000}
  repo=$WORK/recall-$COMMITS-$RECORDS
  if [ ! -d "$repo/.git" ]; then
    rm -rf "$repo" && mkdir -p "$repo" && cd "$repo" && git init -q -b main
    python3 - "$COMMITS" "$RECORDS" <<'PY' | git fast-import --quiet
import sys
commits, records = int(sys.argv[1]), int(sys.argv[2])
out = sys.stdout.buffer
def data(b):
    out.write(b"data %d\n" % len(b)); out.write(b); out.write(b"\n")
t = 1764468000
for i in range(1, commits + 1):
    out.write(b"blob\nmark :%d\n" % (100000 + i)); data(b"line %d\n" % i)
    out.write(b"commit refs/heads/main\nmark :%d\n" % i)
    out.write(b"author A <a@x> %d +0000\ncommitter A <a@x> %d +0000\n" % (t + i, t + i))
    data(b"commit %d" % i)
    if i > 1:
        out.write(b"from :%d\n" % (i - 1))
    out.write(b"M 100644 :%d file%d.txt\n" % (100000 + i, i % 100))
out.write(b"commit refs/notes/handoff\ncommitter A <a@x> %d +0000\n" % (t + commits + 1))
data(b"records")
step = max(1, commits // records)
last = None
for n in range(records):
    c = commits - n * step
    rec = (b'[[record]]\nversion = 1\nkind = "agent"\nissue = %d\nbranch = "refs/heads/main"\n'
           b'started_at = "2026-11-30T03:48:52Z"\nreason = "token_soft_threshold"\n'
           b'written_at = "2026-11-30T04:%02d:00Z"\ncommit = "%s"\nnote_path = ".agent/handoff/%d.md"\n'
           b'digest_line = "3 files edited \xc2\xb7 last `cargo test` failed \xc2\xb7 12 tool calls, 3 errors"\n\n'
           b'[record.summary]\ngoal = "Fix the parser"\ndone = ["Wrote the parser", "All tests pass now"]\n'
           b'next = ["Fix the failing test"]\n\n[[record.tags]]\nitem = "All tests pass now"\n'
           b'why = "last `cargo test` failed"\n') % (n, n % 60, b"%d" % c, n)
    out.write(b"N inline :%d\n" % c); data(rec)
    if n == 0:
        open("../latest-record.toml", "wb").write(rec)
PY
    git checkout -q main
    # The branch key (a blob naming the branch) carries the latest record, as `note` stores it.
    key=$(printf 'git-handoff branch refs/heads/main\n' | git hash-object -w --stdin)
    git notes --ref=handoff add -f -F ../latest-record.toml "$key"
  fi
}

# record_payload FILE: one PostToolUse payload of a passing `cargo test` in $repo, as `record`
# reads it on stdin.
record_payload() {
  cat >"$1" <<JSON
{"session_id":"s","transcript_path":"/t.jsonl","cwd":"$repo","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"cargo test 2>&1"},"tool_response":{"stdout":"test result: ok","stderr":"","interrupted":false}}
JSON
}

# lifecycle_repo: a repository where an attempt ended as a runner ends one: an edit, a note
# (`git handoff note`: the note commit on the branch, its record in refs/notes/handoff) and a
# commit above it, so recall walks to the note commit and says what happened since. Sets $life to
# it and $note to the note commit; made once under $WORK with the `git handoff` on PATH.
lifecycle_repo() {
  life=$WORK/recall-lifecycle
  if [ ! -f "$life/.git/lifecycle-note" ]; then
    rm -rf "$life" && mkdir -p "$life" && cd "$life" && git init -q -b main
    printf 'x\n' >a.txt && git add a.txt && git commit -qm init
    git handoff start --issue 7 >/dev/null
    printf 'y\n' >>a.txt
    printf 'goal = "Fix the parser"\ndone = ["Wrote the parser"]\nnext = ["Fix the test"]\n' \
      >"$WORK/lifecycle-summary.toml"
    git handoff note --summary "$WORK/lifecycle-summary.toml" --reason time_limit >/dev/null
    git rev-parse HEAD >.git/lifecycle-note
    printf 'z\n' >>a.txt && git commit -qam "after the note"
  fi
  note=$(cat "$life/.git/lifecycle-note")
}
