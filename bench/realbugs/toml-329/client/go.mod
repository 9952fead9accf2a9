module example.com/realbugs/toml-329

go 1.22

require github.com/BurntSushi/toml v1.0.0
