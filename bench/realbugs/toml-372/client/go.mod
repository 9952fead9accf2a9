module example.com/realbugs/toml-372

go 1.22

require github.com/BurntSushi/toml v1.2.1
