"""Checks shared by the scenarios: the event log's calls, and what reached the model."""

import json

from harness import tool_results_in

CLAUDE_CONTEXT = "SessionStart hook additional context:"

# What SessionStart must never say in a fresh attempt (issue 44, item 3).
SEAL_ADVICE = ("Unsealed", "git handoff seal", "--emergency", "uncommitted path")


def calls(events):
    """The event log's tool calls by id: {"start": [...], "result": [...]}."""
    by_id = {}
    for event in events:
        if event.get("kind") in ("tool_start", "tool_result"):
            slot = "start" if event["kind"] == "tool_start" else "result"
            by_id.setdefault(event.get("id"), {"start": [], "result": []})[slot].append(event)
    return by_id


def check_call(ctx, events, call_id, label, tool, ok, exit_code=None, session=None, pre=True):
    """One tool call in the log: its start (when `pre`) and its result, with `ok`, the exit code
    (when given) and the session id."""
    found = calls(events).get(call_id, {"start": [], "result": []})
    shown = json.dumps(found, indent=None)[:1500] or "nothing"
    if pre:
        ctx.check(f"{label}: PreToolUse recorded it once as it started ({tool})",
                  len(found["start"]) == 1 and found["start"][0].get("tool") == tool,
                  f"id {call_id}: {shown}\nlog: {summary(events)}")
    results = found["result"]
    ctx.check(f"{label}: its result is recorded once", len(results) == 1,
              f"id {call_id}: {shown}\nlog: {summary(events)}")
    if len(results) != 1:
        return
    result = results[0]
    ctx.check(f"{label}: recorded ok={str(ok).lower()}", result.get("ok") is ok, result)
    if exit_code is not None:
        ctx.check(f"{label}: recorded exit code {exit_code}", result.get("exit_code") == exit_code,
                  result)
    if session:
        every = found["start"] + results
        ctx.check(f"{label}: recorded with the session id", all(
            e.get("session") == session for e in every), f"want {session}: {shown}")


def summary(events):
    """The log in short, for failure output."""
    return "; ".join(
        f"{e.get('event')}/{e.get('kind')} {e.get('tool') or ''} id={e.get('id')} ok={e.get('ok')}"
        f" exit={e.get('exit_code')}" for e in events) or "empty"


def main_requests(requests, marker):
    """The requests that played `marker`'s conversation."""
    return [r for r in requests if r.get("marker") == marker]


def first_request(ctx, requests, marker):
    found = main_requests(requests, marker)
    ctx.check(f"the model was asked for {marker}", found,
              [(r["path"], r["kind"], r.get("marker")) for r in requests])
    return found[0]["body"] if found else {}


def claude_contexts(body):
    """What SessionStart hooks put in front of the model in one Messages request."""
    out = []
    for message in body.get("messages", []):
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for block in blocks or []:
            text = block.get("text") or ""
            at = text.find(CLAUDE_CONTEXT)
            while at >= 0:
                rest = text[at + len(CLAUDE_CONTEXT):]
                end = rest.find("\n\n# ")
                out.append((rest if end < 0 else rest[:end]).strip())
                at = text.find(CLAUDE_CONTEXT, at + 1)
    return out


def no_seal_advice(ctx, contexts, label):
    bad = [c for c in contexts if any(word in c for word in SEAL_ADVICE)]
    ctx.check(f"{label}: SessionStart does not advise a seal or an emergency note, nor count the "
              "files `hooks install` wrote", not bad, bad)


def tool_result_text(requests, call_id):
    """The text of the tool result for `call_id`, as the next request carried it to the model."""
    for request in requests:
        for cid, text in tool_results_in(request.get("body") or {}):
            if cid == call_id:
                return text
    return None


def played(requests, marker):
    """The tool calls the endpoint played for `marker`, in order, as (call id, tool name)."""
    return [tuple(c) for r in main_requests(requests, marker) for c in r.get("calls", [])]


