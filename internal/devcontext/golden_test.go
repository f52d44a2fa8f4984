package devcontext

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it); got:\n%s", path, got)
	}
}

// The tour with the cursor inside Server.Initialize: once with the default
// budget (everything reached fits) and once with a tight one (first fit,
// budget exclusions). The Markdown is the projection of the same value.
func TestGoldenTour(t *testing.T) {
	tr := newTour()
	local := tr.b.Local("internal/lsp/server.go", Range{StartLine: 50, EndLine: 52})
	tr.b.Get(local).Text = "@@ -50,3 +50,3 @@\n-\ts.ws, err = workspace.Load(ctx, root)\n+\ts.ws, err = workspace.Load(ctx, root, workspace.Lazy())\n"
	tr.b.Overlay("internal/lsp/server.go", "package lsp // being edited")
	tr.b.Get(tr.adr2).Cites = []Cite{{Commit: "1111111111111111111111111111111111111111", Covers: "lazy indexing"}}
	w := tr.world()
	for _, g := range []struct {
		name string
		req  Request
	}{
		{"tour-initialize", Request{Position: &Position{Path: "internal/lsp/server.go", Line: 50}, Intent: "workspace load"}},
		{"tour-initialize-budget-300", Request{Position: &Position{Path: "internal/lsp/server.go", Line: 50}, BudgetTokens: budget(300)}},
	} {
		t.Run(g.name, func(t *testing.T) {
			c := mustCompile(t, w, g.req)
			golden(t, g.name+".json", mustJSON(t, c))
			golden(t, g.name+".md", []byte(Markdown(c, Texts(w))))
		})
	}
	golden(t, "policy.json", mustJSON(t, Policy()))
	ex, err := Explain(w, tr.adr1, Request{Position: &Position{Path: "internal/lsp/server.go", Line: 50}})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "explain-adr-0001.json", mustJSON(t, ex))
}
