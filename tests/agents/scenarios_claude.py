"""Claude Code scenarios: `claude -p` against the scripted Messages API."""

import json

from checks import (check_call, claude_contexts, first_request, no_seal_advice, note_tagged,
                    played, summary)
from endpoint import call

NOTE_TOOL = "mcp__git-handoff__handoff_note"
MCP_TOOLS = ["handoff_note", "handoff_progress", "handoff_recall", "handoff_snapshot"]


def claude_ran(ctx, out, label):
    ctx.check(f"{label}: claude exited 0", out.returncode == 0,
              f"exit {out.returncode}\n{out.stderr[-1500:]}\n{out.stdout[-1500:]}")


def tool_calls(ctx):
    """Each call's Pre and Post in the event log, with ok, the exit code and the session id."""
    box = ctx.sandbox
    box.init_repo()
    ctx.endpoint.script("E2E-CALLS", [
        [call("Write", file_path=f"{box.repo}/hello.txt", content="hello\n")],
        [call("Bash", command="grep -c answer lib.rs", description="count")],
        [call("Bash", command="ls no-such-file", description="a failing command")],
        "Wrote hello.txt; the listing failed.",
    ])
    out, _, session = box.claude("E2E-CALLS: write hello.txt, count, list.")
    claude_ran(ctx, out, "the session")
    ctx.check("claude reported a session id", session, out.stdout[-500:])
    events = box.events()
    ids = played(ctx.endpoint.requests, "E2E-CALLS")
    ctx.check("the model's three tool calls were played", len(ids) == 3, ids)
    want = [("Write", True, None), ("Bash", True, 0), ("Bash", False, 2)]
    for (call_id, _), (tool, ok, code), label in zip(ids, want, ["Write", "grep", "ls"]):
        check_call(ctx, events, call_id, label, tool, ok, exit_code=code if not ok else None,
                   session=session)
    prompts = [e for e in events if e.get("kind") == "prompt"]
    stops = [e for e in events if e.get("kind") == "stop"]
    ctx.check("the prompt and the stop are recorded with the session id",
              len(prompts) == 1 and len(stops) == 1
              and {prompts[0].get("session"), stops[0].get("session")} == {session},
              summary(events))
    ctx.check("the file the model wrote is there", box.git("status", "--short").count(
        "hello.txt") == 1, box.git("status", "--short"))


def fresh_start(ctx):
    """Right after `start` and `hooks install`, SessionStart gives no seal/emergency advice."""
    box = ctx.sandbox
    box.init_repo()
    before = box.git("status", "--short")
    ctx.endpoint.script("E2E-FRESH", ["Nothing to do."])
    out, _, _ = box.claude("E2E-FRESH: say hello.")
    claude_ran(ctx, out, "the session")
    body = first_request(ctx, ctx.endpoint.requests, "E2E-FRESH")
    no_seal_advice(ctx, claude_contexts(body), "fresh attempt")
    ctx.check("Claude Code offers the handoff skill to the model",
              "Hand off work to the next session with git-handoff" in json.dumps(body))
    ctx.check("the work tree is as `hooks install` left it", box.git("status", "--short")
              == before, box.git("status", "--short"))


def session_end(ctx):
    """SessionEnd stores a digest-only record for a session with tool calls, none without."""
    box = ctx.sandbox
    box.init_repo()
    ctx.endpoint.script("E2E-IDLE", ["Nothing to do."])
    out, _, _ = box.claude("E2E-IDLE: say hello.")
    claude_ran(ctx, out, "the session without tool calls")
    ctx.check("no record for a session without tool calls", box.handoffs() == [],
              box.handoffs())
    ctx.endpoint.script("E2E-BUSY", [[call("Bash", command="ls", description="list")], "Listed."])
    out, _, _ = box.claude("E2E-BUSY: list the files.")
    claude_ran(ctx, out, "the session with a tool call")
    handoffs = box.handoffs()
    ctx.check("a digest-only record for the session with a tool call",
              len(handoffs) == 1 and handoffs[0].get("kind") == "digest"
              and "1 tool call" in (handoffs[0].get("digest_line") or ""), handoffs)


