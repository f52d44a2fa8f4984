package workspace_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestMemosStayBoundedOverManyEdits: 1,000 edits, each a new version of a
// doc or of a code buffer, with every memo shrunk to 8 entries. Every memo
// stays within its size the whole time, the tables cache reaches it (so the
// edits did produce more entries than fit), and the verdicts stay those of
// a fresh check of the same buffers.
func TestMemosStayBoundedOverManyEdits(t *testing.T) {
	const limit = 8
	restore := workspace.SetMemoLimits(limit)
	defer restore()

	r := wstest.New(t)
	r.Write(map[string]string{
		"calc/sum.go":  sumGo,
		"calc/more.go": "package calc\n\n// Twice doubles.\nfunc Twice(x int) int {\n\treturn x * 2\n}\n",
		"docs/a.md":    "# A\n\n<!-- @code function Sum calc/sum.go -->\n<!-- @code function Twice calc/more.go -->\n",
	})
	r.Commit("init")
	pin(t, r, nil)
	// A lost anchor: every check runs a repository-wide pass.
	r.Write(map[string]string{"docs/a.md": r.Read("docs/a.md") + "<!-- @code function Gone calc/sum.go -->\n"})
	r.Commit("pin")
	root, _ := filepath.EvalSymlinks(r.Dir)
	sess := workspace.NewSession(disk.Loader)
	if err := sess.AddFolder(root); err != nil {
		t.Fatal(err)
	}
	doc, code := r.Read("docs/a.md"), r.Read("calc/sum.go")
	var maxSeen map[string]int
	for i := 0; i < 1000; i++ {
		over := map[string][]byte{}
		if i%2 == 0 {
			over["docs/a.md"] = []byte(doc + fmt.Sprintf("\nEdit %d.\n", i))
		} else {
			// A body change every other time: stale, then fresh again.
			body := code
			if i%4 == 1 {
				body = strings.Replace(code, "+=", "-=", 1)
			}
			over["calc/sum.go"] = []byte(body + fmt.Sprintf("\n// edit %d\n", i))
		}
		abs := map[string][]byte{}
		for rel, b := range over {
			abs[filepath.Join(root, rel)] = b
		}
		sess.SetOverlays(abs)
		snap := sess.Snapshots()[0]
		rep, err := snap.Check(context.Background(), workspace.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sizes := snap.MemoSizes()
		for k, n := range sizes {
			if k != "facts" && n > limit {
				t.Fatalf("edit %d: memo %s holds %d entries, limit %d", i, k, n, limit)
			}
		}
		maxSeen = sizes
		if i%97 == 0 || i == 999 {
			fresh, err := disk.Load(root)
			if err != nil {
				t.Fatal(err)
			}
			snapOver := map[string][]byte{}
			for _, p := range []string{"docs/a.md", "calc/sum.go"} {
				if b, ok := snap.Overlay(p); ok {
					snapOver[p] = b
				}
			}
			want, err := fresh.WithOverlays(snapOver).Check(context.Background(), workspace.CheckOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if states(rep) != states(want) {
				t.Fatalf("edit %d: session %s\nfresh %s", i, states(rep), states(want))
			}
		}
	}
	// The one doc's 500 versions: only the newest few stay parsed.
	if maxSeen["tables"] != limit || maxSeen["docs"] != workspace.DocVersions {
		t.Errorf("1,000 versions should fill the tables cache to its limit and keep %d versions of the doc: %v", workspace.DocVersions, maxSeen)
	}
	// Facts are per file on disk, bounded by the listing, not by edits.
	if maxSeen["facts"] > 3 {
		t.Errorf("facts: %d entries for 3 files", maxSeen["facts"])
	}
}
