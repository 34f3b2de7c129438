"""The wall time per tool call as each CLI sees it, with git-handoff's hooks and without.

For each CLI a session makes N shell calls (`true`), and the endpoint times, for each call, from
the moment it finished sending the tool call to the moment the request carrying its result
arrived: the CLI's whole turn around the call (its PreToolUse and PostToolUse hooks, the command,
building the next request). Three configurations, each run ROUNDS times in a fresh sandbox:

- `git-handoff`: the hooks as `git handoff hooks install` writes them;
- `read input`: the same hook entries, each running `cat >/dev/null` instead (what any hook costs:
  the CLI starting a process and writing the payload to it);
- `no hooks`: no hook entries at all (the CLI's own time per call).

The configurations take turns round by round, so a change in the machine's load falls on all alike.

git-handoff's share is (git-handoff - read input) / git-handoff: what our commands add over a
hook that only reads its input. The MCP server stays registered in all three.
"""

import json
import os
import statistics

import scenarios_copilot
import scenarios_gemini
import scenarios_opencode
from endpoint import Endpoint, call
from harness import Sandbox

READ_ONLY = "cat >/dev/null"


def _rewrite(path, read_only):
    if path.endswith(".js"):  # opencode's plugin: each spawn of git-handoff only reads its input
        if not read_only:
            os.remove(path)
            return
        with open(path) as f:
            text = f.read()
        text = text.replace('spawnSync("git-handoff", args,', 'spawnSync("sh", ["-c", "cat >/dev/null"],')
        with open(path, "w") as f:
            f.write(text)
        return
    with open(path) as f:
        settings = json.load(f)
    if read_only:
        for groups in settings.get("hooks", {}).values():
            for group in groups:
                if "bash" in group:  # Copilot CLI's entries
                    group["bash"] = READ_ONLY
                for hook in group.get("hooks", []):
                    hook["command"] = READ_ONLY
    else:
        settings["hooks"] = {}
    with open(path, "w") as f:
        json.dump(settings, f, indent=2)


def _session(config, cli, mode, calls):
    """One session of `calls` shell calls; returns the seconds per call."""
    endpoint = Endpoint()
    box = Sandbox(config, endpoint, f"timing-{cli}")
    try:
        if cli in ("copilot", "opencode", "gemini"):
            module = {"copilot": scenarios_copilot, "opencode": scenarios_opencode,
                      "gemini": scenarios_gemini}[cli]
            quiet = type("Quiet", (), {"sandbox": box, "endpoint": endpoint,
                                       "check": lambda *a, **k: True})()
            module.setup(quiet, agents=(f"--{cli}",))
        else:
            box.init_repo(agents=(f"--{cli}",))
        settings = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json",
                    "gemini": ".gemini/settings.json",
                    "copilot": ".github/hooks/git-handoff.json",
                    "opencode": ".opencode/plugin/git-handoff.js"}[cli]
        if mode != "git-handoff":
            _rewrite(os.path.join(box.repo, settings), mode == "read input")
        if cli == "claude":
            step = call("Bash", command="true", description="nothing")
        elif cli == "codex":
            step = call("exec_command", cmd="true", login=False)
        elif cli in ("copilot", "opencode"):
            step = call("bash", command="true", description="nothing")
        else:
            step = call("run_shell_command", command="true")
        endpoint.script("E2E-TIMING", [[step]] * calls + ["Done."])
        if cli == "claude":
            out, _, _ = box.claude("E2E-TIMING: run true.")
        elif cli == "codex":
            box.write_codex_config()
            out, _, _ = box.codex("E2E-TIMING: run true.")
        elif cli == "copilot":
            out, _ = scenarios_copilot.copilot(box, "E2E-TIMING: run true.")
        elif cli == "opencode":
            out, _ = scenarios_opencode.opencode(box, "E2E-TIMING: run true.")
        else:
            out = box.run(["gemini", "-p", "E2E-TIMING: run true.", "--yolo"])
        if out.returncode != 0:
            raise RuntimeError(f"{cli} exited {out.returncode}: {out.stderr[-800:]}")
        main = [r for r in endpoint.requests if r.get("marker") == "E2E-TIMING"]
        by_step = {}
        for r in main:
            by_step.setdefault(r["step"], r)
        times = []
        for k in range(calls):
            sent, back = by_step.get(k), by_step.get(k + 1)
            if sent and back and "done" in sent:
                times.append(back["at"] - sent["done"])
        if len(times) != calls:
            raise RuntimeError(f"{cli}: {len(times)} of {calls} calls timed")
        return times
    finally:
        endpoint.close()
        box.close()


