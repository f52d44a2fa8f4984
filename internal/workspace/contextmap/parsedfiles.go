package contextmap

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// A parsed file's declarations, as far as they follow from the file alone
// (its path, content and namespace): the table, line starts, each
// declaration's name, doc-comment start, range, text and outline, and the
// node it becomes. Building them (reading the file, decoding or parsing its
// table, copying texts) was most of a request's cost on a large tree, and
// a new seed's search reaches mostly files an earlier request reached. So
// they are kept per Load, by content, and every world takes them from
// there; what depends on the world — a URI another file's declaration
// already took, the declaration objects the search keys on — is still
// decided per world, in the same order as before (worldBuilder.parse).

// cxContent is one file's world-independent declarations.
type cxContent struct {
	text  string   // the source (contentpack.go: a slice of the pack's kept section)
	strs  []string // the pack's strings, ascending: the body tokens' ids index them
	pkg   string   // Go: the package clause's name
	decls []cxContentDecl

	words     sync.Once
	wordsDone atomic.Bool // words has run
	named     sync.Once   // the declarations' name ids are set (cxContents.name)
	wordKeys  []uint64    // which declarations' bodies hold which words (holders)

	bases    sync.Once
	baseDecl map[string][]int32 // base name → its declarations' indexes, ascending (declsNamed)

	flagsOnce sync.Once
	flags     []uint8 // per string: tokIdent, tokCallable (tokenFlags)
}

// Token flags (cxContent.tokenFlags).
const (
	tokIdent    = 1 << iota // isIdent
	tokCallable             // isIdent, and neither a control word nor a declaration keyword
)

// tokenFlags are what callee resolution asks of each of the file's
// strings, computed once per file (it asked them of every body token of
// every declaration it searched from).
func (c *cxContent) tokenFlags() []uint8 {
	c.flagsOnce.Do(func() {
		c.flags = make([]uint8, len(c.strs))
		for id, t := range c.strs {
			if isIdent(t) {
				c.flags[id] = tokIdent
				if !isControlWord(t) && !isDeclKeyword(t) {
					c.flags[id] |= tokCallable
				}
			}
		}
	})
	return c.flags
}

// cxContentDecl is one declaration of a cxContent.
type cxContentDecl struct {
	d     *cxSym
	base  string
	cbase string // the container's base name, "" without one
	kc    kindClass
	// baseID, cbaseID and testedIDs are base, cbase and the tested
	// names' base names as the Load's name ids (a world's byBase is
	// indexed by them: no string is hashed per declaration per world).
	baseID, cbaseID int32
	testedIDs       []int32
	// testedPlain has bit k set when tested[k] is its own base name
	// (cxBaseName): every declaration of base name testedIDs[k] is then
	// named by it (linkParsed needs no string compare).
	testedPlain uint64
	test        bool
	tested      []string // a test's testedNames
	uri         string   // before a duplicate's suffix (worldBuilder.parse)
	uid         int32    // uri's id (cxContents.uid), set with the name ids
	start       int
	// node is the declaration's node under uri, shared by every world
	// that takes it under that uri (read-only: a world whose uri for it
	// is suffixed makes its own copy).
	node devcontext.Node
}

// cxContentKey is everything a cxContent depends on: the path (the
// node's, an init's URI suffix, test naming), the content by its blob id,
// the language and the namespace the URIs are in.
type cxContentKey struct {
	path, blob, importPath string
	lang                   symbols.Language
}

// maxContentDecls bounds the declarations a Load keeps (about 0.5 KiB
// each beside the table the snapshot's cache holds anyway): the worlds of
// a few dozen net/http seeds on GOROOT.
var maxContentDecls = 200_000

// cxContents is a Load's kept contents, least recently used first out.
type cxContents struct {
	mu    sync.Mutex
	m     map[cxContentKey]*list.Element
	lru   list.List // of *cxContentEntry, most recent at the front
	decls int
	// names are the base names of the kept declarations, by id (1 up):
	// ids outlive eviction, so a world's byBase indexes stay valid.
	nmu   sync.Mutex
	names map[string]int32
	// uids are declaration URIs by id (1 up), under nmu: a world finds
	// its declaration nodes by id (worldBuilder.byUID), not through a
	// map of its own. Like names, ids outlive eviction.
	uids map[string]int32
	// largest is the size of the largest world built on this Load, the
	// next world's starting size (a new snapshot's too: an edit's world
	// is the size of the one before it).
	largest worldSize
}

func (cs *cxContents) size() worldSize {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.largest
}

func (cs *cxContents) grow(w *worldBuilder) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	w.grow(&cs.largest)
}

type cxContentEntry struct {
	key cxContentKey
	c   *cxContent
}

type cxContentsKey struct{}

