#!/bin/sh
# Measures what the README's first command ("Try it") costs a reader:
#
#   go run ./cmd/wynot reduce -o reduced.html examples/page.html -- go -C "$PWD" run ./examples/printer
#
# cold (empty module and build caches: every module is downloaded and
# every package built, the tree-sitter grammars' C included, and the
# test's printer too) and warm (the same command again), for the default
# build (cgo, where a C compiler is found) and for CGO_ENABLED=0. The
# result goes to a temporary directory, not into the repository.
#
# Prints a Markdown table: wall seconds; when the last line of the go
# command came ("go: downloading …", as modules are fetched) and the
# first line of wynot's own output (in between, the build says
# nothing); the longest time without any output; the result
# (its bytes, and whether it is the README's <SELECT>); and the load
# average just before the run (uptime: 1, 5, 15 minutes), since on a
# shared machine the numbers are indicative.
#
# Usage: bench/coldstart/run.sh (needs the Go module proxy: the cold runs
# download every module into a temporary GOMODCACHE)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
# The module cache is read-only unless -modcacherw; make sure it goes.
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

now() { date +%s.%N; }
# stamp prefixes each line of its input with the time it arrived.
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(now)" "$line"; done; }

echo "$(go version | cut -d' ' -f3-), $(nproc) CPUs, $(date -u +%F), default CGO_ENABLED=$(cd "$root" && go env CGO_ENABLED)"
echo
echo "| build | run | seconds | last go: line at | first wynot: line at | longest silence | result | load before |"
echo "|---|---|---:|---:|---:|---:|---|---|"
for build in default CGO_ENABLED=0; do
  d=$work/$(echo "$build" | tr -c 'a-zA-Z0-9\n' _)
  mkdir -p "$d/mod" "$d/cache"
  for run in cold warm; do
    load=$(uptime | sed 's/.*load average: //')
    out=$d/$run.html
    start=$(now)
    # The command as the README has it, in the repository's root, with
    # this build's caches (go -C "$PWD" run inherits them).
    {
      if (
        cd "$root"
        export GOMODCACHE="$d/mod" GOCACHE="$d/cache" GOFLAGS="${GOFLAGS:-} -modcacherw"
        if [ "$build" = CGO_ENABLED=0 ]; then export CGO_ENABLED=0; fi
        go run ./cmd/wynot reduce -o "$out" examples/page.html -- go -C "$PWD" run ./examples/printer
      ) 2>&1; then
        echo "exit 0" >"$d/$run.status"
      else
        echo "exit $?" >"$d/$run.status"
      fi
    } | stamp >"$d/$run.log"
    end=$(now)
    # Times relative to the start: the first line wynot itself wrote,
    # and the longest gap between lines (the start and the end count as
    # lines).
    lastgo=$(awk -v s="$start" '$2 == "go:" { t = $1 - s } END { if (t != "") printf "%.1f", t }' "$d/$run.log")
    first=$(awk -v s="$start" '$2 == "wynot:" { printf "%.1f", $1 - s; exit }' "$d/$run.log")
    silence=$(awk -v s="$start" -v e="$end" '{ if ($1 - s > m) m = $1 - s; s = $1 } END { if (e - s > m) m = e - s; printf "%.1f", m }' "$d/$run.log")
    if [ -f "$out" ]; then
      result="$(wc -c <"$out") bytes"
      [ "$(cat "$out")" = "<SELECT>" ] && result="$result, <SELECT>"
    else
      result="none ($(cat "$d/$run.status"); log on stderr)"
      sed 's/^[0-9.]* /    /' "$d/$run.log" | tail -20 >&2
    fi
    printf '| %s | %s | %.1f | %s | %s | %s | %s | %s |\n' "$build" "$run" "$(echo "$end - $start" | bc)" \
      "${lastgo:--}" "${first:--}" "$silence" "$result" "$load"
  done
done
