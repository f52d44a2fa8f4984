#!/usr/bin/env bash
# Node tests of the VS Code extension: the manifest, and the server started
# over stdio with vscode-jsonrpc (the transport vscode-languageclient uses).
#
#   editors/vscode/test/run.sh [path/to/clew-lsp]
#
# Without an argument (or $CLEW_LSP) it builds the temporary test server
# (internal/lsp/internal/testserver) and checks its marker diagnostic too.
# A full VS Code run needs code-server (code-server.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ext=$(cd "$here/.." && pwd)
repo=$(cd "$ext/../.." && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$ext"
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
else
  npm install --no-audit --no-fund --loglevel=error
fi

bin=${1:-${CLEW_LSP:-}}
if [ -z "$bin" ]; then
  bin="$work/clew-lsp"
  (cd "$repo" && go build -o "$bin" ./internal/lsp/internal/testserver)
  export CLEW_MARKER=CLEW-TEST-DIAGNOSTIC
fi
export CLEW_LSP
CLEW_LSP=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# Only the top-level *.test.js: test/integration/ runs inside VS Code (code-server.sh).
node --test --test-reporter=spec test/*.test.js
