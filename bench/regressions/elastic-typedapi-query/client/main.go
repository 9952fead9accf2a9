package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
)

const want = `{"query":{"match_all":{}},"script":{"source":"_score * 2"}}`

// A script_score query written as the typed API of v8.17 documents it.
func main() {
	source := "_score * 2"
	q := types.ScriptScoreQuery{
		Query:  &types.Query{MatchAll: &types.MatchAllQuery{}},
		Script: types.Script{Source: &source},
	}
	b, err := json.Marshal(q)
	if err != nil {
		fmt.Println("marshal:", err)
		os.Exit(1)
	}
	fmt.Println(string(b))
	if string(b) != want {
		fmt.Println("want", want)
		os.Exit(1)
	}
}
