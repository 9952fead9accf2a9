#!/bin/sh
# Interestingness test in C-Reduce's convention: exit 0 when the program
# (built by ../build.sh) panics on the candidate as it does on input.yaml.
# The candidate is $1, else input.yaml in the current directory.
[ -z "$BENCH_COUNTER" ] || echo >> "$BENCH_COUNTER"
prog=${CRASHERS_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/wynot-crashers}/yaml-goccy
f=${1:-input.yaml}
out=$(timeout 10 "$prog" < "$f" 2>&1 >/dev/null)
[ $? = 2 ] || exit 1
case $out in
"panic: runtime error: index out of range [1] with length 1"*"goccy/go-yaml/ast.Integer("*) exit 0 ;;
esac
exit 1
