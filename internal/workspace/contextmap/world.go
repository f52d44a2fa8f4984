package contextmap

import (
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// The world of one request (devcontext DESIGN "Filling a World"). Files,
// docs, passages, claims and the git context come from the snapshot's
// base; declarations come from parsing lazily — the cursor's file, the
// files anchors bind to, the files a request's uris name, and the files the
// declaration search reaches from the seed (callers, callees, tests), in
// order of the relevance they could reach and within a parse budget.

// Search limits. They count files, not time, so the same request over the
// same snapshot always builds the same world. The per-request totals are a
// guard against hostile trees, not a search budget: a normal large
// repository's search (Go's own source: 400–1,000 files for a net/http
// method at depth 3) stays inside them. What bounds a search is the floor,
// the depth and the per-name caps below.
var (
	maxSearchParses = 2048     // files parsed by the declaration search, per request
	maxSearchBytes  = 32 << 20 // and their bytes
)

const (
	maxCallerFiles    = 24 // files that mention a name, read for its callers
	maxTestFiles      = 12 // test files that mention a name
	maxDefiningFiles  = 6  // files that may define a callee outside its directory
	maxCalleeTargets  = 3  // more same-named definitions than this: ambiguous, no edge
	maxUserTypeFiles  = 16 // files read for the users of a type
	maxURIFiles       = 20 // files parsed to find a symbol a request names by uri
	maxCommitsPerDecl = devcontext.MaxCommitsPerNode
)

// Weights of the edges the search follows (devcontext's edge table), to decide
// whether a neighbour could still reach the floor.
const (
	wCallee   = 0.7 // calls forward
	wCaller   = 0.5 // calls reverse
	wUser     = 0.3 // uses_type reverse
	wTest     = 0.8 // tested_by forward
	wReceiver = 0.8 // method_of forward
)

var callableKinds = map[string]bool{"function": true, "method": true, "constructor": true, "macro": true}

// valueKinds are declarations used by name without a call: their users
// reach them by uses_value.
var valueKinds = map[string]bool{"const": true, "var": true, "constant": true, "variable": true}

var typeKinds = map[string]bool{"class": true, "struct": true, "interface": true, "trait": true, "protocol": true,
	"enum": true, "type": true, "record": true, "object": true}

// cxParsed is one parsed file of the world.
type cxParsed struct {
	path   string
	dir    string
	lang   symbols.Language
	c      *cxContent // the declarations it was made from
	decls  []*cxDecl
	test   bool
	family string
	pkg    string // Go: the package clause's name
	// imports: local name → where it comes from (JS/TS, Python; imports.go)
	imports map[string]cxImported
}

// cxDecl is one declaration in the world: its kept declaration (symbol,
// names and their ids, kind class, test names, start; shared by every
// world that takes it, read-only) and what is this world's.
type cxDecl struct {
	*cxContentDecl
	f    *cxParsed
	node int    // index of the world's node for uri
	uri  string // the kept declaration's, or a duplicate's suffixed one
}

func (x *cxDecl) contains(y *cxDecl) bool {
	return x.f == y.f && x != y && x.d.StartByte <= y.d.StartByte && y.d.EndByte <= x.d.EndByte
}

// cxWorld is a prepared world, cached per base and world key.
type cxWorld struct {
	world devcontext.World
	prep  *devcontext.Prepared
}

// cxEdgeKey is an edge by its endpoints' keys (worldBuilder.keyOf):
// hashing two URIs per edge, in the world and again in devcontext, was a
// visible part of a world's assembly.
type cxEdgeKey struct {
	kind     int32 // the world's id of the edge's kind (kindID)
	from, to int32
}

type worldBuilder struct {
	ctx   context.Context
	s     *workspace.Snapshot
	b     *ctxBase
	depth int
	floor float64

	// nodes are the world's nodes by pointer (devcontext.World.Shared):
	// a kept declaration's node and the base's file and doc nodes are
	// shared by every world that has them, never copied nor written.
	nodes []*devcontext.Node
	// at is each node's index by URI (lookup), but for the file nodes
	// and the declarations': file nodes are the base's (fileAt), at
	// w.nodes[filesAt:] in base order from addFiles on (filesAt < 0
	// before), so a world does not insert ~10,000 file URIs into its own
	// map; a node whose URI is a declaration's (isDeclURI) is at
	// byUID[its URI's id] - 1 (cxContents.uid), so neither are the
	// 30,000–50,000 declarations'.
	at      map[string]int
	byUID   []int32
	filesAt int
	// keyOf is each node's key in ekeys: its index, or the key its URI
	// had as a dangling endpoint before it was a node (ghosts), so an
	// edge is one edge whether its ends were nodes when it was drawn.
	keyOf  []int32
	ghosts map[string]int32 // dangling endpoints' keys: -1, -2, …
	declOf []*cxDecl        // per node: the declaration whose URI it is (the last to claim it), else nil
	edges  []devcontext.Edge
	// ekeys are the keyed edges' keys with their index in edges: a
	// repeated edge is appended again and made one edge once the world
	// is drawn (oneEdgeEach), by a sort instead of a map of every edge.
	ekeys []cxKeyedEdge
	drawn int      // how many edges were drawn before oneEdgeEach made them one each (grow's hint)
	kinds []string // the edge kinds drawn, by kindID

	parsed   map[string]*cxParsed
	contents map[string]*cxContent  // the files' declarations this world took (parsedfiles.go)
	pending  map[string]*contentJob // queued by a prefetch, not taken yet (prefetch.go)
	pool     *contentPool           // the prefetch's workers, nil before the first
	byBase   [][]*cxDecl            // by name id (cxContents.name): the declarations of that base name

	spent    int             // files parsed by the search
	spentB   int             // and their bytes
	unread   []string        // candidate files the search left unread
	guarded  map[string]bool // of them, those the per-request guard refused
	roots    []*cxDecl
	fileSeed string // the cursor's file when the cursor is outside every declaration

	rel  map[*cxDecl]float64
	hop  map[*cxDecl]int
	done map[cxTaskKey]bool
	q    cxQueue

	scratch *cxScratch // what release gives back
}

// worldSize is how large a Load's largest world was: the next world's
// slices and maps start at that size instead of growing to it (a world
// of GOROOT has 35,000–55,000 nodes; growing rehashed its maps a dozen
// times each, and copied the nodes as often).
type worldSize struct{ nodes, edges, parsed int }

func newWorldBuilder(ctx context.Context, s *workspace.Snapshot, b *ctxBase, depth int, floor float64) *worldBuilder {
	n := b.contents.size()
	n.nodes = max(n.nodes, len(b.files)+len(b.docs))
	sc := worldScratch.Get().(*cxScratch)
	return &worldBuilder{ctx: ctx, s: s, b: b, depth: depth, floor: floor, filesAt: -1, scratch: sc,
		nodes: grown(sc.nodes, n.nodes), declOf: grown(sc.declOf, n.nodes), at: map[string]int{},
		byUID: zeroed(sc.byUID, b.contents.uidCount()),
		keyOf: grown(sc.keyOf, n.nodes),
		edges: grown(sc.edges, n.edges), ekeys: grown(sc.ekeys, n.edges),
		parsed: make(map[string]*cxParsed, n.parsed), contents: make(map[string]*cxContent, n.parsed),
		byBase: zeroed(sc.byBase, b.contents.nameCount()),
		rel:    sc.rel, hop: sc.hop, done: sc.done, q: sc.q[:0]}
}

// cxScratch is the memory a world's assembly works in and no built world
// keeps (the world takes copies of its nodes and edges, of their size:
// worldBuilder.built): the next world on any Load reuses it instead of
// allocating it again (and growing it as it draws), so a new seed leaves
// that much less garbage for the collector.
type cxScratch struct {
	nodes  []*devcontext.Node
	edges  []devcontext.Edge
	declOf []*cxDecl
	keyOf  []int32
	byUID  []int32
	byBase [][]*cxDecl
	based  []int32 // the byBase entries a world filled
	ekeys  []cxKeyedEdge
	decls  cxDeclSlab
	rel    map[*cxDecl]float64
	hop    map[*cxDecl]int
	done   map[cxTaskKey]bool
	q      cxQueue
	mk     cxMarks
}

var worldScratch = sync.Pool{New: func() any {
	return &cxScratch{rel: map[*cxDecl]float64{}, hop: map[*cxDecl]int{}, done: map[cxTaskKey]bool{}}
}}

// grown is s emptied with room for n (s itself when it has it).
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

// zeroed is s at length n, every element zero or empty (s's memory when
// it has room: a released scratch's byUID is zero up to its capacity, its
// byBase entries empty).
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// release gives the world's scratch back (worldScratch) once the world
// is built: nothing the builder hands out (the world's nodes and edges,
// the prepared index) is in it. The builder must not be used after.
func (w *worldBuilder) release() {
	if w.pool != nil {
		w.pool.stop()
		w.pool = nil
	}
	sc := w.scratch
	if sc == nil {
		return
	}
	w.scratch = nil
	for _, id := range sc.based {
		w.byBase[id] = w.byBase[id][:0]
	}
	sc.based = sc.based[:0]
	// Only byUID (and byBase's lengths, above) must be zero: the rest is
	// appended to or written before it is read, and clearing what holds
	// pointers costs a write barrier per word while the collector marks.
	clear(w.byUID) // used to its length, zero past it
	clear(w.rel)
	clear(w.hop)
	clear(w.done)
	sc.nodes, sc.edges = w.nodes[:0], w.edges[:0]
	sc.declOf, sc.keyOf, sc.byUID, sc.byBase, sc.ekeys, sc.q = w.declOf[:0], w.keyOf[:0], w.byUID[:0], w.byBase[:0], w.ekeys[:0], w.q[:0]
	sc.decls.reset()
	*w = worldBuilder{}
	worldScratch.Put(sc)
}

// Token marks (cxMarks): sets of a file's string ids for one search step.
const (
	markCalled = iota
	markQualified
	markSeen
	markMember
	nMarks
)

// cxMarks are sets of string ids, one per mark: id is in set k when
// stamp[k][id] is the current generation (a new generation empties them
// all at once).
type cxMarks struct {
	stamp [nMarks][]uint32
	gen   uint32
}

// marks are the scratch's token sets, empty, for ids below n.
func (sc *cxScratch) marks(n int) *cxMarks {
	m := &sc.mk
	for k := range m.stamp {
		if len(m.stamp[k]) < n {
			m.stamp[k] = make([]uint32, max(n, 2*len(m.stamp[k])))
		}
	}
	m.gen++
	if m.gen == 0 { // wrapped: the old stamps could read as current
		for k := range m.stamp {
			clear(m.stamp[k])
		}
		m.gen = 1
	}
	return m
}

func (m *cxMarks) has(id uint32, k int) bool { return m.stamp[k][id] == m.gen }
func (m *cxMarks) set(id uint32, k int)      { m.stamp[k][id] = m.gen }

// built is the world's nodes and edges as the world keeps them: copies
// of the builder's, which are its scratch.
func (w *worldBuilder) built() ([]*devcontext.Node, []devcontext.Edge) {
	return slices.Clone(w.nodes), slices.Clone(w.edges)
}

// cxDeclSlab hands out a world's declarations from a few large chunks,
// kept for the next world, instead of a slice per parsed file.
type cxDeclSlab struct {
	chunks [][]cxDecl
	ptrs   [][]*cxDecl
	at     int // chunks[:at] are full
	used   int // of chunks[at]
	pat    int
	pused  int
}

const slabChunk = 4096

// take is n declarations and n pointers for one parsed file, to be
// written whole (they may hold an earlier world's).
func (sl *cxDeclSlab) take(n int) ([]cxDecl, []*cxDecl) {
	if n > slabChunk/4 {
		return make([]cxDecl, n), make([]*cxDecl, n)
	}
	if sl.at < len(sl.chunks) && sl.used+n > slabChunk {
		sl.at, sl.used = sl.at+1, 0
	}
	if sl.at == len(sl.chunks) {
		sl.chunks = append(sl.chunks, make([]cxDecl, slabChunk))
	}
	xs := sl.chunks[sl.at][sl.used : sl.used+n : sl.used+n]
	sl.used += n
	if sl.pat < len(sl.ptrs) && sl.pused+n > slabChunk {
		sl.pat, sl.pused = sl.pat+1, 0
	}
	if sl.pat == len(sl.ptrs) {
		sl.ptrs = append(sl.ptrs, make([]*cxDecl, slabChunk))
	}
	ps := sl.ptrs[sl.pat][sl.pused : sl.pused+n : sl.pused+n]
	sl.pused += n
	return xs, ps
}

// reset hands the chunks out again from the start (parse writes every
// declaration and pointer it takes whole).
func (sl *cxDeclSlab) reset() {
	sl.at, sl.used, sl.pat, sl.pused = 0, 0, 0, 0
}

// grow makes z at least as large as this world, for the next one's hint.
func (w *worldBuilder) grow(z *worldSize) {
	z.nodes, z.edges = max(z.nodes, len(w.nodes)), max(z.edges, len(w.edges), w.drawn)
	z.parsed = max(z.parsed, len(w.parsed))
}

func (w *worldBuilder) node(n devcontext.Node) {
	if _, ok := w.lookup(n.URI); ok {
		return
	}
	w.nodeRef(&n)
}

// nodeRef adds a node by pointer: it must not change while the world
// is in use (a shared one never does).
func (w *worldBuilder) nodeRef(n *devcontext.Node) {
	if _, ok := w.lookup(n.URI); ok {
		return
	}
	w.add(n, nil, 0)
}

// fileScheme starts every file node's URI (devcontext.FileURI) and no
// other node's.
var fileScheme = devcontext.FileURI("")

// symbolScheme and testScheme start every declaration's URI (symbolURI)
// and no other node's.
var symbolScheme, testScheme = "clew://" + devcontext.KindSymbol + "/", "clew://" + devcontext.KindTest + "/"

// isDeclURI reports a URI of a declaration's scheme.
func isDeclURI(uri string) bool {
	return strings.HasPrefix(uri, symbolScheme) || strings.HasPrefix(uri, testScheme)
}

// lookup is the index of the world's node for uri.
func (w *worldBuilder) lookup(uri string) (int, bool) {
	if w.filesAt >= 0 && strings.HasPrefix(uri, fileScheme) {
		if j, ok := w.b.fileAt[uri]; ok {
			return w.filesAt + int(j), true
		}
	}
	if isDeclURI(uri) {
		return w.lookupUID(w.b.contents.uidIfAny(uri))
	}
	i, ok := w.at[uri]
	return i, ok
}

// lookupUID is the index of the world's node for the URI of id uid.
func (w *worldBuilder) lookupUID(uid int32) (int, bool) {
	if uid <= 0 || int(uid) >= len(w.byUID) || w.byUID[uid] == 0 {
		return 0, false
	}
	return int(w.byUID[uid]) - 1, true
}

// add appends a node whose URI is not yet one, for declaration x (or
// nil); uid is the URI's id when the caller has it (0: looked up).
func (w *worldBuilder) add(n *devcontext.Node, x *cxDecl, uid int32) {
	if w.filesAt < 0 && strings.HasPrefix(n.URI, fileScheme) {
		panic("contextmap: a file node before addFiles: " + n.URI) // lookup would not see it once the base's are in
	}
	key := int32(len(w.nodes))
	if len(w.ghosts) > 0 {
		if g, ok := w.ghosts[n.URI]; ok {
			key = g
		}
	}
	if uid == 0 && isDeclURI(n.URI) {
		uid = w.b.contents.uid(n.URI)
	}
	if uid > 0 {
		if int(uid) >= len(w.byUID) {
			w.byUID = append(w.byUID, make([]int32, int(uid)+1-len(w.byUID))...)
		}
		w.byUID[uid] = int32(len(w.nodes)) + 1
	} else {
		w.at[n.URI] = len(w.nodes)
	}
	w.nodes = append(w.nodes, n)
	w.declOf = append(w.declOf, x)
	w.keyOf = append(w.keyOf, key)
}

// endpoint is uri's key in ekeys: its node's, else its ghost's; and
// its node as an edge's hint (devcontext.Edge.FromNode: 1 + its index,
// 0 for a ghost).
func (w *worldBuilder) endpoint(uri string) (int32, int32) {
	if i, ok := w.lookup(uri); ok {
		return w.keyOf[i], int32(i) + 1
	}
	g, ok := w.ghosts[uri]
	if !ok {
		if w.ghosts == nil {
			w.ghosts = map[string]int32{}
		}
		g = -int32(len(w.ghosts)) - 1
		w.ghosts[uri] = g
	}
	return g, 0
}

// named are the world's declarations whose base name has name id id.
func (w *worldBuilder) named(id int32) []*cxDecl {
	if id <= 0 || int(id) >= len(w.byBase) {
		return nil
	}
	return w.byBase[id]
}

// decl is the declaration whose URI uri is.
func (w *worldBuilder) decl(uri string) (*cxDecl, bool) {
	if i, ok := w.lookup(uri); ok && w.declOf[i] != nil {
		return w.declOf[i], true
	}
	return nil, false
}

func (w *worldBuilder) has(uri string) bool { _, ok := w.lookup(uri); return ok }

func (w *worldBuilder) edge(kind, from, to string) { w.edgeGating(kind, from, to, false) }

func (w *worldBuilder) edgeGating(kind, from, to string, gating bool) {
	if from == to || from == "" || to == "" {
		return
	}
	kf, nf := w.endpoint(from)
	kt, nt := w.endpoint(to)
	w.edgeKeyed(cxEdgeKey{w.kindID(kind), kf, kt}, devcontext.Edge{Kind: kind, From: from, To: to, Gating: gating, FromNode: nf, ToNode: nt})
}

// declEdge is edge between two declarations of the world, whose keys it
// has without a lookup.
func (w *worldBuilder) declEdge(kind string, x, y *cxDecl) {
	if x.uri == y.uri {
		return
	}
	w.edgeKeyed(cxEdgeKey{w.kindID(kind), w.keyOf[x.node], w.keyOf[y.node]},
		devcontext.Edge{Kind: kind, From: x.uri, To: y.uri, FromNode: int32(x.node) + 1, ToNode: int32(y.node) + 1})
}

// edgeKeyed adds e under key k; oneEdgeEach later keeps the first edge
// of each key (gating if any of its copies gates).
func (w *worldBuilder) edgeKeyed(k cxEdgeKey, e devcontext.Edge) {
	w.ekeys = append(w.ekeys, cxKeyedEdge{k, int32(len(w.edges))})
	w.edges = append(w.edges, e)
}

// kindID is the world's id of an edge kind: the keys hold numbers only,
// so sorting them moves no pointer (a world draws a dozen kinds).
func (w *worldBuilder) kindID(kind string) int32 {
	for i, k := range w.kinds {
		if k == kind {
			return int32(i)
		}
	}
	w.kinds = append(w.kinds, kind)
	return int32(len(w.kinds) - 1)
}

// cxKeyedEdge is a keyed edge's key and its index in the world's edges.
type cxKeyedEdge struct {
	k cxEdgeKey
	i int32
}

// oneEdgeEach makes the keyed edges one edge per key: the first drawn
// stays where it is, gating if any copy gates, and the copies go — the
// edges a map of keys kept as they were drawn. (The edges drawn without
// a key are left as they are.)
func (w *worldBuilder) oneEdgeEach() {
	w.drawn = len(w.edges)
	ks := w.ekeys
	// Any order that puts equal keys side by side, first drawn first,
	// does: by ends, kind id, then when drawn (numbers only).
	slices.SortFunc(ks, func(a, b cxKeyedEdge) int {
		if a.k.from != b.k.from {
			return cmp.Compare(a.k.from, b.k.from)
		}
		if a.k.to != b.k.to {
			return cmp.Compare(a.k.to, b.k.to)
		}
		if a.k.kind != b.k.kind {
			return cmp.Compare(a.k.kind, b.k.kind)
		}
		return cmp.Compare(a.i, b.i)
	})
	var gone []bool
	for lo := 0; lo < len(ks); {
		hi := lo + 1
		for hi < len(ks) && ks[hi].k == ks[lo].k {
			hi++
		}
		if hi > lo+1 {
			if gone == nil {
				gone = make([]bool, len(w.edges))
			}
			first := &w.edges[ks[lo].i]
			for _, c := range ks[lo+1 : hi] {
				first.Gating = first.Gating || w.edges[c.i].Gating
				gone[c.i] = true
			}
		}
		lo = hi
	}
	w.ekeys = ks[:0]
	if gone == nil {
		return
	}
	out := w.edges[:0]
	for i, e := range w.edges {
		if !gone[i] {
			out = append(out, e)
		}
	}
	clear(w.edges[len(out):])
	w.edges = out
}

// ---- files, docs, passages -------------------------------------------------

// addFiles adds one file node per non-doc file: the cursor falls back to it,
// scope_path offers it, claims cover it. Its text is read only for Markdown.
func (w *worldBuilder) addFiles() {
	fs := w.b.fileNodes()
	if w.filesAt >= 0 {
		return
	}
	w.filesAt = len(w.nodes) // no file URI is a node before this (add refuses one)
	for i := range fs {
		key := int32(len(w.nodes))
		if len(w.ghosts) > 0 {
			if g, ok := w.ghosts[fs[i].URI]; ok {
				key = g
			}
		}
		w.nodes = append(w.nodes, &fs[i])
		w.declOf = append(w.declOf, nil)
		w.keyOf = append(w.keyOf, key)
	}
}

// fileNodes are the base's file nodes, made once (every world has them).
func (b *ctxBase) fileNodes() []devcontext.Node {
	b.fileNodesOnce.Do(func() {
		b.fileAt = map[string]int32{}
		for _, f := range b.files {
			if !f.doc {
				n := devcontext.Node{URI: devcontext.FileURI(f.path), Kind: devcontext.KindFile,
					Title: path.Base(f.path), Path: f.path, Bytes: f.size}
				b.fileAt[n.URI] = int32(len(b.fileNodesList))
				b.fileNodesList = append(b.fileNodesList, n)
			}
		}
	})
	return b.fileNodesList
}

// fingerprintOf is the fingerprint of the base's files, hashed once
// (every world's answer carries it; a world of GOROOT hashed 10,000
// paths and blob ids for it).
func (b *ctxBase) fingerprintOf() string {
	b.fingerprintOnce.Do(func() { b.fingerprint = devcontext.Fingerprint(b.hashes) })
	return b.fingerprint
}

// docNodes are the base's doc nodes, made once (every world has them).
func (b *ctxBase) docNodes() []devcontext.Node {
	b.docNodesOnce.Do(func() {
		for _, d := range b.docs {
			b.docNodesList = append(b.docNodesList, devcontext.Node{URI: d.uri, Kind: d.kind, Title: d.title, Path: d.path, Text: d.text,
				Status: d.status, Version: d.version, Aliases: d.aliases, Cites: d.cites})
		}
	})
	return b.docNodesList
}

func (w *worldBuilder) addDocs() {
	byID := map[string]string{} // adr id or stem → canonical uri
	for _, d := range w.b.docs {
		if d.kind == devcontext.KindADR {
			byID[strings.TrimPrefix(d.uri, "clew://adr/")] = d.uri
			for _, a := range d.aliases {
				if _, taken := byID[strings.TrimPrefix(a, "clew://adr/")]; !taken {
					byID[strings.TrimPrefix(a, "clew://adr/")] = d.uri
				}
			}
		}
	}
	ds := w.b.docNodes()
	for i := range ds {
		w.nodeRef(&ds[i])
	}
	for _, d := range w.b.docs {
		for _, l := range d.links {
			if t, ok := w.b.docAt[l]; ok {
				w.edge(devcontext.EdgeLinksTo, d.uri, t.uri)
			}
		}
		for _, id := range d.supersedes {
			target, ok := byID[id]
			if !ok {
				target = devcontext.ADRURI(id) // names no ADR: dangling, reported if reached
			}
			w.edge(devcontext.EdgeSupersede, d.uri, target)
		}
		for _, p := range d.decides {
			if t, ok := w.b.docAt[p]; ok {
				w.edge(devcontext.EdgeDecides, d.uri, t.uri)
			} else if w.has(devcontext.FileURI(p)) {
				w.edge(devcontext.EdgeDecides, d.uri, devcontext.FileURI(p))
			}
		}
	}
}

// addPassages adds one passage per @code anchor, with its state from the
// Check: `anchors` to what it resolves to (to the old name when lost),
// `part_of` its doc, and `decides` from an ADR to what its anchors bind.
func (w *worldBuilder) addPassages() {
	count := map[string]int{}
	starts := map[*cxDoc][]int{}
	for _, a := range w.b.anchors {
		key := a.Anchor.QualifiedName
		switch a.Anchor.Form {
		case anchors.FormLines:
			key = anchors.LinesRef(a.Path, a.Anchor.StartLine, a.Anchor.EndLine)
		case anchors.FormDoc:
			key = a.Path
		}
		count[a.Doc+"\x00"+key]++
		uri := devcontext.PassageURI(a.Doc, key, count[a.Doc+"\x00"+key])
		doc := w.b.docAt[a.Doc]
		title, section, text := a.Doc+" › "+key, a.Anchor.Passage.Heading, ""
		if section != "" {
			title = a.Doc + " › " + section
		}
		var lines *devcontext.Range
		if doc != nil {
			ls, ok := starts[doc]
			if !ok {
				ls = lineStarts([]byte(doc.text)) // split once, not once per passage
				starts[doc] = ls
			}
			text = linesAt(doc.text, ls, a.Anchor.Passage.StartLine, a.Anchor.Passage.EndLine)
			if a.Anchor.Passage.StartLine >= 1 && a.Anchor.Passage.EndLine >= a.Anchor.Passage.StartLine {
				lines = &devcontext.Range{StartLine: a.Anchor.Passage.StartLine, EndLine: a.Anchor.Passage.EndLine}
			}
		}
		w.node(devcontext.Node{URI: uri, Kind: devcontext.KindPassage, Title: title, Path: a.Doc, Section: section,
			Text: text, DocLines: lines, Anchor: devcontext.AnchorState(a.State), AnchorDetail: anchorDetail(a),
			Facts: map[string]string{"anchor_line": strconv.Itoa(a.Line)}})
		if doc != nil {
			w.edge(devcontext.EdgePartOf, uri, doc.uri)
		}
		target := w.anchorTarget(a)
		w.edge(devcontext.EdgeAnchors, uri, target)
		if doc != nil && doc.kind == devcontext.KindADR && a.State != anchors.StateLost && target != "" {
			w.edge(devcontext.EdgeDecides, doc.uri, target)
		}
	}
}

func (w *worldBuilder) anchorTarget(a workspace.AnchorReport) string {
	switch a.Anchor.Form {
	case anchors.FormLines:
		p := a.Path
		if a.Found != nil {
			p = a.Found.Path
		}
		if w.has(devcontext.FileURI(p)) && a.State != anchors.StateLost {
			return devcontext.FileURI(p)
		}
		return ""
	case anchors.FormDoc:
		if d, ok := w.b.docAt[a.Path]; ok {
			return d.uri
		}
		return ""
	}
	if a.Found != nil {
		if pf := w.parsed[a.Found.Path]; pf != nil {
			for _, x := range pf.decls {
				if x.d.QualifiedName == a.Found.QualifiedName && x.d.Kind == a.Found.Kind {
					return x.uri
				}
			}
		}
		return ""
	}
	if a.State == anchors.StateLost {
		lang, _ := symbols.LanguageForPath(a.Path)
		return symbolURI(devcontext.KindSymbol, w.b.importPath(a.Path, lang), a.Anchor.QualifiedName)
	}
	return ""
}

func anchorDetail(a workspace.AnchorReport) string {
	d := a.Detail
	parts := []string{}
	if d.Reason != "" {
		parts = append(parts, d.Reason)
	}
	if d.RenamedTo != "" {
		parts = append(parts, "renamed to "+d.RenamedTo)
	}
	if d.MovedTo != "" {
		parts = append(parts, "moved to "+d.MovedTo)
	}
	return strings.Join(parts, ", ")
}

// linesAt is the 1-based inclusive line range start..end of text (to its
// end when end is before start or past the last line), found through
// text's lineStarts (the pieces of strings.SplitAfter(text, "\n")): a
// substring, not a copy.
func linesAt(text string, starts []int, start, end int) string {
	if start < 1 {
		start = 1
	}
	n := len(starts)
	if end < start || end > n {
		end = n
	}
	if start > n {
		return ""
	}
	stop := len(text)
	if end < n {
		stop = starts[end]
	}
	return text[starts[start-1]:stop]
}

// ---- declarations ---------------------------------------------------------

func symbolURI(kind, importPath, qname string) string {
	if importPath == "" {
		return "clew://" + kind + "/" + qname
	}
	if kind == devcontext.KindTest {
		return devcontext.TestURI(importPath, qname)
	}
	return devcontext.SymbolURI(importPath, qname)
}

// cxBaseName is a declaration name without an overload suffix or labels.
func cxBaseName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	for i := 0; i < len(name); i++ {
		if !identPart(name[i]) {
			return name[:i]
		}
	}
	return name
}

