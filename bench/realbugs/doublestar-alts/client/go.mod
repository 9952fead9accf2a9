module example.com/realbugs/doublestar-alts

go 1.22

require github.com/bmatcuk/doublestar/v4 v4.0.2
