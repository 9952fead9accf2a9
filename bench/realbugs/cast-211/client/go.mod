module example.com/realbugs/cast-211

go 1.22

require github.com/spf13/cast v1.7.0
