#!/usr/bin/env bash
# Tests the CI integrations with the real tools, against a built binary:
#   1. scripts/release.sh for the native target: archive, SHA256SUMS, the
#      archived binary runs and carries the version;
#   2. the GitHub Action's shell steps with a fake GITHUB_* environment:
#      checksum-verified install from that release (and a refused tampered
#      one), verify's workflow commands, job summary, exit-code output, SARIF;
#   3. the SARIF file through Microsoft's validator (npm
#      @microsoft/sarif-multitool): zero errors, while a broken copy has some;
#      a plain `go build` (BIN) gives a SARIF file without any warning (its
#      version starts with a number);
#   4. pre-commit (PyPI) with .pre-commit-hooks.yaml in a temporary git
#      repository: a commit leaving an anchor stale is refused with the
#      message, a clean one passes.
# Tools are installed once into ${XDG_CACHE_HOME:-~/.cache}/clew-release.
#   bash scripts/test/ci-integrations.sh [BIN]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/clew-release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }

bin=${1:-}
if [ -z "$bin" ]; then
  bin=$work/clew-lsp
  (cd "$repo" && go build -o "$bin" ./cmd/clew-lsp)
fi
tour() { rm -rf "$1" && cp -r "$repo/examples/tour" "$1"; }

# --- 1. the release script, native target
version=0.0.0-citest
bash "$repo/scripts/release.sh" "$version" --out "$work/dist" --targets linux-amd64 --no-vsix >"$work/release.log" 2>&1 ||
  { cat "$work/release.log"; fail "release.sh"; }
arch=clew-lsp_${version}_linux_amd64.tar.gz
(cd "$work/dist" && sha256sum -c SHA256SUMS >/dev/null) || fail "SHA256SUMS does not match the archives"
grep -q " $arch\$" "$work/dist/SHA256SUMS" || fail "SHA256SUMS lacks $arch"
mkdir "$work/x" && tar -xzf "$work/dist/$arch" -C "$work/x"
got=$("$work/x/clew-lsp_${version}_linux_amd64/clew-lsp" version)
[ "$got" = "clew-lsp $version" ] || fail "archived binary says '$got'"
[ -f "$work/x/clew-lsp_${version}_linux_amd64/README.md" ] || fail "archive lacks README.md"
ok "release.sh linux-amd64: $arch ($(stat -c %s "$work/dist/$arch") bytes) verified by SHA256SUMS, prints '$got'"

# --- 2. the action's steps with a fake runner environment
grep -q 'scripts/action/install.sh' "$repo/action.yml" && grep -q 'scripts/action/verify.sh' "$repo/action.yml" ||
  fail "action.yml does not run scripts/action/{install,verify}.sh"
gh=$work/gh && mkdir -p "$gh/tmp"
export GITHUB_PATH=$gh/path GITHUB_OUTPUT=$gh/output GITHUB_STEP_SUMMARY=$gh/summary.md RUNNER_TEMP=$gh/tmp
export RUNNER_OS=Linux RUNNER_ARCH=X64 GITHUB_WORKSPACE=$work/ws
mkdir -p "$work/rel/v$version" && cp "$work/dist/"* "$work/rel/v$version/"
INPUT_VERSION=$version CLEW_RELEASE_URL=file://$work/rel bash "$repo/scripts/action/install.sh" >"$gh/install.log" 2>&1 ||
  { cat "$gh/install.log"; fail "action install"; }
installed=$(tail -n1 "$GITHUB_PATH")
[ "$("$installed/clew-lsp" version)" = "clew-lsp $version" ] || fail "the action installed no working clew-lsp in $installed"
grep -q "release $version ($arch, sha256 " "$gh/install.log" || fail "install did not say it verified the checksum: $(cat "$gh/install.log")"
ok "action install: release archive verified and put on GITHUB_PATH"
cp -r "$work/rel" "$work/rel-bad"
sed -i "s/^[0-9a-f]\{8\}/00000000/" "$work/rel-bad/v$version/SHA256SUMS"
if INPUT_VERSION=$version CLEW_RELEASE_URL=file://$work/rel-bad RUNNER_TEMP=$gh/tmp-bad bash "$repo/scripts/action/install.sh" >"$gh/bad.log" 2>&1; then
  fail "the action installed an archive whose checksum does not match"
