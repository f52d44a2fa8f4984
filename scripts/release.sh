#!/usr/bin/env bash
# Builds the release archives of clew-lsp VERSION:
#
#   scripts/release.sh VERSION [--out DIR] [--targets "linux-amd64 …"] [--no-vsix]
#
# For each target (default: all five, linux-amd64 linux-arm64 windows-amd64
# darwin-amd64 darwin-arm64) it builds the binary with scripts/build.sh and
# packs clew-lsp_VERSION_OS_ARCH.tar.gz (.zip for Windows) holding the
# binary, README.md and LICENSE; then the platform VSIX of each target
# through editors/vscode/scripts/package.sh when that script exists; then
# SHA256SUMS over everything. Archives are reproducible: sorted entries,
# fixed owner and a fixed time (the last commit's).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-}
case $version in
  "" | -*) echo "usage: scripts/release.sh VERSION [--out DIR] [--targets \"T…\"] [--no-vsix]" >&2; exit 2 ;;
esac
shift
version=${version#v}
out=$repo/dist/$version
targets="linux-amd64 linux-arm64 windows-amd64 darwin-amd64 darwin-arm64"
vsix=1
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --no-vsix) vsix=0; shift ;;
    *) echo "scripts/release.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
stamp=$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)
# shellcheck source=scripts/toolchain.sh
. "$repo/scripts/toolchain.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for t in $targets; do
  t0=$(date +%s)
  os=${t%-*} arch=${t#*-}
  name=clew-lsp_${version}_${os}_${arch}
  exe=clew-lsp
  [ "$os" = windows ] && exe=clew-lsp.exe
  mkdir -p "$work/$name"
  bash "$repo/scripts/build.sh" "$t" "$work/$name/$exe" "$version"
  cp "$repo/README.md" "$work/$name/"
  [ -f "$repo/LICENSE" ] && cp "$repo/LICENSE" "$work/$name/"
  find "$work/$name" -exec touch -h -d "@$stamp" {} +
  if [ "$os" = windows ]; then
    rm -f "$out/$name.zip"
    (cd "$work" && find "$name" | LC_ALL=C sort | zip -q -X -D "$out/$name.zip" -@)
  else
    tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" -cf - "$name" |
      gzip -n -9 >"$out/$name.tar.gz"
  fi
  if [ "$vsix" = 1 ] && [ -f "$repo/editors/vscode/scripts/package.sh" ]; then
    vt=$(vsce_target "$t")
    CLEW_VERSION=$version bash "$repo/editors/vscode/scripts/package.sh" "$vt"
    for v in "$repo"/editors/vscode/dist/clew-*-"$vt".vsix; do
      [ -f "$v" ] && cp "$v" "$out/"
    done
  fi
  echo "== $t: built and packed in $(($(date +%s) - t0)) s" >&2
done

(cd "$out" && rm -f SHA256SUMS && find . -maxdepth 1 -type f \( -name '*.tar.gz' -o -name '*.zip' -o -name '*.vsix' \) -printf '%f\n' |
  LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
echo "release $version in $out:"
(cd "$out" && ls -l --time-style=+ | awk 'NR>1 {print "  " $NF "  " $5 " bytes"}')
