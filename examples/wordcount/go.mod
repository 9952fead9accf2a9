module example.com/tool

go 1.22
