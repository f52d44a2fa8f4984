# Sourced by scripts/build.sh and the release scripts: which C compiler
# builds which target, installed on demand into caches outside the clone.

release_cache=${XDG_CACHE_HOME:-$HOME/.cache}/clew-release
zig_version=0.17.0

say() { echo "== $*" >&2; }

# apt_need PKG...: installs Debian packages when missing (as root only).
apt_need() {
  local missing=() p
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "scripts/build.sh: missing Debian packages: ${missing[*]} (apt-get install them, or run as root)" >&2
    return 1
  fi
  say "installing ${missing[*]} (apt)"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# zig_bin: prints the path of the zig binary of the pinned PyPI ziglang
# package, installing it into a venv in the cache on first use.
zig_bin() {
  local venv=$release_cache/zig-$zig_version
  if [ ! -x "$venv/zig" ]; then
    say "installing ziglang==$zig_version (PyPI) into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv/venv" >&2
    "$venv/venv/bin/pip" install -q "ziglang==$zig_version" >&2
    # A stable path to the binary, independent of the venv's python version.
    ln -s "$("$venv/venv/bin/python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))')/zig" "$venv/zig"
  fi
  echo "$venv/zig"
}

# darwin_triple OS-ARCH: zig's target for a darwin build. The deployment
# target is macOS 12, the oldest the Go toolchain supports (and what Go's own
# linker writes); zig would otherwise stamp its newest SDK's version.
darwin_triple() {
  case $1 in darwin-amd64) echo x86_64-macos.12.0 ;; darwin-arm64) echo aarch64-macos.12.0 ;; esac
}

# target_linkflags OS-ARCH: prints -ldflags words for the external link.
# darwin: zig has no macOS SDK frameworks, so scripts/darwin/stubs.sh writes
# stubs of the libraries Go imports (see there) into a fixed cache path, and
# scripts/darwin/link.sh links with zig, each library named once. Both reach
# only the link step, so the cgo compile cache stays warm.
target_linkflags() {
  case $1 in
    darwin-amd64 | darwin-arm64)
      local dir=$release_cache/darwin-stubs/${1#*-} here zig
      here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
      zig=$(zig_bin) || return 1
      bash "$here/darwin/stubs.sh" "${1#*-}" "$dir" || return 1
      echo "'-extld=bash $here/darwin/link.sh $zig $(darwin_triple "$1")' '-extldflags=-F$dir/Frameworks -L$dir/lib'" ;;
  esac
}

# vsce_target OS-ARCH: the VS Code platform name of a target.
vsce_target() {
  case $1 in
    linux-amd64) echo linux-x64 ;; linux-arm64) echo linux-arm64 ;; windows-amd64) echo win32-x64 ;;
    darwin-amd64) echo darwin-x64 ;; darwin-arm64) echo darwin-arm64 ;;
  esac
}

# target_cc OS-ARCH: prints the CC value for cgo (it may hold arguments).
target_cc() {
  case $1 in
    linux-amd64)
      if [ "$(uname -m)" = x86_64 ]; then echo gcc; else apt_need gcc-x86-64-linux-gnu && echo x86_64-linux-gnu-gcc; fi ;;
    linux-arm64)
      if [ "$(uname -m)" = aarch64 ]; then echo gcc; else apt_need gcc-aarch64-linux-gnu libc6-dev-arm64-cross && echo aarch64-linux-gnu-gcc; fi ;;
    windows-amd64)
      apt_need gcc-mingw-w64-x86-64 && echo x86_64-w64-mingw32-gcc ;;
    darwin-amd64 | darwin-arm64)
      local zig
      zig=$(zig_bin) || return 1
      echo "$zig cc -target $(darwin_triple "$1")" ;;
    *)
      echo "scripts/build.sh: unknown target $1 (linux-amd64 linux-arm64 windows-amd64 darwin-amd64 darwin-arm64)" >&2
      return 1 ;;
  esac
}
