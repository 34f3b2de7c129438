"""GitHub Copilot CLI scenarios: `copilot -p` in bring-your-own-model mode against the scripted
Chat Completions API (COPILOT_PROVIDER_BASE_URL), offline (COPILOT_OFFLINE), after `git handoff
hooks install --copilot --claude`: Copilot runs both its own hooks file and Claude Code's, and each
call must still count once.

The folder is trusted the way a user trusts it for future sessions, in `trusted_folders` of
`~/.copilot/config.json`, not with `--trust-folder`: `hooks status --check` must agree with Copilot
about whether the hooks run. Copilot unpacks itself (about 240 MB) under XDG_CACHE_HOME on its
first run; the sandboxes share one cache under the target directory."""

import json
import os

from checks import SEAL_ADVICE, note_recorded_and_tagged, played, summary
from endpoint import call

NOTE_TOOL = "git-handoff-handoff_note"


def setup(ctx, agents=("--copilot", "--claude")):
    box = ctx.sandbox
    box.init_repo(agents=agents)
    target = os.path.join(os.path.dirname(box.config.npm_bin), "..", "..")
    cache = os.environ.get("COPILOT_CACHE") or os.path.join(target, "copilot-cache")
    box.env.update({
        "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_BASE_URL": f"{ctx.endpoint.url}/v1",
        "COPILOT_PROVIDER_API_KEY": "sk-e2e-fake-key",
        "COPILOT_MODEL": "claude-sonnet-4.5",
        "COPILOT_AUTO_UPDATE": "false",
        "XDG_CACHE_HOME": os.path.abspath(cache),
    })
    config = os.path.join(box.home, ".copilot", "config.json")
    os.makedirs(os.path.dirname(config), exist_ok=True)
    with open(config, "w") as f:
        json.dump({"trusted_folders": [box.repo]}, f)
    status = box.handoff("hooks", "status", "--check", check=False)
    ctx.check("hooks status --check: every installed hook will run", status.returncode == 0,
              status.stdout + status.stderr)
    return box


def copilot(box, prompt):
    out = box.run(["copilot", "-p", prompt, "--allow-all", "--no-auto-update",
                   "--disable-client-telemetry", "--output-format", "json"])
    session = None
    for line in out.stdout.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        found = value.get("sessionId") or (value.get("data") or {}).get("sessionId")
        session = session or found
    return out, session


def ran(ctx, out, label):
    ctx.check(f"{label}: copilot exited 0", out.returncode == 0,
              f"exit {out.returncode}\n{out.stderr[-1500:]}\n{out.stdout[-1500:]}")


def tool_calls(ctx):
    """Each call once (both hook files run), judged by its text; the digest at session end."""
    box = setup(ctx)
    ctx.endpoint.script("E2E-CALLS", [
        [call("create", path=f"{box.repo}/hello.txt", file_text="hello\n")],
        [call("bash", command="grep -c answer lib.rs", description="count")],
        [call("bash", command="ls no-such-file", description="a failing command")],
        "Wrote hello.txt; the listing failed.",
    ])
    out, _ = copilot(box, "E2E-CALLS: write hello.txt, count, list.")
    ran(ctx, out, "the session")
    events = box.events()
    ctx.check("the model's three tool calls were played",
              len(played(ctx.endpoint.requests, "E2E-CALLS")) == 3, ctx.endpoint.requests[-1:])
    starts = [e for e in events if e.get("kind") == "tool_start"]
    results = [e for e in events if e.get("kind") == "tool_result"]
    ctx.check("three tool starts and three results, each once", len(starts) == 3 and len(
        results) == 3, summary(events))
    if len(results) == 3:
        ctx.check("recorded ok: create, grep ok; ls failed", [r.get("ok") for r in results] == [
            True, True, False], summary(events))
        ctx.check("the failed ls recorded with exit code 2", results[2].get("exit_code") == 2,
                  results[2])
    ctx.check("recorded by Copilot's own hooks", events and all(
        e.get("agent") == "copilot" for e in events), summary(events))
    digest = json.loads(box.handoff("digest", "--json").stdout)
    counts = (digest.get("tool_calls"), digest.get("errors"), digest.get("files_edited"))
    ctx.check("the digest counts 3 tool calls, 1 error, hello.txt edited", counts == (
        3, 1, ["hello.txt"]), counts)
    ctx.check("one turn, from the prompt", digest.get("turns") == 1, digest)
    sessions = {e.get("session") for e in events}
    ctx.check("every event carries the one session id", len(sessions) == 1 and None not in
              sessions, sessions)
    first = next((r["body"] for r in ctx.endpoint.requests if r.get("marker") == "E2E-CALLS"), {})
    text = json.dumps(first.get("messages", []))
    bad = [word for word in SEAL_ADVICE if word in text]
    ctx.check("fresh attempt: the session start advises no seal", not bad, bad)
    handoffs = box.handoffs()
    ctx.check("sessionEnd stored a digest-only record", len(handoffs) == 1 and handoffs[0].get(
        "kind") == "digest", handoffs)


def note_over_mcp(ctx):
    """A failing `cargo test`, then `handoff_note` over MCP from `.mcp.json`: the claim that all
    tests pass is tagged, and neither the note nor its tool counts as work."""
    box = setup(ctx)
    marker = "E2E-NOTE"
    ctx.endpoint.script(marker, [
        [call("bash", command="cargo test --offline -q", description="test")],
        [call(NOTE_TOOL, goal="Make answer() return 42", done=["All tests pass"],
              next=["Fix answer()"], reason="turn_limit")],
        "Handed off.",
    ])
    out, session = copilot(box, f"{marker}: run the tests and hand off.")
    ran(ctx, out, "the session")
    tools = [t.get("function", {}).get("name") for r in ctx.endpoint.requests
             if r.get("marker") == marker for t in (r["body"].get("tools") or [])]
    ctx.check(f"Copilot offered {NOTE_TOOL} to the model", NOTE_TOOL in tools, sorted(set(tools)))
    ids = played(ctx.endpoint.requests, marker)
    ctx.check("the test run and the note call were played", len(ids) == 2, ids)
    note_recorded_and_tagged(ctx, box, ctx.endpoint.requests, marker, "bash", NOTE_TOOL)


SCENARIOS = [
    ("copilot-tool-calls", tool_calls, tool_calls.__doc__.split("\n")[0]),
    ("copilot-note-mcp", note_over_mcp, note_over_mcp.__doc__.split("\n")[0]),
]
