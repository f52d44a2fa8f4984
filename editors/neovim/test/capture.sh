#!/usr/bin/env bash
# Prints two screens of headless Neovim on a copy of examples/tour (the
# README's captures): editors/neovim/test/capture.sh [path/to/clew-lsp] [NVIM]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${1:-}
if [ -z "$bin" ]; then
  bin="$work/clew-lsp"
  (cd "$repo" && go build -o "$bin" ./cmd/clew-lsp)
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cp -r "$repo/examples/tour" "$work/tour"
cd "$work/tour"
CLEW_LSP="$bin" CLEW_OUT="$work/screen.txt" XDG_STATE_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg" \
  timeout 60 "${2:-nvim}" --headless -u NONE -i NONE -n -c "luafile $here/capture.lua" </dev/null
cat "$work/screen.txt"
