#!/bin/sh
# The test of bench/outline/run.sh: fails (exit 1) when "x IN ((SELECT ...))" in the reports reads only the
# subquery's first row (SQLite 3.40.1); 125 when the script does not run.
d=${1:-.}
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
cat "$d/schema.sql" "$d"/reports.sql > "$t/all.sql" 2>/dev/null
run() { sqlite3 -bail -batch :memory: < "$1" 2>&1; }
out=$(run "$t/all.sql") || exit 125
sed -E 's/([Ii][Nn])[[:space:]]*\(\(/\1 (SELECT * FROM (/g' "$t/all.sql" > "$t/fixed.sql"
fixed=$(run "$t/fixed.sql") || exit 125
[ "$out" = "$fixed" ]
