#!/usr/bin/env bash
# The VS Code extension in REAL VS Code, as a user installs it: the packaged
# linux-x64 VSIX (scripts/package.sh, clew-lsp bundled in bin/) is
# installed into code-server (VS Code 1.139.1) with --install-extension,
# with no clew-lsp on PATH and no clew.server.path. Headless Chromium,
# through playwright-core, drives the workbench and checks what is on
# screen:
#   1. test/integration/suite.js runs in the node extension host (a code
#      file opened first gets its lens, the status item shows the health,
#      Compile Dev Context opens a document naming the seed and its
#      exclusions, Explain, Policy, Verify, Show what changed since review
#      (quick fix and hover link: the diff editor), the quick fix, Confirm,
#      the message when history lacks the reviewed version, Copy anchor
#      then paste into a doc), and
#      driver.js checks the DOM at each step and saves the README's
#      screenshots (editors/vscode/images/ with CLEW_SCREENSHOTS=1);
#   2. the same install with its binary removed: exactly one notification.
#
#   editors/vscode/test/code-server.sh
#
# Tools are installed once, pinned, into ${XDG_CACHE_HOME:-$HOME/.cache}/clew-real-clients/
# (Node 24 from npm node@24, code-server, playwright-core); apt packages
# (chromium, libkrb5-dev, git) only when missing. Cold: a few minutes, ~1.5 GB.
# Prints "vscode-real: 2 passed, 0 failed" and exits 0 on success.
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
passed=0
fail() { echo "vscode-real: FAIL: $*" >&2; echo "vscode-real: $passed passed, 1 failed" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/clew-vscode-real.XXXXXX")
cs_pid=
stop_code_server() {
  if [ -n "$cs_pid" ]; then
    kill -TERM -- "-$cs_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$cs_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$cs_pid" 2>/dev/null || true
    cs_pid=
  fi
}
cleanup() {
  local rc=$?
  stop_code_server
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
  # argon2 (a code-server dependency) runs `cross-env … node-gyp-build` in
  # its install script, and npm does not always link cross-env's binary
  # before that script runs: on a clean cache the install then fails with
  # "cross-env: not found". Put cross-env on PATH first.
  tools="$cache/install-tools"
  if ! [ -x "$tools/node_modules/.bin/cross-env" ]; then
    npm install "${npm_q[@]}" --prefix "$tools" cross-env@10 >"$work/cross-env.log" 2>&1 \
      || { tail -20 "$work/cross-env.log" >&2; fail "npm install cross-env"; }
  fi
  PATH="$tools/node_modules/.bin:$PATH" npm_config_nodedir=/usr npm install "${npm_q[@]}" --prefix "$cs_dir" "code-server@$CS_VERSION" >"$work/code-server-install.log" 2>&1 \
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

# --- the package, as a user gets it
if [ $# -gt 0 ]; then say "note: the argument $1 is not used; the VSIX bundles its own build"; fi
say "packaging the linux-x64 VSIX"
vsix=$(bash "$ext/scripts/package.sh" linux-x64 2>"$work/package.log") || { tail -30 "$work/package.log" >&2; fail "scripts/package.sh linux-x64"; }
say "packaged $(basename "$vsix") ($(du -k "$vsix" | cut -f1) KiB)"

# code-server's environment: no clew-lsp anywhere the extension looks
# besides its own bin/ (PATH, $GOBIN, $GOPATH/bin, ~/go/bin).
clean_path=
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do [ -n "$d" ] && ! [ -e "$d/clew-lsp" ] && clean_path="${clean_path:+$clean_path:}$d"; done
mkdir -p "$work/home" "$work/xdg" "$work/ud/User" "$work/exts"
run_env=(env -u GOBIN -u GOPATH PATH="$clean_path" HOME="$work/home" XDG_CONFIG_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg/cache")
"${run_env[@]}" sh -c 'command -v clew-lsp' >/dev/null 2>&1 && fail "clew-lsp is still on the test's PATH"

"${run_env[@]}" "$code_server" --user-data-dir "$work/ud" --extensions-dir "$work/exts" \
  --install-extension "$vsix" >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "code-server --install-extension $vsix"; }
installed=$(find "$work/exts" -maxdepth 1 -type d -name 'clew-lsp.clew-lsp-*' | head -1)
[ -x "$installed/bin/clew-lsp" ] || fail "the installed extension has no executable bin/clew-lsp: $(ls -la "$installed/bin" 2>&1)"
say "installed into $(basename "$installed"); its binary says: $("$installed/bin/clew-lsp" version)"

cat >"$work/ud/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off", "update.mode": "none",
  "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false, "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden", "files.autoSave": "off",
  "git.enabled": false, "workbench.editor.enablePreview": false,
  "editor.editContext": false, "editor.pasteAs.enabled": false
}
JSON
# (Copy anchor then paste hands the editor a paste event with the
# clipboard's text; the test uses the editor's textarea input and the plain
# paste, without the Markdown extension's "paste as" providers.)

# --- a fixture: a git copy of examples/tour (fresh each time: hot-exit
# backups) with a real history: a commit of the code as the anchors were
# pinned on it (examples/tour.before.txtar), then the tour as it is, so
# "Show what changed since review" finds the reviewed versions.
fixture() {
  cp -R "$repo/examples/tour" "$1"
  node "$here/integration/tour-history.js" "$1" "$repo/examples/tour.before.txtar" \
    || fail "git history of the fixture $1"
}

# start_code_server [extra code-server flags]
start_code_server() {
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  url="http://127.0.0.1:$port"
  "${run_env[@]}" CLEW_VSCODE_RESULT="$work/result.json" CLEW_VSCODE_SYNC="$work/sync" \
    setsid "$code_server" --bind-addr "127.0.0.1:$port" --auth none \
    --user-data-dir "$work/ud" --extensions-dir "$work/exts" --disable-telemetry --disable-update-check \
    --disable-workspace-trust --disable-getting-started-override --ignore-last-opened \
    --reconnection-grace-time 5 "$@" >>"$work/code-server.log" 2>&1 &
  cs_pid=$!
  for _ in $(seq 1 150); do
    curl -fsS "$url/healthz" >/dev/null 2>&1 && break
    kill -0 "$cs_pid" 2>/dev/null || { tail -30 "$work/code-server.log" >&2; fail "code-server exited at startup"; }
    sleep 0.2
  done
  curl -fsS "$url/healthz" >/dev/null 2>&1 || { tail -30 "$work/code-server.log" >&2; fail "code-server did not answer $url/healthz in 30s"; }
  say "code-server $CS_VERSION up at $url (pid group $cs_pid)"
}

diagnose() {
  echo "--- clew output channel (tail):" >&2
  find "$work/ud/logs" -name '*clew*' -type f -exec tail -20 {} + >&2 2>/dev/null || true
  echo "--- extension host errors (first 5):" >&2
  find "$work/ud/logs" -name remoteexthost.log -type f -exec grep -A2 -m5 '\[error\]' {} + >&2 2>/dev/null || true
  echo "--- code-server.log (tail):" >&2; tail -20 "$work/code-server.log" >&2
}

artifacts="$work/artifacts"
mkdir -p "$artifacts" "$work/sync"
drive() {
  HOME="$work/home" NODE_PATH="$pw_dir/node_modules" CHROMIUM="$chromium_bin" timeout 720 \
    node "$here/integration/driver.js" "$@" 2>&1 | grep -v 'unexpected operator' # Debian's chromium wrapper script bug; harmless
  return "${PIPESTATUS[0]}"
}

# --- 1. the installed VSIX with its bundled server
fixture "$work/tour"
# The smoke-test driver lets the payload run suite.js; it also hides toasts.
start_code_server --vscode-option enable-smoke-test-driver
set +e
drive suite "$url" "$work/tour" "$here/integration/harness" "$here/integration/suite.js" "$work/sync" "$artifacts"
rc=$?
set -e
if [ "$rc" -ne 0 ] || ! grep -q '"passed": true' "$work/result.json" 2>/dev/null; then
  if [ -f "$work/result.json" ]; then
    echo "--- result.json" >&2; cat "$work/result.json" >&2
  else
    echo "--- no result from the extension host; browser console (tail):" >&2
    tail -40 "$artifacts/browser-console.log" >&2 2>/dev/null || true
  fi
  diagnose
  fail "suite.js in VS Code (driver exit $rc)"
fi
# The logs: the server's lines at their own level in the "clew" channel,
# and clew.trace.server (switched on by suite.js) in "clew (trace)".
clew_log=$(find "$work/ud/logs" -type f -name 'clew.log' | head -1)
trace_log=$(find "$work/ud/logs" -type f -name '*clew (trace).log' | head -1)
[ -n "$clew_log" ] || fail "no log file of the clew output channel under $work/ud/logs"
grep -q '\[info\] initialize client=' "$clew_log" || { tail -20 "$clew_log" >&2; fail "the server's initialize line is not at [info] in the clew channel"; }
grep -q '\[error\] initialize client=' "$clew_log" && fail "the server's info line is shown as [error]"
[ -n "$trace_log" ] && grep -q "Sending request 'workspace/executeCommand" "$trace_log" \
  || { echo "trace log: ${trace_log:-none}" >&2; fail "clew.trace.server=messages traced nothing"; }
say "logs: server lines at their level ($(grep -c '\[info\]' "$clew_log") info lines); trace: $(grep -c 'Sending request' "$trace_log") requests traced"
passed=1
say "suite.js passed in VS Code $CS_VERSION; timings: $(node -p 'JSON.stringify(require(process.argv[1]).timings)' "$work/result.json")"
stop_code_server

# --- 2. the same install without its binary: one notification, no raw error
rm -f "$installed/bin/clew-lsp"
fixture "$work/tour-missing"
start_code_server
set +e
drive missing "$url" "$work/tour-missing" "$artifacts"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then diagnose; fail "the missing-binary case (driver exit $rc)"; fi
passed=2
say "the missing-binary case passed"

if [ -n "${CLEW_SCREENSHOTS:-}" ]; then
  for f in lens-on-code status dev-context explain-pick verify show-change missing-binary; do
    cp "$artifacts/$f.png" "$ext/images/$f.png"
  done
  say "screenshots copied to editors/vscode/images/"
fi
echo "vscode-real: 2 passed, 0 failed"
