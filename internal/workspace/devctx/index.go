package devctx

import (
	"cmp"
	"slices"
)

// index is a World prepared for one compile: nodes by URI, and the followed
// edges as arcs in both directions. Dangling endpoints get an id without a
// node ("ghosts"), so the walk can report them as unresolved.
type index struct {
	ids   []string         // node URIs (sorted), then ghost URIs (sorted)
	nodes []*Node          // nil for ghosts
	byURI map[string]int   // id of every URI
	alias map[string]int   // alias → node id (first, in URI order)
	arcs  [][]arc          // per id, sorted
	kinds map[string][]int // node ids by kind, in URI order
	diags []Diagnostic
}

// arc is one edge seen from one end.
type arc struct {
	rule    *edgeRule
	forward bool // true: this end is the edge's From
	other   int
	gating  bool
}

func (a arc) weight() float64 {
	if a.forward {
		return a.rule.forward
	}
	return a.rule.reverse
}

func (a arc) why() string {
	if a.forward {
		return a.rule.fwdWhy
	}
	return a.rule.revWhy
}

func newIndex(w *World) *index {
	ix := &index{byURI: make(map[string]int, len(w.Nodes)), alias: map[string]int{}, kinds: map[string][]int{}}
	order := make([]int, len(w.Nodes))
	for i := range order {
		order[i] = i
	}
	// Stable sort: with duplicate URIs the first in the world wins and the
	// others are reported; that is the workspace layer's bug to fix.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(w.Nodes[a].URI, w.Nodes[b].URI) })
	for _, i := range order {
		n := &w.Nodes[i]
		if n.URI == "" {
			ix.diags = append(ix.diags, Diagnostic{Severity: SeverityWarning, Code: CodeDuplicateNode, Path: n.Path, Message: "a node without a uri was ignored"})
			continue
		}
		if _, dup := ix.byURI[n.URI]; dup {
			ix.diags = append(ix.diags, Diagnostic{Severity: SeverityWarning, Code: CodeDuplicateNode, Path: n.Path, Message: n.URI + " is declared twice; the first declaration is used"})
			continue
		}
		ix.byURI[n.URI] = len(ix.ids)
		ix.ids = append(ix.ids, n.URI)
		ix.nodes = append(ix.nodes, n)
		ix.kinds[n.Kind] = append(ix.kinds[n.Kind], len(ix.ids)-1)
	}
	for id, n := range ix.nodes {
		for _, a := range n.Aliases {
			if _, taken := ix.byURI[a]; taken {
				continue
			}
			if _, taken := ix.alias[a]; !taken {
				ix.alias[a] = id
			}
		}
	}

	// Edges: unknown or refused kinds are not followed; duplicates merge.
	type key struct{ kind, from, to string }
	gating := map[key]bool{}
	var keys []key
	var ghosts []string
	for _, e := range w.Edges {
		r, ok := edgeByKind[e.Kind]
		if !ok || r.refused != "" || e.From == "" || e.To == "" || e.From == e.To {
			continue
		}
		k := key{e.Kind, e.From, e.To}
		g, seen := gating[k]
		if !seen {
			keys = append(keys, k)
			for _, u := range []string{e.From, e.To} {
				if _, ok := ix.byURI[u]; !ok {
					ghosts = append(ghosts, u)
				}
			}
		}
		gating[k] = g || e.Gating
	}
	slices.Sort(ghosts)
	for _, g := range slices.Compact(ghosts) {
		ix.byURI[g] = len(ix.ids)
		ix.ids = append(ix.ids, g)
		ix.nodes = append(ix.nodes, nil)
	}
	ix.arcs = make([][]arc, len(ix.ids))
	for _, k := range keys {
		r := edgeByKind[k.kind]
		f, t := ix.byURI[k.from], ix.byURI[k.to]
		if ix.nodes[f] == nil && ix.nodes[t] == nil {
			continue // nothing of ours on either end
		}
		ix.arcs[f] = append(ix.arcs[f], arc{rule: r, forward: true, other: t, gating: gating[k]})
		ix.arcs[t] = append(ix.arcs[t], arc{rule: r, forward: false, other: f, gating: gating[k]})
	}
	for id := range ix.arcs {
		ix.arcs[id] = ix.limitArcs(ix.arcs[id])
	}
	return ix
}

// limitArcs sorts one node's arcs canonically and keeps only the newest
// `limit` forward arcs of a limited edge kind (changed_in: the newest
// commits by declared date, then URI).
func (ix *index) limitArcs(as []arc) []arc {
	slices.SortFunc(as, func(x, y arc) int {
		if c := cmp.Compare(x.rule.kind, y.rule.kind); c != 0 {
			return c
		}
		if x.forward != y.forward {
			if x.forward {
				return -1
			}
			return 1
		}
		if x.forward && x.rule.limit > 0 { // newest first
			if c := cmp.Compare(ix.version(y.other), ix.version(x.other)); c != 0 {
				return c
			}
		}
		return cmp.Compare(ix.ids[x.other], ix.ids[y.other])
	})
	out := as[:0]
	seen := 0
	var last *edgeRule
	for _, a := range as {
		if a.forward && a.rule.limit > 0 {
			if a.rule != last {
				last, seen = a.rule, 0
			}
			seen++
			if seen > a.rule.limit {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

func (ix *index) version(id int) string {
	if n := ix.nodes[id]; n != nil {
		return n.Version
	}
	return ""
}

// lookup finds a node by URI or alias.
func (ix *index) lookup(uri string) (id int, viaAlias bool, ok bool) {
	if id, ok := ix.byURI[uri]; ok && ix.nodes[id] != nil {
		return id, false, true
	}
	if id, ok := ix.alias[uri]; ok {
		return id, true, true
	}
	return 0, false, false
}

func (ix *index) ofKind(kind string) []int { return ix.kinds[kind] }
