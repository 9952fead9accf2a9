module example.com/realbugs/semver-197

go 1.22

require github.com/Masterminds/semver/v3 v3.2.0
