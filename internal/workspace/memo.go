package workspace

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// checkMemo is what the checks of successive snapshots of one disk state
// share, so that an editor's keystroke costs what it changed and not a
// whole verify. A snapshot made by WithOverlays (a buffer changed) keeps
// its parent's memo; Load and Relist (the disk changed) start a new one,
// and so does a change of the configuration.
//
// Every entry is keyed by what it was computed from: file contents by their
// SHA-256, anchors by the fields resolution reads, indexes by the list of
// (path, content) they hold. Only the per-file facts of files on disk are
// keyed by path, which is sound because the disk does not change under one
// memo. An answer taken from the memo is therefore the answer a fresh check
// computes; the equivalence tests check exactly that. Every memo is a
// fixed-size LRU, so a long session holds a bounded amount.
type checkMemo struct {
	cfg string // the configuration the memo was made under

	origins *lru[string, []string] // pinned body tokens from history, by path and pin
	pre     *lru[preKey, [2]bool]  // preExisting's answers (existed, known)
	pins    *lru[string, string]   // the commit that wrote a pin, by doc and pin

	cheap *lru[[sha256.Size]byte, *anchors.Index] // the hinted files' index, by fingerprint
	wide  *lru[[sha256.Size]byte, *anchors.Index] // a repository-wide pass's files, by fingerprint

	settled *lru[cheapKey, anchors.Result]          // verdicts read off the hinted file alone
	open    *lru[cheapKey, struct{}]                // the same keys, for anchors stage 1 does not settle
	final   *lru[[sha256.Size]byte, anchors.Result] // verdicts after a repository-wide pass
	sugg    *lru[suggKey, []anchors.Suggestion]     // one file's suggestions for a lost anchor

	wants  *lru[[sha256.Size]byte, *wantSet]  // per need: which disk files its prefilter accepts
	combos *lru[[sha256.Size]byte, *comboSet] // per set of needs: the same, one lookup per file
	cands  *lru[[sha256.Size]byte, []string]  // candidate files of a repository-wide pass
	parts  *lru[[sha256.Size]byte, *widePart] // a repository-wide pass's answer for the disk files

	factsMu sync.Mutex
	facts   map[string]diskFact // disk files scanned by a repository-wide pass

	baseMu    sync.Mutex
	cheapBase *cheapBase // the last hinted files' index built whole

	docsOnce sync.Once
	docs     []string // the listed files that are docs
}

// diskFact is what a repository-wide pass learnt about a disk file; sum
// is its content hash when hashed (only a file some need wanted is).
type diskFact struct {
	st     anchors.FileStatus
	size   int
	sum    [sha256.Size]byte
	hashed bool
}

func (m *checkMemo) putFact(p string, f diskFact) {
	m.factsMu.Lock()
	m.facts[p] = f
	m.factsMu.Unlock()
}

// comboSet is the prefilter's answer for one set of needs per disk file.
type comboSet struct {
	mu sync.Mutex
	m  map[string]comboEntry
}

type comboEntry struct {
	fact   diskFact
	wanted bool
}

func (c *comboSet) get(p string) (comboEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[p]
	return e, ok
}

func (c *comboSet) put(p string, e comboEntry) {
	c.mu.Lock()
	c.m[p] = e
	c.mu.Unlock()
}

// wantSet is one need's prefilter answer per disk file.
type wantSet struct {
	mu sync.Mutex
	m  map[string]bool
}

// memoLimits are the memo sizes, in entries (variables so a test can
// shrink them and watch a long session stay within them).
var memoLimits = struct {
	indexes, verdicts, suggestions, needs, history int
}{
	indexes:     4, // hinted-file and repository-wide indexes, candidate lists, need sets
	verdicts:    8192,
	suggestions: 16384,
	needs:       64,
	history:     1024,
}

