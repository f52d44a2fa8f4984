#!/usr/bin/env bash
# The full release matrix, built and exercised (slow: five cross builds,
# Wine and QEMU; not part of .ci/test, which releases the native target only):
#
#   scripts/release-check.sh [VERSION] [OUT]
#
# 1. scripts/release.sh VERSION (all targets, VSIX when the packaging
#    script exists) into OUT;
# 2. every archive is checked against SHA256SUMS and unpacked;
# 3. linux-amd64 runs `version` and `verify --check --json examples/tour`;
#    linux-arm64 does the same under qemu-aarch64-static and windows-amd64
#    under Wine (also on a CRLF copy of the tour); each JSON must equal the
#    native one (elapsed time and bytes read aside);
# 4. the darwin binaries are checked to be Mach-O for their CPU (they cannot
#    run on Linux), arm64 with a code signature;
# 5. `go install ./cmd/clew-lsp` from a clean, empty module cache.
# Prints a table: target, compiler, archive size, how it was exercised.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-0.0.0-check}
out=${2:-$repo/dist/$version}
. "$repo/scripts/toolchain.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
start=$(date +%s)

apt_need qemu-user-static wine64 zip unzip gcc-mingw-w64-x86-64 >&2
bash "$repo/scripts/release.sh" "$version" --out "$out"
(cd "$out" && sha256sum -c SHA256SUMS) >&2 || fail "SHA256SUMS"

unpack() { # target → path of its binary
  local os=${1%-*} arch=${1#*-} name
  name=clew-lsp_${version}_${os}_${arch}
  mkdir -p "$work/$1"
  if [ "$os" = windows ]; then unzip -q "$out/$name.zip" -d "$work/$1"; echo "$work/$1/$name/clew-lsp.exe"
  else tar -xzf "$out/$name.tar.gz" -C "$work/$1"; echo "$work/$1/$name/clew-lsp"; fi
}
normalize() { tr -d '\r' | sed -E 's/"(elapsed_ms|bytes_read)": [0-9]+//'; }

declare -A how
# verify_as TARGET RUNNER...: version and the tour's JSON through a runner.
verify_as() {
  local t=$1; shift
  local v
  v=$("$@" version | tr -d '\r')
  [ "$v" = "clew-lsp $version" ] || fail "$t version says '$v'"
  (cd "$repo" && "$@" verify --check --json examples/tour || [ $? = 1 ]) | normalize >"$work/$t.json"
  cmp -s "$work/native.json" "$work/$t.json" || { diff "$work/native.json" "$work/$t.json" | head; fail "$t: JSON differs from native"; }
}

native=$(unpack linux-amd64)
(cd "$repo" && "$native" verify --check --json examples/tour || [ $? = 1 ]) | normalize >"$work/native.json"
grep -q '"state": "stale"' "$work/native.json" || fail "native verify found no stale anchor in the tour"
verify_as linux-amd64 "$native"
how[linux-amd64]="ran version + verify --check --json examples/tour natively"

arm=$(unpack linux-arm64)
verify_as linux-arm64 qemu-aarch64-static -L /usr/aarch64-linux-gnu "$arm"
how[linux-arm64]="qemu-aarch64-static: version + tour JSON equal to native"

win=$(unpack windows-amd64)
export WINEPREFIX=$release_cache/wineprefix WINEDEBUG=-all
mkdir -p "$WINEPREFIX"
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine)
"$wine" cmd /c exit >/dev/null 2>&1 || true # creates the prefix
shim=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
x86_64-w64-mingw32-gcc -shared -O2 -o "$work/bcryptprimitives.dll" "$repo/scripts/wine/bcryptprimitives.c" \
  "$repo/scripts/wine/bcryptprimitives.def" -lbcrypt
cp "$work/bcryptprimitives.dll" "$shim"
verify_as windows-amd64 "$wine" "$win"
# A CRLF checkout (git's core.autocrlf=true on Windows): same verdicts.
cp -r "$repo/examples/tour" "$work/crlf" && find "$work/crlf" -type f -exec sed -i 's/$/\r/' {} +
(cd "$work" && "$wine" "$win" verify --check --json crlf || [ $? = 1 ]) | normalize >"$work/crlf.json"
cmp -s "$work/native.json" "$work/crlf.json" || { diff "$work/native.json" "$work/crlf.json" | head; fail "CRLF tour under Wine differs"; }
how[windows-amd64]="Wine $("$wine" --version 2>/dev/null | tr -d '\r'): version + tour JSON equal to native, also on a CRLF copy"

for t in darwin-amd64 darwin-arm64; do
  if [ ! -f "$out/clew-lsp_${version}_${t%-*}_${t#*-}.tar.gz" ]; then how[$t]="not built (does not link yet; see README)"; continue; fi
  b=$(unpack $t)
  python3 - "$b" "$t" <<'EOF'
import struct, sys
path, target = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
magic, cpu = struct.unpack_from("<II", data, 0)
assert magic == 0xFEEDFACF, "not a 64-bit Mach-O: magic %#x" % magic
want = {"darwin-amd64": 0x01000007, "darwin-arm64": 0x0100000C}[target]
assert cpu == want, "cputype %#x, want %#x" % (cpu, want)
filetype, ncmds = struct.unpack_from("<III", data, 8)[1:]
off, cmds = 32, set()
for _ in range(ncmds):
    cmd, size = struct.unpack_from("<II", data, off)
    cmds.add(cmd)
    off += size
assert filetype == 2, "not an executable"
assert 0x80000028 in cmds, "no LC_MAIN"
if target == "darwin-arm64":
    assert 0x1D in cmds, "arm64 binary without LC_CODE_SIGNATURE: macOS would kill it"
print("%s: Mach-O executable, cputype %#x, %d load commands%s" % (target, cpu, ncmds, ", signed" if 0x1D in cmds else ""))
EOF
  how[$t]="Mach-O checked ($(file -b "$b" | cut -d, -f1-2)); cannot run on Linux"
done

# go install from a clean module cache (modules from the Go proxy; the
# build cache is kept, so this proves resolution and cgo, not compile time).
mc=$(mktemp -d)
(cd "$repo" && GOMODCACHE=$mc GOFLAGS=-mod=mod GOBIN=$work/gobin go install ./cmd/clew-lsp) || fail "go install from a clean module cache"
"$work/gobin/clew-lsp" version >/dev/null
GOMODCACHE=$mc go clean -modcache || rm -rf "$mc"

echo
echo "release $version in $out, $(($(date +%s) - start)) s"
printf '| %s | %s | %s | %s |\n' target compiler size exercised
printf '| --- | --- | --- | --- |\n'
for t in linux-amd64 linux-arm64 windows-amd64 darwin-amd64 darwin-arm64; do
  f=$(ls "$out"/clew-lsp_"${version}"_"${t%-*}"_"${t#*-}".* 2>/dev/null | head -1)
  [ -n "$f" ] || { printf '| %s | - | - | %s |\n' "$t" "${how[$t]}"; continue; }
  cc=$(target_cc "$t" 2>/dev/null | sed "s|$release_cache/zig-$zig_version/||")
  printf '| %s | `%s` | %s (%s bytes) | %s |\n' "$t" "$cc" "$(basename "$f")" "$(stat -c %s "$f")" "${how[$t]}"
done
for v in "$out"/*.vsix; do [ -f "$v" ] && echo "VSIX $(basename "$v"): $(stat -c %s "$v") bytes"; done
echo "go install ./cmd/clew-lsp from an empty module cache: ok"