// parse adds a file's declarations to the world (once). search marks a
// parse the declaration search asked for: it counts against the budget.
func (w *worldBuilder) parse(p string, search bool) *cxParsed {
	if pf, ok := w.parsed[p]; ok {
		return pf
	}
	f, ok := w.b.file(p)
	if !ok || !f.code {
		return nil
	}
	if search {
		if w.spent >= maxSearchParses || w.spentB+f.size > maxSearchBytes {
			w.unread = append(w.unread, p)
			if w.guarded == nil {
				w.guarded = map[string]bool{}
			}
			w.guarded[p] = true
			return nil
		}
		w.spent++
		w.spentB += f.size
	}
	c := w.content(f)
	if c == nil {
		w.parsed[p] = nil
		return nil
	}
	w.b.contents.name(c)
	xs, ps := w.scratch.decls.take(len(c.decls))
	pf := &cxParsed{path: p, dir: f.dir, lang: f.lang, c: c, test: f.test, family: workspace.LanguageFamily(f.lang),
		pkg: c.pkg, decls: ps}
	w.parsed[p] = pf
	for i := range c.decls {
		cd := &c.decls[i]
		x := &xs[i]
		*x = cxDecl{cxContentDecl: cd, f: pf, uri: cd.uri}
		uid := cd.uid
		j, taken := w.lookupUID(uid)
		if taken {
			x.uri += "#" + p + ":" + strconv.Itoa(cd.d.StartLine) // an illegal or overloaded duplicate
			uid = w.b.contents.uid(x.uri)
			j, taken = w.lookupUID(uid)
		}
		pf.decls[i] = x
		if int(x.baseID) >= len(w.byBase) {
			w.byBase = append(w.byBase, make([][]*cxDecl, int(x.baseID)+1-len(w.byBase))...)
		}
		if len(w.byBase[x.baseID]) == 0 {
			w.scratch.based = append(w.scratch.based, x.baseID)
		}
		w.byBase[x.baseID] = append(w.byBase[x.baseID], x)
		if taken { // the suffixed URI too: the node stays the first's, the URI names the last
			w.declOf[j] = x
			x.node = j
			continue
		}
		n := &cd.node // the kept node, shared
		if x.uri != cd.uri {
			own := cd.node // a suffixed duplicate: this world's copy
			own.URI = x.uri
			n = &own
		}
		x.node = len(w.nodes)
		w.add(n, x, uid)
	}
	return pf
}

