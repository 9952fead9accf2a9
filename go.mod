module github.com/wynot/wynot

go 1.26
