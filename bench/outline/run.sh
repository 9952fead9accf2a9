#!/bin/sh
# wynot changes on a change set of SQL: the old tree is the schema and
# rows of bench/sql/chinook.sql (its lines 1-388, schema.sql), the new one
# adds reports.sql (its lines 389-516: three views, a table made by a
# query and fifteen reports), one of which makes sqlite3 3.40.1 give a
# wrong result (bench/sql/README.md). test.sh fails when it does.
#
# Runs each wynot given (default: this tree's, built once) and prints a
# Markdown table: tests, seconds, the patch's lines and what it holds.
# An added file of a language whose declarations wynot outlines is
# refined into them; before, it was one change.
#
# Usage: bench/outline/run.sh [NAME=WYNOT ...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)" >&2; exit 1; }
if [ $# -eq 0 ]; then
  (cd "$root" && go build -o "$work/wynot" ./cmd/wynot)
  set -- "this=$work/wynot"
fi
mkdir "$work/old" "$work/new"
sed -n 1,388p "$root/bench/sql/chinook.sql" > "$work/old/schema.sql"
cp "$work/old/schema.sql" "$work/new/schema.sql"
sed -n 389,516p "$root/bench/sql/chinook.sql" > "$work/new/reports.sql"
echo "sqlite3 $(sqlite3 --version | cut -d' ' -f1), $(nproc) CPUs, $(date -u +%F)"
echo
echo "| wynot | tests | seconds | patch lines (not blank) | statements in the patch |"
echo "|---|---:|---:|---:|---:|"
for nb in "$@"; do
  name=${nb%%=*} bin=${nb#*=}
  start=$(date +%s.%N)
  (cd "$work" && "$bin" changes --json -j2 -o "$work/$name.patch" old new -- sh "$here/test.sh" {} > "$work/$name.json" 2> "$work/$name.err") || {
    echo "$name: wynot failed:" >&2; cat "$work/$name.err" >&2; exit 1; }
  end=$(date +%s.%N)
  tests=$(sed -n 's/.*"tests": *\([0-9]*\).*/\1/p' "$work/$name.json" | head -1)
  lines=$(grep -c '^+[^+]' "$work/$name.patch")
  stmts=$(grep '^+[^+]' "$work/$name.patch" | grep -c ';$')
  printf '| %s | %s | %.1f | %s | %s |\n' "$name" "$tests" "$(echo "$end - $start" | bc)" "$lines" "$stmts"
done
