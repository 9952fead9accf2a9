// Package util has small helpers.
package util

import "strings"

// Words splits s into words.
func Words(s string) []string { return strings.Fields(s) }

// Count counts the words of s.
func Count(s string) map[string]int {
	m := map[string]int{}
	for _, w := range Words(s) {
		m[strings.ToLower(w)]++
	}
	return m
}
