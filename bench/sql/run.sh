#!/bin/sh
# Reduces chinook.sql with test.sh side by side: wynot reduce (auto, its
# SQL predictions on), wynot reduce --typecheck=false (every candidate
# that parses is tested), and C-Vise (--not-c), one test at a time each.
# Prints a Markdown table: tests (every run of test.sh, counted by a
# wrapper), seconds (wall time), the result's bytes and lines, and
# whether the result still fails test.sh with Debian's sqlite3.
#
# Usage: bench/sql/run.sh [WYNOT] (default: go run ./cmd/wynot, built once)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wynot=${1:-}
if [ -z "$wynot" ]; then
  mkdir "$work/bin"
  wynot=$work/bin/wynot
  (cd "$root" && go build -o "$wynot" ./cmd/wynot)
fi
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)" >&2; exit 1; }
# The wrapper counts each run of the test in the file its environment names.
cat > "$work/counted.sh" <<EOT
#!/bin/sh
echo >> "\$WYNOT_BENCH_COUNT"
exec sh "$here/test.sh" "\$@"
EOT
chmod +x "$work/counted.sh"
echo "sqlite3 $(sqlite3 --version | cut -d' ' -f1), $(cvise --version 2>/dev/null | head -1), $(nproc) CPUs, $(date -u +%F)"
echo
echo "| tool | tests | seconds | bytes | lines | result fails |"
echo "|---|---:|---:|---:|---:|---|"
printf '| (original) | | | %s | %s | %s |\n' "$(wc -c < "$here/chinook.sql")" "$(wc -l < "$here/chinook.sql")" \
  "$(cd "$work" && cp "$here/chinook.sql" . && sh "$here/test.sh" >/dev/null 2>&1 && echo yes || echo NO)"
run() {
  name=$1; shift
  d=$work/$name
  mkdir -p "$d"
  cp "$here/chinook.sql" "$d/"
  : > "$d/count"
  start=$(date +%s.%N)
  (cd "$d" && WYNOT_BENCH_COUNT=$d/count "$@" > "$d/log" 2>&1) || echo "$name: exit $? (log: $d/log)" >&2
  end=$(date +%s.%N)
  fails=$(cd "$d" && mkdir -p check && cp chinook.sql check/ && cd check && sh "$here/test.sh" >/dev/null 2>&1 && echo yes || echo NO)
  printf '| %s | %s | %.1f | %s | %s | %s |\n' "$name" "$(wc -l < "$d/count")" "$(echo "$end - $start" | bc)" \
    "$(wc -c < "$d/chinook.sql")" "$(wc -l < "$d/chinook.sql")" "$fails"
  cp "$d/chinook.sql" "$root/bench/sql/result-$name.sql" 2>/dev/null || true
}
run wynot "$wynot" reduce -j 1 --test "$work/counted.sh" chinook.sql
run wynot-typecheck-false "$wynot" reduce -j 1 --typecheck=false --test "$work/counted.sh" chinook.sql
run cvise cvise --n 1 --not-c --tidy "$work/counted.sh" chinook.sql