fi
grep -q "::error title=clew-lsp::checksum mismatch" "$gh/bad.log" || fail "tampered archive: $(cat "$gh/bad.log")"
ok "action install: a tampered SHA256SUMS is refused with an error annotation"

mkdir -p "$GITHUB_WORKSPACE" && tour "$GITHUB_WORKSPACE/tour"
set +e
(cd "$GITHUB_WORKSPACE" && PATH=$installed:$PATH INPUT_DIR=tour INPUT_STRICT=false INPUT_CHECK=true INPUT_SARIF=$gh/out/clew.sarif \
  bash "$repo/scripts/action/verify.sh" >"$gh/verify.log" 2>&1)
code=$?
set -e
[ "$code" = 1 ] || { cat "$gh/verify.log"; fail "action verify exit $code, want 1 (the tour gates)"; }
grep -qx "exit-code=1" "$GITHUB_OUTPUT" || fail "GITHUB_OUTPUT lacks exit-code=1"
grep -q '^::error file=tour/docs/architecture.md,line=15,endLine=15,col=1,endColumn=[0-9]*,title=anchor/stale::method Cache.Lookup: code changed since it was reviewed' "$gh/verify.log" ||
  fail "no stale annotation on tour/docs/architecture.md:15: $(head -5 "$gh/verify.log")"
grep -q '^::warning file=tour/docs/architecture.md,line=19,.*title=anchor/moved::' "$gh/verify.log" || fail "no moved warning"
grep -q '^::notice file=tour/docs/architecture.md,line=41,.*title=anchor/unpinned::' "$gh/verify.log" || fail "no unpinned notice"
n=$(grep -c '^::\(error\|warning\|notice\) ' "$gh/verify.log")
rows=$(grep -c '^| `tour/' "$GITHUB_STEP_SUMMARY")
[ "$n" -ge 8 ] && [ "$n" = "$rows" ] || fail "$n workflow commands but $rows summary rows"
grep -q '^| `tour/docs/architecture.md:15` | error | `anchor/stale` |' "$GITHUB_STEP_SUMMARY" || fail "summary: $(cat "$GITHUB_STEP_SUMMARY")"
git -C "$repo" diff --quiet -- examples/tour || fail "the test touched examples/tour"
ok "action verify: $n annotations on the right lines, job summary with $rows rows, exit-code=1"

# --- 3. SARIF through Microsoft's validator
sarif_dir=$cache/sarif-multitool-5.7.0
if [ ! -x "$sarif_dir/node_modules/.bin/sarif-multitool" ]; then
  echo "== installing @microsoft/sarif-multitool@5.7.0 (npm) into $sarif_dir"
  rm -rf "$sarif_dir" && mkdir -p "$sarif_dir"
  npm install --prefix "$sarif_dir" --no-audit --no-fund --silent @microsoft/sarif-multitool@5.7.0 >/dev/null
