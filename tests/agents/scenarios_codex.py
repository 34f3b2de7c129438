"""Codex scenarios: `codex exec --json` against the scripted Responses API, with every hook that
Codex lists for the repository approved in the temporary CODEX_HOME (harness.write_codex_config)."""

from checks import (check_call, codex_contexts, first_request, no_seal_advice, note_tagged,
                    played, summary)
from endpoint import call

NOTE_TOOL = "mcp__git_handoff__handoff_note"
# The start of the skill's description (skills/handoff/SKILL.md).
SKILL_LINE = "Hand off work to the next session with git-handoff"


def shell(command):
    # login=False: a login shell's /etc/profile would reset PATH (and lose cargo).
    return call("exec_command", cmd=command, login=False)


def patch(path, line):
    return call("apply_patch", _freeform=f"*** Begin Patch\n*** Add File: {path}\n+{line}\n"
                                         "*** End Patch\n")


def setup(ctx):
    box = ctx.sandbox
    box.init_repo(agents=("--codex",))
    box.write_codex_config()
    return box


def codex_ran(ctx, out, label):
    ctx.check(f"{label}: codex exited 0", out.returncode == 0,
              f"exit {out.returncode}\n{out.stderr[-1500:]}\n{out.stdout[-1500:]}")


def tool_calls(ctx):
    """Each call's Pre and Post in the event log; a failed command is ok:false with its code."""
    box = setup(ctx)
    ctx.endpoint.script("E2E-CALLS", [
        [patch("hello.txt", "hello")],
        [shell("grep -c answer lib.rs")],
        [shell("ls no-such-file")],
        "Wrote hello.txt; the listing failed.",
    ])
    out, _, thread = box.codex("E2E-CALLS: write hello.txt, count, list.")
    codex_ran(ctx, out, "the session")
    ctx.check("codex reported a thread id", thread, out.stdout[-500:])
    events = box.events()
    ids = played(ctx.endpoint.requests, "E2E-CALLS")
    ctx.check("the model's three tool calls were played", len(ids) == 3, ids)
    want = [("apply_patch", True, None), ("grep", True, None), ("ls", False, 2)]
    for (call_id, _), (label, ok, code) in zip(ids, want):
        found = [e for e in events if e.get("id") == call_id]
        tool = found[0].get("tool") if found else None
        check_call(ctx, events, call_id, label, tool, ok, exit_code=code, session=thread)
    ctx.check("the prompt and the stop are recorded with the thread id", {
        e.get("session") for e in events if e.get("kind") in ("prompt", "stop")} == {thread}
              and sum(e.get("kind") == "stop" for e in events) == 1, summary(events))
    ctx.check("the patch was applied", open(f"{box.repo}/hello.txt").read() == "hello\n"
              if __import__("os").path.exists(f"{box.repo}/hello.txt") else False)


def fresh_start(ctx):
    """Right after `start` and `hooks install --codex`: no seal advice; the skill is offered."""
    box = setup(ctx)
    ctx.endpoint.script("E2E-FRESH", ["Nothing to do."])
    out, _, _ = box.codex("E2E-FRESH: say hello.")
    codex_ran(ctx, out, "the session")
    body = first_request(ctx, ctx.endpoint.requests, "E2E-FRESH")
    no_seal_advice(ctx, codex_contexts(body), "fresh attempt")
    skills = [part.get("text", "") for item in body.get("input", []) if item.get("type") ==
              "message" for part in item.get("content") or []
              if "<skills_instructions>" in part.get("text", "")]
    ctx.check("Codex offers the handoff skill to the model (installed where Codex reads skills)",
              any(SKILL_LINE in text for text in skills), [t[:1500] for t in skills])


def session_end(ctx):
    """SessionEnd stores a digest-only record for a session with tool calls, none without."""
    box = setup(ctx)
    hooks = {h["eventName"] for h in box.codex_hooks()}
    ctx.check("hooks install --codex installed PreToolUse and SessionEnd",
              {"preToolUse", "sessionEnd"} <= hooks, sorted(hooks))
    ctx.endpoint.script("E2E-IDLE", ["Nothing to do."])
    out, _, _ = box.codex("E2E-IDLE: say hello.")
    codex_ran(ctx, out, "the session without tool calls")
    ctx.check("no record for a session without tool calls", box.handoffs() == [], box.handoffs())
    ctx.endpoint.script("E2E-BUSY", [[shell("ls")], "Listed."])
    out, _, _ = box.codex("E2E-BUSY: list the files.")
    codex_ran(ctx, out, "the session with a tool call")
    handoffs = box.handoffs()
    ctx.check("a digest-only record for the session with a tool call",
              len(handoffs) == 1 and handoffs[0].get("kind") == "digest"
              and "1 tool call" in (handoffs[0].get("digest_line") or ""), handoffs)


