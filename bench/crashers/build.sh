#!/bin/sh
# Builds the program of every case into DIR (default: $CRASHERS_BIN, else
# ~/.cache/wynot-crashers), where the cases' test.sh look for them. Each
# case is its own module, requiring the parser's buggy release, which the
# go command fetches through the module proxy.
#
# Usage: bench/crashers/build.sh [DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${CRASHERS_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/wynot-crashers}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
for d in "$here"/*/; do
  c=$(basename "$d")
  [ -f "$d/go.mod" ] || continue
  (cd "$d" && go build -o "$out/$c" .)
  echo "$out/$c"
done
