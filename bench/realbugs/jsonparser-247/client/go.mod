module example.com/realbugs/jsonparser-247

go 1.22

require github.com/buger/jsonparser v1.1.1
