#!/usr/bin/env bash
# `clew-lsp mcp` under a third-party client: the MCP Inspector's CLI mode
# (@modelcontextprotocol/inspector, pinned) lists the tools and calls them
# against the built binary over stdio, on a git copy of examples/tour.
#
#   scripts/test-mcp-inspector.sh [path/to/clew-lsp]
#
# Without an argument (or $CLEW_LSP) it builds ./cmd/clew-lsp. Node 24 (npm's
# node@24; the Inspector needs Node 22.19 or newer) and the Inspector are
# installed once into ${XDG_CACHE_HOME:-$HOME/.cache}/clew-real-clients/,
# outside the clone. Prints "mcp-inspector: N passed, 0 failed".
set -euo pipefail

INSPECTOR_VERSION=2.12.0
NODE_PKG=node@24

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/clew-real-clients
npm_q=(--no-audit --no-fund --loglevel=error)
work=$(mktemp -d "${TMPDIR:-/tmp}/clew-mcp-inspector.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "mcp-inspector: FAIL: $*" >&2; exit 1; }

mkdir -p "$cache"
node24="$cache/node24/node_modules/.bin/node"
if ! [ -x "$node24" ] || ! "$node24" --version 2>/dev/null | grep -q '^v24\.'; then
  echo "mcp-inspector: installing $NODE_PKG into $cache/node24"
  rm -rf "$cache/node24"
  npm install "${npm_q[@]}" --prefix "$cache/node24" "$NODE_PKG" >"$work/node24.log" 2>&1 \
    || { tail -30 "$work/node24.log" >&2; fail "npm install $NODE_PKG"; }
fi
export PATH="$cache/node24/node_modules/.bin:$PATH"
insp_dir="$cache/inspector-$INSPECTOR_VERSION"
inspector="$insp_dir/node_modules/.bin/mcp-inspector"
if ! [ -x "$inspector" ]; then
  echo "mcp-inspector: installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION into $insp_dir"
  rm -rf "$insp_dir"
  npm install "${npm_q[@]}" --prefix "$insp_dir" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >"$work/insp.log" 2>&1 \
    || { tail -30 "$work/insp.log" >&2; fail "npm install the Inspector"; }
fi

bin=${1:-${CLEW_LSP:-}}
if [ -z "$bin" ]; then
  bin="$work/clew-lsp"
  (cd "$repo" && go build -o "$bin" ./cmd/clew-lsp)
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# The tour in its own repository, so its verdicts do not depend on this one.
ws="$work/tour"
cp -R "$repo/examples/tour" "$ws"
git -C "$ws" init -q
git -C "$ws" add -A
git -C "$ws" -c user.name=clew -c user.email=clew@example.invalid commit -qm tour

# The Inspector keeps its catalog and client config in the work directory.
export MCP_CATALOG_PATH="$work/catalog.json" MCP_CLIENT_CONFIG_PATH="$work/client.json"
inspect() { timeout 120 "$inspector" --cli --quiet "$bin" mcp "$ws" "$@"; }
passed=0

# 1. tools/list: the six tools, each with an object input schema and
# read-only; --strict fails on schema portability errors.
inspect --method tools/list --strict >"$work/list.json" 2>"$work/list.err" || fail "tools/list: $(cat "$work/list.err")"
! grep -q . "$work/list.err" || fail "tools/list warns: $(cat "$work/list.err")"
node -e '
  const l = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const names = l.tools.map(t => t.name).sort().join(" ");
  if (names !== "anchor_for context doc_passages explain suggest_anchors verify") throw new Error("tools: " + names);
  for (const t of l.tools) {
    if (t.inputSchema.type !== "object" || !Object.keys(t.inputSchema.properties).length) throw new Error(t.name + ": schema");
    if (!t.annotations || t.annotations.readOnlyHint !== true) throw new Error(t.name + ": not read-only");
  }' "$work/list.json" || fail "tools/list content: $(head -c 400 "$work/list.json")"
passed=$((passed + 1))

# 2. tools/call context: the Markdown is the CLI's, the stale passage only excluded.
inspect --method tools/call --tool-name context --tool-arg file=resolver/resolve.go --tool-arg line=21 >"$work/context.json" \
  || fail "tools/call context"
"$bin" context --dir "$ws" --markdown resolver/resolve.go:21 >"$work/cli.md" || fail "clew-lsp context --markdown"
node -e '
  const fs = require("fs");
  const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const md = fs.readFileSync(process.argv[2], "utf8");
  if (r.isError) throw new Error("tool error: " + r.content[0].text);
  if (r.content[0].text !== md) throw new Error("the text differs from clew-lsp context --markdown");
  if (!md.startsWith("# Context for `clew://symbol/resolver.Cache.Lookup`")) throw new Error("seed: " + md.slice(0, 80));
  const stale = r.structuredContent.excluded.filter(x => x.reason === "stale").map(x => x.uri);
  if (!stale.includes("clew://passage/docs/architecture.md#Cache.Lookup-1")) throw new Error("stale: " + stale);
  if (r.structuredContent.selected.some(e => stale.includes(e.uri))) throw new Error("a stale passage is selected");
' "$work/context.json" "$work/cli.md" || fail "context content"
passed=$((passed + 1))

# 3. tools/call verify: counts and the stale finding with what to do.
inspect --method tools/call --tool-name verify >"$work/verify.json" || fail "tools/call verify"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).structuredContent;
  if (r.exit !== 1 || r.anchors.fresh !== 3 || r.anchors.stale !== 3 || !r.complete) throw new Error(JSON.stringify(r).slice(0, 300));
  const f = r.findings.find(f => f.doc === "docs/architecture.md" && f.line === 15);
  if (!f || f.state !== "stale" || !f.todo.includes("clew-lsp confirm docs/architecture.md:15")) throw new Error("finding: " + JSON.stringify(f));
