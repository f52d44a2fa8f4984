#!/usr/bin/env bash
# The VS Code extension in REAL VS Code: code-server (VS Code 1.139.1) runs
# this repo's editors/vscode as extensionDevelopmentPath against a clew-lsp
# binary, and test/integration/suite.js runs inside its node extension host
# (diagnostics, code lens, "Confirm reviewed" quick fix), driven by headless
# Chromium through playwright-core.
#
#   editors/vscode/test/code-server.sh [path/to/clew-lsp]
#
# Without an argument (or $CLEW_LSP) it builds ./cmd/clew-lsp. Tools are
# installed once, pinned, into ${XDG_CACHE_HOME:-$HOME/.cache}/clew-real-clients/
# (Node 24 from npm node@24, code-server, playwright-core); apt packages
# (chromium, libkrb5-dev, git) only when missing. Cold: a few minutes, ~1.5 GB.
# Prints "vscode-real: 1 passed, 0 failed" and exits 0 on success.
set -euo pipefail

CS_VERSION=4.139.1
PW_VERSION=1.65.1
NODE_PKG=node@24

here=$(cd "$(dirname "$0")" && pwd)
ext=$(cd "$here/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/clew-real-clients
npm_q=(--no-audit --no-fund --loglevel=error)

start=$(date +%s)
say() { echo "vscode-real: [$(( $(date +%s) - start ))s] $*"; }
fail() { echo "vscode-real: FAIL: $*" >&2; echo "vscode-real: 0 passed, 1 failed" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/clew-vscode-real.XXXXXX")
cs_pid=
cleanup() {
  local rc=$?
  if [ -n "$cs_pid" ]; then
    kill -TERM -- "-$cs_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$cs_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$cs_pid" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ] || [ -n "${CLEW_KEEP_ARTIFACTS:-}" ]; then
    echo "vscode-real: logs and artifacts kept in $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- tools (idempotent; every step guarded only by "is the pinned version present")
need_apt=()
for p in chromium libkrb5-dev; do dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p"); done
command -v git >/dev/null 2>&1 || need_apt+=(git)
if [ ${#need_apt[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing apt packages ${need_apt[*]} and not root"
  say "installing apt packages ${need_apt[*]}"
  apt-get update -qq >"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log" >&2; fail "apt-get update"; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >>"$work/apt.log" 2>&1 \
    || { tail -20 "$work/apt.log" >&2; fail "apt-get install ${need_apt[*]}"; }
fi
chromium_bin=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium_bin" ] || fail "no chromium at $chromium_bin"

mkdir -p "$cache"
node24="$cache/node24/node_modules/.bin/node"
if ! [ -x "$node24" ] || ! "$node24" --version 2>/dev/null | grep -q '^v24\.'; then
  say "installing $NODE_PKG into $cache/node24"
  rm -rf "$cache/node24"
  npm install "${npm_q[@]}" --prefix "$cache/node24" "$NODE_PKG" >"$work/node24.log" 2>&1 \
    || { tail -30 "$work/node24.log" >&2; fail "npm install $NODE_PKG"; }
fi
export PATH="$cache/node24/node_modules/.bin:$PATH" # Node 24 first, for the install AND at run time
[ "$(command -v node)" = "$node24" ] || fail "node 24 is not first on PATH: $(command -v node)"

cs_dir="$cache/cs-$CS_VERSION"
code_server="$cs_dir/node_modules/.bin/code-server"
if ! [ -x "$code_server" ] || ! [ -f "$cs_dir/.complete" ]; then
  say "installing code-server@$CS_VERSION into $cs_dir (about 2-3 minutes)"
  rm -rf "$cs_dir"
  npm_config_nodedir=/usr npm install "${npm_q[@]}" --prefix "$cs_dir" "code-server@$CS_VERSION" >"$work/code-server-install.log" 2>&1 \
    || { tail -40 "$work/code-server-install.log" >&2; fail "npm install code-server@$CS_VERSION"; }
  touch "$cs_dir/.complete"
fi

pw_dir="$cache/pw-$PW_VERSION"
if ! [ -f "$pw_dir/node_modules/playwright-core/package.json" ]; then
  say "installing playwright-core@$PW_VERSION into $pw_dir"
  rm -rf "$pw_dir"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install "${npm_q[@]}" --prefix "$pw_dir" "playwright-core@$PW_VERSION" >"$work/pw.log" 2>&1 \
    || { tail -20 "$work/pw.log" >&2; fail "npm install playwright-core@$PW_VERSION"; }
fi
say "tools ready: node $(node --version), code-server $CS_VERSION, playwright-core $PW_VERSION"

# --- the server and the extension
bin=${1:-${CLEW_LSP:-}}
if [ -z "$bin" ]; then
  bin="$work/clew-lsp"
  say "building ./cmd/clew-lsp"
  (cd "$repo" && go build -o "$bin" ./cmd/clew-lsp) || fail "go build ./cmd/clew-lsp"
fi
[ -x "$bin" ] || fail "clew-lsp binary $bin is not executable"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

(cd "$ext" && npm ci "${npm_q[@]}" >"$work/npm-ci.log" 2>&1) || { tail -20 "$work/npm-ci.log" >&2; fail "npm ci in editors/vscode"; }

# --- the fixture: a git copy of examples/tour (fresh each run: hot-exit backups)
ws="$work/tour"
cp -R "$repo/examples/tour" "$ws"
(cd "$ws" && git init -q && git add -A \
  && git -c user.name=clew-test -c user.email=clew-test@example.invalid -c commit.gpgsign=false commit -q -m tour) \
  || fail "git init of the fixture"

# --- code-server, isolated: its own HOME, XDG dirs, user data and extensions
mkdir -p "$work/home" "$work/xdg" "$work/ud/User" "$work/exts"
cat >"$work/ud/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off", "update.mode": "none",
  "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false, "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden", "files.autoSave": "off",
  "git.enabled": false,
  "clew.server.path": "$bin",
  "clew.server.alwaysStart": false
}
JSON
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
url="http://127.0.0.1:$port"
export CLEW_VSCODE_RESULT="$work/result.json" # read by suite.js in the extension host
HOME="$work/home" XDG_CONFIG_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg/cache" \
  setsid "$code_server" --bind-addr "127.0.0.1:$port" --auth none \
  --user-data-dir "$work/ud" --extensions-dir "$work/exts" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --ignore-last-opened \
  --reconnection-grace-time 5 --vscode-option enable-smoke-test-driver >"$work/code-server.log" 2>&1 &
cs_pid=$!
for _ in $(seq 1 150); do
  curl -fsS "$url/healthz" >/dev/null 2>&1 && break
  kill -0 "$cs_pid" 2>/dev/null || { tail -30 "$work/code-server.log" >&2; fail "code-server exited at startup"; }
  sleep 0.2
done
curl -fsS "$url/healthz" >/dev/null 2>&1 || { tail -30 "$work/code-server.log" >&2; fail "code-server did not answer $url/healthz in 30s"; }
say "code-server $CS_VERSION up at $url (pid group $cs_pid)"

# --- run suite.js inside VS Code
mkdir -p "$work/artifacts"
set +e
HOME="$work/home" NODE_PATH="$pw_dir/node_modules" CHROMIUM="$chromium_bin" timeout 300 \
  node "$here/integration/driver.js" "$url" "$ws" "$ext" "$here/integration/suite.js" "$work/artifacts" 2>&1 \
  | grep -v 'unexpected operator' # Debian's chromium wrapper script bug; harmless
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ] || ! grep -q '"passed": true' "$work/result.json" 2>/dev/null; then
  if [ -f "$work/result.json" ]; then
    echo "--- result.json" >&2; cat "$work/result.json" >&2
  else
    echo "--- no result from the extension host; browser console (tail):" >&2
    tail -40 "$work/artifacts/browser-console.log" >&2 2>/dev/null || true
  fi
  echo "--- clew output channel (tail):" >&2
  find "$work/ud/logs" -name '*clew*' -type f -exec tail -20 {} + >&2 2>/dev/null || true
  echo "--- extension host errors (first 5):" >&2
  find "$work/ud/logs" -name remoteexthost.log -type f -exec grep -A2 -m5 '\[error\]' {} + >&2 2>/dev/null || true
  echo "--- code-server.log (tail):" >&2; tail -20 "$work/code-server.log" >&2
  fail "suite.js in VS Code (driver exit $rc)"
fi
say "suite.js passed in VS Code $CS_VERSION"
echo "vscode-real: 1 passed, 0 failed"
