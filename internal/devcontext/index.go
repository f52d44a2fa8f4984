package devcontext

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"
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

// arc is one edge seen from one end. Its rule is an index into edgeTable,
// not a pointer: an index's arcs hold no pointer, so sorting them moves
// no pointer and the collector does not scan them.
type arc struct {
	ri      uint8 // the rule: edgeTable[ri]
	forward bool  // true: this end is the edge's From
	gating  bool
	other   int
	scale   float64 // a measured edge's strength; 1 otherwise
}

// rule is the arc's edge rule.
func (a arc) rule() *edgeRule { return &edgeTable[a.ri] }

func (a arc) weight() float64 {
	r := a.rule()
	w := r.reverse
	if a.forward {
		w = r.forward
	}
	if r.measured {
		w = round3(w * a.scale)
	}
	return w
}

func (a arc) why() string {
	if a.forward {
		return a.rule().fwdWhy
	}
	return a.rule().revWhy
}

// indexScratch is the memory newIndex works in and the index does not
// keep (the sort's keys and buffers, what it reads of each node, the
// edges' resolved ends): the next index reuses it instead of allocating
// it again, so a new world leaves that much less garbage. resolved and
// degree are zero up to their capacity when it is put back (release);
// the rest is written before it is read.
type indexScratch struct {
	all      []*Node
	sharedAt []int32
	keys     []uriKey
	meta     []nodeMeta
	idOf     []int32
	paths    []string
	perm     []int32
	ck       []chunkKey
	tmp      []int32
	merged   []uriKey
	resolved []edgeEnds
	degree   []int
}

var indexScratchPool = sync.Pool{New: func() any { return new(indexScratch) }}

// sized is s at length n (zero where s was: see indexScratch).
func sized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// release zeroes what the index used and puts it back.
func (sc *indexScratch) release() {
	// Only what is read before it is written must be zero: the edges'
	// resolved ends and the degrees (used to their length, zero past it).
	// The rest is written whole before it is read; clearing what holds
	// pointers costs a write barrier per word while the collector marks.
	clear(sc.resolved)
	clear(sc.degree)
	indexScratchPool.Put(sc)
}

func newIndex(w *World) *index {
	sc := indexScratchPool.Get().(*indexScratch)
	defer sc.release()
	all := sized(sc.all, len(w.Nodes)+len(w.Shared))[:0]
	for i := range w.Nodes {
		all = append(all, &w.Nodes[i])
	}
	// sharedAt is each Shared entry's index in all (-1: nil), for the
	// edges' node hints (Edge.FromNode, ToNode).
	sharedAt := sized(sc.sharedAt, len(w.Shared))
	for k, n := range w.Shared {
		sharedAt[k] = -1
		if n != nil {
			sharedAt[k] = int32(len(all))
			all = append(all, n)
		}
	}
	ix := &index{alias: map[string]int{}, kinds: map[string][]int{}}
	// What the passes below read of a node is read once, in the world's
	// order (the nodes lie mostly in that order in memory), not node by
	// node in URI order: a large world's nodes are scattered.
	sc.all = all
	keys := sized(sc.keys, len(all))
	meta := sized(sc.meta, len(all))
	sc.sharedAt, sc.keys, sc.meta = sharedAt, keys, meta
	for i, n := range all {
		keys[i] = uriKey{n.URI, i}
		meta[i] = nodeMeta{kind: n.Kind, path: n.Path, aliased: len(n.Aliases) > 0}
	}
	// With duplicate URIs the first in the world wins (the index tie-break
	// makes the sort stable) and the others are reported: that is the
	// workspace layer's bug to fix, not a reason to fail.
	keys = sortKeysIn(keys, sc)
	// idOf is each node's id by its index in all: a duplicate's is its
	// first's (what a lookup of its URI finds), -1 for no URI.
	idOf := sized(sc.idOf, len(all))
	sc.idOf = idOf
	ix.ids = make([]string, 0, len(keys))
	ix.nodes = make([]*Node, 0, len(keys))
	paths := sized(sc.paths, len(keys))[:0] // by id
	var lastKind string
	var kindIDs *[]int
	var aliased []int // ids of the nodes with aliases, in id order
	for _, k := range keys {
		i, uri, m := k.i, k.uri, &meta[k.i]
		if uri == "" {
			idOf[i] = -1
			ix.diags = append(ix.diags, Diagnostic{Severity: SeverityWarning, Code: CodeDuplicateNode, Path: m.path, Message: "a node without a uri was ignored"})
			continue
		}
		if len(ix.ids) > 0 && ix.ids[len(ix.ids)-1] == uri { // sorted: a duplicate follows its first
			idOf[i] = int32(len(ix.ids) - 1)
			ix.diags = append(ix.diags, Diagnostic{Severity: SeverityWarning, Code: CodeDuplicateNode, Path: m.path, Message: uri + " is declared twice; the first declaration is used"})
			continue
		}
		id := len(ix.ids)
		idOf[i] = int32(id)
		ix.ids = append(ix.ids, uri)
		ix.nodes = append(ix.nodes, all[i])
		paths = append(paths, m.path)
		if m.aliased {
			aliased = append(aliased, id)
		}
		if m.kind != lastKind || kindIDs == nil { // URI order groups a kind's nodes
			if kindIDs != nil {
				ix.kinds[lastKind] = *kindIDs
			}
			lastKind = m.kind
			ids := ix.kinds[m.kind]
			kindIDs = &ids
		}
		*kindIDs = append(*kindIDs, id)
	}
	if kindIDs != nil {
		ix.kinds[lastKind] = *kindIDs
	}
	// The URI map and the paths' declarations are independent: a large
	// world builds them on two cores.
	done := make(chan struct{})
	byURI := func() {
		ix.byURI = make(map[string]int, len(ix.ids))
		for id, u := range ix.ids {
			ix.byURI[u] = id
		}
	}
	if len(ix.ids) >= 1<<14 && runtime.GOMAXPROCS(0) >= 2 {
		go func() {
			byURI()
			close(done)
		}()
	} else {
		byURI()
		close(done)
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
			if p := paths[id]; p != last || ids == nil {
				flush()
				last, ids = p, ix.decls[p]
			}
			ids = append(ids, id)
		}
		flush()
	}
	<-done
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
	hinted := func(hint int32, uri string) (int, bool) {
		if hint <= 0 || int(hint) > len(sharedAt) {
			return 0, false
		}
		k := sharedAt[hint-1]
		if k < 0 || idOf[k] < 0 {
			return 0, false
		}
		id := int(idOf[k])
		return id, ix.ids[id] == uri
	}
	sc.paths = paths
	ix.addEdges(w.Edges, hinted, sc)
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

