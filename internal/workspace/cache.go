package workspace

import (
	"crypto/sha256"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// tableCache memoises declaration tables by language and content hash, so
// a file is parsed once however many snapshots and checks see it.
type tableCache struct {
	mu   sync.Mutex
	m    map[[sha256.Size]byte]symbols.Table
	docs map[[sha256.Size]byte]parsedDoc // anchors of a doc, by path and content
	// memos are the features' per-Load memos (Snapshot.LoadMemo).
	memos sync.Map
	// store, when set, persists tables between runs (UseTableStore).
	store TableStore
}

// parsedDoc is one doc's anchors and parse diagnostics. Callers must not
// modify the slices: they are shared by every snapshot with that content.
type parsedDoc struct {
	anchors []anchors.Anchor
	diags   []anchors.Diagnostic
}

// parseDoc memoises anchors.ParseDoc: a diagnosis pass after a keystroke
// re-parses only the doc that changed.
func (c *tableCache) parseDoc(path string, text []byte) parsedDoc {
	key := contentKey(path, text)
	c.mu.Lock()
	d, ok := c.docs[key]
	c.mu.Unlock()
	if ok {
		return d
	}
	as, ds := anchors.ParseDoc(path, text)
	d = parsedDoc{as, ds}
	c.mu.Lock()
	if len(c.docs) >= maxCachedTables {
		c.docs = map[[sha256.Size]byte]parsedDoc{}
	}
	c.docs[key] = d
	c.mu.Unlock()
	return d
}

// maxCachedTables bounds the memo; past it the cache starts over rather
// than growing without end in a long editor session.
const maxCachedTables = 50000

func newTableCache() *tableCache {
	return &tableCache{m: map[[sha256.Size]byte]symbols.Table{}, docs: map[[sha256.Size]byte]parsedDoc{}}
}

func (c *tableCache) parse(lang symbols.Language, src []byte) symbols.Table {
	key := contentKey(string(lang), src)
	c.mu.Lock()
	t, ok := c.m[key]
	store := c.store
	c.mu.Unlock()
	if ok {
		return t
	}
	if store != nil {
		t, ok = stored(store, key, lang)
	}
	if !ok {
		t = symbols.Parse(lang, src, symbols.Options{KeepBodyTokens: true})
		// A table from a parse that gave up (time limit, loaded machine)
		// is not the file's: it is never kept. Key languages are parsed
		// in Go, quickly; they are not kept either.
		if store != nil && !t.GaveUp && !symbols.IsKeyLanguage(lang) {
			store.Put(key, symbols.EncodeTable(t))
		}
	}
	c.mu.Lock()
	if len(c.m) >= maxCachedTables {
		c.m = map[[sha256.Size]byte]symbols.Table{}
	}
	c.m[key] = t
	c.mu.Unlock()
	return t
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
	m  map[string]readResult
}

type readResult struct {
	b  []byte
	st anchors.FileStatus
}

func newReadCache() *readCache { return &readCache{m: map[string]readResult{}} }

func (c *readCache) get(p string, read func() ([]byte, anchors.FileStatus)) ([]byte, anchors.FileStatus) {
	c.mu.Lock()
	r, ok := c.m[p]
	c.mu.Unlock()
	if ok {
		return r.b, r.st
	}
	b, st := read()
	c.mu.Lock()
	c.m[p] = readResult{b, st}
	c.mu.Unlock()
	return b, st
}
