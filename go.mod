module github.com/wynot/wynot

go 1.26

require github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82 // indirect
