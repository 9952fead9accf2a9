module example.com/realbugs/go-units-26

go 1.22

require github.com/docker/go-units v0.3.2
