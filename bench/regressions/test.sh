#!/bin/sh
# test.sh CASE TREE: the test of a real regression, by the git bisect
# convention: build the client program of bench/regressions/CASE against
# the module's source in TREE and run it. Exit 0: it passes; 1: it
# fails (it does not compile against TREE's API, or it reports the
# regression); 125: the module in TREE does not build.
#
# Nothing in TREE is written: the client is built in a directory of its
# own, with a go.mod that replaces the module by TREE. Everything comes
# from the module cache (GOPROXY=off); bench/regressions/setup fills it.
case_dir=$(cd "$(dirname "$0")" && pwd)/$1
tree=$(cd "$2" && pwd) || exit 128
[ -z "$BENCH_COUNTER" ] || echo >> "$BENCH_COUNTER"
. "$case_dir/case"
work=$(mktemp -d) || exit 128
trap 'rm -rf "$work"' EXIT
cp -R "$case_dir/client/." "$work/"
cd "$work" || exit 128
cat > go.mod <<EOM
module client

go 1.21

require $module $new

replace $module => $tree
EOM
export GOFLAGS=-mod=mod GOPROXY=${BENCH_GOPROXY:-off} GOSUMDB=off GOTOOLCHAIN=local
go build $packages >build.log 2>&1 || { cat build.log >&2; exit 125; }
go build -o prog . >>build.log 2>&1 || { cat build.log; exit 1; }
./prog || exit 1
