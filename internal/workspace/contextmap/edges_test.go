package contextmap

import (
	"container/list"
	"context"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
)

// TestEdgeIsOneEdgeHoweverKeyed: an edge drawn by URIs while an end was
// dangling, again after that end became a node, and again between the
// declarations themselves is one edge (gating if any copy gates), as when
// edges were keyed by their URIs; different ends or kinds stay apart, and
// the edges stay in the order they were first drawn (oneEdgeEach). An
// edge says which nodes its ends are (devcontext.Edge.FromNode, ToNode)
// where they were nodes.
func TestEdgeIsOneEdgeHoweverKeyed(t *testing.T) {
	b := &ctxBase{contents: &cxContents{m: map[cxContentKey]*list.Element{}}}
	w := newWorldBuilder(context.Background(), nil, b, 3, 0.1)
	a := &cxDecl{uri: "clew://symbol/m/p.A"}
	g := &cxDecl{uri: "clew://symbol/m/p.G"}
	w.edge(devcontext.EdgeCalls, a.uri, g.uri)             // both dangling
	w.edgeGating(devcontext.EdgeCalls, a.uri, g.uri, true) // again: gating
	a.node = len(w.nodes)
	w.add(&devcontext.Node{URI: a.uri, Kind: devcontext.KindSymbol}, a, 0)
	w.edge(devcontext.EdgeCalls, a.uri, g.uri) // one end a node now
	g.node = len(w.nodes)
	w.add(&devcontext.Node{URI: g.uri, Kind: devcontext.KindSymbol}, g, 0)
	w.declEdge(devcontext.EdgeCalls, a, g) // both nodes, by declaration
	w.edge(devcontext.EdgeCalls, a.uri, g.uri)
	w.declEdge(devcontext.EdgeUsesType, a, g) // another kind
	w.declEdge(devcontext.EdgeCalls, g, a)    // the other way
	w.edge(devcontext.EdgeCalls, a.uri, "clew://symbol/m/p.H")
	w.declEdge(devcontext.EdgeCalls, a, a)    // a loop: no edge
	w.declEdge(devcontext.EdgeUsesType, a, g) // the other kind again
	w.oneEdgeEach()
	// The node hints (1 + the node's index) are those of the ends that
	// were nodes when the edge was first drawn: a dangling end has none.
	want := []devcontext.Edge{
		{Kind: devcontext.EdgeCalls, From: a.uri, To: g.uri, Gating: true},
		{Kind: devcontext.EdgeUsesType, From: a.uri, To: g.uri, FromNode: 1, ToNode: 2},
		{Kind: devcontext.EdgeCalls, From: g.uri, To: a.uri, FromNode: 2, ToNode: 1},
		{Kind: devcontext.EdgeCalls, From: a.uri, To: "clew://symbol/m/p.H", FromNode: 1},
	}
	if len(w.edges) != len(want) {
		t.Fatalf("edges %+v, want %+v", w.edges, want)
	}
	for i := range want {
		if w.edges[i] != want[i] {
			t.Fatalf("edge %d = %+v, want %+v", i, w.edges[i], want[i])
		}
	}
}
