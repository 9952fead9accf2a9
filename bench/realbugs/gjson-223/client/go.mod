module example.com/realbugs/gjson-223

go 1.22

require github.com/tidwall/gjson v1.8.0

require (
	github.com/tidwall/match v1.0.3 // indirect
	github.com/tidwall/pretty v1.1.0 // indirect
)
