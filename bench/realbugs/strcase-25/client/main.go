// Command client prints its argument in lowerCamelCase, quoted.
package main

import (
	"fmt"
	"os"

	"github.com/iancoleman/strcase"
)

func main() {
	fmt.Printf("%q\n", strcase.ToLowerCamel(os.Args[1]))
}