// sortByURI sorts node indexes by URI, then index (a total order). It
// sorts (URI, index) pairs side by side, so a comparison reads no node.
// A large world sorts its halves on two cores and merges them: the same
// order.
func sortByURI(nodes []*Node, order []int) []int {
	keys := make([]uriKey, len(order))
	for k, i := range order {
		keys[k] = uriKey{nodes[i].URI, i}
	}
	out := order[:0]
	for _, k := range sortKeysIn(keys, new(indexScratch)) {
		out = append(out, k.i)
	}
	return out
}

// uriKey is a node's URI beside its index, what the index sorts.
type uriKey struct {
	uri string
	i   int
}

// nodeMeta is what newIndex reads of a node besides its URI.
type nodeMeta struct {
	kind, path string
	aliased    bool
}

// sortKeys sorts keys by URI, then index (a total order). A large world
// sorts its halves on two cores and merges them: the same order. The
// result may be a new slice.
func sortKeys(keys []uriKey) []uriKey { return sortKeysIn(keys, new(indexScratch)) }

// sortKeysIn is sortKeys working in sc's buffers; the result is
// sc.merged. The sort moves numbers (a permutation of keys), not the
// keys: moving a string is a write barrier while the collector marks.
func sortKeysIn(keys []uriKey, sc *indexScratch) []uriKey {
	n := len(keys)
	perm := sized(sc.perm, n)
	for j := range perm {
		perm[j] = int32(j)
	}
	sc.perm = perm
	sc.ck, sc.tmp = sized(sc.ck, n), sized(sc.tmp, n)
	if n < 1<<14 || runtime.GOMAXPROCS(0) < 2 {
		sortURIPerm(keys, perm, sc.ck, sc.tmp)
	} else {
		h := n / 2
		lo, hi := perm[:h], perm[h:]
		done := make(chan struct{})
		go func() {
			sortURIPerm(keys, lo, sc.ck[:h], sc.tmp[:h])
			close(done)
		}()
		sortURIPerm(keys, hi, sc.ck[h:], sc.tmp[h:])
		<-done
		less := func(a, b int32) bool {
			if c := strings.Compare(keys[a].uri, keys[b].uri); c != 0 {
				return c < 0
			}
			return keys[a].i < keys[b].i
		}
		out := sc.tmp[:0]
		for len(lo) > 0 && len(hi) > 0 {
			if less(lo[0], hi[0]) {
				out, lo = append(out, lo[0]), lo[1:]
			} else {
				out, hi = append(out, hi[0]), hi[1:]
			}
		}
		out = append(out, lo...)
		out = append(out, hi...)
		perm, sc.perm, sc.tmp = out, out, perm
	}
	merged := sized(sc.merged, n)
	for j, p := range perm {
		merged[j] = keys[p]
	}
	sc.merged = merged
	return merged
}

