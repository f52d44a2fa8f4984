package devcontext

import (
	"cmp"
	"fmt"
	"maps"
	mrand "math/rand"
	"math/rand/v2"
	"path"
	"runtime"
	"slices"
	"strings"
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

// TestSortURIKeysIsTheSort: the eight-bytes-at-a-time sort orders URIs as
// string comparison does, whatever their lengths, shared prefixes and
// bytes (NULs and 0xff at and past a chunk's end, prefixes of each
// other, empty ones), repeats in index order.
func TestSortURIKeysIsTheSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte{0, 1, 'a', 'b', 0x7f, 0x80, 0xff}
	for round := range 300 {
		n := r.IntN(400)
		if round%50 == 0 {
			n = 5000
		}
		prefix := strings.Repeat("clew://symbol/net/", r.IntN(3))
		keys := make([]uriKey, n)
		for i := range keys {
			b := []byte(prefix[:r.IntN(len(prefix)+1)])
			for range r.IntN(20) {
				b = append(b, alphabet[r.IntN(len(alphabet))])
			}
			keys[i] = uriKey{string(b), i}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, func(a, b uriKey) int { return cmp.Or(strings.Compare(a.uri, b.uri), a.i-b.i) })
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		if sortURIKeys(keys); !slices.Equal(keys, want) {
			t.Fatalf("round %d, %d keys: the order differs from the sort's", round, n)
		}
	}
}

// TestRepeatedEdgesAreOneEdge: a world whose edges repeat (with other
// gating and strengths, and repeated changed_in past its limit) indexes
// to the arcs of the world with each edge once — gating if any copy
// gates, the strongest copy's strength.
func TestRepeatedEdgesAreOneEdge(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	strengths := []float64{0, 0.2, 0.5, 0.9, 1, 1.5}
	for seed := int64(1); seed <= 60; seed++ {
		w := genWorld(mrand.New(mrand.NewSource(seed)), 5+int(seed%40))
		for i := 0; i < 12; i++ { // a symbol changed in many commits, some twice
			c := fmt.Sprintf("clew://commit/%040d", i)
			w.Nodes = append(w.Nodes, Node{URI: c, Kind: KindCommit, Version: fmt.Sprintf("2024-01-%02dT00:00:00Z", 1+r.IntN(28))})
			w.Edges = append(w.Edges, Edge{Kind: EdgeChangedIn, From: w.Nodes[0].URI, To: c})
		}
		for i := range w.Edges {
			w.Edges[i].Strength = strengths[r.IntN(len(strengths))]
			w.Edges[i].Gating = r.IntN(4) == 0
		}
		type key struct{ kind, from, to string }
		once := map[key]int{}
		var dedup []Edge
		eff := func(s float64) float64 {
			if s <= 0 || s > 1 {
				return 1
			}
			return s
		}
		rep := slices.Clone(w.Edges)
		for _, i := range r.Perm(len(w.Edges))[:len(w.Edges)/2] {
			e := w.Edges[i]
			e.Gating = r.IntN(2) == 0
			e.Strength = strengths[r.IntN(len(strengths))]
			rep = append(rep, e)
		}
		for _, e := range rep {
			k := key{e.Kind, e.From, e.To}
			if at, ok := once[k]; ok {
				dedup[at].Gating = dedup[at].Gating || e.Gating
				dedup[at].Strength = max(eff(dedup[at].Strength), eff(e.Strength))
				continue
			}
			once[k] = len(dedup)
			e.Strength = eff(e.Strength)
			dedup = append(dedup, e)
		}
		if len(dedup) == len(rep) {
			t.Fatalf("world %d: nothing repeats", seed)
		}
		a, b := w, w
		a.Edges = rep
		b.Edges = dedup
		ia, ib := newIndex(&a), newIndex(&b)
		if !slices.Equal(ia.ids, ib.ids) {
			t.Fatalf("world %d: ids differ", seed)
		}
		for id := range ia.arcs {
			if !slices.Equal(ia.arcs[id], ib.arcs[id]) {
				t.Fatalf("world %d, %s: arcs %+v, once each %+v", seed, ia.ids[id], ia.arcs[id], ib.arcs[id])
			}
		}
	}
}

// TestLargeWorldIndexesAsOneCore: a world large enough for the two-core
// paths (sort halves, the URI map beside the paths' declarations) indexes
// as it does on one core: the same ids, URI map, declarations per path,
// aliases and arcs. (Run with -race, it also checks the two cores share
// nothing they write.)
func TestLargeWorldIndexesAsOneCore(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core")
	}
	r := rand.New(rand.NewPCG(5, 6))
	var w World
	for i := 0; i < 3000; i++ {
		w.Nodes = append(w.Nodes, Node{URI: FileURI(fmt.Sprintf("p%d/f%d.go", i%97, i)), Kind: KindFile, Path: fmt.Sprintf("p%d/f%d.go", i%97, i)})
	}
	var shared []*Node
	for i := 0; i < 20000; i++ {
		p := fmt.Sprintf("p%d/f%d.go", r.IntN(97), r.IntN(3000))
		n := &Node{URI: SymbolURI("m/"+path.Dir(p), fmt.Sprintf("F%d", r.IntN(15000))), Kind: pick2(r, KindSymbol, KindTest), Path: p}
		if r.IntN(50) == 0 {
			n.Aliases = []string{fmt.Sprintf("clew://symbol/alias%d", r.IntN(100))}
		}
		shared = append(shared, n)
		if r.IntN(3) == 0 {
			w.Edges = append(w.Edges, Edge{Kind: EdgeCalls, From: n.URI, To: SymbolURI("m/p1", fmt.Sprintf("F%d", r.IntN(15000)))})
		}
	}
	w.Shared = shared
	two := newIndex(&w)
	prev := runtime.GOMAXPROCS(1)
	one := newIndex(&w)
	runtime.GOMAXPROCS(prev)
	if len(two.ids) < 1<<14 {
		t.Fatalf("%d ids: the world is too small for the two-core path", len(two.ids))
	}
	if !slices.Equal(one.ids, two.ids) || !maps.Equal(one.byURI, two.byURI) || !maps.Equal(one.alias, two.alias) ||
		!maps.EqualFunc(one.decls, two.decls, slices.Equal) || len(one.arcs) != len(two.arcs) || len(one.diags) != len(two.diags) {
		t.Fatal("the two-core index differs from the one-core index")
	}
	for id := range one.arcs {
		if !slices.Equal(one.arcs[id], two.arcs[id]) {
			t.Fatalf("arcs of %s differ", one.ids[id])
		}
	}
}

func pick2(r *rand.Rand, a, b string) string {
	if r.IntN(4) == 0 {
		return b
	}
	return a
}