func lineStarts(src []byte) []int {
	out := make([]int, 1, 1+bytes.Count(src, []byte("\n")))
	for i, c := range src {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// linePos is the 1-based line and byte column of an offset, given the
// offsets of the lines' starts.
func linePos(lines []int, off int) (int, int) {
	i, found := slices.BinarySearch(lines, off)
	if !found {
		i--
	}
	return i + 1, off - lines[i] + 1
}

// docCommentStart extends a declaration upwards over the comment, decorator
// and attribute lines right above it: a symbol's cost and range include its
// doc comment.
func docCommentStart(src []byte, lines []int, start, startLine int) int {
	first := start
	// Start of the declaration's own line, if only blanks precede it.
	ls := lines[startLine-1]
	if strings.TrimSpace(string(src[ls:start])) != "" {
		return start
	}
	for l := startLine - 1; l >= 1; l-- {
		b, e := lines[l-1], lines[l]
		t := strings.TrimSpace(string(src[b:e]))
		if t == "" || !(strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") ||
			strings.HasPrefix(t, "#") || strings.HasPrefix(t, "@")) {
			break
		}
		first = b + strings.Index(string(src[b:e]), t[:1])
	}
	return first
}

// innermost is the declaration holding the cursor, by devcontext's rule: the
// one that starts last, then ends first, then the smaller URI.
func (w *worldBuilder) innermost(pf *cxParsed, line, col int) *cxDecl {
	var best *cxDecl
	var br devcontext.Range
	for _, x := range pf.decls {
		r := *w.nodes[x.node].Range
		if !r.Contains(line, col) {
			continue
		}
		if best != nil {
			c := cmp.Or(cmp.Compare(r.StartLine, br.StartLine), cmp.Compare(r.StartCol, br.StartCol))
			e := cmp.Or(cmp.Compare(r.EndLine, br.EndLine), cmp.Compare(r.EndCol, br.EndCol))
			if c < 0 || (c == 0 && e > 0) || (c == 0 && e == 0 && x.uri >= best.uri) {
				continue
			}
		}
		best, br = x, r
	}
	return best
}

// declAt is the innermost declaration at a line of a parsed file.
func (w *worldBuilder) declAt(p string, line int) *cxDecl {
	pf := w.parsed[p]
	if pf == nil {
		return nil
	}
	return w.innermost(pf, line, 0)
}

// ensureURI parses the files that may hold the symbol or test a request
// names by uri, so it can be a seed (or be explained) without the whole
// workspace being parsed: the files whose namespace prefixes the identity
// and whose words hold its name.
func (w *worldBuilder) ensureURI(uri string) *cxDecl {
	if x, ok := w.decl(uri); ok {
		return x
	}
	kind := devcontext.KindOfURI(uri)
	if kind != devcontext.KindSymbol && kind != devcontext.KindTest || w.has(uri) {
		return nil
	}
	ident := strings.TrimPrefix(uri, "clew://"+kind+"/")
	if i := strings.IndexByte(ident, '#'); i >= 0 {
		ident = ident[:i]
	}
	n := 0
	for i, f := range w.b.files {
		if !f.code || n >= maxURIFiles {
			continue
		}
		ip := w.b.importPath(f.path, f.lang)
		qname := ident
		if ip != "" {
			rest, ok := strings.CutPrefix(ident, ip+".")
			if !ok {
				continue
			}
			qname = rest
		}
		if !w.b.lex.fileHas(i, cxBaseName(qname)) {
			continue
		}
		n++
		w.parse(f.path, false)
		if x, ok := w.decl(uri); ok {
			return x
		}
	}
	x, _ := w.decl(uri)
	return x
}

// ---- the declaration search -----------------------------------------------

type cxTaskKind int

const (
	taskTests cxTaskKind = iota
	taskCallees
	taskCallers
)

type cxTaskKey struct {
	d    *cxDecl
	kind cxTaskKind
}

type cxTask struct {
	cxTaskKey
	pri float64
}

// cxQueue orders the search: the most relevant reach first, then tests,
// callees, callers, then URI — a total order, so the search is the same
// every time.
type cxQueue []cxTask

func (q cxQueue) Len() int { return len(q) }
func (q cxQueue) Less(i, j int) bool {
	if q[i].pri != q[j].pri {
		return q[i].pri > q[j].pri
	}
	if q[i].kind != q[j].kind {
		return q[i].kind < q[j].kind
	}
	return q[i].d.uri < q[j].d.uri
}
func (q cxQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *cxQueue) Push(x any)   { *q = append(*q, x.(cxTask)) }
func (q *cxQueue) Pop() any {
	old := *q
	t := old[len(old)-1]
	*q = old[:len(old)-1]
	return t
}

// reach records that the search found x at relevance r, hop h, and queues
// its own search when that could still find something above the floor.
func (w *worldBuilder) reach(x *cxDecl, r float64, h int) {
	old, seen := w.rel[x]
	oh := w.hop[x]
	if seen && r <= old && h >= oh {
		return
	}
	if !seen || r > old {
		w.rel[x] = r
	}
	if !seen || h < oh {
		w.hop[x] = h
	}
	if w.hop[x] >= w.depth {
		return
	}
	r = w.rel[x]
	push := func(k cxTaskKind, weight float64) {
		if !w.done[cxTaskKey{x, k}] && !below(r*weight, w.floor) {
			heap.Push(&w.q, cxTask{cxTaskKey{x, k}, r * weight})
		}
	}
	switch {
	case x.callable():
		push(taskTests, wTest)
		push(taskCallees, wCallee)
		push(taskCallers, wCaller)
	case x.isType():
		push(taskTests, wTest)
		push(taskCallees, wCallee)
		push(taskCallers, wUser)
	case x.isValue():
		push(taskCallers, wUser)
	}
}

func below(r, floor float64) bool { return r+1e-12 < floor }

// search runs the queued tasks within the parse budget.
func (w *worldBuilder) search() error {
	for _, r := range w.roots {
		w.reach(r, 1, 0)
	}
	for n := 0; w.q.Len() > 0; n++ {
		if n%32 == 0 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		t := heap.Pop(&w.q).(cxTask)
		if w.done[t.cxTaskKey] {
			continue
		}
		w.done[t.cxTaskKey] = true
		h := w.hop[t.d] + 1
		switch t.kind {
		case taskTests:
			w.findTests(t.d, t.pri, h)
		case taskCallees:
			w.findCallees(t.d, t.pri, h)
		case taskCallers:
			w.findCallers(t.d, t.pri, h)
		}
	}
	return nil
}

// candidates turns a posting list into paths of one language family,
// nearest to from first (same directory, then the longest shared path),
// then by path; keep filters further.
func (w *worldBuilder) candidates(post []int32, from *cxParsed, keep func(int32, *cxFile) bool) []string {
	type cand struct {
		path   string
		shared int
	}
	var cs []cand
	for _, i := range post {
		f := &w.b.files[i]
		if f.code && workspace.LanguageFamily(f.lang) == from.family && (keep == nil || keep(i, f)) {
			cs = append(cs, cand{f.path, sharedDirsOf(f.dir, from.dir)})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if c := cmp.Compare(b.shared, a.shared); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	var out []string
	for _, c := range cs {
		out = append(out, c.path)
	}
	return out
}

// sharedDirs counts the leading directories two paths share (+1 for the
// same directory, so siblings come first).
func sharedDirs(a, b string) int { return sharedDirsOf(path.Dir(a), path.Dir(b)) }

// sharedDirsOf is sharedDirs of two paths by their directories (a file's
// and a parsed file's dir are path.Dir of their paths).
func sharedDirsOf(da, db string) int {
	if da == db {
		return 1 << 20
	}
	n := 0 // component by component, without splitting (candidates ask per file)
	for {
		ca, ra, moreA := strings.Cut(da, "/")
		cb, rb, moreB := strings.Cut(db, "/")
		if ca != cb {
			return n
		}
		n++
		if !moreA || !moreB {
			return n
		}
		da, db = ra, rb
	}
}

// readCandidates parses up to limit candidate files for the search; the
// rest are recorded as unread.
func (w *worldBuilder) readCandidates(paths []string, limit int) []*cxParsed {
	return w.readCandidatesFor(paths, limit, false)
}

// readCandidatesFor is readCandidates; words says the caller will ask the
// files' holders, so the prefetch indexes their words too.
func (w *worldBuilder) readCandidatesFor(paths []string, limit int, words bool) []*cxParsed {
	w.prefetch(paths[:min(limit, len(paths))], words)
	var out []*cxParsed
	for i, p := range paths {
		if i >= limit {
			w.unread = append(w.unread, paths[i:]...)
			break
		}
		if pf := w.parse(p, true); pf != nil {
			out = append(out, pf)
		}
	}
	return out
}

// private reports a Go name that cannot be used outside its package.
func private(x *cxDecl) bool {
	if x.f.lang != symbols.Go || x.base == "" {
		return false
	}
	c := x.base[0]
	return !(c >= 'A' && c <= 'Z')
}

// goPackage reads the name of a Go file's package clause.
func goPackage(src []byte) string {
	// The first 199 lines of the first 4 KiB, then the rest of those 4 KiB
	// as one line, read in place.
	b := src[:min(len(src), 4096)]
	clause := func(line []byte) (string, bool) {
		if rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("package ")); ok {
			return strings.TrimSuffix(string(bytes.TrimSpace(rest)), "_test"), true
		}
		return "", false
	}
	for range 199 {
		line, rest, more := bytes.Cut(b, []byte("\n"))
		if name, ok := clause(line); ok {
			return name
		}
		if !more {
			return ""
		}
		b = rest
	}
	name, _ := clause(b)
	return name
}

// evidence is the word a file outside x's directory must hold to use x:
// the type of a method, else the Go package name or the module's file
// stem (what an import or a qualified use names). A file that merely
// shares x's name (WriteString, Close) without it is not searched.
func evidence(x *cxDecl) string {
	if x.d.Container != "" {
		return cxBaseName(x.d.Container)
	}
	if x.f.lang == symbols.Go {
		return x.f.pkg
	}
	base := path.Base(x.f.path)
	return cxBaseName(strings.TrimSuffix(base, path.Ext(base)))
}

// usable says which files (by index) can use x: its own directory, and,
// when x is visible outside its package, files that hold its evidence
// word.
func (w *worldBuilder) usable(x *cxDecl) func(int32, *cxFile) bool {
	ev := evidence(x)
	var holds func(i int) bool
	return func(i int32, f *cxFile) bool {
		if f.dir == x.f.dir {
			return true
		}
		if private(x) || ev == "" {
			return false
		}
		if holds == nil {
			holds = w.b.lex.holder(ev)
		}
		return holds(int(i))
	}
}

// uses reports whether y's body uses x: by name in x's directory; from
// elsewhere, a Go function only as pkg.Name and a method only after ".".
// The tokens are compared by their ids among y's file's strings.
func uses(y, x *cxDecl) bool {
	if y.f.dir == x.f.dir || x.f.lang != symbols.Go && x.d.Container == "" {
		return bodyHas(y, x.base)
	}
	c := y.f.c
	base, ok := c.idOf(x.base)
	dot, dotOK := c.idOf(".")
	if !ok || !dotOK {
		return false
	}
	pkg, pkgOK := c.idOf(x.f.pkg)
	ids := y.d.Body.ids
	for i, id := range ids {
		if id != base || i == 0 || ids[i-1] != dot {
			continue
		}
		if x.d.Container != "" || (pkgOK && i >= 2 && ids[i-2] == pkg) {
			return true
		}
	}
	return false
}

func bodyHas(x *cxDecl, name string) bool {
	id, ok := x.f.c.idOf(name)
	return ok && slices.Contains(x.d.Body.ids, id)
}

// findTests reads x's conventional test files and the test files that
// mention its name: a test that mentions x calls it, and tests it when its
// name says so or it sits in x's own test file. A test file without test
// declarations (JS/TS describe/it) that mentions x tests it as a whole.
func (w *worldBuilder) findTests(x *cxDecl, pri float64, h int) {
	var paths []string
	for _, p := range conventionalTests(x.f.path) {
		if f, ok := w.b.file(p); ok && f.code {
			paths = append(paths, p)
		}
	}
	usable := w.usable(x)
	for _, p := range w.candidates(w.b.lex.occursIn(x.base), x.f, func(i int32, f *cxFile) bool { return f.test && usable(i, f) }) {
		if !containsString(paths, p) {
			paths = append(paths, p)
		}
	}
	for _, pf := range w.readCandidatesFor(paths, maxTestFiles, true) {
		if pf == x.f && !pf.test {
			continue
		}
		tests := 0
		holds := pf.c.holdsInOrder(x.base)
		for i, t := range pf.decls {
			held := holds(i)
			if !t.test {
				continue
			}
			tests++
			mentions := held && uses(t, x)
			named := w.namesTested(t, x)
			if mentions && x.isType() {
				w.declEdge(devcontext.EdgeUsesType, t, x)
			} else if mentions {
				w.declEdge(devcontext.EdgeCalls, t, x)
			}
			if named || (mentions && (isConventionalTestOf(pf.path, x.f.path) || w.importsFrom(pf, x.f.path))) {
				w.declEdge(devcontext.EdgeTestedBy, x, t)
			}
			if mentions || named {
				w.reach(t, pri, h)
			}
		}
		if tests == 0 && pf.test {
			if i, ok := w.b.byPath[pf.path]; ok && w.b.lex.fileHas(i, x.base) {
				w.edge(devcontext.EdgeTestedBy, x.uri, devcontext.FileURI(pf.path))
			}
		}
	}
}

// namesTested reports whether test t's name says it tests x, and t sits
// where x's tests are (x's directory, or x's conventional test file).
func (w *worldBuilder) namesTested(t, x *cxDecl) bool {
	if t.f.family != x.f.family {
		return false
	}
	fold := t.f.lang == symbols.Python
	named := false // the name first: most (test, x) pairs a test file's search asks fail it
	for _, n := range t.tested {
		if n == x.d.QualifiedName || n == x.base || fold && (strings.EqualFold(n, x.d.QualifiedName) || strings.EqualFold(n, x.base)) {
			named = true
			break
		}
	}
	return named && w.sitsFor(t, x)
}

// testSitsFor is namesTested for a test whose name is known to say it
// tests x: whether t sits where x's tests are.
func (w *worldBuilder) testSitsFor(t, x *cxDecl) bool {
	return t.f.family == x.f.family && w.sitsFor(t, x)
}

// sitsFor reports a test in x's directory, in x's conventional test
// file, or in a file that imports x's.
func (w *worldBuilder) sitsFor(t, x *cxDecl) bool {
	return t.f.dir == x.f.dir || isConventionalTestOf(t.f.path, x.f.path) || w.importsFrom(t.f, x.f.path)
}

// findCallees resolves the names x calls (an identifier followed by "(" in
// its body), the types it names (in its signature and body, resolved only
// in its own directory) and its receiver type.
//
// This is an honest approximation of a call graph, not type checking: a
// callee is a declaration whose name matches a called identifier, looked
// up in x's file, then x's directory, then (for qualified calls, and for
// languages without package scope) files that lexically declare the name.
// More than maxCalleeTargets equally good definitions draw no edge.
func (w *worldBuilder) findCallees(x *cxDecl, pri float64, h int) {
	// The body's tokens are ids into its file's strings, which ascend: a
	// set of tokens is a stamp per id (cxScratch.marks), and ids sort as
	// their strings do.
	c := x.f.c
	ids := x.d.Body.ids
	flags := c.tokenFlags()
	mk := w.scratch.marks(len(c.strs))
	lp, lpOK := c.idOf("(")
	dot, dotOK := c.idOf(".")
	var names []uint32
	for i, t := range ids {
		if lpOK && i+1 < len(ids) && ids[i+1] == lp && flags[t]&tokCallable != 0 {
			if !mk.has(t, markCalled) {
				mk.set(t, markCalled)
				names = append(names, t)
			}
			if dotOK && i > 0 && ids[i-1] == dot {
				mk.set(t, markQualified)
			}
		}
	}
	slices.Sort(names)
	for _, id := range names {
		n := c.strs[id]
		ys := w.resolveImported(x, n) // import scope is exact: it wins
		if ys == nil {
			ys = w.resolve(x, n, mk.has(id, markQualified))
		}
		for _, y := range ys {
			kind := devcontext.EdgeCalls
			if y.isType() {
				kind = devcontext.EdgeUsesType
			}
			w.declEdge(kind, x, y)
			w.reach(y, pri, h)
		}
	}
	// Types: every other identifier of the signature and body that names a
	// type declared in x's file or directory.
	cbase := cxBaseName(x.d.Container)
	var typeNames []string
	var sigSeen []string // signature words that are none of the file's strings
	for _, t := range sigIdents(x.d.Signature) {
		if !isIdent(t) || t == x.base || t == cbase { // sigIdents also takes '$' and non-ASCII bytes
			continue
		}
		if id, ok := c.idOf(t); ok {
			if !mk.has(id, markCalled) && !mk.has(id, markSeen) {
				mk.set(id, markSeen)
				typeNames = append(typeNames, t)
			}
		} else if !slices.Contains(sigSeen, t) {
			sigSeen = append(sigSeen, t)
			typeNames = append(typeNames, t)
		}
	}
	for _, id := range ids {
		if flags[id]&tokIdent != 0 && !mk.has(id, markCalled) && !mk.has(id, markSeen) {
			if t := c.strs[id]; t != x.base && t != cbase {
				mk.set(id, markSeen)
				typeNames = append(typeNames, t)
			}
		}
	}
	slices.Sort(typeNames)
	// A name right after "." is a field or method of something else, not
	// one of this package's values.
	if dotOK {
		for i, t := range ids {
			if i > 0 && ids[i-1] == dot {
				mk.set(t, markMember)
			}
		}
	}
	member := func(n string) bool {
		id, ok := c.idOf(n)
		return ok && mk.has(id, markMember)
	}
	for _, n := range typeNames {
		ys := w.resolveImported(x, n)
		if ys == nil {
			ys = w.resolveLocal(x, n)
		}
		for _, y := range ys {
			switch {
			case y.contains(x) || x.contains(y):
			case y.isType():
				w.declEdge(devcontext.EdgeUsesType, x, y)
				w.reach(y, pri*0.6/wCallee, h)
			case member(n) || y.d.Container != "":
			case y.isValue() || y.callable():
				w.declEdge(devcontext.EdgeUsesValue, x, y)
				w.reach(y, pri*0.6/wCallee, h)
			}
		}
	}
	if c := x.d.Container; c != "" {
		for _, y := range w.resolveLocal(x, cxBaseName(c)) {
			if y.isType() && y.d.QualifiedName == c {
				w.declEdge(devcontext.EdgeMethodOf, x, y)
				w.reach(y, pri*wReceiver/wCallee, h)
			}
		}
	}
}

func sigIdents(sig string) []string {
	var out []string
	for i := 0; i < len(sig); {
		if identStart(sig[i]) {
			j := i + 1
			for j < len(sig) && identPart(sig[j]) {
				j++
			}
			out = append(out, sig[i:j])
			i = j
			continue
		}
		i++
	}
	return out
}

// resolveLocal finds declarations named n in x's file, else in the files
// of x's directory that lexically declare n.
func (w *worldBuilder) resolveLocal(x *cxDecl, n string) []*cxDecl {
	var out []*cxDecl
	for _, i := range x.f.c.declsNamed(n) {
		if y := x.f.decls[i]; y != x {
			out = append(out, y)
		}
	}
	if len(out) > 0 {
		return out
	}
	post := w.b.inDir(w.b.lex.declaredIn(n), x.f.dir)
	if len(post) == 0 {
		return nil
	}
	paths := w.candidates(post, x.f, func(_ int32, f *cxFile) bool { return f.dir == x.f.dir && f.path != x.f.path })
	for _, pf := range w.readCandidates(paths, maxDefiningFiles) {
		for _, i := range pf.c.declsNamed(n) {
			out = append(out, pf.decls[i])
		}
	}
	return out
}

func (w *worldBuilder) resolve(x *cxDecl, n string, qualified bool) []*cxDecl {
	keep := func(ys []*cxDecl) []*cxDecl {
		var out []*cxDecl
		for _, y := range ys {
			if y != x && !y.contains(x) && !x.contains(y) && (y.callable() || y.isType()) {
				out = append(out, y)
			}
		}
		return out
	}
	if ys := keep(w.resolveLocal(x, n)); len(ys) > 0 {
		if len(ys) > maxCalleeTargets {
			return nil
		}
		return ys
	}
	if x.f.lang == symbols.Go && !qualified {
		return nil // an unqualified Go call stays in its package
	}
	paths := w.candidates(w.b.lex.declaredIn(n), x.f, func(_ int32, f *cxFile) bool { return f.dir != x.f.dir })
	var ys []*cxDecl
	for _, pf := range w.readCandidates(paths, maxDefiningFiles) {
		for _, i := range pf.c.declsNamed(n) {
			if y := pf.decls[i]; !private(y) {
				ys = append(ys, y)
			}
		}
	}
	ys = keep(ys)
	if len(ys) > maxCalleeTargets {
		return nil
	}
	return ys
}

// findCallers reads the files that mention x's name and links every
// function whose body holds it (its users, for a type). A caller in a
// directory that declares the name itself is taken to mean its own.
func (w *worldBuilder) findCallers(x *cxDecl, pri float64, h int) {
	isType := x.isType()
	paths := w.candidates(w.b.lex.occursIn(x.base), x.f, w.usable(x))
	limit := maxCallerFiles
	if isType {
		limit = maxUserTypeFiles
	}
	for _, pf := range w.readCandidatesFor(paths, limit, true) {
		shadowed := false
		if pf.dir != x.f.dir {
			for _, z := range w.named(x.baseID) {
				if z.f.dir == pf.dir && z.f.family == pf.family && z != x {
					shadowed = true
					break
				}
			}
		}
		if shadowed {
			continue
		}
		holds := pf.c.holdsInOrder(x.base)
		for i, y := range pf.decls {
			held := holds(i)
			if y == x || y.contains(x) || x.contains(y) {
				continue
			}
			if isType && y.d.Container == x.d.QualifiedName && pf.dir == x.f.dir {
				w.declEdge(devcontext.EdgeMethodOf, y, x)
				continue
			}
			if !y.callable() {
				continue
			}
			if isType {
				inSig := false
				if strings.Contains(y.d.Signature, x.base) { // a word of the signature is in it
					sig := sigIdents(y.d.Signature)
					inSig = slices.Contains(sig, x.base) && (y.f.dir == x.f.dir || x.f.lang != symbols.Go || slices.Contains(sig, x.f.pkg))
				}
				if held && uses(y, x) || inSig {
					w.declEdge(devcontext.EdgeUsesType, y, x)
					w.reach(y, pri, h)
				}
				continue
			}
			if held && uses(y, x) {
				kind := devcontext.EdgeCalls
				if x.isValue() {
					kind = devcontext.EdgeUsesValue
				}
				w.declEdge(kind, y, x)
				w.reach(y, pri, h)
			}
		}
	}
}

// linkParsed draws the edges that need no search between declarations
// already in the world: members to their type (method_of) and tests to
// what their names say they test (tested_by).
func (w *worldBuilder) linkParsed() {
	paths := make([]string, 0, len(w.parsed))
	for p, pf := range w.parsed {
		if pf != nil {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		var lastBase int32 // a file's methods are mostly of one type
		var types []*cxDecl
		for _, x := range w.parsed[p].decls {
			if c := x.d.Container; c != "" && !x.isType() {
				if x.cbaseID != lastBase || types == nil {
					lastBase, types = x.cbaseID, w.named(x.cbaseID)
				}
				for _, y := range types {
					if y.isType() && y.f.dir == x.f.dir && y.d.QualifiedName == c && y.f.family == x.f.family {
						w.declEdge(devcontext.EdgeMethodOf, x, y)
					}
				}
			}
			if !x.test {
				continue
			}
			// Where x sits for y depends on y's file only, and a name's
			// declarations come file by file (parse order): asked once
			// per file in a row.
			var sitsF *cxParsed
			var sits bool
			for k, n := range x.testedIDs {
				// A plain tested name (its own base name) names every
				// declaration of that base name: only where the test
				// sits is left to check (namesTested's second half).
				plain := k < 64 && x.testedPlain>>k&1 != 0
				for _, y := range w.named(n) {
					if y.test {
						continue
					}
					if plain {
						if y.f != sitsF {
							sitsF, sits = y.f, w.testSitsFor(x, y)
						}
						if !sits {
							continue
						}
					} else if !w.namesTested(x, y) {
						continue
					}
					w.declEdge(devcontext.EdgeTestedBy, y, x)
				}
			}
		}
	}
}

// ---- history, local changes -----------------------------------------------

// addHistory draws changed_in from each seed declaration to the newest
// commits that changed its tokens (its declaration or body hash differs
// from the version before), and from a file seed to the newest commits
// that changed the file.
func (w *worldBuilder) addHistory() {
	for _, x := range w.roots {
		vers := w.b.history(x.f.path)
		hashAt := func(i int) (string, bool) {
			if vers[i].Deleted || vers[i].Content == nil {
				return "", false
			}
			t := w.s.Table(x.f.lang, vers[i].Content)
			for _, d := range t.Decls {
				if d.Kind == x.d.Kind && d.QualifiedName == x.d.QualifiedName {
					return d.DeclHash + "/" + d.BodyHash, true
				}
			}
			return "", false
		}
		found := 0
		for i := 0; i < len(vers) && found < maxCommitsPerDecl; i++ {
			cur, ok := hashAt(i)
			if !ok {
				break // not in this version: it was added later
			}
			var prev string
			var had bool
			if i+1 < len(vers) {
				prev, had = hashAt(i + 1)
			} else if len(vers) == historyVersions {
				break // the version before is beyond what was read
			}
			if !had || prev != cur {
				w.commit(x.uri, vers[i])
				found++
			}
			if !had {
				break
			}
		}
	}
	if w.fileSeed != "" {
		for i, v := range w.b.history(w.fileSeed) {
			if i >= maxCommitsPerDecl {
				break
			}
			w.commit(devcontext.FileURI(w.fileSeed), v)
		}
	}
}

func (w *worldBuilder) commit(from string, c workspace.GitCommit) {
	uri := devcontext.CommitURI(c.SHA)
	text := c.Subject
	if c.Body != "" {
		text += "\n\n" + c.Body
	}
	facts := map[string]string{}
	if c.Author != "" {
		facts["author"] = c.Author
	}
	w.node(devcontext.Node{URI: uri, Kind: devcontext.KindCommit, Title: c.Subject, Version: c.Time.UTC().Format(time.RFC3339),
		Text: text, Facts: facts})
	w.edge(devcontext.EdgeChangedIn, from, uri)
}

// addLocal adds the uncommitted change of each changed file in scope (the
// cursor's file and requested paths) as a local node; the cursor's file
// carries its hunks, read against HEAD.
func (w *worldBuilder) addLocal(cursor string, paths []string) {
	scopes := append([]string{}, paths...)
	if cursor != "" {
		scopes = append(scopes, cursor)
	}
	for _, f := range w.b.files {
		in := false
		for _, sc := range scopes {
			in = in || sc == "." || f.path == sc || strings.HasPrefix(f.path, sc+"/")
		}
		if !in || !w.b.changed(f.path) {
			continue
		}
		if f.path != cursor {
			w.node(devcontext.Node{URI: devcontext.LocalDiffURI(f.path), Kind: devcontext.KindLocal,
				Title: "uncommitted change to " + f.path, Path: f.path, Bytes: f.size})
			continue
		}
		var old []byte
		if vs := w.b.history(f.path); len(vs) > 0 && !vs[0].Deleted {
			old = vs[0].Content
		}
		cur, _ := w.s.ReadFile(f.path)
		if n, ok := localDiff(f.path, old, cur); ok {
			w.node(n)
		}
	}
}

// searchDiagnostic says how much of the declaration search was cut.
func (w *worldBuilder) searchDiagnostic() []devcontext.Diagnostic {
	if len(w.unread) == 0 {
		return nil
	}
	slices.Sort(w.unread)
	unread := slices.Compact(w.unread)
	n, guarded := 0, 0
	for _, p := range unread {
		if _, ok := w.parsed[p]; !ok {
			n++
			if w.guarded[p] {
				guarded++
			}
		}
	}
	if n == 0 {
		return nil
	}
	return []devcontext.Diagnostic{{Severity: devcontext.SeverityInfo, Code: "search_truncated",
		Message: fmt.Sprintf("the declaration search parsed %d file(s) and left %d candidate file(s) unread%s; callers, callees and tests in them are not in the answer", w.spent, n, guardNote(guarded))}}
}

// guardNote says when the per-request guard, not only the per-name caps,
// left files unread.
func guardNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d refused by the per-request guard of %d files / %d MiB)", n, maxSearchParses, maxSearchBytes>>20)
}
