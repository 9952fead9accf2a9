// A separate module, so that the repository's go build ./... leaves the
// client out: test.sh writes the real go.mod, which requires the module
// under test from the tree being tested.
module client

go 1.21