// sortURIKeys sorts keys by URI, then index, sixteen bytes at a time: a
// world's URIs share long prefixes (clew://symbol/net/http.Server.), so
// comparing whole strings re-read the same bytes at every comparison.
// Each pass takes a group (keys equal up to depth), skips the prefix all
// of them share, sorts them by their next sixteen bytes as two numbers,
// with how many of them the URI has, and passes on the runs that tie and
// go on; a run that ends there holds one URI and is put in index order.
func sortURIKeys(keys []uriKey) {
	perm := make([]int32, len(keys))
	for j := range perm {
		perm[j] = int32(j)
	}
	sortURIPerm(keys, perm, make([]chunkKey, len(keys)), make([]int32, len(keys)))
	sorted := make([]uriKey, len(keys))
	for j, p := range perm {
		sorted[j] = keys[p]
	}
	copy(keys, sorted)
}

// sortURIPerm is sortURIKeys of the keys perm names, putting perm in
// their order (keys do not move); ck and tmp are buffers of len(perm),
// their contents not read.
func sortURIPerm(keys []uriKey, perm []int32, ck []chunkKey, tmp []int32) {
	if len(perm) < 2 {
		return
	}
	s := uriSorter{keys: keys, ck: ck, tmp: tmp}
	s.sort(perm, 0, 0)
}

type uriSorter struct {
	keys []uriKey
	ck   []chunkKey
	tmp  []int32
}

// chunkKey is a key's sixteen bytes from some depth (big endian, zeros
// past the end), how many of them there are (17: more follow) and its
// place.
type chunkKey struct {
	c0, c1 uint64
	n      uint32
	k      int32
}

func chunkAt(s string, depth int) (uint64, uint64, uint32) {
	rest := len(s) - depth
	if rest >= 16 {
		b := s[depth : depth+16]
		c0 := uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
			uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
		c1 := uint64(b[8])<<56 | uint64(b[9])<<48 | uint64(b[10])<<40 | uint64(b[11])<<32 |
			uint64(b[12])<<24 | uint64(b[13])<<16 | uint64(b[14])<<8 | uint64(b[15])
		return c0, c1, uint32(min(rest, 17))
	}
	var c0, c1 uint64
	for j := range rest {
		if j < 8 {
			c0 |= uint64(s[depth+j]) << (56 - 8*j)
		} else {
			c1 |= uint64(s[depth+j]) << (56 - 8*(j-8))
		}
	}
	return c0, c1, uint32(rest)
}

// sort sorts perm (at offset off of the scratch), whose keys' URIs are
// equal before depth.
func (s *uriSorter) sort(perm []int32, off, depth int) {
	keys := s.keys
	if len(perm) < 24 {
		slices.SortFunc(perm, func(a, b int32) int {
			if c := strings.Compare(keys[a].uri[depth:], keys[b].uri[depth:]); c != 0 {
				return c
			}
			return cmp.Compare(keys[a].i, keys[b].i)
		})
		return
	}
	// The prefix the group shares (each URI is read here, then at once
	// for its chunk: one cache miss).
	first := keys[perm[0]].uri[depth:]
	lcp := len(first)
	for j := 1; j < len(perm) && lcp > 0; j++ {
		u := keys[perm[j]].uri[depth:]
		n := min(lcp, len(u))
		i := 0
		for i < n && u[i] == first[i] {
			i++
		}
		lcp = i
	}
	depth += lcp
	ck := s.ck[off : off+len(perm)]
	for j, p := range perm {
		c0, c1, n := chunkAt(keys[p].uri, depth)
		ck[j] = chunkKey{c0, c1, n, int32(j)}
	}
	slices.SortFunc(ck, func(a, b chunkKey) int {
		if a.c0 != b.c0 {
			return cmp.Compare(a.c0, b.c0)
		}
		if a.c1 != b.c1 {
			return cmp.Compare(a.c1, b.c1)
		}
		return cmp.Compare(a.n, b.n)
	})
	tmp := s.tmp[off : off+len(perm)]
	for j := range ck {
		tmp[j] = perm[ck[j].k]
	}
	copy(perm, tmp)
	for lo := 0; lo < len(perm); {
		hi := lo + 1
		for hi < len(perm) && ck[hi].c0 == ck[lo].c0 && ck[hi].c1 == ck[lo].c1 && ck[hi].n == ck[lo].n {
			hi++
		}
		if hi-lo > 1 {
			if ck[lo].n == 17 {
				s.sort(perm[lo:hi], off+lo, depth+16)
			} else { // one URI: by index
				slices.SortFunc(perm[lo:hi], func(a, b int32) int { return cmp.Compare(keys[a].i, keys[b].i) })
			}
		}
		lo = hi
	}
}

