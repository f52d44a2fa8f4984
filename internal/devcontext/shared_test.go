package devcontext

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"
)

// TestSharedNodesAreNodes: a world whose nodes are split between Nodes and
// Shared (some by pointer, shuffled, with nil entries) compiles and
// explains as the same world with every node in Nodes, and nothing is
// written through the shared pointers — compiling twice over two worlds
// that share the same nodes gives the same answer, and the shared nodes
// equal their copies taken before.
func TestSharedNodesAreNodes(t *testing.T) {
	for seed := int64(0); seed <= 120; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var w World
		var seedURI string
		keep := 3 // one in keep nodes stays in Nodes
		if seed == 0 {
			w, seedURI = staleDocWorld() // a doc Prepare redacts, every node shared
			if probe, _ := staleDocWorld(); len(Prepare(probe).redacted) == 0 {
				t.Fatal("the stale doc is not redacted: the test checks no write")
			}
		} else {
			w = genWorld(rng, 5+rng.Intn(60))
		}
		var split World = w
		split.Nodes = nil
		var shared []*Node
		for i := range w.Nodes {
			n := w.Nodes[i] // a copy: w stays the reference
			if rng.Intn(keep) == 0 && seed != 0 {
				split.Nodes = append(split.Nodes, n)
				continue
			}
			shared = append(shared, &n)
			if rng.Intn(10) == 0 {
				shared = append(shared, nil)
			}
		}
		rng.Shuffle(len(shared), func(i, j int) { shared[i], shared[j] = shared[j], shared[i] })
		split.Shared = shared
		before := make([]Node, 0, len(shared))
		for _, n := range shared {
			if n != nil {
				before = append(before, *n)
			}
		}
		for k := 0; k < 3; k++ {
			r := genRequest(rng, w)
			if seed == 0 {
				r = Request{URIs: []string{seedURI}}
			}
			want, err := Compile(w, r)
			if err != nil {
				t.Fatalf("world %d request %d: %v", seed, k, err)
			}
			p := Prepare(split)
			got, err := p.Compile(r)
			if err != nil {
				t.Fatalf("world %d request %d (shared): %v", seed, k, err)
			}
			if !bytes.Equal(mustJSON(t, want), mustJSON(t, got)) {
				t.Fatalf("world %d request %d: shared nodes change the answer", seed, k)
			}
			uri := w.Nodes[rng.Intn(len(w.Nodes))].URI
			we, err1 := Explain(w, uri, r)
			ge, err2 := p.Explain(uri, r)
			if (err1 == nil) != (err2 == nil) || !bytes.Equal(mustJSON(t, we), mustJSON(t, ge)) {
				t.Fatalf("world %d request %d: Explain(%s) differs with shared nodes", seed, k, uri)
			}
			for _, e := range got.Selected {
				if p.Text(e.URI) != Prepare(w).Text(e.URI) {
					t.Fatalf("world %d: Text(%s) differs with shared nodes", seed, e.URI)
				}
			}
		}
		after := make([]Node, 0, len(shared))
		for _, n := range shared {
			if n != nil {
				after = append(after, *n)
			}
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("world %d: a shared node was written", seed)
		}
	}
}

// staleDocWorld is a doc with a stale passage, selected whole for F: its
// Prepared text is redacted.
func staleDocWorld() (World, string) {
	b := NewBuilder("m")
	b.File("a/a.go", "package a\n\nfunc F() {}\n\nfunc G() {}\n")
	f := b.Symbol("a/a.go", "F", 3, 3, "func F() {}")
	g := b.Symbol("a/a.go", "G", 5, 5, "func G() {}")
	fresh, stale := "## F\n\nF is fresh.\n", "## G\n\nG returns forty-two.\n"
	b.Doc("docs/d.md", "# Doc\n\n"+fresh+"\n"+stale)
	b.Passage("docs/d.md", "F", 1, f, AnchorFresh, fresh)
	b.Passage("docs/d.md", "G", 1, g, AnchorStale, stale)
	return b.Build(), f
}
