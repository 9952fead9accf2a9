package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/Masterminds/semver/v3"
)

func main() {
	var vs []*semver.Version
	for _, s := range []string{"22.04.3", "24.04.1", "23.10", "20.04"} {
		v, err := semver.NewVersion(s)
		if err != nil {
			fmt.Printf("%s: %v\n", s, err)
			os.Exit(1)
		}
		vs = append(vs, v)
	}
	sort.Sort(semver.Collection(vs))
	fmt.Println(vs)
}
