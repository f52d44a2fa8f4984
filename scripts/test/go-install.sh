#!/usr/bin/env bash
# Proves `go install github.com/clew-lsp/clew-lsp/cmd/clew-lsp@VERSION`
# works for a user with Go and a C compiler and nothing else: empty module
# and build caches, the module fetched through a module proxy.
#
#   bash scripts/test/go-install.sh [VERSION]     (default v0.0.0-installcheck)
#
# The module is served from a local file-based proxy (GOPROXY=file://…)
# made from the committed tree (HEAD) in the documented layout —
# <module>/@v/list, <version>.info, .mod and .zip, the zip's entries under
# <module>@<version>/ — followed by the machine's usual proxy for the
# dependencies, exactly as a published tag would be served. The installed
# binary must then report VERSION (from its build info: no -X flag is given).
# Slow: everything, tree-sitter's C included, compiles from scratch.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
version=${1:-v0.0.0-installcheck}
version=v${version#v}
module=$(cd "$repo" && go list -m)
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# 1. The proxy: what `git tag $version && git push` would publish.
v=$work/proxy/$module/@v
mkdir -p "$v"
echo "$version" >"$v/list"
printf '{"Version":"%s","Time":"%s"}\n' "$version" \
  "$(TZ=UTC git -C "$repo" log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd HEAD)" >"$v/$version.info"
git -C "$repo" show HEAD:go.mod >"$v/$version.mod"
git -C "$repo" archive --format=zip --prefix="$module@$version/" -o "$v/$version.zip" HEAD
echo "== proxy: $module $version ($(stat -c %s "$v/$version.zip") byte zip of $(git -C "$repo" rev-parse --short=12 HEAD))"

# 2. The install, from nothing.
real=$(go env GOPROXY)
start=$(date +%s)
(cd "$work" && env GOMODCACHE="$work/modcache" GOCACHE="$work/gocache" GOFLAGS=-modcacherw \
  GOPROXY="file://$work/proxy,$real" GONOSUMDB="$module" GOBIN="$work/bin" CGO_ENABLED=1 \
  go install "$module/cmd/clew-lsp@$version") || fail "go install $module/cmd/clew-lsp@$version"
secs=$(($(date +%s) - start))
mods=$(find "$work/modcache/cache/download" -name '*.zip' | wc -l)

# 3. The binary names the version it was installed at.
got=$("$work/bin/clew-lsp" version)
[ "$got" = "clew-lsp ${version#v}" ] || fail "the installed binary says '$got', want 'clew-lsp ${version#v}'"
(cd "$repo" && "$work/bin/clew-lsp" verify --check --json examples/tour >"$work/tour.json") || [ $? = 1 ] || fail "verify"
grep -q '"state": "stale"' "$work/tour.json" || fail "the installed binary finds no stale anchor in examples/tour"
echo "ok   go install $module/cmd/clew-lsp@$version from empty module and build caches: $secs s, $mods module zips downloaded, prints '$got'"
