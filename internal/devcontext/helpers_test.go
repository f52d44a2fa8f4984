package devcontext

import (
	"encoding/json"
	"strings"
	"testing"
)

func mustCompile(t testing.TB, w World, r Request) CompiledContext {
	t.Helper()
	c, err := Compile(w, r)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return c
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := Encode(v)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return b
}

func entryOf(c CompiledContext, uri string) *Entry {
	for i := range c.Selected {
		if c.Selected[i].URI == uri {
			return &c.Selected[i]
		}
	}
	return nil
}

func excludedOfURI(c CompiledContext, uri string) *Excluded {
	for i := range c.Excluded {
		if c.Excluded[i].URI == uri {
			return &c.Excluded[i]
		}
	}
	return nil
}

func hasDiag(c CompiledContext, code, substr string) bool {
	for _, d := range c.Diagnostics {
		if d.Code == code && strings.Contains(d.Message, substr) {
			return true
		}
	}
	return false
}

// keysOf decodes JSON into a generic map so tests can assert on the wire.
func keysOf(t testing.TB, v any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(mustJSON(t, v), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func budget(n uint64) *uint64 { return &n }
