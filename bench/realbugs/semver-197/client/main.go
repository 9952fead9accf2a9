// Command client checks a version (the second argument) against a
// constraint (the first) and prints whether it satisfies it, or the
// constraint's error.
package main

import (
	"fmt"
	"os"

	"github.com/Masterminds/semver/v3"
)

func main() {
	c, err := semver.NewConstraint(os.Args[1])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	v, err := semver.NewVersion(os.Args[2])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(c.Check(v))
}
