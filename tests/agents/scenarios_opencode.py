"""opencode scenarios: `opencode run` against the scripted Chat Completions API through an
OpenAI-compatible provider (OPENCODE_CONFIG_CONTENT), after `git handoff hooks install
--opencode`, whose plugin pipes opencode's events to `git-handoff record`.

opencode installs `@opencode-ai/plugin` with npm into every config folder at start unless the
folder has `node_modules/` and a `package-lock.json` that lists it: offline that costs 70 s of
retries, so the sandbox writes both first (what a user's online install leaves behind)."""

import json
import os

from checks import SEAL_ADVICE, note_recorded_and_tagged, played, summary
from endpoint import call

PLUGIN_PACKAGE = "@opencode-ai/plugin"


def _settled(folder):
    os.makedirs(os.path.join(folder, "node_modules"), exist_ok=True)
    lock = {"name": "opencode-config", "lockfileVersion": 3, "requires": True,
            "packages": {"": {"dependencies": {PLUGIN_PACKAGE: "*"}}}}
    with open(os.path.join(folder, "package-lock.json"), "w") as f:
        json.dump(lock, f)


def setup(ctx, agents=("--opencode",)):
    box = ctx.sandbox
    box.init_repo(agents=agents)
    config = {
        "$schema": "https://opencode.ai/config.json",
        "model": "fake/fake-model", "small_model": "fake/fake-model",
        "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "e2e",
                              "options": {"baseURL": f"{ctx.endpoint.url}/v1",
                                          "apiKey": "sk-e2e-fake-key"},
                              "models": {"fake-model": {"name": "fake", "tool_call": True}}}},
        "autoupdate": False, "share": "disabled",
    }
    xdg = {name: os.path.join(box.home, sub) for name, sub in [
        ("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"), ("XDG_STATE_HOME", ".local/state")]}
    box.env.update(xdg)
    box.env.update({
        "OPENCODE_CONFIG_CONTENT": json.dumps(config),
        "OPENCODE_DISABLE_MODELS_FETCH": "true",
        "OPENCODE_DISABLE_AUTOUPDATE": "true",
        "OPENCODE_DISABLE_SHARE": "true",
        "OPENCODE_DISABLE_LSP_DOWNLOAD": "true",
        "OPENCODE_DISABLE_DEFAULT_PLUGINS": "true",
    })
    _settled(os.path.join(box.repo, ".opencode"))
    _settled(os.path.join(xdg["XDG_CONFIG_HOME"], "opencode"))
    # The folders opencode settles are its own, not the agent's work: out of the way of the
    # scenario's checks, as a user's .gitignore would have them.
    with open(os.path.join(box.repo, ".git", "info", "exclude"), "a") as f:
        f.write(".opencode/node_modules/\n.opencode/package-lock.json\n.opencode/package.json\n"
                ".opencode/.gitignore\n")
    return box


def opencode(box, prompt):
    out = box.run(["opencode", "run", "--format", "json", prompt])
    session = None
    for line in out.stdout.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        session = session or value.get("sessionID") or (value.get("part") or {}).get("sessionID")
    return out, session