' "$work/verify.json" || fail "verify content"
passed=$((passed + 1))

# 4. tools/call suggest_anchors: the same answer as `clew-lsp suggest --json`.
# A doc of unanchored mentions, added after the tests above so their tour counts hold.
printf '# Notes\n\nA miss goes through `Cache.Lookup` first.\n' >"$ws/docs/notes.md"
git -C "$ws" add -A
git -C "$ws" -c user.name=clew -c user.email=clew@example.invalid commit -qm notes
inspect --method tools/call --tool-name suggest_anchors >"$work/suggest.json" || fail "tools/call suggest_anchors"
"$bin" suggest --dir "$ws" --json >"$work/suggest-cli.json" || true
node -e '
  const fs = require("fs");
  const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const cli = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  if (r.isError) throw new Error("tool error: " + r.content[0].text);
  // Every field the CLI prints holds the same value in the tool answer
  // (which adds a few of its own: shown, total, complete, insert_line).
  const within = (want, got, at) => {
    if (want === null || typeof want !== "object") {
      if (want !== got) throw new Error(at + ": CLI " + JSON.stringify(want) + ", MCP " + JSON.stringify(got));
      return;
    }
    if (got === null || typeof got !== "object") throw new Error(at + ": missing in the MCP answer");
    if (Array.isArray(want) && want.length !== got.length) throw new Error(at + ": " + want.length + " vs " + got.length + " items");
    for (const k of Object.keys(want)) within(want[k], got[k], at + "." + k);
  };
  const m = r.structuredContent;
  const hit = cli.mentions.find(x => x.mention === "Cache.Lookup" && x.doc === "docs/notes.md");
  if (!hit || hit.resolution !== "unique" || !hit.targets[0].anchor.startsWith("<!-- @code method Cache.Lookup resolver/resolve.go sha="))
    throw new Error("no unique Cache.Lookup suggestion: " + JSON.stringify(cli).slice(0, 300));
  within(cli, m, "suggest");
' "$work/suggest.json" "$work/suggest-cli.json" || fail "suggest_anchors content"
passed=$((passed + 1))

# 5. A bad argument is a tool error with a message, not a protocol error.
# The Inspector exits 5 ("tool_is_error") and still writes the result.
rc=0
inspect --method tools/call --tool-name context --tool-arg file=../outside.go --tool-arg line=1 \
  --output "$work/refused.json" >/dev/null 2>"$work/refused.err" || rc=$?
[ "$rc" = 5 ] || fail "a refused path: want the Inspector's tool-error exit 5, got $rc: $(cat "$work/refused.err")"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  if (r.isError !== true || !r.content[0].text.includes("outside the workspace")) throw new Error(JSON.stringify(r));
' "$work/refused.json" || fail "refusal content"
passed=$((passed + 1))

echo "mcp-inspector: $passed passed, 0 failed"
