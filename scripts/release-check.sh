#!/usr/bin/env bash
# The full release matrix, built and exercised (slow: five cross builds,
# Wine, QEMU and a from-scratch `go install`; not part of .ci/test, which
# releases the native target only):
#
#   scripts/release-check.sh [VERSION] [OUT]
#
# 1. scripts/release.sh VERSION (all targets, with their VSIX when the
#    packaging script exists) into OUT; every file checked against SHA256SUMS;
# 2. linux-amd64 runs `version` and `verify --check --json examples/tour`;
#    linux-arm64 does the same under qemu-aarch64-static and windows-amd64
#    under Wine, there also on a CRLF checkout (git core.autocrlf=true) of
#    the tour; each JSON must equal the native one (elapsed time and bytes
#    read aside);
# 3. the darwin binaries cannot run on Linux: scripts/darwin/machocheck
#    checks each is a Mach-O executable for its CPU and macOS 12, loading
#    libSystem and the system frameworks by their install paths, with a
#    verified code signature (required on arm64);
# 4. each VSIX carries the same binary bytes as its target's archive;
# 5. scripts/test/go-install.sh: `go install …@vVERSION` from empty caches
#    (run alongside the rest from the start).
# Ends with a Markdown table: target, C compiler, sizes, how it was exercised.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-0.0.0-check}
version=${version#v}
out=${2:-$repo/dist/$version}
. "$repo/scripts/toolchain.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
start=$(date +%s)
targets="linux-amd64 linux-arm64 windows-amd64 darwin-amd64 darwin-arm64"

apt_need qemu-user-static wine64 zip unzip gcc-mingw-w64-x86-64 >&2
# The from-scratch go install shares nothing with the rest (own empty
# caches), so it runs alongside from the start.
bash "$repo/scripts/test/go-install.sh" "v$version" >"$work/go-install.log" 2>&1 &
install_pid=$!
bash "$repo/scripts/release.sh" "$version" --out "$out" --targets "$targets" 2>&1 | tee "$work/release.log" >&2
[ "${PIPESTATUS[0]}" = 0 ] || fail "release.sh"
(cd "$out" && sha256sum -c SHA256SUMS) >&2 || fail "SHA256SUMS"
built=$(date +%s)

name_of() { echo "clew-lsp_${version}_${1%-*}_${1#*-}"; }
archive_of() { ls "$out/$(name_of "$1")".{tar.gz,zip} 2>/dev/null | head -1; }
unpack() { # target → path of its binary
  local name
  name=$(name_of "$1")
  mkdir -p "$work/$1"
  if [ "${1%-*}" = windows ]; then unzip -q "$out/$name.zip" -d "$work/$1"; echo "$work/$1/$name/clew-lsp.exe"
  else tar -xzf "$out/$name.tar.gz" -C "$work/$1"; echo "$work/$1/$name/clew-lsp"; fi
}
normalize() { tr -d '\r' | sed -E 's/"(elapsed_ms|bytes_read)": [0-9]+//'; }

declare -A how bin
# verify_as TARGET DIR RUNNER...: version, then the JSON of DIR (run from
# its parent), which must equal the native tour's.
verify_as() {
  local t=$1 dir=$2 v
  shift 2
  v=$("$@" version | tr -d '\r')
  [ "$v" = "clew-lsp $version" ] || fail "$t version says '$v'"
  (cd "$(dirname "$dir")" && "$@" verify --check --json "$(basename "$dir")" || [ $? = 1 ]) | normalize >"$work/$t.json"
  cmp -s "$work/native.json" "$work/$t.json" || { diff "$work/native.json" "$work/$t.json" | head; fail "$t: JSON differs from native"; }
}

for t in $targets; do bin[$t]=$(unpack "$t"); done

native=${bin[linux-amd64]}
(cd "$repo/examples" && "$native" verify --check --json tour || [ $? = 1 ]) | normalize >"$work/native.json"
grep -q '"state": "stale"' "$work/native.json" || fail "native verify found no stale anchor in the tour"
verify_as linux-amd64 "$repo/examples/tour" "$native"
how[linux-amd64]="native: \`version\`, \`verify --check --json examples/tour\`"

qemu=$(qemu-aarch64-static --version | head -1 | sed 's/ *(.*//')
verify_as linux-arm64 "$repo/examples/tour" qemu-aarch64-static -L /usr/aarch64-linux-gnu "${bin[linux-arm64]}"
how[linux-arm64]="$qemu (qemu-aarch64-static): \`version\` and the tour's JSON equal to native"

export WINEPREFIX=$release_cache/wineprefix WINEDEBUG=-all
mkdir -p "$WINEPREFIX"
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine)
"$wine" cmd /c exit >/dev/null 2>&1 || true # creates the prefix
# Test environment only (see the file): Wine 8.0 lacks ProcessPrng.
x86_64-w64-mingw32-gcc -shared -O2 -o "$work/bcryptprimitives.dll" "$repo/scripts/wine/bcryptprimitives.c" \
  "$repo/scripts/wine/bcryptprimitives.def" -lbcrypt
