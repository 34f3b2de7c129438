#!/usr/bin/env bash
# Installs each artifact of packaging/build.sh the way a user does, each into a fresh prefix,
# offline but for a throwaway npm registry on 127.0.0.1, and checks after each that `git handoff
# --version`, `git handoff demo` and `git handoff --help` (the manual, through git) work, that the
# bash completion loads, and that the `git-handoff` on PATH is the native binary (hooks call it on
# every tool use: its `record` is timed beside the bare binary's). Whatever cannot run here says
# `SKIPPED:` on its own line.
#
#   packaging/test.sh [DIST]        (default: dist/, as packaging/build.sh left it)
#   VERDACCIO_PREFIX=DIR            where the throwaway registry (verdaccio from npm) is installed
#                                   or found (default: a fresh one in the run's temporary dir)
#   packaging/test.sh --install-registry   (install it into VERDACCIO_PREFIX and stop)
set -euo pipefail
cd "$(dirname "$0")/.."
# The registry's own install: reused from VERDACCIO_PREFIX when it is there.
install_registry() {
  [ -x "$1/bin/verdaccio" ] && return 0
  command -v npm >/dev/null && timeout 180 npm install -g -s --prefix "$1" verdaccio@6 >/dev/null 2>&1
}
if [ "${1:-}" = --install-registry ]; then
  install_registry "${VERDACCIO_PREFIX:?VERDACCIO_PREFIX names where to install it}" || true
  exit 0
