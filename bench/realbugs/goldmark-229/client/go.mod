module example.com/realbugs/goldmark-229

go 1.22

require github.com/yuin/goldmark v1.3.8
