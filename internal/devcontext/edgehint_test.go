package devcontext

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"
)

// TestEdgeHintsAreLookups: edges that say where their ends are
// (Edge.FromNode, ToNode) index as the same edges looked up by URI —
// whether the hint is right, names another node, a nil entry, a
// duplicate of the node (its first wins), or is out of range — and the
// answers and explanations are the same.
func TestEdgeHintsAreLookups(t *testing.T) {
	wrongUsed := 0
	for seed := int64(1); seed <= 150; seed++ {
		rng := rand.New(rand.NewSource(seed))
		w := genWorld(rng, 5+rng.Intn(60))
		var shared []*Node
		at := map[string][]int{} // URI → its indexes in shared
		for i := range w.Nodes {
			n := w.Nodes[i]
			shared = append(shared, &n)
			if rng.Intn(12) == 0 {
				shared = append(shared, nil)
			}
			if rng.Intn(15) == 0 { // a later duplicate: the first is the node
				d := n
				d.Title += " (duplicate)"
				shared = append(shared, &d)
			}
		}
		rng.Shuffle(len(shared), func(i, j int) { shared[i], shared[j] = shared[j], shared[i] })
		for k, n := range shared {
			if n != nil {
				at[n.URI] = append(at[n.URI], k)
			}
		}
		plain := World{Shared: shared, Edges: w.Edges, Git: w.Git, Files: w.Files}
		hinted := plain
		hinted.Edges = make([]Edge, len(w.Edges))
		hint := func(uri string) int32 {
			switch rng.Intn(6) {
			case 0:
				return 0
			case 1: // another node, or a nil entry
				wrongUsed++
				return int32(rng.Intn(len(shared))) + 1
			case 2:
				return int32(len(shared) + 1 + rng.Intn(3))
			default:
				if ks := at[uri]; len(ks) > 0 {
					return int32(ks[rng.Intn(len(ks))]) + 1
				}
				return 0
			}
		}
		for i, e := range w.Edges {
			e.FromNode, e.ToNode = hint(e.From), hint(e.To)
			hinted.Edges[i] = e
		}
		pi, hi := Prepare(plain), Prepare(hinted)
		if !reflect.DeepEqual(pi.ix.ids, hi.ix.ids) || !reflect.DeepEqual(pi.ix.arcs, hi.ix.arcs) {
			t.Fatalf("world %d: hinted edges index differently", seed)
		}
		for k := 0; k < 3; k++ {
			r := genRequest(rng, w)
			want, err1 := pi.Compile(r)
			got, err2 := hi.Compile(r)
			if (err1 == nil) != (err2 == nil) || !bytes.Equal(mustJSON(t, want), mustJSON(t, got)) {
				t.Fatalf("world %d request %d: hints change the answer", seed, k)
			}
			uri := w.Nodes[rng.Intn(len(w.Nodes))].URI
			we, err1 := pi.Explain(uri, r)
			ge, err2 := hi.Explain(uri, r)
			if (err1 == nil) != (err2 == nil) || !bytes.Equal(mustJSON(t, we), mustJSON(t, ge)) {
				t.Fatalf("world %d request %d: hints change Explain(%s)", seed, k, uri)
			}
		}
	}
	if wrongUsed == 0 {
		t.Fatal("no wrong hint was tried")
	}
}

// TestGivenFingerprintIsTheAnswers: a world that brings its fingerprint
// (World.Fingerprint) answers with it; one that does not, with its files'.
func TestGivenFingerprintIsTheAnswers(t *testing.T) {
	w, seed := staleDocWorld()
	r := Request{URIs: []string{seed}}
	if got, want := mustCompile(t, w, r).Fingerprint, Fingerprint(w.Files); got != want {
		t.Fatalf("fingerprint %s, want %s", got, want)
	}
	w.Fingerprint = "given"
	if got := mustCompile(t, w, r).Fingerprint; got != "given" {
		t.Fatalf("fingerprint %s, want the given one", got)
	}
}
