module github.com/wynot/wynot/bench/crashers/toml-gotoml

go 1.26.0

require github.com/pelletier/go-toml/v2 v2.0.0-beta.3
