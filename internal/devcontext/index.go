package devcontext

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
)

// index is a World prepared for compiling: nodes by URI, and the followed
// edges as arcs in both directions. Dangling endpoints get an id without a
// node ("ghosts"), so the walk can report them as unresolved. It depends on
// the world only, is read-only once built, and is shared by every compile
// of a Prepared world.
type index struct {
	ids   []string       // node URIs (sorted), then ghost URIs (sorted)
	nodes []*Node        // nil for ghosts
	byURI map[string]int // id of every URI
	alias map[string]int // alias → node id (first, in URI order)
	arcs  [][]arc        // per id: by edge kind, forward first, then other id
	kinds map[string][]int
	// decls are the symbol and test nodes of each path: symbols first,
	// each kind in id order (what the outline pass and skeletons walk).
	decls map[string][]int
	diags []Diagnostic
}

// arc is one edge seen from one end.
type arc struct {
	rule    *edgeRule
	other   int
	forward bool // true: this end is the edge's From
	gating  bool
	scale   float64 // a measured edge's strength; 1 otherwise
}

func (a arc) weight() float64 {
	w := a.rule.reverse
	if a.forward {
		w = a.rule.forward
	}
	if a.rule.measured {
		w = round3(w * a.scale)
	}
	return w
}

func (a arc) why() string {
	if a.forward {
		return a.rule.fwdWhy
	}
	return a.rule.revWhy
}

func newIndex(w *World) *index {
	all := make([]*Node, 0, len(w.Nodes)+len(w.Shared))
	for i := range w.Nodes {
		all = append(all, &w.Nodes[i])
	}
	for _, n := range w.Shared {
		if n != nil {
			all = append(all, n)
		}
	}
	ix := &index{byURI: make(map[string]int, len(all)), alias: map[string]int{}, kinds: map[string][]int{}}
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	// With duplicate URIs the first in the world wins (the index tie-break
	// makes the sort stable) and the others are reported: that is the
	// workspace layer's bug to fix, not a reason to fail.
	order = sortByURI(all, order)
	ix.ids = make([]string, 0, len(order))
	ix.nodes = make([]*Node, 0, len(order))
	var lastKind string
	var kindIDs *[]int
	var aliased []int // ids of the nodes with aliases, in id order
	for _, i := range order {
		n := all[i]
		if n.URI == "" {
			ix.diags = append(ix.diags, Diagnostic{Severity: SeverityWarning, Code: CodeDuplicateNode, Path: n.Path, Message: "a node without a uri was ignored"})
			continue
		}
		if len(ix.ids) > 0 && ix.ids[len(ix.ids)-1] == n.URI { // sorted: a duplicate follows its first
			ix.diags = append(ix.diags, Diagnostic{Severity: SeverityWarning, Code: CodeDuplicateNode, Path: n.Path, Message: n.URI + " is declared twice; the first declaration is used"})
			continue
		}
		id := len(ix.ids)
		ix.byURI[n.URI] = id
		ix.ids = append(ix.ids, n.URI)
		ix.nodes = append(ix.nodes, n)
		if len(n.Aliases) > 0 {
			aliased = append(aliased, id)
		}
		if n.Kind != lastKind || kindIDs == nil { // URI order groups a kind's nodes
			if kindIDs != nil {
				ix.kinds[lastKind] = *kindIDs
			}
			lastKind = n.Kind
			ids := ix.kinds[n.Kind]
			kindIDs = &ids
		}
		*kindIDs = append(*kindIDs, id)
	}
	if kindIDs != nil {
		ix.kinds[lastKind] = *kindIDs
	}
	for _, id := range aliased {
		for _, a := range ix.nodes[id].Aliases {
			if _, taken := ix.byURI[a]; taken {
				continue
			}
			if _, taken := ix.alias[a]; !taken {
				ix.alias[a] = id
			}
		}
	}
	ix.decls = map[string][]int{}
	for _, k := range []string{KindSymbol, KindTest} {
		var last string
		var ids []int
		flush := func() {
			if ids != nil {
				ix.decls[last] = ids
			}
		}
		for _, id := range ix.kinds[k] { // a path's declarations are mostly neighbours in URI order
			if p := ix.nodes[id].Path; p != last || ids == nil {
				flush()
				last, ids = p, ix.decls[p]
			}
			ids = append(ids, id)
		}
		flush()
	}
	ix.addEdges(w.Edges)
	return ix
}

// hasOutlinedDecl reports whether path has a declaration with a signature
// line.
func (ix *index) hasOutlinedDecl(path string) bool {
	for _, id := range ix.decls[path] {
		if ix.nodes[id].Outline != "" {
			return true
		}
	}
	return false
}

