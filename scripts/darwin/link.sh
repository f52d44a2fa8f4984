#!/usr/bin/env bash
# The external linker of the darwin builds (go build -ldflags=-extld=…):
#
#   scripts/darwin/link.sh ZIG TRIPLE <the linker arguments Go passes>
#
# runs `ZIG cc -target TRIPLE` with each `-framework NAME` and `-lNAME`
# kept once. Go passes `-framework CoreFoundation` twice (two packages ask
# for it); Apple's ld drops the repeat, zig's Mach-O linker writes a second
# LC_LOAD_DYLIB for it, and recent macOS refuses to launch a binary that
# names one library twice ("duplicate linked dylib").
set -euo pipefail
zig=$1 triple=$2
shift 2
args=() seen=" "
while [ $# -gt 0 ]; do
  case $1 in
    -framework)
      if [[ $seen != *" fw:$2 "* ]]; then args+=("$1" "$2"); seen+="fw:$2 "; fi
      shift 2 ;;
    -l*)
      if [[ $seen != *" $1 "* ]]; then args+=("$1"); seen+="$1 "; fi
      shift ;;
    *) args+=("$1"); shift ;;
  esac
done
exec "$zig" cc -target "$triple" "${args[@]}"