cp "$work/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
verify_as windows-amd64 "$repo/examples/tour" "$wine" "${bin[windows-amd64]}"
# A CRLF checkout, as git for Windows makes by default (core.autocrlf=true):
# the tour committed with LF, cloned with CRLF line ends in the work tree.
src=$work/tour-src && cp -r "$repo/examples/tour" "$src"
git -C "$src" init -q && git -C "$src" add -A &&
  git -C "$src" -c user.name=check -c user.email=check@example.invalid commit -q -m tour
git clone -q -c core.autocrlf=true "$src" "$work/crlf/tour"
grep -q $'\r$' "$work/crlf/tour/docs/architecture.md" || fail "the autocrlf clone has no CRLF line ends"
crlf_files=$(grep -rl $'\r$' "$work/crlf/tour" --exclude-dir=.git | wc -l)
verify_as windows-amd64-crlf "$work/crlf/tour" "$wine" "${bin[windows-amd64]}"
how[windows-amd64]="$("$wine" --version 2>/dev/null | tr -d '\r'): \`version\` and the tour's JSON equal to native, also on a CRLF checkout ($crlf_files files with CRLF)"

(cd "$repo" && go build -o "$work/machocheck" ./scripts/darwin/machocheck)
for t in darwin-amd64 darwin-arm64; do
  sig=""
  [ "$t" = darwin-arm64 ] && sig=-signed
  line=$("$work/machocheck" -arch "${t#*-}" $sig "${bin[$t]}") || fail "$t: Mach-O check"
  echo "$t: $line" >&2
  case $line in *"ad-hoc signed"*) s="ad-hoc linker signature verified" ;; *) s="unsigned" ;; esac
  how[$t]="not runnable here; Mach-O check: $(file -b "${bin[$t]}" | cut -d, -f1), macOS ≥ 12.0, libSystem + CoreFoundation, Security, libresolv by install path, $s"
done

declare -A vsix
for t in $targets; do
  vt=$(vsce_target "$t")
  v=$(ls "$out"/clew-*-"$vt".vsix 2>/dev/null | head -1)
  [ -n "$v" ] || { vsix[$t]="-"; continue; }
  exe=clew-lsp
  [ "${t%-*}" = windows ] && exe=clew-lsp.exe
  unzip -p "$v" "extension/bin/$exe" >"$work/vsix-$t" || fail "$(basename "$v") has no extension/bin/$exe"
  cmp -s "$work/vsix-$t" "${bin[$t]}" || fail "$(basename "$v") carries another binary than $(basename "$(archive_of "$t")")"
  vsix[$t]="$(basename "$v") ($(stat -c %s "$v") B)"
done
checked=$(date +%s)

wait "$install_pid" || { cat "$work/go-install.log"; fail "scripts/test/go-install.sh"; }
install_line=$(tail -1 "$work/go-install.log")
echo "$install_line" >&2
end=$(date +%s)

cc_of() { # the compiler that built a target, with its version
  local cc
  cc=$(target_cc "$1" 2>/dev/null)
  case $cc in
    *zig*) echo "zig cc $(${cc%% *} version) -target $(darwin_triple "$1")" ;;
    *) echo "$cc $($cc -dumpfullversion 2>/dev/null || $cc -dumpversion)" ;;
  esac
}
echo
echo "release $version in $out: $((end - start)) s in all (release.sh $((built - start)) s, checks $((checked - built)) s, then $((end - checked)) s more waiting for the go install that ran alongside)"
echo
echo '| target | C compiler | archive (bytes) | VSIX with the same binary (bytes) | how exercised |'
echo '| --- | --- | --- | --- | --- |'
for t in $targets; do
  f=$(archive_of "$t")
  printf '| %s | `%s` | %s (%s B) | %s | %s |\n' "$t" "$(cc_of "$t")" "$(basename "$f")" "$(stat -c %s "$f")" "${vsix[$t]}" "${how[$t]}"
done
echo
echo "$install_line"
grep '^== .* built and packed in' "$work/release.log" || true
