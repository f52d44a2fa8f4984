#!/usr/bin/env bash
# Writes text-based library stubs (.tbd) for what a darwin clew-lsp binary
# imports from macOS besides libSystem, so `zig cc` can link it on Linux:
#
#   scripts/darwin/stubs.sh <amd64|arm64> OUTDIR
#
# zig ships libSystem's stub but no SDK frameworks, while Go's standard
# library imports a few symbols from CoreFoundation, Security (crypto/x509's
# root store) and libresolv (the DNS resolver). Go declares each of them
# with a `//go:cgo_import_dynamic local symbol "install-name"` directive;
# this script reads those directives from the packages the binary is built
# from (go list -deps for the target) and writes, per library, a stub that
# names its real install path and exports exactly those symbols:
#
#   OUTDIR/Frameworks/CoreFoundation.framework/CoreFoundation.tbd  (-F OUTDIR/Frameworks)
#   OUTDIR/lib/libresolv.tbd                                       (-L OUTDIR/lib)
#
# A stub holds no code: the macOS loader binds the symbols to the system's
# real libraries at run time. A symbol missing here makes the link fail
# with "undefined symbol", so the stubs cannot silently drift from Go.
set -euo pipefail
[ $# = 2 ] || { echo "usage: scripts/darwin/stubs.sh <amd64|arm64> OUTDIR" >&2; exit 2; }
arch=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
case $arch in amd64) tbdarch=x86_64 ;; arm64) tbdarch=arm64 ;; *) echo "stubs.sh: unknown arch $arch" >&2; exit 2 ;; esac

# "dir file file…" per package, for the darwin build of the command.
files=$(cd "$repo" && GOOS=darwin GOARCH=$arch CGO_ENABLED=1 \
  go list -deps -f '{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .CgoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}' ./cmd/clew-lsp)

# "install-name symbol" for every dynamic import outside libSystem.
imports=$(echo "$files" | xargs grep -h '^//go:cgo_import_dynamic [^ ]* [^ ]* "' |
  awk '{ lib = $4; gsub(/"/, "", lib); if (lib != "/usr/lib/libSystem.B.dylib") print lib, $3 }' | LC_ALL=C sort -u)
[ -n "$imports" ] || { echo "stubs.sh: found no dynamic imports outside libSystem (go list failed?)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/Frameworks" "$out/lib"
for lib in $(echo "$imports" | awk '{print $1}' | uniq); do
  case $lib in
    /System/Library/Frameworks/*.framework/*)
      name=${lib#/System/Library/Frameworks/}; name=${name%%.framework/*}
      mkdir -p "$out/Frameworks/$name.framework"
      stub=$out/Frameworks/$name.framework/$name.tbd ;;
    /usr/lib/lib*.dylib)
      name=${lib#/usr/lib/}; name=${name%%.*}
      stub=$out/lib/$name.tbd ;;
    *) echo "stubs.sh: do not know where to put a stub for $lib" >&2; exit 1 ;;
  esac
  syms=$(echo "$imports" | awk -v l="$lib" '$1 == l { printf "%s_%s", sep, $2; sep = ", " }')
  cat >"$stub" <<TBD
--- !tapi-tbd
tbd-version:     4
targets:         [ $tbdarch-macos ]
install-name:    '$lib'
exports:
  - targets:     [ $tbdarch-macos ]
    symbols:     [ $syms ]
...
TBD
  echo "stub $stub: $(echo "$imports" | awk -v l="$lib" '$1 == l' | wc -l) symbols" >&2
done