fi
dist=$(cd "${1:-dist}" && pwd)
work=$(mktemp -d)
registry_pid=""
cleanup() {
  [ -n "$registry_pid" ] && kill "$registry_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$work/home LC_ALL=C TZ=UTC
mkdir -p "$HOME"
passed=0
failed=0
skipped() { echo "SKIPPED: $*" >&2; }
ok() { echo "  ok   $*"; passed=$((passed + 1)); }
bad() { echo "  FAIL $*"; failed=$((failed + 1)); }
check() { # WHAT COMMAND...: ok when the command succeeds
  local what=$1; shift
  if "$@" >"$work/out" 2>&1; then ok "$what"; else bad "$what: $(tail -n 5 "$work/out")"; fi
}

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
tarball=$(ls "$dist"/git-handoff-"$version"-*.tar.gz | head -n 1)
# The bare binary, from the release archive, for the timing.
mkdir -p "$work/bare" && tar -xzf "$tarball" -C "$work/bare" --strip-components=1
bare=$work/bare/git-handoff

# `record` in a started repository, run as INSTALLED and as the bare binary, alternated: the
# medians in ms and their ratio.
record_ms() {
  python3 - "$1" "$bare" "$work/timing" <<'PY'
import json, subprocess, sys, time
installed, bare, repo = sys.argv[1:4]
event = json.dumps({"event": "tool", "tool": "Bash", "command": "ls"}).encode()
times = {installed: [], bare: []}
for _ in range(21):
    for binary in (installed, bare):
        t = time.perf_counter()
        subprocess.run([binary, "record"], input=event, cwd=repo, check=True, capture_output=True)
        times[binary].append((time.perf_counter() - t) * 1000)
a, b = (sorted(times[x])[10] for x in (installed, bare))
print(f"{a:.1f} ms installed, {b:.1f} ms bare binary ({a / b:.2f}x, medians of 21 alternated pairs)")
PY
}
git init -q "$work/timing"
git -C "$work/timing" -c user.name=t -c user.email=t@t commit -q --allow-empty -m init
(cd "$work/timing" && "$bare" start --issue 1 >/dev/null)

# The checks after an install whose commands are in BIN (and pages in BIN/../share/man).
after_install() { # NAME BIN [COMPLETION]
  local name=$1 bin=$2 completion=${3:-}
  echo "== $name"
  local path="$bin:$PATH"
  check "$name: git handoff --version" env PATH="$path" sh -c "git handoff --version | grep -q 'git-handoff $version'"
  check "$name: git handoff demo" env PATH="$path" sh -c "cd '$work' && git handoff demo >/dev/null"
  if command -v man >/dev/null; then
    check "$name: git handoff --help opens the manual" env PATH="$path" MANPAGER=cat PAGER=cat \
      sh -c "git handoff --help 2>&1 | grep -q 'git-handoff'"
  else
    skipped "$name: git handoff --help (no man on this machine); the page is checked in place"
    check "$name: the manual sits where man looks" test -f "$bin/../share/man/man1/git-handoff.1"
  fi
  if [ -n "$completion" ]; then
    check "$name: the bash completion loads" bash -c "source '$completion' && complete -p git-handoff"
  fi
  local found
  found=$(PATH=$path command -v git-handoff) || { bad "$name: no git-handoff on PATH"; return; }
  check "$name: the git-handoff on PATH is the native binary" \
    sh -c "head -c 4 '$(readlink -f "$found")' | grep -q ELF"
  echo "       record: $(record_ms "$found")"
}

# 1. The release archive, checksum first.
echo "== release archive"
check "the checksum matches" sh -c "cd '$dist' && sha256sum -c --quiet '$(basename "$tarball").sha256'"
mkdir -p "$work/archive/bin" "$work/archive/share"
tar -xzf "$tarball" -C "$work/archive" --strip-components=1
mv "$work/archive/git-handoff" "$work/archive/bin/" && mv "$work/archive/man" "$work/archive/share/man"
after_install "release archive" "$work/archive/bin" "$work/archive/completions/git-handoff.bash"

# 2. The Debian package: dpkg -i as root, else unpacked into a prefix.
deb=$(ls "$dist"/git-handoff_*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
  skipped "the .deb (not built: no dpkg-deb where packaging/build.sh ran)"
elif [ "$(id -u)" = 0 ] && command -v dpkg >/dev/null && ! dpkg -s git-handoff >/dev/null 2>&1; then
  check "dpkg -i" dpkg -i "$deb"
  after_install ".deb (dpkg -i)" /usr/bin /usr/share/bash-completion/completions/git-handoff
  check "dpkg -r" dpkg -r git-handoff
else
  dpkg-deb -x "$deb" "$work/debroot"
  after_install ".deb (unpacked)" "$work/debroot/usr/bin" \
    "$work/debroot/usr/share/bash-completion/completions/git-handoff"
fi

# 3. The wheel: pip into a new venv, and pipx.
wheel=$(ls "$dist"/git_handoff-*.whl | head -n 1)
if python3 -m venv "$work/venv" >/dev/null 2>&1; then
  check "pip install the wheel into a new venv" "$work/venv/bin/pip" install -q --no-index "$wheel"
  after_install "wheel (pip)" "$work/venv/bin" \
    "$work/venv/share/bash-completion/completions/git-handoff"
  if timeout 120 "$work/venv/bin/pip" install -q pipx >/dev/null 2>&1; then
    export PIPX_HOME=$work/pipx PIPX_BIN_DIR=$work/pipx-root/bin PIPX_MAN_DIR=$work/pipx-root/share/man
    check "pipx install the wheel" "$work/venv/bin/pipx" install "$wheel"
    after_install "wheel (pipx)" "$PIPX_BIN_DIR"
  else
    skipped "pipx (it could not be installed from PyPI)"
  fi
else
  skipped "the wheel (python3 -m venv is not available)"
fi

# 4. npm: both packages published to a throwaway registry on 127.0.0.1, then installed globally
#    into an empty prefix and into a project.
registry=${VERDACCIO_PREFIX:-$work/verdaccio}
if command -v npm >/dev/null && install_registry "$registry"; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  url=http://127.0.0.1:$port/
  cat > "$work/verdaccio.yaml" <<EOF
storage: $work/storage
auth: {htpasswd: {file: $work/htpasswd}}
uplinks: {}
packages: {'@*/*': {access: \$all, publish: \$authenticated}, '**': {access: \$all, publish: \$authenticated}}
listen: 127.0.0.1:$port
max_body_size: 200mb
log: {type: stdout, format: pretty, level: error}
EOF
  "$registry/bin/verdaccio" --config "$work/verdaccio.yaml" >"$work/verdaccio.log" 2>&1 &
  registry_pid=$!
  for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('${url}-/ping')" 2>/dev/null && break; sleep 0.2; done
  token=$(python3 - "$url" <<'PY'
import json, sys, urllib.request
body = json.dumps({"name": "ci", "password": "throwaway-ci-only"}).encode()
req = urllib.request.Request(sys.argv[1] + "-/user/org.couchdb.user:ci", data=body, method="PUT",
                             headers={"content-type": "application/json"})
print(json.load(urllib.request.urlopen(req))["token"])
PY
)
  printf '//127.0.0.1:%s/:_authToken=%s\n' "$port" "$token" > "$work/npmrc"
  npm_c() { npm --userconfig "$work/npmrc" --registry "$url" --cache "$work/npm-cache" "$@"; }
  for tgz in "$dist"/git-handoff-linux-*.tgz "$dist"/git-handoff-darwin-*.tgz "$dist/git-handoff-$version.tgz"; do
    [ -f "$tgz" ] || continue
    check "npm publish $(basename "$tgz")" npm_c publish "$tgz"
  done
  check "npm install -g git-handoff into an empty prefix" npm_c install -g -s --prefix "$work/npm" git-handoff
  after_install "npm (global)" "$work/npm/bin"
  # Without scripts the launcher stays: slower, but it works.
  check "npm install -g --ignore-scripts: the Node launcher runs the binary" sh -c "npm --userconfig '$work/npmrc' --registry '$url' --cache '$work/npm-cache' install -g -s --ignore-scripts --prefix '$work/npm-noscripts' git-handoff && '$work/npm-noscripts/bin/git-handoff' --version | grep -q 'git-handoff $version'"
  mkdir -p "$work/project" && (cd "$work/project" && npm_c init -y >/dev/null)
  check "npm install git-handoff in a project" sh -c "cd '$work/project' && npm --userconfig '$work/npmrc' --registry '$url' --cache '$work/npm-cache' install -s git-handoff"
  check "npm (project): node_modules/.bin/git-handoff is the native binary" \
    sh -c "head -c 4 \"\$(readlink -f '$work/project/node_modules/.bin/git-handoff')\" | grep -q ELF"
else
  skipped "the npm packages (npm, or verdaccio from the npm registry, is not available)"
fi

echo "packaging: $passed passed, $failed failed"
[ "$failed" = 0 ]
