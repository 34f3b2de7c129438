#!/usr/bin/env bash
# Builds git-handoff's release artifacts for one target from a clean checkout, offline but for
# the package registries: a release archive and its checksum, a Debian package, a Python wheel
# and the two npm packages (the platform package with the binary, and `git-handoff`, which pulls
# it in through optionalDependencies, the layout biome and esbuild use). No tool beyond cargo,
# python3, tar and, for the .deb, dpkg-deb: the wheel and the npm tarballs are plain archives
# written here.
#
#   packaging/build.sh [--target TRIPLE] [--binary PATH] [--out DIR] [--npm-platforms LIST]
#
# --target   the Rust target (default x86_64-unknown-linux-gnu; aarch64-unknown-linux-gnu,
#            x86_64-apple-darwin and aarch64-apple-darwin build the same way on a machine that
#            has their standard library: `rustup target add TRIPLE`). Linux binaries are linked
#            statically against glibc (`+crt-static`): they hold no versioned glibc symbol, so
#            they run on any distribution, and the wheel is tagged manylinux2014.
# --binary   package this binary instead of building one (the packaging test uses the debug
#            build; the wheel's platform tag then follows the glibc symbols it needs).
# --out      where the artifacts go (default dist/).
# --npm-platforms  the platform packages `git-handoff` lists in optionalDependencies, as
#            "linux-x64 linux-arm64 darwin-x64 darwin-arm64" (default: the one built here); a
#            release builds each target's platform package, then the main package once with all.
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-unknown-linux-gnu
binary=""
out=dist
npm_platforms=""
while [ $# -gt 0 ]; do
  case $1 in
    --npm-platforms) npm_platforms=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "packaging/build.sh: unknown argument $1 (see the head of the script)" >&2; exit 2 ;;
  esac
done

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
if [ -z "$binary" ]; then
  case $target in
    # Static, and at a fixed address (`relocation-model=static`): as a static PIE the binary
    # relocated its own read-only data at every start (about 14,000 pointers), copying each of
    # those pages first; 75 page faults of recall's 230.
    *-linux-gnu) export RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static -C relocation-model=static" ;;
  esac
  # With --target, RUSTFLAGS reaches the binary only, not build scripts or proc macros.
  # The dist profile: fat LTO and one codegen unit (Cargo.toml), for what every user runs.
  cargo build --locked --profile dist --target "$target"
  binary=target/$target/dist/git-handoff
fi
[ -x "$binary" ] || { echo "packaging/build.sh: no binary at $binary" >&2; exit 2; }

# The target, as each package format names it.
case $target in
  x86_64-unknown-linux-gnu) os=linux cpu=x64 deb_arch=amd64 wheel_arch=x86_64 ;;
  aarch64-unknown-linux-gnu) os=linux cpu=arm64 deb_arch=arm64 wheel_arch=aarch64 ;;
  x86_64-apple-darwin) os=darwin cpu=x64 deb_arch="" wheel_plat=macosx_10_12_x86_64 ;;
  aarch64-apple-darwin) os=darwin cpu=arm64 deb_arch="" wheel_plat=macosx_11_0_arm64 ;;
  *) echo "packaging/build.sh: no package layout for $target" >&2; exit 2 ;;
esac
if [ "$os" = linux ]; then
  # The newest glibc symbol version the binary needs (none when it is static): the manylinux tag.
  glibc=$(python3 - "$binary" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
# A static binary has no interpreter (.interp sits in the first page): it needs no glibc at all.
dynamic = re.search(rb"/ld-linux[-\w.]*\.so", data[:4096]) is not None
found = [int(m.group(1)) for m in re.finditer(rb"GLIBC_2\.(\d+)", data)] if dynamic else []
print(max([17] + found))
PY
)
  wheel_plat="manylinux_2_${glibc}_${wheel_arch}"
  [ "$glibc" = 17 ] && wheel_plat="manylinux_2_17_${wheel_arch}.manylinux2014_${wheel_arch}"
fi

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The install tree every format lays out: bin/, the man pages and the completions under share/.
stage=$work/stage
mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
  "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d"
