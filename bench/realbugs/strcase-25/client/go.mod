module example.com/realbugs/strcase-25

go 1.22

require github.com/iancoleman/strcase v0.1.0
