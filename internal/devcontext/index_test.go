package devcontext

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortByURIIsTheSort: the two-core sort of a large world's nodes is
// the one-core sort's order (by URI, then index), duplicates included, on
// both sides of the size where it splits.
func TestSortByURIIsTheSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, 1<<14 - 1, 1 << 14, 40_001} {
		nodes := make([]*Node, n)
		for i := range nodes {
			nodes[i] = &Node{}
			nodes[i].URI = fmt.Sprintf("clew://symbol/p%d.F%d", r.IntN(50), r.IntN(n/4+1)) // many repeats
		}
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		want := slices.Clone(order)
		slices.SortFunc(want, func(a, b int) int { return cmp.Or(cmp.Compare(nodes[a].URI, nodes[b].URI), a-b) })
		if got := sortByURI(nodes, order); !slices.Equal(got, want) {
			t.Fatalf("%d nodes: the order differs from the sort's", n)
		}
	}
}
