package resolver

import "strings"

// Normalize trims and collapses inner whitespace.
func Normalize(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(s), " ")
}
