package contextmap_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// A one-shot command's context (contextmap.PartialChecks: the anchors'
// hinted files parsed partially, as verify does) is byte for byte the
// answer a whole-table check gives: on the example tour (a stale passage)
// after an edit that breaks one more anchor, and on a generated module
// with 200 pinned anchors, one of them broken, from several seeds each.
func TestPartialChecksAnswerAsWholeTables(t *testing.T) {
	tour := tourRepo(t)
	// One more anchor broken: its method renamed.
	p := filepath.Join(tour.Dir, "resolver", "resolve.go")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bytes.Replace(src, []byte("func (c *Cache) Lookup("), []byte("func (c *Cache) Find("), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	gen := genContextRepo(t, 200)
	// Two anchors broken: a function renamed, another moved to a new file.
	gp := filepath.Join(gen.Dir, "pkg", "p0", "f1.go")
	gsrc, err := os.ReadFile(gp)
	if err != nil {
		t.Fatal(err)
	}
	gsrc = bytes.Replace(gsrc, []byte("func Compute1_0("), []byte("func Compute1_0x("), 1)
	if err := os.WriteFile(gp, gsrc, 0o644); err != nil {
		t.Fatal(err)
	}
	staleSeen := false
	for _, w := range []struct {
		dir   string
		files []string
	}{
		{tour.Dir, []string{"resolver/resolve.go", "resolver/rank.go", "resolver/text.go", "web/src/badge.ts"}},
		{gen.Dir, []string{"pkg/p0/f1.go", "pkg/p1/f31.go", "pkg/p3/f91.go"}},
	} {
		for _, f := range w.files {
			if _, err := os.Stat(filepath.Join(w.dir, f)); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, line := range []int{3, 8, 12} {
				req := at(f, line)
				answer := func(partial bool) []byte {
					snap, err := disk.Load(w.dir)
					if err != nil {
						t.Fatal(err)
					}
					if partial {
						contextmap.PartialChecks(snap)
					}
					c := compile(t, snap, req)
					b, err := devcontext.Encode(c)
					if err != nil {
						t.Fatal(err)
					}
					return b
				}
				whole, part := answer(false), answer(true)
				staleSeen = staleSeen || bytes.Contains(whole, []byte(`"`+devcontext.ReasonStale+`"`))
				if !bytes.Equal(whole, part) {
					t.Errorf("%s:%d: the answers differ (%d and %d bytes)", f, line, len(whole), len(part))
				}
			}
		}
	}
	if !staleSeen {
		t.Error("no answer excluded a stale passage: the anchors' states were not compared")
	}
}