func loadContents(s *workspace.Snapshot) *cxContents {
	return s.LoadMemo(cxContentsKey{}, func() any { return &cxContents{m: map[cxContentKey]*list.Element{}} }).(*cxContents)
}

func (cs *cxContents) get(k cxContentKey) *cxContent {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	e, ok := cs.m[k]
	if !ok {
		return nil
	}
	cs.lru.MoveToFront(e)
	return e.Value.(*cxContentEntry).c
}

func (cs *cxContents) put(k cxContentKey, c *cxContent) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, ok := cs.m[k]; ok {
		return
	}
	cs.m[k] = cs.lru.PushFront(&cxContentEntry{k, c})
	cs.decls += len(c.decls)
	for cs.decls > maxContentDecls && cs.lru.Len() > 1 {
		old := cs.lru.Back()
		e := old.Value.(*cxContentEntry)
		cs.lru.Remove(old)
		delete(cs.m, e.key)
		cs.decls -= len(e.c.decls)
	}
}

// contentKey is f's key in this world.
func (w *worldBuilder) contentKey(f cxFile) cxContentKey {
	return cxContentKey{path: f.path, blob: f.blob, importPath: w.b.importPath(f.path, f.lang), lang: f.lang}
}

// content is code file f's declarations: this world's, else the Load's,
// else read and built (nil when the file cannot be read).
func (w *worldBuilder) content(f cxFile) *cxContent {
	if c, ok := w.contents[f.path]; ok {
		return c
	}
	if c, ok := w.takePending(f.path); ok {
		w.contents[f.path] = c
		return c
	}
	k := w.contentKey(f)
	c := w.b.contents.get(k)
	if c == nil {
		c = buildContent(w.s, w.b, f, k)
	}
	w.contents[f.path] = c
	return c
}

// buildContent takes f's declarations from its pack in the persistent
// store (contentpack.go), else reads f, takes its table and builds them
// (and stores the pack), and keeps them in the Load's contents.
func buildContent(s *workspace.Snapshot, b *ctxBase, f cxFile, k cxContentKey) *cxContent {
	store := s.PersistentStore()
	// An unsaved buffer's versions are not stored (nor are their tables).
	packable := store != nil && !f.overlay && f.st == anchors.FileOK
	var key [sha256.Size]byte
	if packable {
		key = contentPackKey(k, f.test)
		if c := storedContent(store, key, f); c != nil {
			b.contents.put(k, c)
			return c
		}
	}
	src, st := s.ReadFile(f.path)
	if st != anchors.FileOK {
		return nil
	}
	tab := contentTable(s, f.lang, src)
	data := encodeContent(f, k.importPath, src, tab)
	// A table from a parse that gave up is not the file's; a file that
	// changed since the base saw it is not f.blob's content.
	if packable && !tab.GaveUp && gitBlobID(src) == f.blob {
		store.Put(key, data)
	}
	c := mustDecodeContent(data, f)
	b.contents.put(k, c)
	return c
}

// contentTable is the table a content is built from: a Go file's
// declarations as the lexers read them where they accept it
// (symbols.LexGoOutline: Parse's, but the hashes, which a content does
// not keep), else the snapshot's table. Parsing the few hundred files a
// new seed's search reaches was most of a first request's cost.
func contentTable(s *workspace.Snapshot, lang symbols.Language, src []byte) symbols.Table {
	if lang == symbols.Go {
		if decls, ok := symbols.LexGoOutline(src); ok {
			return symbols.Table{Language: lang, Decls: decls}
		}
	}
	return s.Table(lang, src)
}

// bufferedStore is a store that reads an entry into a caller's buffer
// (disk.TableStore.GetInto).
type bufferedStore interface {
	GetInto(key [sha256.Size]byte, buf []byte) (payload, grown []byte, ok bool)
}

// packBufs are the buffers packs are read into: decodeContent keeps
// nothing of its input, so a new seed's few hundred reads reuse a few
// buffers instead of allocating an entry each (an entry over 4 MiB is
// read into a buffer of its own, not kept).
var packBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPackBuf = 4 << 20

// storedContent is the content f's pack in store decodes to, nil when
// there is none or it is refused.
func storedContent(store workspace.TableStore, key [sha256.Size]byte, f cxFile) *cxContent {
	bs, ok := store.(bufferedStore)
	if !ok {
		data, ok := store.Get(key)
		if !ok {
			return nil
		}
		c, _ := decodeContent(data, f)
		return c
	}
	bp := packBufs.Get().(*[]byte)
	defer packBufs.Put(bp)
	data, grown, ok := bs.GetInto(key, *bp)
	if cap(grown) <= maxPackBuf {
		*bp = grown[:0]
	}
	if !ok {
		return nil
	}
	c, _ := decodeContent(data, f)
	return c
}

