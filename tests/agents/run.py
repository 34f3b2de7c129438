"""The end-to-end suite: the real Claude Code, Codex, Gemini, GitHub Copilot and opencode CLIs
against a scripted model.

Usage:
  python3 tests/agents/run.py [--bin PATH] [--npm-bin DIR] [--keep] [--jobs N] [SCENARIO ...]
  python3 tests/agents/run.py --list
  python3 tests/agents/run.py --timing [--calls N]

Each scenario gets a fresh sandbox (repository, CLI homes, endpoint) and prints one line per check
(`ok` / `FAIL`) and then `PASS name` or `FAIL name`. A scenario whose CLI is not installed is
`SKIPPED` with the reason. Exits 1 when any check failed, 0 otherwise. `--timing` measures the
wall time per tool call instead (see timing.py).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from endpoint import Endpoint  # noqa: E402
from harness import Failure, Sandbox  # noqa: E402
import scenarios_claude  # noqa: E402
import scenarios_codex  # noqa: E402
import scenarios_copilot  # noqa: E402
import scenarios_gemini  # noqa: E402
import scenarios_opencode  # noqa: E402

SCENARIOS = (scenarios_claude.SCENARIOS + scenarios_codex.SCENARIOS + scenarios_gemini.SCENARIOS
             + scenarios_copilot.SCENARIOS + scenarios_opencode.SCENARIOS)
CLIS = {"claude": "claude", "codex": "codex", "gemini": "gemini", "copilot": "copilot",
        "opencode": "opencode"}


class Context:
    """What a scenario works with: its sandbox, its endpoint, and `check`."""

    def __init__(self, name, sandbox, endpoint):
        self.name = name
        self.sandbox = sandbox
        self.endpoint = endpoint
        self.checks = []
        self.lines = []

    def check(self, what, ok, detail=""):
        self.checks.append((what, bool(ok)))
        line = ("  ok   " if ok else "  FAIL ") + what
        if not ok and detail != "":
            text = str(detail)
            line += ":\n" + "\n".join("         " + l for l in text[:3000].splitlines())
        self.lines.append(line)
        return bool(ok)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenarios", nargs="*", help="scenario names (default: all)")
    parser.add_argument("--bin", default=None, help="the git-handoff binary")
    parser.add_argument("--npm-bin", default=None, help="where the CLIs are (node_modules/.bin)")
    parser.add_argument("--list", action="store_true", help="list the scenarios")
    parser.add_argument("--unavailable", action="append", default=[], metavar="CLI",
                        help="skip this CLI's scenarios (.ci/agents: it could not be installed)")
    parser.add_argument("--keep", action="store_true", help="keep the sandboxes")
    parser.add_argument("--jobs", type=int, default=1,
                        help="the scenarios of this many CLIs at once (one CLI's in turn)")
    parser.add_argument("--timeout", type=int, default=180, help="seconds per CLI run")
    parser.add_argument("--timing", action="store_true", help="measure the time per tool call")
    parser.add_argument("--calls", type=int, default=10, help="tool calls per timing run")
    parser.add_argument("--rounds", type=int, default=3, help="timing runs per configuration")
    config = parser.parse_args()
    if config.list:
        for name, _, doc in SCENARIOS:
            print(f"{name:34} {doc}")
        return 0
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    config.binary = os.path.abspath(config.bin or os.path.join(target, "debug", "git-handoff"))
    if not os.access(config.binary, os.X_OK):
        print(f"error: no git-handoff binary at {config.binary}; run `cargo build` or pass --bin",
              file=sys.stderr)
        return 2
    config.npm_bin = os.path.abspath(config.npm_bin or os.path.join(target, "agents-npm",
                                                                   "node_modules", ".bin"))
    config.tmp = tempfile.mkdtemp(prefix="handoff-e2e-")
    try:
        if config.timing:
            import timing
            return timing.main(config)
        return run_scenarios(config)
    finally:
        if not config.keep:
            shutil.rmtree(config.tmp, ignore_errors=True)
        else:
            print(f"sandboxes kept in {config.tmp}")


def run_one(config, scenario, name):
    """Runs one scenario; returns its printed lines and its verdict."""
    fn, doc = scenario
    cli = name.split("-")[0]
    exe = os.path.join(config.npm_bin, CLIS[cli])
    lines = [f"== {name}: {doc}"]
    if cli in config.unavailable or not os.access(exe, os.X_OK):
        why = "could not be installed or started" if cli in config.unavailable else \
            f"{exe} is not installed (bash .ci/agents installs it)"
        return lines + [f"SKIPPED {name}: {cli} {why}"], "SKIPPED"
    endpoint = Endpoint()
    sandbox = Sandbox(config, endpoint, name)
    ctx = Context(name, sandbox, endpoint)
    started = time.monotonic()
    try:
        fn(ctx)
    except Failure as err:
        ctx.check("the scenario ran to its end", False, err)
    except Exception:  # a harness error is a failure of the scenario, shown whole
        ctx.check("the scenario ran to its end", False, traceback.format_exc())
    outbound = [r["body"] for r in endpoint.requests if r["kind"] == "outbound"]
    ctx.check("nothing but 127.0.0.1 was contacted", not outbound, outbound)
    endpoint.close()
    if config.keep:  # the request log beside the kept sandbox, to look at afterwards
        with open(os.path.join(sandbox.root, "requests.json"), "w") as f:
            json.dump(endpoint.requests, f, indent=1, default=str)
    sandbox.close()
    verdict = "PASS" if all(ok for _, ok in ctx.checks) else "FAIL"
    lines += ctx.lines + [f"{verdict} {name} ({time.monotonic() - started:.1f}s)"]
    return lines, verdict


def run_scenarios(config):
    wanted = config.scenarios or [name for name, _, _ in SCENARIOS]
    known = {name: (fn, doc) for name, fn, doc in SCENARIOS}
    unknown = [name for name in wanted if name not in known]
    if unknown:
        print(f"error: no scenario {', '.join(unknown)}; --list lists them", file=sys.stderr)
        return 2
    # One CLI's scenarios run one after another (they share its caches); with --jobs N, the
    # scenarios of up to N CLIs at once. A scenario's lines are printed together when it ends.
    groups = {}
    for name in wanted:
        groups.setdefault(name.split("-")[0], []).append(name)
    verdicts = {}
    lock = threading.Lock()

    def run_group(names):
        for name in names:
            lines, verdict = run_one(config, known[name], name)
            with lock:
                print("\n".join(lines), flush=True)
                verdicts[name] = verdict

    with ThreadPoolExecutor(max_workers=max(1, config.jobs)) as pool:
        for done in pool.map(run_group, groups.values()):
            assert done is None
    results = [(name, verdicts[name]) for name in wanted]
    print()
    for name, verdict in results:
        print(f"{verdict:8} {name}")
    failed = sum(1 for _, v in results if v == "FAIL")
    skipped = sum(1 for _, v in results if v == "SKIPPED")
    passed = len(results) - failed - skipped
    print(f"agents: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
