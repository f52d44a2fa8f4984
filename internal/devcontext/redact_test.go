package devcontext

import (
	"strings"
	"testing"
)

// A doc selected whole shows a marker where its stale and lost passages
// were, costs what it shows, and lists them as excluded; a fresh passage
// keeps its words. The caller's world is not changed.
func TestRedactStalePassagesOfASelectedDoc(t *testing.T) {
	b := NewBuilder("m")
	b.File("a/a.go", "package a\n\nfunc F() {}\n\nfunc G() {}\n")
	f := b.Symbol("a/a.go", "F", 3, 3, "func F() {}")
	g := b.Symbol("a/a.go", "G", 5, 5, "func G() {}")
	fresh := "## F\n\nF is fresh.\n"
	stale := "## G\n\nG returns forty-two.\n"
	lost := "## H\n\nH was removed.\n"
	text := "# Doc\n\n" + fresh + "\n" + stale + "\n" + lost
	doc := b.Doc("docs/d.md", text)
	b.Passage("docs/d.md", "F", 1, f, AnchorFresh, fresh)
	ps := b.Passage("docs/d.md", "G", 1, g, AnchorStale, stale)
	pl := b.Passage("docs/d.md", "H", 1, "", AnchorLost, lost)
	w := b.Build()
	c, err := Compile(w, Request{URIs: []string{f}})
	if err != nil {
		t.Fatal(err)
	}
	var docEntry *Entry
	var sum uint64
	for i, e := range c.Selected {
		sum += e.CostTokens
		if e.URI == doc {
			docEntry = &c.Selected[i]
		}
	}
	if docEntry == nil {
		t.Fatalf("doc not selected: %+v", c.Selected)
	}
	if sum != c.Budget.UsedTokens {
		t.Fatalf("used %d != Σ %d", c.Budget.UsedTokens, sum)
	}
	shown := Texts(w)[doc]
	if strings.Contains(shown, "forty-two") || strings.Contains(shown, "was removed") || !strings.Contains(shown, "F is fresh.") {
		t.Fatalf("shown text:\n%s", shown)
	}
	if !strings.Contains(shown, `[passage "G" left out: stale — its @code anchor is stale; see excluded]`) ||
		!strings.Contains(shown, `[passage "H" left out: unresolved — its @code anchor is lost; see excluded]`) {
		t.Fatalf("markers:\n%s", shown)
	}
	if docEntry.CostTokens != TokensFor(len(shown)) {
		t.Fatalf("doc costs %d, shown text %d", docEntry.CostTokens, TokensFor(len(shown)))
	}
	reasons := map[string]ExclusionReason{}
	for _, x := range c.Excluded {
		reasons[x.URI] = x.Reason
	}
	if reasons[ps] != ReasonStale || reasons[pl] != ReasonUnresolved {
		t.Fatalf("excluded %+v", c.Excluded)
	}
	for _, n := range w.Nodes {
		if n.URI == doc && n.Text != text {
			t.Fatal("Prepare changed the caller's world")
		}
	}
}
