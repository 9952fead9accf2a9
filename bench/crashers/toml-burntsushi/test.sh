#!/bin/sh
# Interestingness test in C-Reduce's convention: exit 0 when the program
# (built by ../build.sh) panics on the candidate as it does on input.toml.
# The candidate is $1, else input.toml in the current directory.
[ -z "$BENCH_COUNTER" ] || echo >> "$BENCH_COUNTER"
prog=${CRASHERS_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/wynot-crashers}/toml-burntsushi
f=${1:-input.toml}
out=$(timeout 10 "$prog" < "$f" 2>&1 >/dev/null)
[ $? = 2 ] || exit 1
case $out in
"panic: runtime error: slice bounds out of range ["*"BurntSushi/toml.lexMultilineString("*) exit 0 ;;
esac
exit 1
