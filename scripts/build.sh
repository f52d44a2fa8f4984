#!/usr/bin/env bash
# Builds one clew-lsp binary for a target with the right C compiler, since
# tree-sitter needs cgo and a plain GOOS=… go build cannot cross-compile it.
#
#   scripts/build.sh <os>-<arch> <out-path> [VERSION]
#
# Targets (Go spelling) and the C compiler each one uses:
#   linux-amd64    gcc (native on an amd64 host) or x86_64-linux-gnu-gcc
#   linux-arm64    aarch64-linux-gnu-gcc      (Debian gcc-aarch64-linux-gnu)
#   windows-amd64  x86_64-w64-mingw32-gcc     (Debian gcc-mingw-w64-x86-64)
#   darwin-amd64   zig cc -target x86_64-macos.12.0 (PyPI ziglang, in a venv cache)
#   darwin-arm64   zig cc -target aarch64-macos.12.0
#                  (both linked against stubs of the macOS libraries Go
#                  imports: scripts/darwin/stubs.sh, link.sh)
#
# A missing compiler is installed when running as root (apt-get; pip into
# ${XDG_CACHE_HOME:-~/.cache}/clew-release, outside the clone); otherwise the
# script says what to install. VERSION is stamped with -X main.version.
set -euo pipefail

usage() { echo "usage: scripts/build.sh <linux|windows|darwin>-<amd64|arm64> <out-path> [VERSION]" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
target=$1 out=$2 version=${3:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/toolchain.sh
. "$repo/scripts/toolchain.sh"

goos=${target%-*} goarch=${target#*-}
cc=$(target_cc "$target") || exit 2

ldflags="-s -w"
[ -n "$version" ] && ldflags="$ldflags -X main.version=$version"
linkflags=$(target_linkflags "$target") || exit 2
[ -n "$linkflags" ] && ldflags="$ldflags $linkflags"

mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
cd "$repo"
# -trimpath: no build machine paths in the binary; the same source gives
# the same bytes wherever it is built.
CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch CC="$cc" \
  go build -trimpath -ldflags "$ldflags" -o "$out" ./cmd/clew-lsp
echo "built $out ($target, CC=$cc)"