// addEdges resolves the followed edges into arcs. Unknown and refused kinds
// are not followed; a repeated edge is one edge (gating if any copy gates).
// hinted is an end's node id by its hint (Edge.FromNode, ToNode), when the
// hint holds for that URI; other ends are looked up by URI.
func (ix *index) addEdges(edges []Edge, hinted func(hint int32, uri string) (int, bool), sc *indexScratch) {
	// Pass 1: resolve endpoints once; -1 marks a ghost, numbered after the
	// nodes in URI order once all are known.
	type ends = edgeEnds
	resolved := sized(sc.resolved, len(edges))
	sc.resolved = resolved
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
		var f, t int
		var okF, okT bool
		if f, okF = hinted(e.FromNode, e.From); !okF {
			if e.From != lastF || lastF == "" {
				lastF = e.From
				lf, lokF = ix.byURI[e.From]
			}
			f, okF = lf, lokF
		}
		if t, okT = hinted(e.ToNode, e.To); !okT {
			if e.To != lastT || lastT == "" {
				lastT = e.To
				lt, lokT = ix.byURI[e.To]
			}
			t, okT = lt, lokT
		}
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
		resolved[i] = ends{r.index + 1, f, t}
	}
	slices.Sort(ghosts)
	for _, g := range slices.Compact(ghosts) {
		ix.byURI[g] = len(ix.ids)
		ix.ids = append(ix.ids, g)
		ix.nodes = append(ix.nodes, nil)
	}

	// Pass 2: each edge becomes an arc at both ends; a repeated edge is
	// merged where limitArcs sorts its end's arcs (its copies are then
	// neighbours), not through a map of every edge.
	strength := func(e Edge) float64 {
		if e.Strength <= 0 || e.Strength > 1 {
			return 1
		}
		return e.Strength
	}
	degree := sized(sc.degree, len(ix.ids))
	sc.degree = degree
	total := 0
	for i, e := range edges {
		en := &resolved[i]
		if en.ri1 == 0 {
			continue
		}
		if en.f < 0 {
			en.f = ix.byURI[e.From]
		}
		if en.t < 0 {
			en.t = ix.byURI[e.To]
		}
		degree[en.f]++
		degree[en.t]++
		total += 2
	}
	backing := make([]arc, total)
	ix.arcs = make([][]arc, len(ix.ids))
	off := 0
	for id, d := range degree {
		ix.arcs[id] = backing[off : off : off+d]
		off += d
	}
	for i, e := range edges {
		en := resolved[i]
		if en.ri1 == 0 {
			continue
		}
		sc := strength(e)
		ri := en.ri1 - 1
		ix.arcs[en.f] = append(ix.arcs[en.f], arc{ri: ri, forward: true, other: en.t, gating: e.Gating, scale: sc})
		ix.arcs[en.t] = append(ix.arcs[en.t], arc{ri: ri, forward: false, other: en.f, gating: e.Gating, scale: sc})
	}
	for id := range ix.arcs {
		ix.arcs[id] = ix.limitArcs(ix.arcs[id])
	}
}

// edgeEnds is an edge's rule (1 + its index in edgeTable; 0: the edge is
// not followed) and its ends' ids (addEdges).
type edgeEnds struct {
	ri1  uint8
	f, t int
}

// limitArcs sorts one node's arcs canonically (ids follow URI order) and
// keeps only the newest `limit` forward arcs of a limited edge kind
// (changed_in: the newest commits by declared date, then URI).
func (ix *index) limitArcs(as []arc) []arc {
	if len(as) < 2 { // sorted, and a limit keeps at least one
		return as
	}
	slices.SortFunc(as, func(x, y arc) int {
		if c := cmp.Compare(edgeTable[x.ri].kindRank, edgeTable[y.ri].kindRank); c != 0 { // by kind
			return c
		}
		if x.forward != y.forward {
			if x.forward {
				return -1
			}
			return 1
		}
		if x.forward && x.rule().limit > 0 { // newest first
			if c := cmp.Compare(ix.version(y.other), ix.version(x.other)); c != 0 {
				return c
			}
		}
		return cmp.Compare(x.other, y.other)
	})
	out := as[:0]
	kept := 0
	prevKept := false
	for i, a := range as {
		if i > 0 && a.ri == as[i-1].ri && a.forward == as[i-1].forward && a.other == as[i-1].other {
			// A repeated edge is one edge: gating if any copy gates, the
			// strongest copy's strength. (as[i-1] may already be merged
			// into out; a's own fields are what it adds.)
			if prevKept {
				last := &out[len(out)-1]
				last.gating = last.gating || a.gating
				last.scale = max(last.scale, a.scale)
			}
			continue
		}
		if i == 0 || a.ri != as[i-1].ri || a.forward != as[i-1].forward {
			kept = 0
		}
		if a.forward && a.rule().limit > 0 && kept >= a.rule().limit {
			prevKept = false
			continue
		}
		kept++
		out = append(out, a)
		prevKept = true
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
