#!/bin/sh
# Interestingness test in C-Reduce's convention: exit 0 when the program
# (built by ../build.sh) panics on the candidate as it does on input.yaml.
# The candidate is $1, else input.yaml in the current directory.
[ -z "$BENCH_COUNTER" ] || echo >> "$BENCH_COUNTER"
prog=${CRASHERS_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/wynot-crashers}/yaml-v3
f=${1:-input.yaml}
out=$(timeout 10 "$prog" < "$f" 2>&1 >/dev/null)
[ $? = 2 ] || exit 1
case $out in
"panic: runtime error: hash of unhashable type "*"yaml%2ev3.(*decoder).merge("*) exit 0 ;;
esac
exit 1
