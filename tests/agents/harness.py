"""The sandbox each scenario runs in, and the drivers of the real agent CLIs.

A `Sandbox` is a temporary directory holding a git repository (with a tiny Cargo crate whose test
fails, for a real failing check), the CLIs' homes (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME,
GEMINI_CLI_HOME), fake API keys, and the built git-handoff binary's directory first on PATH. Every
CLI is pointed at the scripted endpoint on 127.0.0.1; HTTP(S)_PROXY point there too, so any
attempt to reach another host ends at the endpoint, is logged as `outbound`, and fails the run.
"""

import json
import os
import shutil
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "A U Thor",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "C O Mitter",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
    "TZ": "UTC",
    "LC_ALL": "C",
}

CODEX_FEATURES_OFF = ["plugins", "remote_plugin", "plugin_sharing", "apps", "tool_suggest",
                      "in_app_updates", "api_key_model_discovery", "api_key_cyber_access_programs",
                      "skill_mcp_dependency_install", "image_generation", "multi_agent", "goals"]

FAILING_CRATE = {
    "Cargo.toml": '[package]\nname = "scratch"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\n'
                  'path = "lib.rs"\n',
    "lib.rs": "pub fn answer() -> u32 {\n    41\n}\n\n#[test]\nfn answer_is_42() {\n"
              "    assert_eq!(answer(), 42);\n}\n",
    ".gitignore": "/target\n",
}


class Failure(Exception):
    """A scenario's setup failed (not one of its checks)."""


