package util

import "os"

// Read reads a file, or returns "" when it cannot.
func Read(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(b)
}