def _hook_alone(config, runs=40):
    """The hook processes alone: a PostToolUse payload of Claude Code's for a Bash call, piped
    to the installed command and to `cat >/dev/null`, each through `sh -c` as the CLIs run them
    (interleaved); median milliseconds of each."""
    import subprocess
    import time
    endpoint = Endpoint()
    box = Sandbox(config, endpoint, "timing-hook")
    try:
        box.init_repo(agents=())
        payload = json.dumps({
            "session_id": "s1", "transcript_path": "/nonexistent.jsonl", "cwd": box.repo,
            "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "t1",
            "tool_input": {"command": "true"},
            "tool_response": {"stdout": "", "stderr": "", "interrupted": False}})
        commands = {"git-handoff": "git-handoff record --agent claude || exit 1",
                    "read input": READ_ONLY}
        times = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                started = time.monotonic()
                subprocess.run(["sh", "-c", command], cwd=box.repo, env=box.env, input=payload,
                               text=True, capture_output=True)
                times[name].append(time.monotonic() - started)
        return {name: statistics.median(t) * 1000 for name, t in times.items()}
    finally:
        endpoint.close()
        box.close()


def main(config):
    clis = [c for c in ("claude", "codex", "gemini", "copilot", "opencode")
            if os.access(os.path.join(config.npm_bin, c), os.X_OK) and c not in config.unavailable]
    modes = ["git-handoff", "read input", "no hooks"]
    rows = []
    for cli in clis:
        # The configurations take turns, round by round, so that a change in the machine's load
        # falls on all three alike.
        times = {mode: [] for mode in modes}
        failed = {}
        for _ in range(config.rounds):
            for mode in modes:
                if mode in failed:
                    continue
                try:
                    times[mode] += _session(config, cli, mode, config.calls)
                except Exception as err:  # a CLI that cannot run a configuration: say why
                    failed[mode] = str(err).splitlines()[0]
                    print(f"{cli} / {mode}: not measured: {failed[mode]}", flush=True)
        medians = {}
        for mode in modes:
            if mode in failed or not times[mode]:
                continue
            medians[mode] = statistics.median(times[mode]) * 1000
            rows.append((cli, mode, len(times[mode]), medians[mode],
                         statistics.quantiles(times[mode], n=10)[-1] * 1000))
            print(f"{cli:7} {mode:12} {len(times[mode]):3} calls  median {medians[mode]:7.1f} ms",
                  flush=True)
        if "git-handoff" in medians and "read input" in medians:
            ours = medians["git-handoff"] - medians["read input"]
            rows.append((cli, "share", ours, medians["git-handoff"], None))
    alone = _hook_alone(config)
    print()
    print(f"binary: {config.binary}")
    print(f"one hook process alone (Claude Code PostToolUse payload, sh -c, median of 40): "
          f"git-handoff record {alone['git-handoff']:.1f} ms, cat >/dev/null "
          f"{alone['read input']:.1f} ms")
    print(f"{'CLI':7} {'hooks':12} {'calls':>5} {'median ms':>10} {'p90 ms':>8}")
    for cli, mode, n, median, p90 in rows:
        if mode == "share":
            print(f"{cli:7} git-handoff's share: {n:+.1f} ms per call over hooks that only read "
                  f"their input ({100 * n / median:.0f}% of the time per call)")
        else:
            print(f"{cli:7} {mode:12} {n:5} {median:10.1f} {p90:8.1f}")
    return 0