def mcp_note(ctx):
    """handoff_note over MCP after a failing `cargo test`: tagged in the note and the result."""
    box = setup(ctx)
    ctx.endpoint.script("E2E-NOTE", [
        [shell("cargo test")],
        [call(NOTE_TOOL, goal="Make the answer right", done=["All tests pass"],
              next=["Fix answer()"], reason="token_soft_threshold")],
        "Handed off.",
    ])
    out, _, thread = box.codex("E2E-NOTE: run the tests, then hand off.")
    codex_ran(ctx, out, "the session")
    requests = ctx.endpoint.requests
    body = first_request(ctx, requests, "E2E-NOTE")
    ctx.check("the git-handoff MCP tools are offered to the model (a deferred namespace)",
              "mcp__git_handoff" in str(body.get("input", [])) + str(body.get("tools", [])))
    note_tagged(ctx, box, requests, "E2E-NOTE", NOTE_TOOL, thread)


def recall(ctx):
    """The recall reaches the model on `exec resume`, after compaction, and in one line naming
    handoff_recall on a fresh start."""
    box = setup(ctx)
    ctx.endpoint.script("E2E-WORK", [
        [shell("ls")],
        [call(NOTE_TOOL, goal="List the files", done=["Listed the files"], next=["Go on"])],
        "Handed off.",
    ])
    out, _, thread = box.codex("E2E-WORK: list the files, then hand off.")
    codex_ran(ctx, out, "the first session")
    ctx.check("its note is committed", len(box.handoffs()) >= 1, box.handoffs())

    def recalled(marker, label, want, **resume):
        ctx.endpoint.script(marker, ["Noted."])
        out, _, _ = box.codex(f"{marker}: go on.", **resume)
        codex_ran(ctx, out, label)
        contexts = codex_contexts(first_request(ctx, ctx.endpoint.requests, marker))
        ctx.check(f"{label}: SessionStart put the recall in front of the model",
                  any(want in c for c in contexts), contexts)
        return contexts

    recalled("E2E-RESUME", "exec resume", "Listed the files", resume=thread)
    recalled("E2E-LAST", "exec resume --last", "Listed the files", resume="--last")
    # A fresh session gets the recall's first line and where the rest is, on one line.
    contexts = recalled("E2E-LATER", "a later fresh session", "The whole handoff")
    ctx.check("a later fresh session: one line that names the last handoff",
              any(c.startswith("Handoff recall: Last handoff") and "issue #44" in c
                  and "\n" not in c.strip() for c in contexts), contexts)
    ctx.check("a later fresh session: the recall names the handoff_recall tool (the MCP server "
              "is registered)", any("handoff_recall" in c for c in contexts), contexts)
    no_seal_advice(ctx, contexts, "a later fresh session")

    # Compaction: the endpoint reports a nearly full context window, Codex compacts on its own
    # (its summary request gets a plain summary), SessionStart runs with source "compact", and
    # its context is in front of the model on the next request of the same thread.
    ctx.endpoint.script("E2E-COMPACT", [
        {"play": [shell("ls")], "input_tokens": 990000},
    ])
    ctx.endpoint.script("E2E-COMPACT-COMPACTED", ["Going on."])
    out, _, _ = box.codex("E2E-COMPACT: list the files.")
    codex_ran(ctx, out, "the compacted session")
    body = first_request(ctx, ctx.endpoint.requests, "E2E-COMPACT-COMPACTED")
    contexts = codex_contexts(body)
    ctx.check("after compact: the full recall reached the model",
              any(c.startswith("Handoff recall: Last handoff") and "Listed the files" in c
                  for c in contexts), contexts)


def hook_review(ctx):
    """Until Codex's hook review approves them, no hook runs, and `hooks status` says so."""
    box = ctx.sandbox
    box.init_repo(agents=("--codex",))
    box.write_codex_config(trust_hooks=False)
    before = box.handoff("hooks", "status", check=False).stdout
    ctx.endpoint.script("E2E-UNAPPROVED", [[shell("ls")], "Listed."])
    out, _, _ = box.codex("E2E-UNAPPROVED: list the files.")
    codex_ran(ctx, out, "the session before approval")
    ctx.check("before approval Codex ran none of the hooks (nothing in the event log)",
              box.events() == [], summary(box.events()))
    ctx.check("before approval `hooks status` says Codex has not approved the hooks, and how to",
              any(w in before.lower() for w in ("approv", "review")), before)
    box.write_codex_config(trust_hooks=True)
    after = box.handoff("hooks", "status", check=False).stdout
    ctx.check("after approval `hooks status` no longer says so", after != before
              and not any(w in after.lower() for w in ("not approved", "not yet approved",
                                                       "need review", "needs review")), after)
    ctx.endpoint.script("E2E-APPROVED", [[shell("ls")], "Listed."])
    out, _, _ = box.codex("E2E-APPROVED: list the files.")
    codex_ran(ctx, out, "the session after approval")
    ctx.check("after approval the hooks run", any(
        e.get("kind") == "tool_result" for e in box.events()), summary(box.events()))


SCENARIOS = [
    ("codex-hook-review", hook_review, hook_review.__doc__),
    ("codex-tool-calls", tool_calls, tool_calls.__doc__),
    ("codex-fresh-start", fresh_start, fresh_start.__doc__),
    ("codex-session-end", session_end, session_end.__doc__),
    ("codex-mcp-note", mcp_note, mcp_note.__doc__),
    ("codex-recall", recall, recall.__doc__),
]
