#!/bin/sh
# Reproduces a wrong result of SQLite 3.40.1 (Debian bookworm's sqlite3):
# "x IN ((SELECT ...))", a subquery in excess parentheses, is read as a
# scalar subquery (its first row only) instead of the subquery's rows.
# SQLite 3.41.0 reads it as PostgreSQL does (release notes of 3.41.0,
# https://sqlite.org/releaselog/3_41_0.html: "The parser now ignores
# excess parentheses around a subquery on the right-hand side of an IN
# operator"). Exit 0 when the failure occurs, 1 when it does not.
#
# The script is run three times with sqlite3 -bail, which must succeed
# each time: as it is; with its "IN ((" written "IN  ((" (the same query,
# so the output must not change: it would, were the match inside a
# string); and with "IN ((" written "IN (SELECT * FROM (" (the subquery's
# rows, as SQLite 3.41 reads it). The failure is a difference between
# the first output and the third.
f=${1:-chinook.sql}
run() { sqlite3 -bail -batch :memory: < "$1" 2>&1; }
out=$(run "$f") || exit 1
sed -E 's/([Ii][Nn])[[:space:]]*\(\(/\1  ((/g' "$f" > same.sql
same=$(run same.sql) || exit 1
[ "$out" = "$same" ] || exit 1
sed -E 's/([Ii][Nn])[[:space:]]*\(\(/\1 (SELECT * FROM (/g' "$f" > fixed.sql
fixed=$(run fixed.sql) || exit 1
[ "$out" != "$fixed" ]