def mcp_note(ctx):
    """handoff_note over MCP after a failing `cargo test`: tagged in the note and the result."""
    box = ctx.sandbox
    box.init_repo()
    ctx.endpoint.script("E2E-NOTE", [
        [call("Bash", command="cargo test", description="run the tests")],
        [call(NOTE_TOOL, goal="Make the answer right", done=["All tests pass"],
              next=["Fix answer()"], reason="token_soft_threshold")],
        "Handed off.",
    ])
    out, _, session = box.claude("E2E-NOTE: run the tests, then hand off.")
    claude_ran(ctx, out, "the session")
    requests = ctx.endpoint.requests
    body = first_request(ctx, requests, "E2E-NOTE")
    offered = [t["name"] for t in body.get("tools", [])]
    listed = str(body.get("messages", [])) + str(body.get("system", ""))
    ctx.check("the four MCP tools are offered to the model (deferred, by name)", all(
        f"mcp__git-handoff__{name}" in offered or f"mcp__git-handoff__{name}" in listed
        for name in MCP_TOOLS), offered)
    note_tagged(ctx, box, requests, "E2E-NOTE", NOTE_TOOL, session)
    ctx.check("validate passes on the attempt",
              box.handoff("validate", check=False).returncode == 0,
              box.handoff("validate", check=False).stdout)


def recall(ctx):
    """The recall reaches the model on --continue, --resume, compact, and a later fresh start."""
    box = ctx.sandbox
    box.init_repo()
    ctx.endpoint.script("E2E-WORK", [[call("Bash", command="cargo test", description="test")],
                                     "Tests fail."])
    out, _, session = box.claude("E2E-WORK: run the tests.")
    claude_ran(ctx, out, "the first session")
    ctx.check("its session end stored a record", len(box.handoffs()) == 1, box.handoffs())

    def recalled(marker, label, *flags, want="Handoff recall"):
        ctx.endpoint.script(marker, ["Noted."])
        out, _, _ = box.claude(f"{marker}: go on.", *flags)
        claude_ran(ctx, out, label)
        body = first_request(ctx, ctx.endpoint.requests, marker)
        contexts = claude_contexts(body)
        ctx.check(f"{label}: SessionStart put the recall in front of the model",
                  any(want in c for c in contexts), contexts)
        return contexts

    recalled("E2E-CONTINUE", "--continue", "--continue")
    recalled("E2E-RESUME", "--resume", "--resume", session)
    # A fresh session gets the recall's first line and where the rest is, on one line.
    contexts = recalled("E2E-LATER", "a later fresh session", want="The whole handoff")
    ctx.check("a later fresh session: one line that names the last handoff",
              any(c.startswith("Handoff recall: Last handoff") and "issue #44" in c
                  and "\n" not in c.strip() for c in contexts), contexts)
    ctx.check("a later fresh session: the recall names the handoff_recall tool (the MCP server "
              "is registered)", any("handoff_recall" in c for c in contexts), contexts)
    no_seal_advice(ctx, contexts, "a later fresh session")

    # Compaction: the endpoint reports a nearly full context window, Claude Code compacts on its
    # own (the summary request gets a plain summary), SessionStart fires with source "compact",
    # and its context is in front of the model on the next request of the same session.
    ctx.endpoint.script("E2E-COMPACT", [
        {"play": [call("Bash", command="ls", description="list")], "input_tokens": 990000},
    ])
    ctx.endpoint.script("E2E-COMPACT-COMPACTED", ["Going on."])
    out, lines, _ = box.claude("E2E-COMPACT: list the files.")
    claude_ran(ctx, out, "the compacted session")
    hooks = [l.get("hook_name") for l in lines if l.get("subtype") == "hook_response"]
    ctx.check("Claude Code compacted, and ran SessionStart with source compact",
              "SessionStart:compact" in hooks, hooks)
    body = first_request(ctx, ctx.endpoint.requests, "E2E-COMPACT-COMPACTED")
    contexts = claude_contexts(body)
    ctx.check("after compact: the full recall reached the model",
              any(c.startswith("Handoff recall: Last handoff") and "issue #44" in c
                  and "Record on" in c for c in contexts), contexts)


SCENARIOS = [
    ("claude-tool-calls", tool_calls, tool_calls.__doc__),
    ("claude-fresh-start", fresh_start, fresh_start.__doc__),
    ("claude-session-end", session_end, session_end.__doc__),
    ("claude-mcp-note", mcp_note, mcp_note.__doc__),
    ("claude-recall", recall, recall.__doc__),
]