// newContent is code file f's declarations (import path ip) from its
// source and table, through the pack a store would keep.
func newContent(f cxFile, ip string, src []byte, tab symbols.Table) *cxContent {
	if f.blob == "" {
		f.blob = gitBlobID(src)
	}
	return mustDecodeContent(encodeContent(f, ip, src, tab), f)
}

func mustDecodeContent(data []byte, f cxFile) *cxContent {
	c, err := decodeContent(data, f)
	if err != nil {
		panic("contextmap: a content pack just encoded does not decode: " + f.path)
	}
	return c
}

// holders is a prefilter of which declarations' bodies hold the token
// name: a run of keys whose low 32 bits are declaration indexes, in
// ascending order. It may name declarations that do not hold it (two
// words of one hash), never leave out one that does, so a caller still
// checks the body of each it names — and only those. The search asks it
// of every candidate file of every caller and test search, where scanning
// every declaration's body was most of a new seed's cost; it is built
// once per file, on first use, and kept with the file's declarations.
func (c *cxContent) holders(name string) []uint64 {
	if !isWord(name) { // not indexed (indexWords keeps words only): every declaration may hold it
		all := make([]uint64, len(c.decls))
		for i := range all {
			all[i] = uint64(i)
		}
		return all
	}
	c.indexWordsOnce()
	h := wordKey(name, 0)
	keys := c.wordKeys
	i, _ := slices.BinarySearch(keys, h)
	j := i
	for j < len(keys) && keys[j]&^0xffffffff == h {
		j++
	}
	return keys[i:j:j]
}

// holdsInOrder asks holders once for a walk of the file's declarations
// in index order: holds(i) reports whether declaration i may hold name,
// for each i from 0 up, each asked once.
func (c *cxContent) holdsInOrder(name string) func(i int) bool {
	may := c.holders(name)
	return func(i int) bool {
		for len(may) > 0 && uint32(may[0]) < uint32(i) {
			may = may[1:]
		}
		if len(may) > 0 && uint32(may[0]) == uint32(i) {
			may = may[1:]
			return true
		}
		return false
	}
}

// declsNamed are the indexes of the declarations whose base name is n,
// ascending: the file's declarations filtered by base name, without the
// walk (callee resolution asks it of a file once per name of every
// declaration it searches from, a few thousand times per new seed). The
// index is built on first use and kept with the file's declarations.
func (c *cxContent) declsNamed(n string) []int32 {
	c.bases.Do(func() {
		order := make([]int32, len(c.decls))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortStableFunc(order, func(i, j int32) int { return strings.Compare(c.decls[i].base, c.decls[j].base) })
		c.baseDecl = make(map[string][]int32)
		for lo := 0; lo < len(order); {
			hi := lo + 1
			for hi < len(order) && c.decls[order[hi]].base == c.decls[order[lo]].base {
				hi++
			}
			c.baseDecl[c.decls[order[lo]].base] = order[lo:hi:hi]
			lo = hi
		}
	})
	return c.baseDecl[n]
}

func (c *cxContent) indexWordsOnce() {
	c.words.Do(func() {
		c.indexWords()
		c.wordsDone.Store(true)
	})
}

// indexWords builds wordKeys: (hash of a body word, declaration index),
// sorted, each once. Only words (identifiers and numbers: tokens of
// identifier bytes) are kept — the search asks for names, and holders
// answers every declaration for anything else. Body tokens are ids into
// the file's strings: each string is tested and hashed once, and a
// declaration's repeated words are keyed once before the sort.
func (c *cxContent) indexWords() {
	hi := make([]uint64, len(c.strs)) // per string: wordKey(w, 0) | 1 for a word, else 0
	for id, w := range c.strs {
		if isWord(w) {
			hi[id] = wordKey(w, 0) | 1
		}
	}
	seen := make([]int32, len(c.strs)) // per string: 1 + the last declaration keyed for it
	n := 0                             // the keys: counted first, so the kept slice is their size
	for i := range c.decls {
		for _, id := range c.decls[i].d.Body.ids {
			if hi[id] != 0 && seen[id] != int32(i)+1 {
				seen[id] = int32(i) + 1
				n++
			}
		}
	}
	clear(seen)
	keys := make([]uint64, 0, n)
	for i := range c.decls {
		for _, id := range c.decls[i].d.Body.ids {
			if v := hi[id]; v != 0 && seen[id] != int32(i)+1 {
				seen[id] = int32(i) + 1
				keys = append(keys, v&^0xffffffff|uint64(i)) // wordKey(w, i)
			}
		}
	}
	sortWordKeys(keys)
	c.wordKeys = slices.Compact(keys)
}

