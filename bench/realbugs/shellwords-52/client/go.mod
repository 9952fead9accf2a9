module example.com/realbugs/shellwords-52

go 1.22

require github.com/mattn/go-shellwords v1.0.12
