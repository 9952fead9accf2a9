#!/bin/sh
# Interestingness test in C-Reduce's convention: exit 0 when the program
# (built by ../build.sh) panics on the candidate as it does on input.hcl.
# The candidate is $1, else input.hcl in the current directory.
[ -z "$BENCH_COUNTER" ] || echo >> "$BENCH_COUNTER"
prog=${CRASHERS_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/wynot-crashers}/hcl-v1
f=${1:-input.hcl}
out=$(timeout 10 "$prog" < "$f" 2>&1 >/dev/null)
[ $? = 2 ] || exit 1
case $out in
"panic: unquote "*" err: invalid syntax"*"hcl/token.Token.Value("*) exit 0 ;;
esac
exit 1