// isWord reports a non-empty token of identifier bytes only.
func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if !identPart(s[i]) {
			return false
		}
	}
	return s != ""
}

// sortWordKeys sorts keys whose low halves (declaration indexes) already
// ascend in slice order: stable passes of 8 bits over the high half alone
// finish the sort. (radixSort's 16-bit passes clear and sum 65,536 counts
// per pass, which costs more than a file's few thousand keys.)
func sortWordKeys(keys []uint64) {
	if len(keys) < 128 {
		slices.Sort(keys)
		return
	}
	var count [256]int
	radixPasses(keys, 32, 8, count[:])
}

// wordKey is a body token's key in wordKeys: the low 32 bits of its
// identifier hash, then the declaration's index.
func wordKey(token string, decl int) uint64 {
	return uint64(uint32(identHash(token)))<<32 | uint64(decl)
}

// declarationFacts is the facts of a declaration node of a kind: one map
// per kind, shared (read-only: devcontext clones facts before adding).
func declarationFacts(kind string) map[string]string {
	if m, ok := kindFacts.Load(kind); ok {
		return m.(map[string]string)
	}
	m, _ := kindFacts.LoadOrStore(kind, map[string]string{"declaration": kind})
	return m.(map[string]string)
}

var kindFacts sync.Map // declaration kind → its facts

// OutlineOf is a declaration's outline, the line an outline or skeleton
// entry shows of it: its signature (whitespace collapsed), else its first
// line.
func OutlineOf(d *symbols.Decl, src []byte) string {
	if sig := strings.TrimSpace(d.Signature); sig != "" {
		return sig
	}
	line, _, _ := bytes.Cut(src[d.StartByte:d.EndByte], []byte("\n"))
	return strings.Join(strings.Fields(string(line)), " ")
}

// kindClass is which of the search's kind sets a declaration's kind is
// in (callableKinds, typeKinds, valueKinds), decided once per kept
// declaration instead of a map read per visit.
type kindClass uint8

const (
	kcCallable kindClass = 1 << iota
	kcType
	kcValue
)

func classOf(kind string) kindClass {
	var c kindClass
	if callableKinds[kind] {
		c |= kcCallable
	}
	if typeKinds[kind] {
		c |= kcType
	}
	if valueKinds[kind] {
		c |= kcValue
	}
	return c
}

func (x *cxDecl) callable() bool { return x.kc&kcCallable != 0 }
func (x *cxDecl) isType() bool   { return x.kc&kcType != 0 }
func (x *cxDecl) isValue() bool  { return x.kc&kcValue != 0 }

// nameCount is how many name ids there are (the largest id + 1).
func (cs *cxContents) nameCount() int {
	cs.nmu.Lock()
	defer cs.nmu.Unlock()
	return len(cs.names) + 1
}

// uidCount is how many URI ids there are (the largest id + 1).
func (cs *cxContents) uidCount() int {
	cs.nmu.Lock()
	defer cs.nmu.Unlock()
	return len(cs.uids) + 1
}

// uid is uri's id, made when it has none.
func (cs *cxContents) uid(uri string) int32 {
	cs.nmu.Lock()
	defer cs.nmu.Unlock()
	return cs.uidLocked(uri)
}

func (cs *cxContents) uidLocked(uri string) int32 {
	if i, ok := cs.uids[uri]; ok {
		return i
	}
	if cs.uids == nil {
		cs.uids = map[string]int32{}
	}
	i := int32(len(cs.uids)) + 1
	cs.uids[uri] = i
	return i
}

// uidIfAny is uri's id, 0 when it has none (then no world has a node
// for it).
func (cs *cxContents) uidIfAny(uri string) int32 {
	cs.nmu.Lock()
	defer cs.nmu.Unlock()
	return cs.uids[uri]
}

// name sets c's declarations' name ids and URI ids, once per content.
func (cs *cxContents) name(c *cxContent) {
	c.named.Do(func() {
		cs.nmu.Lock()
		defer cs.nmu.Unlock()
		if cs.names == nil {
			cs.names = map[string]int32{}
		}
		id := func(s string) int32 {
			if i, ok := cs.names[s]; ok {
				return i
			}
			i := int32(len(cs.names)) + 1
			cs.names[s] = i
			return i
		}
		for i := range c.decls {
			d := &c.decls[i]
			d.uid = cs.uidLocked(d.uri)
			d.baseID = id(d.base)
			if d.d.Container != "" {
				d.cbaseID = id(d.cbase)
			}
			if len(d.tested) > 0 {
				d.testedIDs = make([]int32, len(d.tested))
				for k, n := range d.tested {
					b := cxBaseName(n)
					d.testedIDs[k] = id(b)
					if b == n && k < 64 {
						d.testedPlain |= 1 << k
					}
				}
			}
		}
	})
}
