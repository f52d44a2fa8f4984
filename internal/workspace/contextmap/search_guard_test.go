package contextmap_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// A call tree of fan-out 5, one function per file: the seed calls 5, each
// of those 5 more, each of those 5 more — 155 files the search must parse
// at depth 3. The former per-request cut (64 files / 1 MiB) stopped it; the
// guard that replaced it does not, and when a guard does stop a search the
// answer says so.
func TestSearchGuardDoesNotStopANormalSearch(t *testing.T) {
	r := wstest.New(t)
	files := map[string]string{"go.mod": "module example.com/tree\n\ngo 1.22\n"}
	var leaves []string
	var gen func(name string, level int)
	gen = func(name string, level int) {
		var body strings.Builder
		fmt.Fprintf(&body, "package a\n\nfunc %s(x int) int {\n", name)
		if level < 3 {
			for k := 0; k < 5; k++ {
				child := fmt.Sprintf("%s_%d", name, k)
				fmt.Fprintf(&body, "\tx += %s(x)\n", child)
				gen(child, level+1)
			}
		} else {
			leaves = append(leaves, name)
		}
		body.WriteString("\treturn x\n}\n")
		files["a/"+strings.ToLower(name)+".go"] = body.String()
	}
	gen("Root", 0)
	r.Write(files)
	r.Commit("tree")
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	req := at("a/root.go", 3)
	calls := func(t *testing.T) (map[string]bool, []devcontext.Diagnostic) {
		t.Helper()
		snap := snap.WithOverlays(nil) // a fresh base: worlds are cached per snapshot
		edges, err := contextmap.WorldEdges(context.Background(), snap, req)
		if err != nil {
			t.Fatal(err)
		}
		c, err := contextmap.Compile(context.Background(), snap, req)
		if err != nil {
			t.Fatal(err)
		}
		to := map[string]bool{}
		for _, e := range edges {
			if e.Kind == devcontext.EdgeCalls {
				to[e.To[strings.LastIndexByte(e.To, '.')+1:]] = true
			}
		}
		return to, c.Diagnostics
	}
	to, diags := calls(t)
	for _, l := range leaves {
		if !to[l] {
			t.Fatalf("no calls edge to %s: the search stopped (%v)", l, diags)
		}
	}
	for _, d := range diags {
		if d.Code == "search_truncated" {
			t.Fatalf("a normal search reported a cut: %s", d.Message)
		}
	}

	defer contextmap.SetSearchGuard(64, 1<<20)()
	to, diags = calls(t)
	missing := 0
	for _, l := range leaves {
		if !to[l] {
			missing++
		}
	}
	var cut string
	for _, d := range diags {
		if d.Code == "search_truncated" {
			cut = d.Message
		}
	}
	if missing == 0 || !strings.Contains(cut, "refused by the per-request guard of 64 files / 1 MiB") {
		t.Fatalf("under the former cut: %d of %d leaves missing, diagnostic %q", missing, len(leaves), cut)
	}
}