// sortByURI sorts node indexes by URI, then index (a total order). A large
// world sorts its halves on two cores and merges them: the same order.
func sortByURI(nodes []*Node, order []int) []int {
	less := func(a, b int) int { return cmp.Or(strings.Compare(nodes[a].URI, nodes[b].URI), a-b) }
	if len(order) < 1<<14 || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(order, less)
		return order
	}
	lo, hi := order[:len(order)/2], order[len(order)/2:]
	done := make(chan struct{})
	go func() {
		slices.SortFunc(lo, less)
		close(done)
	}()
	slices.SortFunc(hi, less)
	<-done
	out := make([]int, 0, len(order))
	for len(lo) > 0 && len(hi) > 0 {
		if less(lo[0], hi[0]) < 0 {
			out, lo = append(out, lo[0]), lo[1:]
		} else {
			out, hi = append(out, hi[0]), hi[1:]
		}
	}
	return append(append(out, lo...), hi...)
}

// addEdges resolves the followed edges into arcs. Unknown and refused kinds
// are not followed; a repeated edge is one edge (gating if any copy gates).
func (ix *index) addEdges(edges []Edge) {
	// Pass 1: resolve endpoints once; -1 marks a ghost, numbered after the
	// nodes in URI order once all are known.
	type ends struct {
		rule *edgeRule
		f, t int
	}
	resolved := make([]ends, len(edges))
	var ghosts []string
	// The workspace layer lists a node's edges together (a declaration's
	// callees, a callee's callers), so an endpoint is often the last one's:
	// the same string is not looked up again.
	var lastF, lastT string
	var lf, lt int
	var lokF, lokT bool
	for i, e := range edges {
		r, ok := edgeByKind[e.Kind]
		if !ok || r.refused != "" || e.From == "" || e.To == "" || e.From == e.To {
			continue
		}
		if e.From != lastF || lastF == "" {
			lastF = e.From
			lf, lokF = ix.byURI[e.From]
		}
		if e.To != lastT || lastT == "" {
			lastT = e.To
			lt, lokT = ix.byURI[e.To]
		}
		f, okF, t, okT := lf, lokF, lt, lokT
		if !okF && !okT {
			continue // nothing of ours on either end
		}
		if !okF {
			f = -1
			ghosts = append(ghosts, e.From)
		}
		if !okT {
			t = -1
			ghosts = append(ghosts, e.To)
		}
		resolved[i] = ends{r, f, t}
	}
	slices.Sort(ghosts)
	for _, g := range slices.Compact(ghosts) {
		ix.byURI[g] = len(ix.ids)
		ix.ids = append(ix.ids, g)
		ix.nodes = append(ix.nodes, nil)
	}

	type key struct {
		rule     *edgeRule
		from, to int32
	}
	seen := make(map[key]int, len(edges)) // → position in keys
	keys := make([]key, 0, len(edges))
	var gating []bool
	var scale []float64
	strength := func(e Edge) float64 {
		if e.Strength <= 0 || e.Strength > 1 {
			return 1
		}
		return e.Strength
	}
	degree := make([]int, len(ix.ids))
	for i, e := range edges {
		en := resolved[i]
		if en.rule == nil {
			continue
		}
		if en.f < 0 {
			en.f = ix.byURI[e.From]
		}
		if en.t < 0 {
			en.t = ix.byURI[e.To]
		}
		k := key{en.rule, int32(en.f), int32(en.t)}
		if at, dup := seen[k]; dup {
			gating[at] = gating[at] || e.Gating
			scale[at] = max(scale[at], strength(e))
			continue
		}
		seen[k] = len(keys)
		keys = append(keys, k)
		gating = append(gating, e.Gating)
		scale = append(scale, strength(e))
		degree[en.f]++
		degree[en.t]++
	}
	ix.arcs = make([][]arc, len(ix.ids))
	for id, d := range degree {
		ix.arcs[id] = make([]arc, 0, d)
	}
	for i, k := range keys {
		ix.arcs[k.from] = append(ix.arcs[k.from], arc{rule: k.rule, forward: true, other: int(k.to), gating: gating[i], scale: scale[i]})
		ix.arcs[k.to] = append(ix.arcs[k.to], arc{rule: k.rule, forward: false, other: int(k.from), gating: gating[i], scale: scale[i]})
	}
	for id := range ix.arcs {
		ix.arcs[id] = ix.limitArcs(ix.arcs[id])
	}
}

// limitArcs sorts one node's arcs canonically (ids follow URI order) and
// keeps only the newest `limit` forward arcs of a limited edge kind
// (changed_in: the newest commits by declared date, then URI).
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
		return cmp.Compare(x.other, y.other)
	})
	out := as[:0]
	kept := 0
	for i, a := range as {
		if i == 0 || a.rule != as[i-1].rule || a.forward != as[i-1].forward {
			kept = 0
		}
		if a.forward && a.rule.limit > 0 && kept >= a.rule.limit {
			continue
		}
		kept++
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
