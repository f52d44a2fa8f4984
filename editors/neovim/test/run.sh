#!/usr/bin/env bash
# Headless Neovim test of editors/neovim against a clew-lsp binary.
#
#   editors/neovim/test/run.sh [path/to/clew-lsp]
#
# Without an argument (or $CLEW_LSP) it builds the temporary test server
# (internal/lsp/internal/testserver) and also expects its marker diagnostic.
# Installs Neovim from apt when it is missing. Exit 0 on PASS.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

if ! command -v nvim >/dev/null 2>&1; then
  echo "run.sh: installing neovim" >&2
  apt-get update -qq
  apt-get install -y -qq neovim >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bin=${1:-${CLEW_LSP:-}}
expect=${CLEW_EXPECT:-}
if [ -z "$bin" ]; then
  bin="$work/clew-lsp"
  (cd "$repo" && go build -o "$bin" ./internal/lsp/internal/testserver)
  # The test server flags its marker on line 7 of the fixture doc.
  expect=${expect:-'[{"file":"docs/guide.md","line":7,"code":"test/marker"}]'}
  export CLEW_MARKER_EDIT=1
else
  # The real server: the fixture's anchor has no sha= yet (SPEC §2.4
  # unpinned, an Information diagnostic on its line).
  expect=${expect:-'[{"file":"docs/guide.md","line":5,"code":"anchor/unpinned"}]'}
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

cp -r "$here/fixture" "$work/ws"
mkdir -p "$work/xdg"

status=0
CLEW_LSP="$bin" CLEW_WORKSPACE="$work/ws" CLEW_EXPECT="$expect" CLEW_OUT="$work/result.txt" \
  XDG_CACHE_HOME="$work/xdg" XDG_STATE_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_CONFIG_HOME="$work/xdg" \
  timeout 60 nvim --headless -u "$here/minimal_init.lua" -i NONE -n </dev/null || status=$?

if [ "$status" -eq 0 ]; then
  echo "neovim: 1 passed, 0 failed"
else
  echo "neovim: 0 passed, 1 failed (exit $status)" >&2
  for log in "$work"/xdg/nvim/lsp.log "$work"/xdg/lsp.log; do
    [ -f "$log" ] && { echo "--- $log" >&2; tail -n 40 "$log" >&2; }
  done
fi
exit "$status"
