module example.com/realbugs/strutil-82

go 1.22

require github.com/torden/go-strutil v0.1.4
