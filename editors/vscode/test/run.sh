#!/usr/bin/env bash
# Node tests of the VS Code extension: the manifest, the server resolution,
# the words made from the real server's answers, and the server over stdio
# with vscode-jsonrpc (the transport vscode-languageclient uses).
#
#   editors/vscode/test/run.sh [path/to/clew-lsp]
#
# With an argument (or $CLEW_LSP) every test uses that binary. Without, it
# builds ./cmd/clew-lsp for the answers test and the temporary test server
# (internal/lsp/internal/testserver) for server.test.js, which then checks
# its marker diagnostic too. npm packages come from scripts/deps.sh (a cache
# outside the clone); the bundle (esbuild) goes to out/, ignored by git.
# A full VS Code run is test/code-server.sh.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ext=$(cd "$here/.." && pwd)
repo=$(cd "$ext/../.." && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

NODE_PATH=$(bash "$ext/scripts/deps.sh")
export NODE_PATH
NODE_PATH="$NODE_PATH" "$NODE_PATH/.bin/esbuild" "$ext/src/extension.js" --bundle --platform=node --format=cjs \
  --target=node20 --external:vscode --log-level=warning --outfile="$ext/out/extension.js"

abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
bin=${1:-${CLEW_LSP:-}}
if [ -n "$bin" ]; then
  CLEW_LSP=$(abs "$bin")
  CLEW_LSP_REAL=$CLEW_LSP
else
  (cd "$repo" && go build -o "$work/clew-lsp" ./cmd/clew-lsp && go build -o "$work/testserver" ./internal/lsp/internal/testserver)
  CLEW_LSP_REAL="$work/clew-lsp"
  CLEW_LSP="$work/testserver"
  export CLEW_MARKER=CLEW-TEST-DIAGNOSTIC
fi
export CLEW_LSP CLEW_LSP_REAL

# Only the top-level *.test.js: test/integration/ runs inside VS Code (code-server.sh).
cd "$ext"
node --test --test-reporter=spec test/*.test.js
