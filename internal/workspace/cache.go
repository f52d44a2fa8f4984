package workspace

import (
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// tableCache memoises declaration tables by language and content hash, so
// a file is parsed once however many snapshots and checks see it. It is a
// fixed-size LRU: a long editor session that sees thousands of buffer
// versions keeps the most recently used tables only.
type tableCache struct {
	tables *lru[tableKey, symbols.Table]
	docs   *lru[[sha256.Size]byte, parsedDoc] // anchors of a doc, by path and content
	// memos are the features' per-Load memos (Snapshot.LoadMemo).
	memos sync.Map
	// versions are the doc cache's keys per path, oldest first.
	versionsMu    sync.Mutex
	versions      map[string][][sha256.Size]byte
	tableVersions map[string][]tableKey // the same for open buffers' tables
	// store, when set, persists tables between runs (UseTableStore).
	storeMu sync.Mutex
	store   TableStore
	// reparse keeps the syntax trees of the last few open buffers parsed,
	// so the next version of one is parsed incrementally (parseVersion).
	reparse *symbols.Reparser
}

// reparseTrees is how many buffers' syntax trees are kept for incremental
// parsing: the few files being typed in (a tree costs a few times its
// file's size, outside Go's heap).
const reparseTrees = 4

type tableKey struct {
	lang symbols.Language
	sum  [sha256.Size]byte
}

// parsedDoc is one doc's anchors and parse diagnostics. Callers must not
// modify the slices: they are shared by every snapshot with that content.
type parsedDoc struct {
	anchors []anchors.Anchor
	diags   []anchors.Diagnostic
	// keys are the anchors' memo keys (anchorKey, hashed), computed once
	// per doc version instead of once per anchor and check; paths are the
	// anchors' hinted paths, sorted, each once.
	keys  [][sha256.Size]byte
	paths []string
}

// Cache sizes, in entries. The table cache holds what one check of a large
// repository needs (the hinted files and the files a repository-wide pass
// parsed) with room to spare; docs are few.
var cacheLimits = struct{ tables, docs int }{tables: 8192, docs: 256}

func newTableCache() *tableCache {
	return &tableCache{
		tables:  newLRU[tableKey, symbols.Table](cacheLimits.tables),
		docs:    newLRU[[sha256.Size]byte, parsedDoc](cacheLimits.docs),
		reparse: symbols.NewReparser(reparseTrees),
	}
}

// parseDoc memoises anchors.ParseDoc: a diagnosis pass after a keystroke
// re-parses only the doc that changed.
func (c *tableCache) parseDoc(path string, text []byte) parsedDoc {
	return c.parseDocSum(path, docContent{b: text}, sha256.Sum256(text))
}

// docContent is a doc's bytes and, when they were read from disk, the
// read whose one string copy a parse uses (made only on a memo miss).
type docContent struct {
	b []byte
	r *readResult
}

func (d docContent) text() string {
	if d.r != nil {
		return d.r.text()
	}
	return string(d.b)
}

// parseDocSum is parseDoc when the content's hash is known already (a
// check reads it with the doc: a 100 KB doc is not hashed again on every
// keystroke elsewhere).
func (c *tableCache) parseDocSum(path string, text docContent, sum [sha256.Size]byte) parsedDoc {
	key := (&keyer{}).str(path).sum(sum).done()
	if d, ok := c.docs.get(key); ok {
		return d
	}
	as, ds := anchors.ParseDocText(path, text.text())
	old, _ := c.newestDoc(path)
	detach(as, old.anchors)
	d := parsedDoc{anchors: as, diags: ds, keys: make([][sha256.Size]byte, len(as))}
	// What an edit did not change is taken from the previous version:
	// the key of an anchor equal to the one at its place there (counted
	// from either end, as in detach), and the hinted paths when every
	// anchor's is the same.
	shift := len(as) - len(old.anchors)
	samePaths := shift == 0
	var k keyer
	for i, a := range as {
		f := keyFieldsOf(a)
		if i < len(old.anchors) && keyFieldsOf(old.anchors[i]) == f {
			d.keys[i] = old.keys[i]
		} else if j := i - shift; j >= 0 && j < len(old.anchors) && keyFieldsOf(old.anchors[j]) == f {
			d.keys[i] = old.keys[j]
		} else {
			k.h = k.h[:0]
			d.keys[i] = anchorKey(&k, a).done()
		}
		samePaths = samePaths && a.Path == old.anchors[i].Path
	}
	d.paths = old.paths
	if !samePaths || old.paths == nil {
		d.paths = hintedPaths(as)
	}
	c.docs.put(key, d)
	c.keepVersions(path, key)
	return d
}

// newestDoc is the newest cached parse of path, if any.
func (c *tableCache) newestDoc(path string) (parsedDoc, bool) {
	c.versionsMu.Lock()
	v := c.versions[path]
	c.versionsMu.Unlock()
	if len(v) == 0 {
		return parsedDoc{}, false
	}
	return c.docs.get(v[len(v)-1])
}

// docVersions is how many versions of one doc the cache keeps: the doc
// being edited is parsed again on every keystroke, and a large doc's
// anchors weigh hundreds of KiB, so 256 versions of it would hold most of
// the server's memory while only the newest few are asked for again.
const docVersions = 4

// parseVersion is parseSum for an open buffer's content: like the doc
// cache, the table cache keeps only the newest few versions of a file
// being edited (tables keep body tokens: a large file's weighs a lot).
// A buffer's table is taken from the persistent store when it is there (a
// buffer just opened holds the disk's content) but never written to it:
// every keystroke's version would be a file in the user's cache directory,
// written on the keystroke's clock, and read by no later run. A version
// that must be parsed is parsed incrementally from the last parsed version
// of the same buffer when its tree is still kept (symbols.Reparser: the
// same table as a fresh parse).
func (c *tableCache) parseVersion(path string, lang symbols.Language, sum [sha256.Size]byte, src []byte) symbols.Table {
	t := c.parseStored(lang, sum, src, false, path)
	c.versionsMu.Lock()
	defer c.versionsMu.Unlock()
	if c.tableVersions == nil {
		c.tableVersions = map[string][]tableKey{}
	}
	k := tableKey{lang, sum}
	v := c.tableVersions[path]
	if len(v) > 0 && v[len(v)-1] == k {
		return t
	}
	v = append(v, k)
	for len(v) > docVersions {
		if !slices.Contains(v[1:], v[0]) {
			c.tables.remove(v[0])
		}
		v = v[1:]
	}
	c.tableVersions[path] = v
	return t
}

// keepVersions records key as path's newest version and drops the versions
// of path beyond docVersions.
func (c *tableCache) keepVersions(path string, key [sha256.Size]byte) {
	c.versionsMu.Lock()
	defer c.versionsMu.Unlock()
	if c.versions == nil {
		c.versions = map[string][][sha256.Size]byte{}
	}
	v := append(c.versions[path], key)
	for len(v) > docVersions {
		c.docs.remove(v[0])
		v = v[1:]
	}
	c.versions[path] = v
}

func (c *tableCache) parse(lang symbols.Language, src []byte) symbols.Table {
	return c.parseSum(lang, sha256.Sum256(src), src)
}

// parseSum is parse when the content's hash is known already.
func (c *tableCache) parseSum(lang symbols.Language, sum [sha256.Size]byte, src []byte) symbols.Table {
	return c.parseStored(lang, sum, src, true, "")
}

// parseStored is parseSum; put says whether a table parsed here goes to
// the persistent store, and buffer, when not empty, is the open buffer src
// is a version of (parsed through c.reparse).
func (c *tableCache) parseStored(lang symbols.Language, sum [sha256.Size]byte, src []byte, put bool, buffer string) symbols.Table {
	if t, ok := c.storedSum(lang, sum); ok {
		return t
	}
	var t symbols.Table
	if buffer != "" {
		t = c.reparse.Parse(buffer, lang, src, symbols.Options{KeepBodyTokens: true})
	} else {
		t = symbols.Parse(lang, src, symbols.Options{KeepBodyTokens: true})
	}
	// A table from a parse that gave up (time limit, loaded machine) is
	// not the file's: it is never kept. Key languages are parsed in Go,
	// quickly; they are not kept either.
	if store := c.persistent(); put && store != nil && !t.GaveUp && !symbols.IsKeyLanguage(lang) {
		store.Put(storeKey(lang, sum), symbols.EncodeTable(t))
	}
	c.tables.put(tableKey{lang, sum}, t)
	return t
}

// storedSum returns a table without the content: memoised, else from the
// persistent store, then memoised (false when neither has it).
func (c *tableCache) storedSum(lang symbols.Language, sum [sha256.Size]byte) (symbols.Table, bool) {
	key := tableKey{lang, sum}
	if t, ok := c.tables.get(key); ok {
		return t, true
	}
	store := c.persistent()
	if store == nil {
		return symbols.Table{}, false
	}
	t, ok := stored(store, storeKey(lang, sum), lang)
	if ok {
		c.tables.put(key, t)
	}
	return t, ok
}

// lookup returns a memoised table without the content (false when it was
// never parsed or has been evicted).
func (c *tableCache) lookup(lang symbols.Language, sum [sha256.Size]byte) (symbols.Table, bool) {
	return c.tables.get(tableKey{lang, sum})
}

// contentKey identifies derived data by what it was derived from: a name
// (language or path) and the bytes.
func contentKey(name string, content []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(content)
	var key [sha256.Size]byte
	copy(key[:], h.Sum(nil))
	return key
}

// readCache makes a snapshot idempotent: the first read of a path is the
// answer for the snapshot's whole life.
type readCache struct {
	mu sync.Mutex
	m  map[string]*readResult
	// inflight holds the reads under way: a second asker of the same path
	// waits for the first instead of reading it again (verify reads the
	// law from two goroutines at once: the claims preparation and the
	// anchors' doc pass).
	inflight map[string]*flight

	statMu sync.Mutex
	stat   map[string]FileStat // the first stat of each path (FileStats)
}

// stats are paths' first stats, those not taken yet through statFiles
// (in one call).
func (c *readCache) stats(paths []string, statFiles func([]string) []FileStat) []FileStat {
	out := make([]FileStat, len(paths))
	var todo []string
	var at []int
	c.statMu.Lock()
	for i, p := range paths {
		if st, ok := c.stat[p]; ok {
			out[i] = st
		} else {
			todo = append(todo, p)
			at = append(at, i)
		}
	}
	c.statMu.Unlock()
	if len(todo) == 0 {
		return out
	}
	got := statFiles(todo)
	c.statMu.Lock()
	if c.stat == nil {
		c.stat = make(map[string]FileStat, len(paths))
	}
	for k, i := range at {
		if st, ok := c.stat[todo[k]]; ok {
			out[i] = st // another caller's stat came first: it is the answer
			continue
		}
		c.stat[todo[k]] = got[k]
		out[i] = got[k]
	}
	c.statMu.Unlock()
	return out
}

// flight is one read under way: get's own (r set before done closes) or
// a Preload batch's (r nil: the waiter looks again once done closes).
type flight struct {
	done chan struct{}
	r    *readResult
}

type readResult struct {
	b  []byte
	st anchors.FileStatus

	sumOnce sync.Once
	sum     [sha256.Size]byte // of b, computed on first use

	strOnce sync.Once
	str     string // b as a string, made on first use (docText)
}

// text is the content as one string, copied once per read: a doc's anchor
// parse and its mention scan both slice it.
func (r *readResult) text() string {
	r.strOnce.Do(func() { r.str = string(r.b) })
	return r.str
}

func (r *readResult) hash() [sha256.Size]byte {
	r.sumOnce.Do(func() { r.sum = sha256.Sum256(r.b) })
	return r.sum
}

func newReadCache() *readCache { return &readCache{m: map[string]*readResult{}} }

func (c *readCache) get(p string, read func() ([]byte, anchors.FileStatus)) *readResult {
	c.mu.Lock()
	if r, ok := c.m[p]; ok {
		c.mu.Unlock()
		return r
	}
	if f, ok := c.inflight[p]; ok {
		c.mu.Unlock()
		<-f.done
		if f.r != nil {
			return f.r
		}
		// A batch (Preload) stored its answer, or failed on this path, or
		// the first read panicked: ask again.
		return c.get(p, read)
	}
	f := &flight{done: make(chan struct{})}
	if c.inflight == nil {
		c.inflight = map[string]*flight{}
	}
	c.inflight[p] = f
	c.mu.Unlock()
	defer func() { // after the store below
		if f.r == nil { // read panicked
			c.mu.Lock()
			delete(c.inflight, p)
			c.mu.Unlock()
		}
		close(f.done)
	}()
	b, st := read()
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.inflight, p)
	r, ok := c.m[p]
	if !ok { // else a batch (Preload) stored it first: one answer per snapshot
		r = &readResult{b: b, st: st}
		c.m[p] = r
	}
	f.r = r
	return r
}
