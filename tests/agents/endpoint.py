"""A scripted model endpoint on 127.0.0.1 that the real agent CLIs talk to instead of their vendors.

It speaks three wire formats, each with streaming (server-sent events):
- Anthropic's Messages API (`POST /v1/messages`), reached by Claude Code through ANTHROPIC_BASE_URL;
- OpenAI's Responses API (`POST /v1/responses`), reached by Codex through a model provider with
  `wire_api = "responses"`;
- Google's Gemini API (`POST /v1beta/models/<model>:streamGenerateContent`), reached by Gemini CLI
  through GOOGLE_GEMINI_BASE_URL;
- OpenAI's Chat Completions API (`POST /v1/chat/completions`), reached by GitHub Copilot CLI in
  bring-your-own-model mode (COPILOT_PROVIDER_BASE_URL) and by opencode through an
  OpenAI-compatible provider.

A conversation is a list of steps, registered under a marker: a string that the scenario puts in
its prompt. For a request that offers tools, the endpoint finds the last message holding a marker
and counts the tool results after it: that count is the step to play (a list of tool calls, or a
final text). So the reply depends only on the request, not on how many side requests (titles,
summaries, quota probes) the CLI made before, and a retried request gets the same reply. Requests
with no marker (or no tools) get a short text reply. Every request is logged with its body.
"""

import gzip
import json
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def call(name, **arguments):
    """One tool call of a step."""
    return {"name": name, "input": arguments}


