module github.com/wynot/wynot/bench/crashers/yaml-v3

go 1.26.0

require gopkg.in/yaml.v3 v3.0.1
