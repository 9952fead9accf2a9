package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"example.com/app/internal/calc"
	"example.com/app/internal/text"
	"example.com/app/internal/version"
	"example.com/app/pkg/util"
)

func main() {
	sum := calc.F00(0) + calc.F10(0) + calc.F20(0) + calc.F30(0) + text.F00(1) + text.F10(1) + text.F20(1) + text.F30(1) + util.F00(2) + util.F10(2) + util.F20(2) + util.F30(2)
	for _, part := range strings.Split(version.Version, ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad version:", err)
			os.Exit(1)
		}
		sum += n
	}
	fmt.Println(sum)
}
