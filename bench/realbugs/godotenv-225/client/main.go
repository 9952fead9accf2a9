// Command client parses a .env file from standard input and prints each
// variable and its value, quoted, in key order, or the parser's error.
package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/joho/godotenv"
)

func main() {
	env, err := godotenv.Parse(os.Stdin)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s=%q\n", k, env[k])
	}
}
