package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestContextStalePassageNotShownInItsDoc: in the tour, the context inside
// Cache.Lookup selects docs/architecture.md whole; the sentence of its
// stale Cache.Lookup passage must reach neither the Markdown nor the JSON,
// while the passage is listed under excluded as stale.
func TestContextStalePassageNotShownInItsDoc(t *testing.T) {
	r := wstest.New(t)
	r.CopyFrom(filepath.Join("..", "..", "examples", "tour"))
	r.Commit("tour")
	const sentence = "A hit increments the counter by one."
	line := 0
	for i, l := range strings.Split(r.Read("resolver/resolve.go"), "\n") {
		if strings.Contains(l, "c.hits += 2") {
			line = i + 1
		}
	}
	if line == 0 || !strings.Contains(r.Read("docs/architecture.md"), sentence) {
		t.Fatal("the tour changed: the test would prove nothing")
	}
	at := fmt.Sprintf("resolver/resolve.go:%d", line)
	md, errOut, code := runCLI(t, "context", "--dir", r.Dir, "--markdown", at)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := devcontext.DocURI("docs/architecture.md")
	stale := devcontext.PassageURI("docs/architecture.md", "Cache.Lookup", 1)
	if !strings.Contains(md, "`"+doc+"` · doc") {
		t.Fatalf("the doc is not selected whole:\n%s", md)
	}
	if strings.Contains(md, sentence) {
		t.Fatalf("the stale passage's sentence is in the Markdown:\n%s", md)
	}
	if !strings.Contains(md, "left out: stale — body_changed; see excluded]") ||
		!strings.Contains(md[strings.Index(md, "## Excluded"):], "| `"+stale+"` | decision | stale |") {
		t.Fatalf("no marker, or the passage is not listed as stale:\n%s", md)
	}
	js, _, code := runCLI(t, "context", "--dir", r.Dir, at)
	var c devcontext.CompiledContext
	if code != 0 || json.Unmarshal([]byte(js), &c) != nil || strings.Contains(js, sentence) {
		t.Fatalf("json (exit %d):\n%s", code, js)
	}
}