def tagged(result, claim="All tests pass", why="cargo test"):
    """Whether a handoff_note tool result, as the model got it, says that `claim` was tagged
    unverified because of `why`: in words (`[unverified: ...]`) or as the structured tags."""
    if f"{claim} [unverified:" in result or (
            "Tagged [unverified]" in result and claim in result and why in result):
        return True
    try:  # Codex puts "Wall time: ...\nOutput:\n" before the tool's JSON
        value = json.loads(result[result.find("{"):] if "{" in result else result)
    except ValueError:
        return False
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict) and isinstance(item.get("text"), str) and tagged(item["text"]):
            return True
        tags = item.get("tags", []) if isinstance(item, dict) else []
        if any(t.get("item") == claim and why in t.get("why", "") for t in tags):
            return True
    return False


def codex_contexts(body):
    """What hooks put in front of the model in one Responses request: the input messages that
    are neither Codex's own (base instructions, `<...>` blocks) nor a scenario's prompt."""
    out = []
    for item in body.get("input", []) if isinstance(body.get("input"), list) else []:
        if item.get("type") != "message" or item.get("role") not in ("developer", "user"):
            continue
        for part in item.get("content") or []:
            text = (part.get("text") or "").strip()
            if text and not text.startswith("<") and "E2E-" not in text \
                    and not text.startswith("You are Codex"):
                out.append(text)
    return out


def note_tagged(ctx, box, requests, marker, note_tool, session):
    """After `marker`'s conversation (a failing `cargo test`, then `handoff_note` over MCP): both
    calls recorded with the session id, the test as failed with exit 101, and the claim that all
    tests pass tagged in the tool result and in the committed note."""
    ids = played(requests, marker)
    ctx.check("the test run and the note call were played", len(ids) == 2, ids)
    if len(ids) != 2:
        return
    events = box.events()
    check_call(ctx, events, ids[0][0], "cargo test", "Bash", False, exit_code=101,
               session=session)
    check_call(ctx, events, ids[1][0], "handoff_note", note_tool, True, session=session)
    result = tool_result_text(requests, ids[1][0]) or ""
    ctx.check("the tool result tells the model what was tagged", tagged(result), result)
    note = box.head_file(".agent/handoff/44.md")
    ctx.check("the committed note tags the claim",
              "All tests pass [unverified: last `cargo test` failed]" in note, note)


def note_recorded_and_tagged(ctx, box, requests, marker, shell_tool, note_tool):
    """After `marker`'s conversation (a failing `cargo test --offline -q`, then `note_tool` over
    MCP), for CLIs whose hooks carry no call id of the endpoint's: each call recorded once (the
    test failed with exit 101, the note call ok), the tool result the model got says what was
    tagged, the committed note tags the claim, and the digest counts the test alone."""
    results = [e for e in box.events() if e.get("kind") == "tool_result"]
    got = [(r.get("tool"), r.get("ok"), r.get("exit_code")) for r in results]
    ctx.check("recorded once each: the test failed (exit 101), the note call ok", got == [
        (shell_tool, False, 101), (note_tool, True, None)], got)
    # The note call's result, by the call id the endpoint made, or by the tool's name where the
    # wire format names results by their function (Gemini's).
    ids = {cid for cid, name in played(requests, marker) if name == note_tool} | {note_tool}
    texts = [text for r in requests for cid, text in tool_results_in(r.get("body") or {})
             if cid in ids]
    ctx.check("the tool result tells the model what was tagged",
              bool(texts) and tagged(texts[0]), texts[:1] or "no result reached the model")
    note = box.head_file(".agent/handoff/44.md")
    ctx.check("the committed note tags the claim",
              "All tests pass [unverified: last `cargo test --offline -q` failed]" in note, note)
    digest = json.loads(box.handoff("digest", "--json").stdout)
    ctx.check("the digest counts 1 tool call (the test), the note's own not",
              digest.get("tool_calls") == 1 and digest.get("handoff_skill") is True, digest)
