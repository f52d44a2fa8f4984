package devcontext

import "testing"

// TestCursorInADocSeedsTheDoc: a cursor in a Markdown doc is outside any
// declaration, so the doc itself is the seed (required, task tier) — the
// same rule as a cursor in code outside a declaration — instead of an
// unknown target. A path no node has is still unknown.
func TestCursorInADocSeedsTheDoc(t *testing.T) {
	b := NewBuilder("example.com/m")
	doc := b.Doc("docs/guide.md", "# Guide\n\nHow the resolver works.\n")
	b.File("lib/a.go", "package lib\n")
	w := b.Build()
	c, err := Compile(w, Request{Position: &Position{Path: "docs/guide.md", Line: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Seeds) == 0 || c.Seeds[0].URI != doc || c.Seeds[0].Kind != KindDoc {
		t.Fatalf("seeds %+v, want the doc %s first", c.Seeds, doc)
	}
	e := entryOf(c, doc)
	if e == nil || !e.Required || e.Tier != TierTask {
		t.Fatalf("doc entry %+v", e)
	}
	if _, err := Compile(w, Request{Position: &Position{Path: "docs/missing.md", Line: 1}}); ExitCode(CompiledContext{}, err) != 12 {
		t.Errorf("a path nothing indexes: err %v, want exit 12", err)
	}
}