class Endpoint:
    """The server and its state: the scripts and the log of requests."""

    def __init__(self):
        self.lock = threading.Lock()
        self.scripts = {}  # marker -> list of steps; a step is a list of calls or a str
        self.requests = []  # {"path", "body", "kind", "marker", "step"}
        self.counter = 0
        self.usage_tokens = 100  # the input tokens each reply reports
        handler = type("Handler", (_Handler,), {"endpoint": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def script(self, marker, steps):
        with self.lock:
            self.scripts[marker] = steps

    def next_id(self, prefix):
        with self.lock:
            self.counter += 1
            return f"{prefix}_{self.counter:04d}"

    def log_since(self, mark):
        with self.lock:
            return list(self.requests[mark:])

    def mark(self):
        with self.lock:
            return len(self.requests)

    def plan(self, texts_and_results):
        """The step for a conversation given as (text, is_tool_result) items, oldest first."""
        with self.lock:
            scripts = dict(self.scripts)
        last = None
        for index, (text, _) in enumerate(texts_and_results):
            for marker in sorted(scripts, key=len):  # the longest marker in a text wins
                if text and marker in text:
                    last = (index, marker)
        if last is None:
            return None, None, None, self.usage_tokens
        index, marker = last
        if _summary_request(texts_and_results):
            # The summary names the marker's COMPACTED conversation, which goes on from there.
            return None, None, f"Summary: {marker}-COMPACTED; the work so far.", self.usage_tokens
        step = sum(1 for _, is_result in texts_and_results[index + 1 :] if is_result)
        steps = scripts[marker]
        play = steps[step] if step < len(steps) else f"Done with {marker}."
        tokens = self.usage_tokens
        if isinstance(play, dict):
            tokens = play.get("input_tokens", tokens)
            play = play["play"]
        return marker, step, play, tokens


# A CLI asking for a summary of the conversation to compact it: answered with plain text, never
# with the script (Claude Code's compaction request carries the tools and the whole conversation).
SUMMARY_SIGNS = ("Respond with TEXT ONLY", "CONTEXT CHECKPOINT COMPACTION")


def _summary_request(items):
    texts = [text for text, is_result in items if text]
    return bool(texts) and any(sign in texts[-1] for sign in SUMMARY_SIGNS)


def _function_call(endpoint, c):
    """A Responses API output item for one call; `ns__name` is a tool `name` in namespace `ns`
    (how Codex offers MCP tools: namespace `mcp__<server>`)."""
    if "_freeform" in c["input"]:  # a freeform tool (Codex's apply_patch)
        return {"type": "custom_tool_call", "id": endpoint.next_id("ctc"), "status": "completed",
                "call_id": endpoint.next_id("call"), "name": c["name"],
                "input": c["input"]["_freeform"]}
    item = {"type": "function_call", "id": endpoint.next_id("fc"), "status": "completed",
            "call_id": endpoint.next_id("call"), "name": c["name"],
            "arguments": json.dumps(c["input"])}
    if c["name"].startswith("mcp__") and "__" in c["name"][5:]:
        namespace, _, name = c["name"].rpartition("__")
        item.update(namespace=namespace, name=name)
    return item


def _example(schema):
    """A small value that fits a JSON schema."""
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        return {k: _example(v) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    return (schema.get("enum") or ["e2e"])[0]


def _text_of(value):
    """All the text in a JSON value, joined (for finding markers)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text_of(v) for v in value)
    if isinstance(value, dict):
        return "\n".join(_text_of(v) for v in value.values())
    return ""


class _Handler(BaseHTTPRequestHandler):
    endpoint = None
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        encoding = (self.headers.get("Content-Encoding") or "").lower()
        if encoding == "gzip":
            raw = gzip.decompress(raw)
        elif encoding == "deflate":
            raw = zlib.decompress(raw)
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {"_raw": raw.decode("utf-8", "replace")}

    def _send(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
        entry = getattr(self, "_entry", None)
        if entry is not None:
            entry["done"] = time.monotonic()
            self._entry = None

    def _sse(self, events):
        """events: (event name or None, data dict) pairs."""
        out = []
        for name, data in events:
            if name:
                out.append(f"event: {name}\n")
            out.append(f"data: {json.dumps(data)}\n\n")
        self._send(200, "".join(out).encode(), "text/event-stream")

    def _log(self, kind, body, marker=None, step=None):
        entry = {"path": self.path, "kind": kind, "body": body, "marker": marker, "step": step,
                 "at": time.monotonic()}
        self._entry = entry
        with self.endpoint.lock:
            self.endpoint.requests.append(entry)

    def _outbound(self):
        """A request through the proxy variables: meant for another host. Refused and logged."""
        if self.command == "CONNECT" or self.path.startswith(("http://", "https://")):
            self._log("outbound", {"method": self.command, "target": self.path})
            self._send(403, {"error": {"message": "e2e: only 127.0.0.1 is reachable"}})
            self.close_connection = True
            return True
        return False

    def do_CONNECT(self):
        self._outbound()

    def do_GET(self):
        if self._outbound():
            return
        self._log("get", None)
        path = self.path.split("?")[0]
        if path.endswith("/models"):
            self._send(200, {"data": [], "models": [], "object": "list"})
        else:
            self._send(404, {"error": {"message": f"no such path {self.path}"}})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        if self._outbound():
            return
        body = self._body()
        path = self.path.split("?")[0]
        if path.endswith("/v1/messages/count_tokens"):
            self._log("anthropic-count", body)
            self._send(200, {"input_tokens": 1000})
        elif path.endswith("/v1/messages"):
            self._anthropic(body)
        elif path.endswith("/responses"):
            self._responses(body)
        elif path.endswith("/chat/completions"):
            self._chat(body)
        elif ":streamGenerateContent" in path or ":generateContent" in path:
            self._gemini(body, stream=":streamGenerateContent" in path)
        elif ":countTokens" in path:
            self._log("gemini-count", body)
            self._send(200, {"totalTokens": 1000})
        else:
            self._log("unknown", body)
            self._send(404, {"error": {"message": f"no such path {self.path}"}})

    # Anthropic Messages API

    def _anthropic(self, body):
        items = []
        for message in body.get("messages", []):
            content = message.get("content")
            if isinstance(content, str):
                items.append((content, False))
                continue
            for block in content or []:
                if block.get("type") == "tool_result":
                    items.append((None, True))
                else:
                    items.append((_text_of(block), False))
        marker, step, play, tokens = None, None, None, self.endpoint.usage_tokens
        # A compaction request is planned too: Codex's offers no tools.
        if body.get("tools") or _summary_request(items):
            marker, step, play, tokens = self.endpoint.plan(items)
        if play is None:
            play = "OK."
        self._log("anthropic", body, marker, step)
        model = body.get("model", "claude")
        usage = {"input_tokens": tokens, "output_tokens": 10}
        message_id = self.endpoint.next_id("msg")
        if isinstance(play, str):
            blocks = [{"type": "text", "text": play}]
            stop = "end_turn"
        else:
            blocks = [
                {"type": "tool_use", "id": self.endpoint.next_id("toolu"), "name": c["name"],
                 "input": c["input"]}
                for c in play
            ]
            stop = "tool_use"
        self._entry["calls"] = [(b["id"], b["name"]) for b in blocks if b["type"] == "tool_use"]
        if not body.get("stream"):
            self._send(200, {"id": message_id, "type": "message", "role": "assistant",
                             "model": model, "content": blocks, "stop_reason": stop,
                             "stop_sequence": None, "usage": usage})
            return
        events = [("message_start", {"type": "message_start", "message": {
            "id": message_id, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}})]
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                start = {"type": "text", "text": ""}
                delta = {"type": "text_delta", "text": block["text"]}
            else:
                start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
            events += [
                ("content_block_start",
                 {"type": "content_block_start", "index": index, "content_block": start}),
                ("content_block_delta",
                 {"type": "content_block_delta", "index": index, "delta": delta}),
                ("content_block_stop", {"type": "content_block_stop", "index": index}),
            ]
        events += [
            ("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 10}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        self._sse(events)

    # OpenAI Responses API

    def _responses(self, body):
        items = []
        for item in body.get("input", []) if isinstance(body.get("input"), list) else []:
            kind = item.get("type", "message")
            if kind.endswith("_output"):
                items.append((None, True))
            elif kind == "message":
                items.append((_text_of(item.get("content")), False))
        if isinstance(body.get("input"), str):
            items.append((body["input"], False))
        marker, step, play, tokens = None, None, None, self.endpoint.usage_tokens
        # A compaction request is planned too: Codex's offers no tools.
        if body.get("tools") or _summary_request(items):
            marker, step, play, tokens = self.endpoint.plan(items)
        if play is None:
            play = "OK."
        self._log("responses", body, marker, step)
        response_id = self.endpoint.next_id("resp")
        if isinstance(play, str):
            output = [{"type": "message", "role": "assistant", "id": self.endpoint.next_id("msg"),
                       "status": "completed",
                       "content": [{"type": "output_text", "text": play, "annotations": []}]}]
        else:
            output = [
                _function_call(self.endpoint, c) for c in play
            ]
        self._entry["calls"] = [(o["call_id"], c["name"]) for o, c in zip(output, play)
                                if "call_id" in o] if not isinstance(play, str) else []
        usage = {"input_tokens": tokens, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 10, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": tokens + 10}
        response = {"id": response_id, "object": "response", "status": "in_progress",
                    "model": body.get("model"), "output": []}
        events = [("response.created", {"type": "response.created", "response": response})]
        for index, item in enumerate(output):
            events.append(("response.output_item.added", {
                "type": "response.output_item.added", "output_index": index, "item": item}))
            events.append(("response.output_item.done", {
                "type": "response.output_item.done", "output_index": index, "item": item}))
        done = dict(response, status="completed", output=output, usage=usage)
        events.append(("response.completed", {"type": "response.completed", "response": done}))
        self._sse(events)

    # Google Gemini API

    def _gemini(self, body, stream):
        items = []
        for content in body.get("contents", []):
            for part in content.get("parts", []):
                if "functionResponse" in part:
                    items.append((None, True))
                else:
                    items.append((_text_of(part.get("text", "")), False))
        marker, step, play, tokens = None, None, None, self.endpoint.usage_tokens
        # A compaction request is planned too: Codex's offers no tools.
        if body.get("tools") or _summary_request(items):
            marker, step, play, tokens = self.endpoint.plan(items)
        if play is None:
            play = "OK."
        self._log("gemini", body, marker, step)
        schema = (body.get("generationConfig") or {}).get("responseJsonSchema")
        if marker is None and schema:  # a side request that wants JSON (Gemini CLI's router)
            play = json.dumps(_example(schema))
        if isinstance(play, str):
            parts = [{"text": play}]
        else:
            parts = [{"functionCall": {"name": c["name"], "args": c["input"]}} for c in play]
        chunk = {"candidates": [{"content": {"role": "model", "parts": parts},
                                 "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": tokens,
                                   "candidatesTokenCount": 10,
                                   "totalTokenCount": tokens + 10},
                 "modelVersion": "gemini-2.5-pro"}
        if stream:
            self._sse([(None, chunk)])
        else:
            self._send(200, chunk)

    # OpenAI Chat Completions API

    def _chat(self, body):
        items = []
        for message in body.get("messages", []) or []:
            if message.get("role") == "tool":
                items.append((None, True))
            elif message.get("role") in ("user", "system", "developer"):
                items.append((_text_of(message.get("content")), False))
        marker, step, play, tokens = None, None, None, self.endpoint.usage_tokens
        if body.get("tools") or _summary_request(items):
            marker, step, play, tokens = self.endpoint.plan(items)
        if play is None:
            play = "OK."
        self._log("chat", body, marker, step)
        model = body.get("model", "e2e")
        created = int(time.time())
        chat_id = self.endpoint.next_id("chatcmpl")
        if isinstance(play, str):
            delta = {"role": "assistant", "content": play}
            finish = "stop"
            calls = []
        else:
            calls = [{"index": i, "id": self.endpoint.next_id("call"), "type": "function",
                      "function": {"name": c["name"], "arguments": json.dumps(c["input"])}}
                     for i, c in enumerate(play)]
            delta = {"role": "assistant", "content": None, "tool_calls": calls}
            finish = "tool_calls"
        self._entry["calls"] = [(c["id"], c["function"]["name"]) for c in calls]
        usage = {"prompt_tokens": tokens, "completion_tokens": 10, "total_tokens": tokens + 10}
        if not body.get("stream"):
            message = {k: v for k, v in delta.items() if k != "tool_calls" or v}
            if calls:
                message["tool_calls"] = [{k: v for k, v in c.items() if k != "index"}
                                         for c in calls]
            self._send(200, {"id": chat_id, "object": "chat.completion", "created": created,
                             "model": model, "usage": usage,
                             "choices": [{"index": 0, "message": message,
                                          "finish_reason": finish}]})
            return
        chunk = {"id": chat_id, "object": "chat.completion.chunk", "created": created,
                 "model": model}
        events = [(None, dict(chunk, choices=[{"index": 0, "delta": delta,
                                               "finish_reason": None}]))]
        events.append((None, dict(chunk, choices=[{"index": 0, "delta": {},
                                                   "finish_reason": finish}])))
        events.append((None, dict(chunk, choices=[], usage=usage)))
        out = "".join(f"data: {json.dumps(data)}\n\n" for _, data in events) + "data: [DONE]\n\n"
        self._send(200, out.encode(), "text/event-stream")
