module github.com/wynot/wynot/bench/crashers/toml-burntsushi

go 1.26.0

require github.com/BurntSushi/toml v1.0.0
