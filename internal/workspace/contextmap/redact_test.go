package contextmap_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// TestContextTourStalePassageLeftOutOfItsDoc compiles inside Cache.Lookup
// in examples/tour, whose doc is selected whole: the stale passage's
// sentence is in no selected text and not in the Markdown, a marker stands
// in its place, it is listed as stale, and the doc's cost is that of the
// text shown.
func TestContextTourStalePassageLeftOutOfItsDoc(t *testing.T) {
	r := tourRepo(t)
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	const sentence = "A hit increments the counter by one."
	if b, _ := snap.ReadFile("docs/architecture.md"); !strings.Contains(string(b), sentence) {
		t.Fatalf("the tour's doc no longer holds %q: the test would prove nothing", sentence)
	}
	doc := devcontext.DocURI("docs/architecture.md")
	stale := devcontext.PassageURI("docs/architecture.md", "Cache.Lookup", 1)
	line := lineOf(t, snap, "resolver/resolve.go", "c.hits += 2")
	req := devcontext.Request{Position: &devcontext.Position{Path: "resolver/resolve.go", Line: line}}
	md, c, err := contextmap.Markdown(context.Background(), snap, req)
	if err != nil {
		t.Fatal(err)
	}
	if entry(c, doc) == nil {
		t.Fatalf("the doc is not selected whole; selected %v", c.Selected)
	}
	if x := excluded(c, stale); x == nil || x.Reason != devcontext.ReasonStale {
		t.Fatalf("stale passage not listed as stale: %+v", x)
	}
	if strings.Contains(md, sentence) {
		t.Fatal("the stale passage's sentence reaches the Markdown")
	}
	if !strings.Contains(md, `[passage "The cache (stale: its body changed)" left out: stale — body_changed; see excluded]`) {
		t.Fatal("no marker in the doc's place of the stale passage")
	}
	texts, err := contextmap.Texts(context.Background(), snap, req, c)
	if err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for _, e := range c.Selected {
		sum += e.CostTokens
		if strings.Contains(texts[e.URI], sentence) {
			t.Fatalf("%s's text holds the stale sentence", e.URI)
		}
	}
	if sum != c.Budget.UsedTokens {
		t.Fatalf("used %d != Σ selected %d", c.Budget.UsedTokens, sum)
	}
	if got, want := entry(c, doc).CostTokens, devcontext.TokensFor(len(texts[doc])); got != want {
		t.Fatalf("doc costs %d tokens, its shown text %d", got, want)
	}
	again, _ := contextmap.Compile(context.Background(), snap, req)
	if again.Fingerprint != c.Fingerprint || len(again.Excluded) != len(c.Excluded) {
		t.Fatal("the same request answered differently")
	}
}
