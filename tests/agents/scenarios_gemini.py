"""Gemini CLI scenarios: `gemini -p` against the scripted Gemini API (GOOGLE_GEMINI_BASE_URL),
after `git handoff hooks install --gemini`. The workspace is trusted for the run
(GEMINI_CLI_TRUST_WORKSPACE=true): Gemini CLI loads no project settings, hooks included, in an
untrusted folder. Project hooks it has not seen before run after a warning on stderr."""

import json
import os

from checks import SEAL_ADVICE, note_recorded_and_tagged, summary
from endpoint import call

NOTE_TOOL = "mcp_git-handoff_handoff_note"


def setup(ctx, agents=("--gemini",)):
    box = ctx.sandbox
    box.init_repo(agents=agents)
    box.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    settings = os.path.join(box.home, ".gemini", "settings.json")
    os.makedirs(os.path.dirname(settings), exist_ok=True)
    with open(settings, "w") as f:
        json.dump({"security": {"auth": {"selectedType": "gemini-api-key"}},
                   "privacy": {"usageStatisticsEnabled": False},
                   "telemetry": {"enabled": False},
                   "general": {"disableAutoUpdate": True, "disableUpdateNag": True}}, f)
    return box


def gemini(box, prompt):
    out = box.run(["gemini", "-p", prompt, "--yolo", "--output-format", "stream-json"])
    lines = []
    for line in out.stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            pass
    session = next((l.get("session_id") for l in lines if l.get("type") == "init"), None)
    return out, session


def contexts(body):
    """The texts of the request's user turns that are not the prompt."""
    return [part.get("text", "") for content in body.get("contents", [])
            for part in content.get("parts", []) if part.get("text")
            and "E2E-" not in part["text"]]


def tool_calls(ctx):
    """Each call's BeforeTool and AfterTool in the event log; a failed command is ok:false."""
    box = setup(ctx)
    ctx.endpoint.script("E2E-CALLS", [
        [call("write_file", file_path="hello.txt", content="hello\n")],
        [call("run_shell_command", command="grep -c answer lib.rs")],
        [call("run_shell_command", command="ls no-such-file")],
        "Wrote hello.txt; the listing failed.",
    ])
    out, session = gemini(box, "E2E-CALLS: write hello.txt, count, list.")
    ctx.check("the session: gemini exited 0", out.returncode == 0,
              f"exit {out.returncode}\n{out.stderr[-1500:]}")
    events = box.events()
    starts = [e for e in events if e.get("kind") == "tool_start"]
    results = [e for e in events if e.get("kind") == "tool_result"]
    ctx.check("three tool starts and three results, in order", len(starts) == 3 and len(
        results) == 3, summary(events))
    if len(results) == 3:
        ctx.check("recorded ok: write, grep ok; ls failed", [r.get("ok") for r in results] == [
            True, True, False], summary(events))
        ctx.check("the failed ls recorded with exit code 2", results[2].get("exit_code") == 2,
                  results[2])
    # One call, one count: BeforeTool and AfterTool carry no call id and are paired by session,
    # tool and arguments.
    digest = json.loads(box.handoff("digest", "--json").stdout)
    counts = (digest.get("tool_calls"), digest.get("errors"), digest.get("files_edited"))
    ctx.check("the digest counts 3 tool calls, 1 error, hello.txt edited", counts == (
        3, 1, ["hello.txt"]), counts)
    # BeforeAgent and AfterAgent: the turn and the model's last answer, as for the other agents.
    said = (digest.get("turns"), digest.get("last_assistant_text"))
    ctx.check("AfterAgent recorded the model's last answer", said == (
        1, "Wrote hello.txt; the listing failed."), said)
    ctx.check("every event carries the session id", events and all(
        e.get("session") == session for e in events), f"want {session}: {summary(events)}")
    first = next((r["body"] for r in ctx.endpoint.requests if r.get("marker") == "E2E-CALLS"), {})
    bad = [c for c in contexts(first) if any(word in c for word in SEAL_ADVICE)]
    ctx.check("fresh attempt: SessionStart does not advise a seal or an emergency note", not bad,
              bad)
    handoffs = box.handoffs()
    ctx.check("SessionEnd stored a digest-only record", len(handoffs) == 1 and handoffs[0].get(
        "kind") == "digest", handoffs)


def note_over_mcp(ctx):
    """A failing `cargo test`, then `handoff_note` over MCP (registered by `hooks install
    --gemini`): the claim that all tests pass is tagged, and the note's call is no work."""
    box = setup(ctx)
    marker = "E2E-NOTE"
    ctx.endpoint.script(marker, [
        [call("run_shell_command", command="cargo test --offline -q")],
        [call(NOTE_TOOL, goal="Make answer() return 42", done=["All tests pass"],
              next=["Fix answer()"], reason="turn_limit")],
        "Handed off.",
    ])
    out, _ = gemini(box, f"{marker}: run the tests and hand off.")
    ctx.check("the session: gemini exited 0", out.returncode == 0,
              f"exit {out.returncode}\n{out.stderr[-1500:]}")
    offered = [d.get("name") for r in ctx.endpoint.requests if r.get("marker") == marker
               for t in (r["body"].get("tools") or []) for d in t.get("functionDeclarations", [])]
    ctx.check(f"Gemini CLI offered {NOTE_TOOL} to the model", NOTE_TOOL in offered,
              sorted(set(offered)))
    note_recorded_and_tagged(ctx, box, ctx.endpoint.requests, marker, "run_shell_command",
                             NOTE_TOOL)


SCENARIOS = [
    ("gemini-tool-calls", tool_calls, tool_calls.__doc__),
    ("gemini-mcp-note", note_over_mcp, note_over_mcp.__doc__.split("\n")[0]),
]
