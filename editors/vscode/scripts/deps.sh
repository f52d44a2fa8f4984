#!/usr/bin/env bash
# Installs the extension's npm packages (package-lock.json, npm ci) into a
# cache OUTSIDE the clone and prints the node_modules folder, for NODE_PATH:
#
#   NODE_PATH=$(editors/vscode/scripts/deps.sh)
#
# The cache folder is named after package-lock.json's hash, so a changed lock
# installs afresh and an unchanged one costs nothing. Cache root:
# ${XDG_CACHE_HOME:-$HOME/.cache}/clew-vscode.
set -euo pipefail

ext=$(cd "$(dirname "$0")/.." && pwd)
root=${XDG_CACHE_HOME:-$HOME/.cache}/clew-vscode
hash=$(sha256sum <"$ext/package-lock.json" | cut -c1-16)
dir="$root/deps-$hash"

if ! [ -f "$dir/.complete" ]; then
  mkdir -p "$root"
  tmp=$(mktemp -d "$root/.deps-XXXXXX")
  cp "$ext/package.json" "$ext/package-lock.json" "$tmp/"
  if ! (cd "$tmp" && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts=false) >"$tmp/npm.log" 2>&1; then
    tail -30 "$tmp/npm.log" >&2
    echo "deps.sh: npm ci of editors/vscode failed (log: $tmp/npm.log)" >&2
    exit 1
  fi
  touch "$tmp/.complete"
  # Another run may have finished first; either copy is complete.
  mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
fi
echo "$dir/node_modules"
