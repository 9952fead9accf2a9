module example.com/realbugs/duration-35

go 1.22

require github.com/sosodev/duration v1.3.1