install -m 755 "$binary" "$stage/bin/git-handoff"
install -m 644 man/*.1 "$stage/share/man/man1/"
install -m 644 completions/git-handoff.bash "$stage/share/bash-completion/completions/git-handoff"
install -m 644 completions/_git-handoff "$stage/share/zsh/site-functions/_git-handoff"
install -m 644 completions/git-handoff.fish "$stage/share/fish/vendor_completions.d/git-handoff.fish"

# Reproducible archives: fixed owner, order and times.
tar_c() { tar --owner=0 --group=0 --numeric-owner --sort=name --mtime='@0' "$@"; }

# 1. The release archive and its checksum.
name=git-handoff-$version-$target
mkdir -p "$work/$name"
cp -r "$stage/bin/git-handoff" "$work/$name/"
mkdir -p "$work/$name/man/man1" && cp man/*.1 "$work/$name/man/man1/"
cp -r completions "$work/$name/completions"
cp README.md LICENSE-MIT LICENSE-APACHE "$work/$name/"
(cd "$work" && tar_c -czf "$out/$name.tar.gz" "$name")
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")

# 2. The Debian package: git-handoff where git and hooks find it, pages in /usr/share/man,
#    completions where bash, zsh and fish look.
if [ -n "${deb_arch:-}" ] && command -v dpkg-deb >/dev/null; then
  deb=$work/deb
  mkdir -p "$deb/DEBIAN" "$deb/usr/share/doc/git-handoff" "$deb/usr/share/zsh/vendor-completions"
  cp -r "$stage/bin" "$deb/usr/bin"
  mkdir -p "$deb/usr/share/man/man1"
  for page in man/*.1; do gzip -9n < "$page" > "$deb/usr/share/man/man1/$(basename "$page").gz"; done
  cp -r "$stage/share/bash-completion" "$stage/share/fish" "$deb/usr/share/"
  cp completions/_git-handoff "$deb/usr/share/zsh/vendor-completions/"
  cp README.md "$deb/usr/share/doc/git-handoff/"
  { echo "Files: *"; echo "License: MIT OR Apache-2.0"; } > "$deb/usr/share/doc/git-handoff/copyright"
  size=$(du -sk "$deb/usr" | cut -f1)
  cat > "$deb/DEBIAN/control" <<EOF
Package: git-handoff
Version: $version-1
Architecture: $deb_arch
Maintainer: git-handoff developers <git-handoff@users.noreply.github.com>
Depends: git
Section: vcs
Priority: optional
Installed-Size: $size
Homepage: https://github.com/git-handoff/git-handoff
Description: handoffs of AI coding agents kept next to git state
 Snapshots, a lossless seal of leftover work, handoff notes checked against
 what the agent really did, emergency notes, a pre-push validator and a short
 recall for the next session, as a git extension (git handoff).
EOF
  find "$deb" -type d -exec chmod 755 {} +
  dpkg-deb --root-owner-group -Zgzip --build "$deb" "$out/git-handoff_${version}-1_${deb_arch}.deb" >/dev/null
fi

# 3. The Python wheel: the binary as a script (as ruff and uv ship), the pages and completions as
#    data, so pip puts them under <prefix>/share.
python3 - "$stage" "$out" "$version" "$wheel_plat" <<'PY'
import base64, hashlib, os, sys, zipfile
stage, out, version, plat = sys.argv[1:5]
dist = f"git_handoff-{version}"
wheel = os.path.join(out, f"{dist}-py3-none-{plat}.whl")
files = []
def add(arcname, data, mode):
    info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    files.append((info, data))
add(f"{dist}.data/scripts/git-handoff", open(os.path.join(stage, "bin/git-handoff"), "rb").read(), 0o755)
for root, _, names in sorted(os.walk(os.path.join(stage, "share"))):
    for name in sorted(names):
        path = os.path.join(root, name)
        rel = os.path.relpath(path, stage)
        add(f"{dist}.data/data/{rel}", open(path, "rb").read(), 0o644)
readme = open("README.md", encoding="utf-8").read()
metadata = (f"Metadata-Version: 2.1\nName: git-handoff\nVersion: {version}\n"
            "Summary: Keeps AI coding agents' handoffs next to git state\n"
            "License: MIT OR Apache-2.0\nRequires-Python: >=3.8\n"
            "Description-Content-Type: text/markdown\n\n" + readme)
add(f"{dist}.dist-info/METADATA", metadata.encode(), 0o644)
tags = "".join(f"Tag: py3-none-{p}\n" for p in plat.split("."))
add(f"{dist}.dist-info/WHEEL",
    f"Wheel-Version: 1.0\nGenerator: git-handoff packaging/build.sh\nRoot-Is-Purelib: false\n{tags}".encode(), 0o644)
for lic in ("LICENSE-MIT", "LICENSE-APACHE"):
    add(f"{dist}.dist-info/licenses/{lic}", open(lic, "rb").read(), 0o644)
def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
record = "".join(f"{i.filename},{digest(d)},{len(d)}\n" for i, d in files)
record += f"{dist}.dist-info/RECORD,,\n"
add(f"{dist}.dist-info/RECORD", record.encode(), 0o644)
with zipfile.ZipFile(wheel, "w") as z:
    for info, data in files:
        z.writestr(info, data)
PY

# 4. The npm packages, in esbuild's layout: the platform package carries the binary (`os` and
#    `cpu` choose it); `git-handoff` lists every platform package in optionalDependencies, its man
#    pages (npm links them into <prefix>/share/man), and a bin that a postinstall replaces with
#    the platform's binary (packaging/npm/), so the command on PATH, global or in a project, is
#    the native binary: no Node launcher on the hooks' path. Nothing is downloaded.
platform_pkg=@git-handoff/$os-$cpu
npm_pkg() { # DIR TARBALL: a package directory packed as `npm pack` would
  (cd "$1/.." && tar_c -czf "$2" --transform 's,^[^/]*,package,' "$(basename "$1")")
}
plat=$work/npm-platform
mkdir -p "$plat/bin"
cp "$stage/bin/git-handoff" "$plat/bin/git-handoff"
cp LICENSE-MIT LICENSE-APACHE "$plat/"
cat > "$plat/package.json" <<EOF
{
  "name": "$platform_pkg",
  "version": "$version",
  "description": "The git-handoff binary for $os-$cpu",
  "license": "MIT OR Apache-2.0",
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/git-handoff", "LICENSE-MIT", "LICENSE-APACHE"]
}
EOF
npm_pkg "$plat" "$out/git-handoff-$os-$cpu-$version.tgz"
main=$work/npm-main
mkdir -p "$main/man" "$main/bin"
install -m 755 packaging/npm/git-handoff.js "$main/bin/git-handoff"
install -m 644 packaging/npm/install.js "$main/install.js"
cp man/*.1 "$main/man/"
cp -r completions "$main/completions"
cp README.md LICENSE-MIT LICENSE-APACHE "$main/"
pages=$(cd man && ls *.1 | sed 's,^,    "man/,; s,$,",' | paste -sd, -)
optional=$(for p in ${npm_platforms:-$os-$cpu}; do printf '"@git-handoff/%s": "%s"\n' "$p" "$version"; done | paste -sd, -)
cat > "$main/package.json" <<EOF
{
  "name": "git-handoff",
  "version": "$version",
  "description": "Keeps AI coding agents' handoffs next to git state: snapshots, seals, checked notes, recall",
  "license": "MIT OR Apache-2.0",
  "repository": "github:git-handoff/git-handoff",
  "bin": {"git-handoff": "bin/git-handoff"},
  "scripts": {"postinstall": "node install.js"},
  "man": [
$pages
  ],
  "optionalDependencies": {$optional},
  "files": ["bin/git-handoff", "install.js", "man", "completions", "README.md", "LICENSE-MIT", "LICENSE-APACHE"]
}
EOF
npm_pkg "$main" "$out/git-handoff-$version.tgz"

echo "packaging/build.sh: $target, git-handoff $version:"
(cd "$out" && ls -l | tail -n +2)
