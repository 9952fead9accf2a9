module example.com/realbugs/humanize-106

go 1.22

require github.com/dustin/go-humanize v1.0.0
