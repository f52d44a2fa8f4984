package anchors

import (
	"math/rand"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The bounded overlap used by suggestions must decide "similar" exactly as
// the plain multiset overlap does, and give the same value when it is.
func TestOverlapAtLeastMatchesOverlap(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "c", "d", "(", ")", "x", "return"}
	list := func() []string {
		out := make([]string, rng.Intn(30))
		for i := range out {
			out[i] = words[rng.Intn(len(words))]
		}
		return out
	}
	scratch := map[string]int{}
	similar := 0
	for i := 0; i < 20000; i++ {
		a, b := list(), list()
		if rng.Intn(3) == 0 { // near-copies, so the similar side is exercised
			b = append(append([]string{}, a...), words[rng.Intn(len(words))])
		}
		want := overlap(a, b)
		got := overlapAtLeast(tokenCounts(a), len(a), symbols.PackTokens(b), BodySimilarity, scratch)
		if want >= BodySimilarity {
			similar++
			if got != want {
				t.Fatalf("overlap(%q, %q) = %v, bounded %v", a, b, want, got)
			}
		} else if got >= BodySimilarity {
			t.Fatalf("overlap(%q, %q) = %v < %v, bounded says %v", a, b, want, BodySimilarity, got)
		}
	}
	if similar < 1000 {
		t.Fatalf("only %d similar pairs drawn", similar)
	}
}
