module github.com/wynot/wynot/bench/crashers/hcl-v1

go 1.26.0

require github.com/hashicorp/hcl v1.0.0
