#!/bin/sh
# The test of the release example, for wynot changes: build the app
# (a version that does not build is unresolved: exit 125), then run it.
go build -o app.bin ./cmd/app || exit 125
exec ./app.bin
