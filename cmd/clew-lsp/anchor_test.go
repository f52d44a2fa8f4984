package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

const cacheGo = `package cache

// Cache remembers values.
type Cache struct{ m map[string]int }

// Lookup returns a value, zero on a miss.
func (c *Cache) Lookup(k string) int {
	if v, ok := c.m[k]; ok {
		return v + 0
	}
	return -1
}
`

// TestAnchorCommandRoundTrip: the printed anchor, pasted under a passage,
// is fresh at once (pinned) or unpinned (--unpinned); a position outside
// every declaration names the nearest one and exits 1.
func TestAnchorCommandRoundTrip(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"cache/cache.go": cacheGo, "notes.txt": "plain\n"})
	r.Commit("init")

	out, errOut, code := runCLI(t, "anchor", "--dir", r.Dir, "cache/cache.go:9")
	if code != 0 {
		t.Fatalf("anchor: exit %d %s", code, errOut)
	}
	line := strings.TrimSpace(out)
	if !strings.HasPrefix(line, "<!-- @code method Cache.Lookup cache/cache.go sha=") || !strings.HasSuffix(line, " -->") {
		t.Fatalf("anchor line %q", line)
	}
	// The line of the name picks the method; column 6 of line 7 is its receiver, still the method.
	if out2, _, _ := runCLI(t, "anchor", "--dir", r.Dir, "cache/cache.go:7:6"); strings.TrimSpace(out2) != line {
		t.Errorf("column inside the method: %q, want %q", out2, line)
	}
	if out3, _, _ := runCLI(t, "anchor", "--dir", r.Dir, "cache/cache.go:4"); !strings.Contains(out3, "@code struct Cache cache/cache.go sha=") {
		t.Errorf("struct line: %q", out3)
	}
	un, _, code := runCLI(t, "anchor", "--dir", r.Dir, "--unpinned", "cache/cache.go:9")
	if code != 0 || strings.TrimSpace(un) != "<!-- @code method Cache.Lookup cache/cache.go -->" {
		t.Errorf("--unpinned: %d %q", code, un)
	}
	js, _, _ := runCLI(t, "anchor", "--dir", r.Dir, "--json", "cache/cache.go:9")
	var got map[string]any
	if err := json.Unmarshal([]byte(js), &got); err != nil || got["anchor"] != line || got["line_start"] != float64(7) || got["pinned"] != true {
		t.Errorf("--json: %v %s", err, js)
	}

	r.Write(map[string]string{"docs/a.md": "# Lookup\nA miss answers -1.\n" + line + "\n\n## Later\n" + strings.TrimSpace(un) + "\n"})
	out, _, code = runCLI(t, "verify", r.Dir, "--check")
	if code != 0 || !strings.Contains(out, "fresh") || !strings.Contains(out, "unpinned") {
		t.Fatalf("pasted anchors: exit %d\n%s", code, out)
	}

	if _, errOut, code := runCLI(t, "anchor", "--dir", r.Dir, "cache/cache.go:1"); code != 1 || !strings.Contains(errOut, "not inside a declaration; the nearest is") {
		t.Errorf("outside: %d %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "anchor", "--dir", r.Dir, "notes.txt:1"); code != 1 || !strings.Contains(errOut, "@code lines notes.txt#L") {
		t.Errorf("no grammar: %d %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "anchor", "--dir", r.Dir, "cache/cache.go:99"); code != 1 || !strings.Contains(errOut, "fewer lines") {
		t.Errorf("past the end: %d %q", code, errOut)
	}
	if _, _, code := runCLI(t, "anchor", "--dir", r.Dir, "cache/cache.go"); code != 2 {
		t.Errorf("no line: exit %d, want 2", code)
	}
}

// TestConfirmAllUnparsable: confirm --all on a doc whose anchor does not
// parse (an inverted range) prints the parse error, as verify does, and
// exits 1; the good anchor beside it is still pinned.
func TestConfirmAllUnparsable(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"cache/cache.go": cacheGo,
		"docs/a.md": "# A\n<!-- @code lines cache/cache.go#L5-L2 -->\n<!-- @code method Cache.Lookup cache/cache.go -->\n"})
	r.Commit("init")
	out, errOut, code := runCLI(t, "confirm", "--all", "--dir", r.Dir)
	if code != 1 || !strings.Contains(errOut, "docs/a.md:2: error anchor/parse: line range L5-L2") {
		t.Fatalf("confirm --all: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if !strings.Contains(out, "pinned docs/a.md:3") {
		t.Errorf("the good anchor was not pinned: %q", out)
	}
	if _, errOut, code := runCLI(t, "confirm", "--dir", r.Dir, "docs/a.md:2"); code != 1 || strings.Contains(errOut, "no anchor at") || !strings.Contains(errOut, "anchor/parse") {
		t.Errorf("confirm of the broken line: %d %q", code, errOut)
	}
	if _, _, code := runCLI(t, "confirm", "--dir", r.Dir, "docs/a.md:3"); code != 0 {
		t.Errorf("confirm of the good line alone: exit %d", code)
	}
}
