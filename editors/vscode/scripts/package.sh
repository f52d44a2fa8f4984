#!/usr/bin/env bash
# Packages the VS Code extension for one platform, with the clew-lsp binary
# for that platform inside (bin/):
#
#   editors/vscode/scripts/package.sh <target>
#     → editors/vscode/dist/clew-<version>-<target>.vsix
#
# <target> is a `vsce --target` name: linux-x64, linux-arm64, win32-x64,
# darwin-x64, darwin-arm64. The binary comes from scripts/build.sh (which
# knows each target's C cross compiler); without it only the machine's own
# target builds, with `go build`. The version is package.json's, or
# $CLEW_VERSION; the binary is stamped with the same (-X main.version).
# The extension's JavaScript is bundled by esbuild into one file. npm
# packages come from scripts/deps.sh (a cache outside the clone); the
# package is staged in a temporary folder, so the clone stays clean.
set -euo pipefail

usage() { echo "usage: editors/vscode/scripts/package.sh <linux-x64|linux-arm64|win32-x64|darwin-x64|darwin-arm64>" >&2; exit 2; }
[ $# -eq 1 ] || usage
target=$1
case "$target" in
  linux-x64) goos=linux goarch=amd64 ;;
  linux-arm64) goos=linux goarch=arm64 ;;
  win32-x64) goos=windows goarch=amd64 ;;
  darwin-x64) goos=darwin goarch=amd64 ;;
  darwin-arm64) goos=darwin goarch=arm64 ;;
  *) usage ;;
esac

ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
version=${CLEW_VERSION:-$(node -p 'require(process.argv[1]).version' "$ext/package.json")}
exe=clew-lsp
[ "$goos" = windows ] && exe=clew-lsp.exe

stage=$(mktemp -d "${TMPDIR:-/tmp}/clew-vsix.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/out" "$stage/images" "$stage/walkthrough" "$ext/dist"

# 1. The server for the target.
if [ -f "$repo/scripts/build.sh" ]; then
  bash "$repo/scripts/build.sh" "$goos-$goarch" "$stage/bin/$exe" "$version" >&2
elif [ "$goos-$goarch" = "$(go env GOOS)-$(go env GOARCH)" ]; then
  (cd "$repo" && CGO_ENABLED=1 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$stage/bin/$exe" ./cmd/clew-lsp)
else
  echo "package.sh: building clew-lsp for $goos-$goarch needs scripts/build.sh (a C cross compiler for tree-sitter)" >&2
  exit 1
fi
chmod +x "$stage/bin/$exe"

# 2. The client, bundled.
node_modules=$(bash "$ext/scripts/deps.sh")
NODE_PATH="$node_modules" "$node_modules/.bin/esbuild" "$ext/src/extension.js" --bundle --platform=node \
  --format=cjs --target=node20 --external:vscode --minify --log-level=warning --outfile="$stage/out/extension.js"

# 3. What the package shows: manifest, README, CHANGELOG, LICENSE, icon,
# walkthrough pages. The README's screenshots stay on the web (the
# repository), so the package stays small.
cp "$ext/package.json" "$ext/README.md" "$ext/CHANGELOG.md" "$stage/"
cp "$repo/LICENSE" "$stage/LICENSE"
cp "$ext/images/icon.png" "$stage/images/"
cp "$ext"/walkthrough/*.md "$stage/walkthrough/"
if [ -n "${CLEW_VERSION:-}" ]; then
  node -e 'const f=process.argv[1],p=require(f);p.version=process.argv[2];require("fs").writeFileSync(f,JSON.stringify(p,null,2)+"\n")' "$stage/package.json" "$version"
fi

out="$ext/dist/clew-$version-$target.vsix"
raw=https://github.com/clew-lsp/clew-lsp/raw/HEAD/editors/vscode
(cd "$stage" && "$node_modules/.bin/vsce" package --no-dependencies --target "$target" \
  --baseImagesUrl "$raw" --baseContentUrl https://github.com/clew-lsp/clew-lsp/blob/HEAD/editors/vscode \
  --out "$out" </dev/null >&2)
echo "$out ($(du -k "$out" | cut -f1) KiB; clew-lsp $version for $goos-$goarch)" >&2
echo "$out"