def tool_calls(ctx):
    """Each call once under its call id, a failing command and a failing edit, the digest."""
    box = setup(ctx)
    ctx.endpoint.script("E2E-CALLS", [
        [call("write", filePath=f"{box.repo}/hello.txt", content="hello\n")],
        [call("bash", command="grep -c answer lib.rs", description="count")],
        [call("bash", command="ls no-such-file", description="a failing command")],
        [call("edit", filePath=f"{box.repo}/lib.rs", oldString="no such text",
              newString="x")],
        "Wrote hello.txt; the listing and the edit failed.",
    ])
    out, session = opencode(box, "E2E-CALLS: write hello.txt, count, list, edit.")
    ctx.check("the session: opencode exited 0", out.returncode == 0,
              f"exit {out.returncode}\n{out.stderr[-1500:]}\n{out.stdout[-1000:]}")
    ids = [i for i, _ in played(ctx.endpoint.requests, "E2E-CALLS")]
    ctx.check("the model's four tool calls were played", len(ids) == 4, ids)
    events = box.events()
    results = [e for e in events if e.get("kind") == "tool_result"]
    starts = [e for e in events if e.get("kind") == "tool_start"]
    ctx.check("four starts and four results, under the model's call ids",
              [e.get("id") for e in starts] == ids and [e.get("id") for e in results] == ids,
              summary(events))
    got = [(r.get("tool"), r.get("ok"), r.get("exit_code")) for r in results]
    ctx.check("recorded: write ok, grep ok (0), ls failed (2), the edit failed", got == [
        ("write", True, None), ("bash", True, 0), ("bash", False, 2), ("edit", False, None)], got)
    digest = json.loads(box.handoff("digest", "--json").stdout)
    counts = (digest.get("tool_calls"), digest.get("errors"), digest.get("files_edited"))
    ctx.check("the digest counts 4 tool calls, 2 errors, hello.txt edited", counts == (
        4, 2, ["hello.txt"]), counts)
    ctx.check("the prompt, one turn, and the model's last text", digest.get("turns") == 1 and
              digest.get("last_assistant_text") ==
              "Wrote hello.txt; the listing and the edit failed.", digest)
    ctx.check("every event carries the session id", events and all(
        e.get("session") == session for e in events), f"want {session}: {summary(events)}")
    first = next((r["body"] for r in ctx.endpoint.requests if r.get("marker") == "E2E-CALLS"), {})
    bad = [word for word in SEAL_ADVICE if word in json.dumps(first.get("messages", []))]
    ctx.check("fresh attempt: the system prompt advises no seal", not bad, bad)
    handoffs = box.handoffs()
    ctx.check("the idle session stored a digest-only record", len(handoffs) == 1 and handoffs[
        0].get("kind") == "digest", handoffs)


def recall(ctx):
    """A second session starts with the first one's handoff in its system prompt."""
    box = setup(ctx)
    box.handoff("note", "--emergency", "--reason", "turn_limit")
    ctx.endpoint.script("E2E-NEXT", ["Read the handoff."])
    out, _ = opencode(box, "E2E-NEXT: what was handed off?")
    ctx.check("the session: opencode exited 0", out.returncode == 0,
              f"exit {out.returncode}\n{out.stderr[-1500:]}")
    first = next((r["body"] for r in ctx.endpoint.requests if r.get("marker") == "E2E-NEXT"), {})
    system = [m.get("content") for m in first.get("messages", []) if m.get("role") == "system"]
    text = json.dumps(system)
    ctx.check("the system prompt carries the recall", "Last handoff (git-handoff recall):" in
              text and "issue #44" in text, text[-2000:])


NOTE_TOOL = "git-handoff_handoff_note"


def note_over_mcp(ctx):
    """A failing `cargo test`, then `handoff_note` over MCP (registered in `opencode.json`): the
    claim that all tests pass is tagged, and the note's call is no work."""
    box = setup(ctx)
    marker = "E2E-NOTE"
    ctx.endpoint.script(marker, [
        [call("bash", command="cargo test --offline -q", description="test")],
        [call(NOTE_TOOL, goal="Make answer() return 42", done=["All tests pass"],
              next=["Fix answer()"], reason="turn_limit")],
        "Handed off.",
    ])
    out, _ = opencode(box, f"{marker}: run the tests and hand off.")
    ctx.check("the session: opencode exited 0", out.returncode == 0,
              f"exit {out.returncode}\n{out.stderr[-1500:]}")
    offered = [t.get("function", {}).get("name") for r in ctx.endpoint.requests
               if r.get("marker") == marker for t in (r["body"].get("tools") or [])]
    ctx.check(f"opencode offered {NOTE_TOOL} to the model", NOTE_TOOL in offered,
              sorted(set(offered)))
    note_recorded_and_tagged(ctx, box, ctx.endpoint.requests, marker, "bash", NOTE_TOOL)


SCENARIOS = [
    ("opencode-tool-calls", tool_calls, tool_calls.__doc__.split("\n")[0]),
    ("opencode-recall", recall, recall.__doc__),
    ("opencode-mcp-note", note_over_mcp, note_over_mcp.__doc__.split("\n")[0]),
]