func newCheckMemo(cfg Config) *checkMemo {
	return &checkMemo{
		cfg:     configKey(cfg),
		origins: newLRU[string, []string](memoLimits.history),
		pins:    newLRU[string, string](memoLimits.history),
		cheap:   newLRU[[sha256.Size]byte, *anchors.Index](memoLimits.indexes),
		wide:    newLRU[[sha256.Size]byte, *anchors.Index](memoLimits.indexes),
		settled: newLRU[cheapKey, anchors.Result](memoLimits.verdicts),
		open:    newLRU[cheapKey, struct{}](memoLimits.verdicts),
		pre:     newLRU[preKey, [2]bool](memoLimits.history),
		final:   newLRU[[sha256.Size]byte, anchors.Result](memoLimits.verdicts),
		sugg:    newLRU[suggKey, []anchors.Suggestion](memoLimits.suggestions),
		wants:   newLRU[[sha256.Size]byte, *wantSet](memoLimits.needs),
		combos:  newLRU[[sha256.Size]byte, *comboSet](memoLimits.indexes),
		cands:   newLRU[[sha256.Size]byte, []string](memoLimits.indexes),
		parts:   newLRU[[sha256.Size]byte, *widePart](memoLimits.indexes),
		facts:   map[string]diskFact{},
	}
}

func configKey(c Config) string { return fmt.Sprintf("%#v", c) }

// MemoSizes reports how many entries each of the snapshot's memos holds
// (tables, docs, verdicts, …): tests check that a long session stays
// within the fixed sizes.
func (s *Snapshot) MemoSizes() map[string]int {
	m := s.memo
	m.factsMu.Lock()
	facts := len(m.facts)
	m.factsMu.Unlock()
	return map[string]int{
		"tables": s.tables.tables.len(), "docs": s.tables.docs.len(),
		"origins": m.origins.len(), "pins": m.pins.len(), "cheap": m.cheap.len(), "wide": m.wide.len(),
		"settled": m.settled.len(), "open": m.open.len(), "pre-existing": m.pre.len(), "final": m.final.len(), "suggestions": m.sugg.len(),
		"needs": m.wants.len(), "need-sets": m.combos.len(), "candidates": m.cands.len(), "wide-parts": m.parts.len(), "facts": facts,
	}
}

// cheapKey is what a verdict read off the hinted file is computed from:
// the anchor (anchorKey, hashed once per doc version) and that file's
// status and content hash, or, for a SQL file (sql), the hash of its
// folder's paths, statuses and hashes in sum. A keystroke looks up a
// thousand of these: no hashing per anchor.
type cheapKey struct {
	anchor [sha256.Size]byte
	sum    [sha256.Size]byte
	st     anchors.FileStatus
	sql    bool
}

// suggKey is what one file's suggestions for a lost anchor are computed
// from: the anchor with the pinned body's tokens (hashed once per anchor
// and check), the file's path and its content's hash. A lost anchor's
// suggestions look up one per indexed file (a thousand on a large
// workspace): no hashing per file.
type suggKey struct {
	anchor [sha256.Size]byte
	path   string
	sum    [sha256.Size]byte
}

// keyer builds a memo key from the parts something was computed from.
type keyer struct{ h []byte }

func (k *keyer) str(s string) *keyer {
	k.h = binary.AppendUvarint(k.h, uint64(len(s)))
	k.h = append(k.h, s...)
	return k
}

func (k *keyer) int(n int) *keyer {
	k.h = binary.AppendVarint(k.h, int64(n))
	return k
}

func (k *keyer) sum(s [sha256.Size]byte) *keyer {
	k.h = append(k.h, s[:]...)
	return k
}

func (k *keyer) done() [sha256.Size]byte { return sha256.Sum256(k.h) }

// anchorKey is every field of an anchor that resolution reads (not its
// place in the doc: moving an anchor's line does not change its verdict),
// plus the doc, whose history says when the pin was written.
func anchorKey(k *keyer, a anchors.Anchor) *keyer {
	f := keyFieldsOf(a)
	return k.str(f.doc).str(f.form).str(f.kind).str(f.name).str(f.path).
		int(f.start).int(f.end).str(f.section).str(f.decl).str(f.body).int(f.scheme)
}

// keyFields are the fields anchorKey reads: two anchors with equal ones
// have the same key (a new doc version reuses the previous one's keys).
type keyFields struct {
	doc, form, kind, name, path string
	start, end                  int
	section, decl, body         string
	scheme                      int
}

func keyFieldsOf(a anchors.Anchor) keyFields {
	return keyFields{a.Doc, string(a.Form), a.Kind, a.QualifiedName, a.Path, a.StartLine, a.EndLine,
		a.Section, a.DeclSHA, a.BodySHA, a.Scheme}
}
