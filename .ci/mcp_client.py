"""`git handoff mcp` driven by a real MCP client: the official Python SDK's stdio client.

Usage: python3 .ci/mcp_client.py /path/to/git-handoff

In a fresh repository whose event log says the last `cargo test` failed, over both lifecycles the
SDK speaks (`server/discover` with the 2026-07-28 envelope, and the `initialize` handshake):
lists the tools with their schemas, hands off in one `handoff_note` call and sees the note
committed with the tag, sends bad arguments and sees a tool error with the server still
answering, then recalls the handoff. Prints `mcp-client: N passed, 0 failed` and exits 0 when all holds.
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

BINARY = os.path.abspath(sys.argv[1])
ENV = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "TZ": "UTC",
    "LC_ALL": "C",
    "GIT_AUTHOR_NAME": "A U Thor",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "C O Mitter",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
}
CHECKS = []


def check(what, ok, detail=""):
    CHECKS.append((what, bool(ok)))
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else f": {detail}"), flush=True)


def run(repo, *args, stdin=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | ENV
    out = subprocess.run(args, cwd=repo, env=env, input=stdin, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{args} failed: {out.stderr}")
    return out.stdout


def hook(repo, event, **fields):
    payload = {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": repo,
               "hook_event_name": event} | fields
    run(repo, BINARY, "record", stdin=json.dumps(payload))


def make_repo(root, name):
    """A repository with an attempt on issue 42 whose log has an edit and a failed `cargo test`."""
    repo = os.path.join(root, name)
    os.makedirs(os.path.join(repo, "src"))
    run(repo, "git", "init", "-q", "-b", "main")
    with open(os.path.join(repo, "src", "lib.rs"), "w") as f:
        f.write("fn a() {}\n")
    run(repo, "git", "add", "-A")
    run(repo, "git", "commit", "-q", "-m", "init")
    run(repo, BINARY, "start", "--issue", "42")
    with open(os.path.join(repo, "src", "lib.rs"), "w") as f:
        f.write("fn a() { b() }\n")
    path = os.path.join(repo, "src", "lib.rs")
    hook(repo, "PostToolUse", tool_name="Edit", tool_use_id="e1",
         tool_input={"file_path": path, "old_string": "a", "new_string": "b"},
         tool_response={"filePath": path})
    hook(repo, "PostToolUseFailure", tool_name="Bash", tool_use_id="b1",
         tool_input={"command": "cargo test"}, error="Exit code 101\ntest result: FAILED")
    return repo


def text(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


async def session(repo, mode):
    params = StdioServerParameters(command=BINARY, args=["mcp"], cwd=repo, env=ENV)
    async with Client(params, mode=mode) as client:
        version = client.session.protocol_version
        want = "2026-07-28" if mode == "auto" else "2025-11-25"
        check(f"[{mode}] the protocol version is {want}", version == want, version)
        listed = await client.list_tools()
        tools = {tool.name: tool for tool in listed.tools}
        check(f"[{mode}] the four tools are listed",
              sorted(tools) == ["handoff_note", "handoff_progress", "handoff_recall",
                                "handoff_snapshot"], sorted(tools))
        note_schema = tools["handoff_note"].input_schema
        check(f"[{mode}] handoff_note's schema describes each argument",
              note_schema["properties"]["done"]["type"] == "array"
              and all(p.get("description") for p in note_schema["properties"].values()),
              note_schema)

        result = await client.call_tool("handoff_note", {
            "goal": "Make the parser tests pass",
            "done": ["Rewrote the parser", "All tests pass now"],
            "next": ["Fix the failing parser test"],
            "files_touched": ["src/lib.rs"],
            "reason": "token_soft_threshold",
        })
        said = text(result)
        check(f"[{mode}] handoff_note answers without error", not result.is_error, said)
        check(f"[{mode}] handoff_note reports the tag in Orstrum's words",
              'Tagged [unverified]: "All tests pass now" (last `cargo test` failed). '
              "Correct it if the log is right." in said, said)
        subject = run(repo, "git", "log", "-1", "--format=%s").strip()
        check(f"[{mode}] the note is committed", subject == "Handoff note: issue #42", subject)
        committed = run(repo, "git", "show", "HEAD:.agent/handoff/42.md")
        check(f"[{mode}] the committed note carries the tag",
              "- All tests pass now [unverified: last `cargo test` failed]" in committed, committed)
        structured = result.structured_content or {}
        check(f"[{mode}] structured content is note --json",
              structured.get("commit") == run(repo, "git", "rev-parse", "HEAD").strip()
              and structured.get("path") == ".agent/handoff/42.md", structured)

        bad = await client.call_tool("handoff_note", {"done": "all of it"})
        check(f"[{mode}] a bad argument is a tool error naming the field",
              bad.is_error and "`done`" in text(bad), text(bad))
        bad = await client.call_tool("handoff_progress", {"set": {"id": "0", "status": "later"}})
        check(f"[{mode}] a bad status is a tool error naming the field",
              bad.is_error and "`set.status`" in text(bad), text(bad))

        try:
            await client.call_tool("handoff_nope", {})
            check(f"[{mode}] an unknown tool is a protocol error", False, "no error")
        except Exception as err:  # the SDK raises its MCPError
            check(f"[{mode}] an unknown tool is a protocol error", "handoff_nope" in str(err), err)

        recalled = await client.call_tool("handoff_recall", {"source": "compact"})
        check(f"[{mode}] the server still answers, and recalls the tagged handoff",
              not recalled.is_error
              and "All tests pass now [unverified: last `cargo test` failed]" in text(recalled),
              text(recalled))
        snap = await client.call_tool("handoff_snapshot", {})
        check(f"[{mode}] the snapshot is snapshot --json",
              (snap.structured_content or {}).get("issue") == 42, text(snap))


async def main():
    with tempfile.TemporaryDirectory(prefix="handoff-mcp-") as root:
        for mode in ("auto", "legacy"):
            repo = make_repo(root, mode)
            await session(repo, mode)
            run(repo, BINARY, "validate")
            check(f"[{mode}] the branch validates", True)
    failed = sum(1 for _, ok in CHECKS if not ok)
    print(f"mcp-client: {len(CHECKS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
