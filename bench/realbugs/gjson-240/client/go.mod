module example.com/realbugs/gjson-240

go 1.22

require github.com/tidwall/gjson v1.9.3

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
)
