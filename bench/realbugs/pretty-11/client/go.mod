module example.com/realbugs/pretty-11

go 1.22

require github.com/tidwall/pretty v1.0.2
