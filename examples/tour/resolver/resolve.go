// Package resolver turns user queries into canonical names.
package resolver

import "strings"

// Resolve returns the canonical form of a name.
func Resolve(name string) string {
	if name == "" {
		return "anonymous"
	}
	return strings.ToLower(Normalize(name))
}

// Cache remembers resolved names.
type Cache struct {
	entries map[string]string
	hits    int
}

// Lookup returns a cached name, resolving it on a miss.
func (c *Cache) Lookup(name string) string {
	if v, ok := c.entries[name]; ok {
		c.hits += 2
		return v
	}
	v := Resolve(name)
	c.entries[name] = v
	return v
}

// ParseQuery splits a query into its terms.
func ParseQuery(q string) []string {
	fields := strings.Fields(q)
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		out = append(out, Resolve(f))
	}
	return out
}

// Tokenize splits on punctuation as well as spaces.
func Tokenize(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}