fi
[ -s "$gh/out/clew.sarif" ] || fail "the action wrote no SARIF file"
# The plain `go build` binary (no -X version) must name a version SARIF
# consumers can compare: the validator warns (SARIF2005) on "(devel)".
(cd "$repo" && "$bin" verify --check --format sarif examples/tour >"$work/plain.sarif") || [ $? = 1 ] || fail "verify --format sarif"
plainv=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["version"])' "$work/plain.sarif")
[[ $plainv =~ ^[0-9] ]] || fail "a plain go build reports version '$plainv' in SARIF"
python3 - "$gh/out/clew.sarif" "$work/broken.sarif" <<'EOF2'
import json, sys
log = json.load(open(sys.argv[1]))
res = log["runs"][0]["results"]
assert log["version"] == "2.1.0" and len(res) >= 8, (log["version"], len(res))
assert any(r.get("fixes") for r in res), "no fixes"
res[0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
res[0]["ruleIndex"] = 999
json.dump(log, open(sys.argv[2], "w"))
EOF2
# One validator run for the three files (it takes most of a minute to start).
"$sarif_dir/node_modules/.bin/sarif-multitool" validate "$gh/out/clew.sarif" "$work/plain.sarif" "$work/broken.sarif" >"$work/validate.log" 2>&1 || true
grep -q "3 files scanned" "$work/validate.log" || { cat "$work/validate.log"; fail "the SARIF validator did not run"; }
findings() { grep -F "$1(" "$work/validate.log" | grep -E ": $2 [A-Z]+[0-9]+:" || true; }
errs=$(findings "$gh/out/clew.sarif" error; findings "$work/plain.sarif" error)
[ -z "$errs" ] || fail "SARIF validator errors: $errs"
warns=$(findings "$work/plain.sarif" warning)
[ -z "$warns" ] || fail "SARIF validator warnings on the plain build's file: $warns"
broken=$(findings "$work/broken.sarif" error)
[ -n "$broken" ] || fail "the validator finds no error in a broken SARIF file: it checks nothing"
ok "SARIF: sarif-multitool validate reports 0 errors, and 0 warnings for a plain go build (version '$plainv'); $(echo "$broken" | wc -l) errors on a deliberately broken copy"

# --- 4. pre-commit
pc=$cache/pre-commit-4.7.0
if [ ! -x "$pc/bin/pre-commit" ]; then
  echo "== installing pre-commit==4.7.0 (PyPI) into $pc"
  rm -rf "$pc" && python3 -m venv "$pc" && "$pc/bin/pip" install -q pre-commit==4.7.0
fi
hooks=$work/hooks-repo && mkdir -p "$hooks"
cp "$repo/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" init -q && git -C "$hooks" add . && git -C "$hooks" -c user.email=t@t -c user.name=t commit -qm hooks
proj=$work/proj && mkdir -p "$proj/docs"
cat >"$proj/calc.go" <<'EOF'
package calc

// Sum adds.
func Sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}
EOF
printf '# Calc\n\nSum adds every number.\n<!-- @code function Sum calc.go -->\n' >"$proj/docs/calc.md"
cat >"$proj/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $hooks
    rev: $(git -C "$hooks" rev-parse HEAD)
    hooks:
      - id: clew-verify-check
EOF
g() { git -C "$proj" -c user.email=t@t -c user.name=t "$@"; }
g init -q
export PRE_COMMIT_HOME=$work/pre-commit-home PATH=$installed:$PATH
(cd "$proj" && "$pc/bin/pre-commit" install >/dev/null)
"$installed/clew-lsp" confirm --dir "$proj" docs/calc.md >/dev/null
g add -A && g commit -qm clean >"$work/pc-clean.log" 2>&1 || { cat "$work/pc-clean.log"; fail "a clean commit was refused"; }
grep -q "clew-lsp verify --check.*Passed" "$work/pc-clean.log" || fail "the hook did not run on the clean commit: $(cat "$work/pc-clean.log")"
ok "pre-commit: a commit with fresh anchors passes clew-verify-check"
sed -i 's/total += x/total += 2 * x/' "$proj/calc.go"
g add -A
if g commit -qm stale >"$work/pc-stale.log" 2>&1; then fail "a commit leaving an anchor stale was accepted"; fi
grep -q "Failed" "$work/pc-stale.log" && grep -q "stale .*function Sum (calc.go) — code changed since it was reviewed" "$work/pc-stale.log" ||
  fail "the refusal does not say why: $(cat "$work/pc-stale.log")"
[ "$(g rev-list --count HEAD)" = 1 ] || fail "the stale commit landed"
git -C "$proj" diff --cached --quiet && fail "the hook unstaged the change"
ok "pre-commit: a commit leaving docs/calc.md's anchor stale is refused with the reason"

echo "$pass passed, 0 failed"
