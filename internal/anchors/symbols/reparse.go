package symbols

import (
	"bytes"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// Reparser parses successive versions of files being edited
// incrementally: it keeps the tree of the last version it parsed of each of
// a few files (by a key of the caller's, a path), and parses the next
// version of the same file with that tree, edited by the bytes that differ
// (the common prefix and suffix of the two texts), so tree-sitter re-parses
// only around the change instead of the whole file (for a 130 KB Go file,
// about 1.5 ms instead of 30).
//
// Only Go is parsed incrementally (incrementalLanguages); any other
// language is parsed whole, as Parse does. Its tables are Parse's: a tree that the incremental parse left with a
// syntax error, or that it could not make, is thrown away and the text
// parsed whole, so only error-free incremental trees are used;
// TestReparseMatchesParse and FuzzReparseMatchesParse compare the tables
// with fresh parses after random edits. It is safe for concurrent use; two
// parses of the same key at once both succeed (one of them parses whole).
type Reparser struct {
	mu    sync.Mutex
	max   int
	kept  map[string]*keptTree
	order []string // keys, least recently used first

	// incremental and whole count the parses made each way (tests).
	incremental, whole int
}

// incrementalLanguages are the grammars parsed incrementally. Go's has no
// external scanner. A grammar whose external scanner keeps state outside
// what it serializes (tree-sitter-lua's C globals) parses an edited tree
// differently from a fresh one, depending on what was parsed before:
// FuzzReparseMatchesParse found that for Lua within seconds. A language is
// added here only with the fuzz target run on it.
var incrementalLanguages = map[Language]bool{Go: true}

type keptTree struct {
	lang Language
	src  []byte // the text the tree is of (without a BOM)
	bom  bool
	tree *sitter.Tree
}

// NewReparser keeps the trees of at most max files (a tree costs a few
// times its file's size in C memory).
func NewReparser(max int) *Reparser {
	return &Reparser{max: max, kept: map[string]*keptTree{}}
}

// Parse is Parse(lang, src, opt), reusing the tree kept for key when there
// is one. A copy of src is kept with the tree (the next edit is found by
// comparing texts, so the caller's bytes must not be trusted to stay).
func (r *Reparser) Parse(key string, lang Language, src []byte, opt Options) (t Table) {
	spec, ok := specs[lang]
	if !ok || !incrementalLanguages[lang] || r.max <= 0 {
		r.mu.Lock()
		r.whole++
		r.mu.Unlock()
		return Parse(lang, src, opt)
	}
	r.mu.Lock()
	old := r.kept[key]
	delete(r.kept, key) // the caller owns it now (Tree.Edit changes it)
	r.mu.Unlock()

	var tree *sitter.Tree
	defer func() {
		if rec := recover(); rec != nil {
			// Neither tree is kept after a panic: close them, they are C memory.
			if old != nil {
				old.tree.Close()
			}
			if tree != nil {
				tree.Close()
			}
			t = Table{Language: lang, GaveUp: true}
		}
	}()
	src, off := splitBOM(src)
	hasBOM := off > 0
	if old != nil && old.lang == lang && old.bom == hasBOM {
		tree = reparse(lang, old, src)
	}
	if old != nil {
		old.tree.Close()
		old = nil
	}
	incremental := tree != nil
	if tree == nil {
		if tree = parseTree(lang, src, nil); tree == nil {
			return Table{Language: lang, GaveUp: true}
		}
	}
	t = tableOf(lang, spec, tree, src, off, opt)
	k := &keptTree{lang, bytes.Clone(src), hasBOM, tree}
	tree = nil // kept: closed when it is dropped
	r.keep(key, k, incremental)
	return t
}

// reparse parses src with old's tree edited to it; nil when the result is
// not to be used (tree-sitter gave up, or the tree has a syntax error).
func reparse(lang Language, old *keptTree, src []byte) *sitter.Tree {
	a, b := old.src, src
	pre := commonPrefix(a, b)
	suf := commonSuffix(a[pre:], b[pre:])
	old.tree.Edit(sitter.EditInput{
		StartIndex:  uint32(pre),
		OldEndIndex: uint32(len(a) - suf),
		NewEndIndex: uint32(len(b) - suf),
		StartPoint:  pointAt(a, pre),
		OldEndPoint: pointAt(a, len(a)-suf),
		NewEndPoint: pointAt(b, len(b)-suf),
	})
	tree := parseTree(lang, src, old.tree)
	if tree != nil && tree.RootNode().HasError() {
		tree.Close()
		return nil
	}
	return tree
}

// keep stores k as key's tree, dropping (and closing) the least recently
// used beyond max.
func (r *Reparser) keep(key string, k *keptTree, incremental bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if incremental {
		r.incremental++
	} else {
		r.whole++
	}
	if prev := r.kept[key]; prev != nil {
		prev.tree.Close() // a concurrent parse of the same key kept one first
	}
	r.kept[key] = k
	for i, o := range r.order {
		if o == key {
			r.order = append(r.order[:i], r.order[i+1:]...)
			break
		}
	}
	r.order = append(r.order, key)
	for len(r.order) > r.max {
		if e := r.kept[r.order[0]]; e != nil {
			e.tree.Close()
			delete(r.kept, r.order[0])
		}
		r.order = r.order[1:]
	}
}

// Counts reports how many parses were incremental and how many whole.
func (r *Reparser) Counts() (incremental, whole int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.incremental, r.whole
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && string(a[i:i+8]) == string(b[i:i+8]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && string(a[len(a)-i-8:len(a)-i]) == string(b[len(b)-i-8:len(b)-i]) {
		i += 8
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// pointAt is tree-sitter's point (row, byte column) of offset off in src.
func pointAt(src []byte, off int) sitter.Point {
	row := bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1)
	return sitter.Point{Row: uint32(row), Column: uint32(col)}
}