class Sandbox:
    def __init__(self, config, endpoint, name):
        self.config = config
        self.endpoint = endpoint
        self.root = tempfile.mkdtemp(prefix=f"handoff-e2e-{name}-", dir=config.tmp)
        self.repo = os.path.join(self.root, "repo")
        self.home = os.path.join(self.root, "home")
        for d in (self.repo, self.home):
            os.makedirs(d)
        self.git_config = os.path.join(self.home, ".gitconfig")
        with open(self.git_config, "w") as f:
            f.write("[user]\n\tname = A U Thor\n\temail = author@example.com\n"
                    "[init]\n\tdefaultBranch = main\n")
        self.env = self._env()

    def close(self):
        if not self.config.keep:
            shutil.rmtree(self.root, ignore_errors=True)

    def _env(self):
        real_home = os.path.expanduser("~")
        path = [os.path.dirname(self.config.binary), self.config.npm_bin]
        path += [p for p in os.environ.get("PATH", "").split(os.pathsep) if p]
        env = {
            "PATH": os.pathsep.join(path),
            "HOME": self.home,
            "TMPDIR": self.root,
            "USER": os.environ.get("USER", "root"),
            "SHELL": "/bin/bash",
            "TERM": "dumb",
            "GIT_CONFIG_GLOBAL": self.git_config,
            # cargo and rustup keep their real homes, so the failing test can run.
            "CARGO_HOME": os.environ.get("CARGO_HOME", os.path.join(real_home, ".cargo")),
            "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", os.path.join(real_home, ".rustup")),
            "CARGO_TARGET_DIR": os.path.join(self.root, "cargo-target"),
            "CARGO_NET_OFFLINE": "true",
            # Every host but 127.0.0.1 goes through the endpoint, which refuses and logs it.
            "HTTP_PROXY": self.endpoint.url, "HTTPS_PROXY": self.endpoint.url,
            "http_proxy": self.endpoint.url, "https_proxy": self.endpoint.url,
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
            # Claude Code
            "ANTHROPIC_BASE_URL": self.endpoint.url,
            "ANTHROPIC_API_KEY": "sk-ant-e2e-fake-key",
            "CLAUDE_CONFIG_DIR": os.path.join(self.home, ".claude"),
            "IS_SANDBOX": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
            # Codex
            "CODEX_HOME": os.path.join(self.home, ".codex"),
            "E2E_API_KEY": "sk-e2e-fake-key",
            "OTEL_SDK_DISABLED": "true",
            # Gemini CLI
            "GOOGLE_GEMINI_BASE_URL": self.endpoint.url,
            "GEMINI_API_KEY": "e2e-fake-key",
            "GEMINI_CLI_HOME": self.home,
            "GEMINI_TELEMETRY_ENABLED": "false",
            "NO_COLOR": "1",
        }
        env.update(GIT_ENV)
        return env

    # The repository

    def git(self, *args, check=True):
        out = subprocess.run(["git", *args], cwd=self.repo, env=self.env, capture_output=True,
                             text=True, timeout=60)
        if check and out.returncode != 0:
            raise Failure(f"git {' '.join(args)}: {out.stderr.strip()}")
        return out.stdout

    def handoff(self, *args, check=True, stdin=None):
        out = subprocess.run([self.config.binary, *args], cwd=self.repo, env=self.env,
                             capture_output=True, text=True, timeout=60, input=stdin)
        if check and out.returncode != 0:
            raise Failure(f"git handoff {' '.join(args)} exited {out.returncode}: "
                          f"{out.stderr.strip()}")
        return out

    def init_repo(self, issue=44, agents=("--claude",)):
        """A repository with one commit (the failing crate), an attempt and the agent hooks."""
        self.git("init", "-q", "-b", "main")
        for name, text in FAILING_CRATE.items():
            with open(os.path.join(self.repo, name), "w") as f:
                f.write(text)
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "A crate whose test fails")
        self.handoff("start", "--issue", str(issue))
        if agents:
            self.handoff("hooks", "install", *agents)

    def events(self):
        path = os.path.join(self.repo, ".git", "handoff", "events.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]

    def handoffs(self):
        """`git handoff log --json`'s handoffs."""
        out = self.handoff("log", "--json", check=False)
        if out.returncode != 0:
            return []
        return json.loads(out.stdout).get("handoffs", [])

    def head_file(self, path):
        return self.git("show", f"HEAD:{path}", check=False)

    # The CLIs

    def run(self, argv, timeout=None, stdin=subprocess.DEVNULL):
        started = time.monotonic()
        out = subprocess.run(argv, cwd=self.repo, env=self.env, stdin=stdin, capture_output=True,
                             text=True, timeout=timeout or self.config.timeout)
        out.seconds = time.monotonic() - started
        return out

    def claude(self, prompt, *extra):
        """`claude -p` with stream-json output; returns (process, parsed lines, session id)."""
        argv = ["claude", "-p", prompt, "--permission-mode", "bypassPermissions",
                "--output-format", "stream-json", "--verbose", "--include-hook-events", *extra]
        out = self.run(argv)
        lines = _json_lines(out.stdout)
        session = next((line.get("session_id") for line in lines if line.get("session_id")), None)
        return out, lines, session

    def write_codex_config(self, trust_hooks=True):
        """CODEX_HOME/config.toml: the scripted provider, the repository trusted, and (when asked)
        every hook Codex finds for the repository approved, as its hook review would record it."""
        codex_home = self.env["CODEX_HOME"]
        os.makedirs(codex_home, exist_ok=True)
        # Features off: whatever would reach beyond 127.0.0.1 (plugin and app catalogues on
        # GitHub and chatgpt.com, model discovery, updates).
        features = "".join(f"{name} = false\n" for name in CODEX_FEATURES_OFF)
        text = (
            'model = "gpt-5.5"\n'
            'model_provider = "e2e"\n'
            'approval_policy = "never"\n'
            'sandbox_mode = "danger-full-access"\n'
            "check_for_update_on_startup = false\n"
            "\n[analytics]\nenabled = false\n"
            "\n[feedback]\nenabled = false\n"
            f"\n[features]\n{features}"
            "\n[model_providers.e2e]\n"
            'name = "e2e"\n'
            f'base_url = "{self.endpoint.url}/v1"\n'
            'wire_api = "responses"\n'
            'env_key = "E2E_API_KEY"\n'
            "request_max_retries = 0\n"
            "stream_max_retries = 0\n"
            f'\n[projects."{self.repo}"]\ntrust_level = "trusted"\n'
        )
        with open(os.path.join(codex_home, "config.toml"), "w") as f:
            f.write(text)
        if trust_hooks:
            hooks = self.codex_hooks()
            with open(os.path.join(codex_home, "config.toml"), "a") as f:
                for hook in hooks:
                    f.write(f"\n[hooks.state.{json.dumps(hook['key'])}]\n"
                            f"trusted_hash = {json.dumps(hook['currentHash'])}\n")
            untrusted = [h["key"] for h in self.codex_hooks() if h["trustStatus"] != "trusted"]
            if untrusted:
                raise Failure(f"Codex still lists hooks as not trusted: {untrusted}")

    def codex_hooks(self):
        """The hooks Codex sees for the repository, from its app server's `hooks/list`: each with
        its `key` (`<hooks.json path>:<event>:<group>:<handler>`), `currentHash` and
        `trustStatus`."""
        proc = subprocess.Popen(["codex", "app-server"], cwd=self.repo, env=self.env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            def send(message):
                proc.stdin.write(json.dumps(message) + "\n")
                proc.stdin.flush()

            def answer(wanted):
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    line = proc.stdout.readline()
                    if not line:
                        break
                    message = json.loads(line)
                    if message.get("id") == wanted:
                        if "error" in message:
                            raise Failure(f"codex app-server: {message['error']}")
                        return message["result"]
                raise Failure(f"codex app-server gave no answer: {proc.stderr.read()[-2000:]}")

            send({"method": "initialize", "id": 1,
                  "params": {"clientInfo": {"name": "handoff-e2e", "version": "1"}}})
            answer(1)
            send({"method": "initialized"})
            send({"method": "hooks/list", "id": 2, "params": {"cwds": [self.repo]}})
            result = answer(2)
        finally:
            proc.kill()
            proc.wait()
        return [hook for entry in result.get("data", []) for hook in entry.get("hooks", [])]

    def codex(self, prompt, *extra, resume=None):
        """`codex exec --json`; returns (process, parsed lines, thread id)."""
        argv = ["codex", "exec", "--json"]
        if resume:
            argv += ["resume", *([] if resume == "--last" else [resume])]
            if resume == "--last":
                argv.append("--last")
        argv += [*extra, prompt]
        out = self.run(argv)
        lines = _json_lines(out.stdout)
        thread = next((line.get("thread_id") for line in lines if line.get("thread_id")), None)
        return out, lines, thread


def _json_lines(text):
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            pass
    return lines


def tool_results_in(body):
    """The tool results in a request body, any of the four wire formats, as (call id, text)."""
    out = []
    for message in body.get("messages", []) or []:
        if message.get("role") == "tool":  # Chat Completions
            content = message.get("content")
            out.append((message.get("tool_call_id"), content if isinstance(content, str)
                        else json.dumps(content)))
            continue
        for block in message.get("content") if isinstance(message.get("content"), list) else []:
            if block.get("type") == "tool_result":
                content = block.get("content")
                text = content if isinstance(content, str) else json.dumps(content)
                out.append((block.get("tool_use_id"), text))
    for item in body.get("input", []) if isinstance(body.get("input"), list) else []:
        if str(item.get("type", "")).endswith("_output"):
            output = item.get("output")
            out.append((item.get("call_id"), output if isinstance(output, str)
                         else json.dumps(output)))
    for content in body.get("contents", []) or []:
        for part in content.get("parts", []):
            if "functionResponse" in part:
                out.append((part["functionResponse"].get("name"),
                            json.dumps(part["functionResponse"].get("response"))))
    return out
