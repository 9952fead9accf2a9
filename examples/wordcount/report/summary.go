package report

import (
	"fmt"
	"io"

	"example.com/tool/internal/format"
)

// Summary writes one line about n names in size bytes, and their total.
func Summary(w io.Writer, n, size, total int) {
	fmt.Fprintf(w, "%s in %s\n", format.Plural(n, "name"), format.Bytes(size))
	fmt.Fprintf(w, format.Row, "total", fmt.Sprint(total))
}
