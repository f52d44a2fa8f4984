#!/usr/bin/env bash
# The action's install step: puts clew-lsp on the job's PATH. It downloads
# the release archive for the runner (RUNNER_OS, RUNNER_ARCH) and checks it
# against the release's SHA256SUMS; with no release to download it builds
# the action's own source with Go (cgo: a C compiler is needed).
#   INPUT_VERSION     release to install ("" → the action's tag, CLEW_ACTION_REF)
#   CLEW_RELEASE_URL  where releases live (default: the GitHub releases of clew-lsp)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=${RUNNER_TEMP:-$(mktemp -d)}/clew-lsp-bin
mkdir -p "$bin"

version=${INPUT_VERSION:-}
if [ -z "$version" ] && [[ ${CLEW_ACTION_REF:-} =~ ^v?[0-9]+\.[0-9]+\.[0-9]+ ]]; then
  version=$CLEW_ACTION_REF
fi
version=${version#v}

case ${RUNNER_OS:-Linux} in
  Linux) os=linux ext=tar.gz ;; macOS) os=darwin ext=tar.gz ;; Windows) os=windows ext=zip ;;
  *) echo "::error title=clew-lsp::unsupported runner OS ${RUNNER_OS}"; exit 2 ;;
esac
case ${RUNNER_ARCH:-X64} in
  X64) arch=amd64 ;; ARM64) arch=arm64 ;;
  *) echo "::error title=clew-lsp::unsupported runner architecture ${RUNNER_ARCH}"; exit 2 ;;
esac
exe=clew-lsp
[ "$os" = windows ] && exe=clew-lsp.exe

sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }

installed=""
if [ -n "$version" ]; then
  base=${CLEW_RELEASE_URL:-https://github.com/clew-lsp/clew-lsp/releases/download}/v$version
  name=clew-lsp_${version}_${os}_${arch}
  dl=$(mktemp -d)
  if curl -fsSL -o "$dl/$name.$ext" "$base/$name.$ext" && curl -fsSL -o "$dl/SHA256SUMS" "$base/SHA256SUMS"; then
    want=$(awk -v f="$name.$ext" '$2 == f || $2 == "*" f {print $1}' "$dl/SHA256SUMS")
    got=$(sha256 "$dl/$name.$ext")
    if [ -z "$want" ] || [ "$want" != "$got" ]; then
      echo "::error title=clew-lsp::checksum mismatch for $name.$ext (SHA256SUMS says '${want:-nothing}', the download is $got); not installing it"
      exit 1
    fi
    if [ "$ext" = zip ]; then unzip -q -o "$dl/$name.$ext" -d "$dl"; else tar -xzf "$dl/$name.$ext" -C "$dl"; fi
    cp "$dl/$name/$exe" "$bin/$exe"
    chmod +x "$bin/$exe"
    installed="release $version ($name.$ext, sha256 $got)"
  else
    echo "::notice title=clew-lsp::no release $version for $os-$arch at $base; building from source"
  fi
fi
if [ -z "$installed" ]; then
  command -v go >/dev/null || { echo "::error title=clew-lsp::no release to download and no Go to build with (add actions/setup-go, or set the version input)"; exit 1; }
  (cd "$src" && CGO_ENABLED=1 go build -trimpath -ldflags "-X main.version=${version:-dev}" -o "$bin/$exe" ./cmd/clew-lsp)
  installed="built from $src with $(go version | cut -d' ' -f3)"
fi
echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
echo "clew-lsp: $installed → $bin/$exe"
"$bin/$exe" version
