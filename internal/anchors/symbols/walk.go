package symbols

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// rawDecl is a declaration as a language walker finds it; finish turns it into
// a Decl once every name in the file is known (overloads need the whole file).
type rawDecl struct {
	kind     string
	name     string   // own name; Swift carries its labels here
	base     string   // name used before an overload suffix; "" means name
	params   []string // parameter types as written, for the overload suffix
	callable bool     // only callables get an overload suffix
	parent   int      // index of the enclosing declaration, -1 at top level
	scope    []string // container segments between parent and name (Go receiver, C++ A::, extensions)

	spanStart, spanEnd int      // what the editor shows and Innermost uses
	hashStart, hashEnd int      // the tokens of the decl hash
	prefix             []string // tokens hashed before the range (the keyword of a split declaration)
	nameStart, nameEnd int
	qualStart          int // > 0: the hash placeholder starts here, before the name (Lua's `M.` in `function M.f`)
	qualEnd            int // > nameEnd: the placeholder ends here, after the name (Lua's `"]` in `M["f"]`)
	bodyStart, bodyEnd int // bodyStart < 0: no body

	suffixed  bool
	protoOnly bool // C/C++ declaration without definition: yields to a definition of the same name
	dropped   bool
	change    string // SQL: a statement that changes an object (ChangeAlter…), not a declaration
	newName   string // ChangeRename: the object's new name
	qn        string
	container string
}

// walker collects rawDecls; the language walkers drive it.
type walker struct {
	src    []byte
	decls  []rawDecl
	pack   *TokenList  // the file's tokens, packed once for the bodies kept
	joiner hash.Joiner // scratch: the token texts of one hash
}

func newWalker(src []byte) *walker { return &walker{src: src} }

type kid struct {
	n     *tsNode
	field string
}

// kids lists all children with their field names.
func (w *walker) kids(n *tsNode) []kid {
	if n == nil {
		return nil
	}
	var out []kid
	for c := n.firstChild(); c != nil; c = c.nextSibling() {
		out = append(out, kid{c, c.fieldName()})
	}
	return out
}

// named lists the named children.
func (w *walker) named(n *tsNode) []*tsNode {
	if n == nil {
		return nil
	}
	var out []*tsNode
	for c := n.firstChild(); c != nil; c = c.nextSibling() {
		if c.IsNamed() {
			out = append(out, c)
		}
	}
	return out
}

// field returns all children under a field name (Go's `a, b int` has two).
func (w *walker) fieldAll(n *tsNode, name string) []*tsNode {
	if n == nil {
		return nil
	}
	var out []*tsNode
	for c := n.firstChild(); c != nil; c = c.nextSibling() {
		if c.fieldName() == name {
			out = append(out, c)
		}
	}
	return out
}

func (w *walker) text(n *tsNode) string {
	if n == nil {
		return ""
	}
	s, e := clampSpan(int(n.StartByte()), int(n.EndByte()), len(w.src))
	return string(w.src[s:e])
}

// firstOfType returns the first named child of one of the given types.
func (w *walker) firstOfType(n *tsNode, types ...string) *tsNode {
	for _, c := range w.named(n) {
		for _, t := range types {
			if c.Type() == t {
				return c
			}
		}
	}
	return nil
}

// add appends a declaration spanning node, named by nameNode, with an optional
// body; it returns the index for parent links and later adjustments.
func (w *walker) add(kind string, node, nameNode, body *tsNode, parent int) int {
	d := rawDecl{kind: kind, parent: parent, bodyStart: -1}
	d.spanStart, d.spanEnd = int(node.StartByte()), int(node.EndByte())
	d.hashStart, d.hashEnd = d.spanStart, d.spanEnd
	if nameNode != nil {
		d.name = w.text(nameNode)
		d.nameStart, d.nameEnd = int(nameNode.StartByte()), int(nameNode.EndByte())
	}
	if body != nil {
		d.bodyStart, d.bodyEnd = int(body.StartByte()), int(body.EndByte())
	}
	w.decls = append(w.decls, d)
	return len(w.decls) - 1
}

// declKey is a declaration's kind and qualified name: what one name in a
// file means (kinds are single words, so this is the "kind qn" it was).
type declKey struct{ kind, qn string }

// finish names, hashes and orders the declarations. off is added to every
// byte offset (the length of a stripped BOM).
func (w *walker) finish(toks []token, off int, opt Options) []Decl {
	ds := w.decls
	// Valid names only: error recovery can produce empty or absurd ones.
	for i := range ds {
		if strings.TrimSpace(ds[i].name) == "" {
			ds[i].dropped = true
		}
	}
	w.qualify()
	// A prototype yields to a definition of the same function in the file.
	defined := map[declKey]bool{}
	for _, d := range ds {
		if !d.dropped && !d.protoOnly {
			defined[declKey{d.kind, d.qn}] = true
		}
	}
	for i := range ds {
		if ds[i].protoOnly && defined[declKey{ds[i].kind, ds[i].qn}] {
			ds[i].dropped = true
		}
	}
	w.suffixOverloads()

	lines := lineStarts(w.src)
	out := make([]Decl, 0, len(ds))
	for _, d := range ds {
		if d.dropped || d.change != "" || w.droppedAncestor(d) {
			continue
		}
		out = append(out, w.build(d, toks, lines, off, opt))
	}
	sortDecls(out)
	return out
}

// changes builds the change statements (SQL's ALTER and DROP) in source
// order; finish must have run (it qualifies the names).
func (w *walker) changes(toks []token, off int) []Change {
	var out []Change
	var lines []int
	for _, d := range w.decls {
		if d.change == "" || strings.TrimSpace(d.name) == "" {
			continue
		}
		if lines == nil {
			lines = lineStarts(w.src)
		}
		out = append(out, Change{Decl: w.build(d, toks, lines, off, Options{}), Op: d.change, NewName: d.newName})
	}
	return out
}

func (w *walker) droppedAncestor(d rawDecl) bool {
	for p := d.parent; p >= 0; p = w.decls[p].parent {
		if w.decls[p].dropped {
			return true
		}
	}
	return false
}

// qualify computes container and qualified names; parents precede children.
func (w *walker) qualify() {
	for i := range w.decls {
		d := &w.decls[i]
		var parts []string
		if d.parent >= 0 {
			parts = append(parts, w.decls[d.parent].qn)
		}
		parts = append(parts, d.scope...)
		d.container = strings.Join(parts, ".")
		if d.container == "" {
			d.qn = d.name
		} else {
			d.qn = d.container + "." + d.name
		}
	}
}

// suffixOverloads gives same-kind, same-name callables their parameter types
// (docs/anchors.md), then requalifies so members of a suffixed container follow.
func (w *walker) suffixOverloads() {
	for round := 0; round < 4; round++ {
		count := map[declKey]int{}
		for _, d := range w.decls {
			if !d.dropped {
				count[declKey{d.kind, d.qn}]++
			}
		}
		changed := false
		for i := range w.decls {
			d := &w.decls[i]
			if d.dropped || !d.callable || d.suffixed || count[declKey{d.kind, d.qn}] < 2 {
				continue
			}
			base := d.base
			if base == "" {
				base = d.name
			}
			d.name = base + "(" + strings.Join(d.params, ", ") + ")"
			d.suffixed = true
			changed = true
		}
		if !changed {
			return
		}
		w.qualify()
	}
}

func (w *walker) build(d rawDecl, toks []token, lines []int, off int, opt Options) Decl {
	out := Decl{
		Kind:          d.kind,
		Name:          d.name,
		QualifiedName: d.qn,
		Container:     d.container,
		StartByte:     d.spanStart + off,
		EndByte:       d.spanEnd + off,
		NameStartByte: d.nameStart + off,
		NameEndByte:   d.nameEnd + off,
		StartLine:     lineOf(lines, d.spanStart),
		EndLine:       lineOf(lines, max(d.spanStart, d.spanEnd-1)),
	}
	// Decl hash: prefix, then the range with the own name collapsed to one placeholder.
	j := &w.joiner
	j.Reset()
	for _, p := range d.prefix {
		j.Add(p)
	}
	named := false
	nameStart := d.nameStart
	if d.qualStart > 0 && d.qualStart < nameStart {
		nameStart = d.qualStart
	}
	nameEnd := max(d.nameEnd, d.qualEnd)
	for _, t := range tokRange(toks, d.hashStart, d.hashEnd) {
		out.SchemeSensitive = out.SchemeSensitive || t.v2
		if d.nameEnd > d.nameStart && t.start >= nameStart && t.start < nameEnd {
			if !named {
				j.Add(namePlaceholder)
				named = true
			}
			continue
		}
		j.Add(t.text)
	}
	out.DeclHash = j.Sum()

	sigEnd := -1
	if d.bodyStart >= 0 {
		bi, bj := tokIndexRange(toks, d.bodyStart, d.bodyEnd)
		body := toks[bi:bj]
		out.BodyTokens = len(body)
		if len(body) >= MinBodyTokens {
			j.Reset()
			for _, t := range body {
				j.Add(t.text)
			}
			out.BodyHash = j.Sum()
		}
		if opt.KeepBodyTokens {
			if w.pack == nil {
				pack := packOf(toks)
				w.pack = &pack
			}
			out.Body = w.pack.sub(bi, bj)
		}
		if d.bodyStart > d.spanStart {
			sigEnd = d.bodyStart
		}
	}
	out.Signature = w.signature(d.spanStart, d.spanEnd, sigEnd)
	return out
}

// tokRange returns the tokens that start inside [s, e).
func tokRange(toks []token, s, e int) []token {
	i, j := tokIndexRange(toks, s, e)
	return toks[i:j]
}

// tokIndexRange is where tokRange's tokens are in toks (i == j: none).
func tokIndexRange(toks []token, s, e int) (int, int) {
	i := sort.Search(len(toks), func(i int) bool { return toks[i].start >= s })
	j := sort.Search(len(toks), func(j int) bool { return toks[j].start >= e })
	if j < i {
		return i, i
	}
	return i, j
}

const maxSignature = 200

// signature is the header text: up to the body, or the first line.
func (w *walker) signature(s, e, bodyStart int) string {
	s, e = clampSpan(s, e, len(w.src))
	if bodyStart >= s && bodyStart <= e {
		e = bodyStart
	} else if nl := bytes.IndexByte(w.src[s:e], '\n'); nl >= 0 {
		e = s + nl
	}
	if s == e {
		return ""
	}
	// A view of the text, not a copy: only the clipped result is copied.
	sig := collapseSpace(unsafe.String(&w.src[s], e-s))
	if len(sig) > maxSignature {
		cut := maxSignature
		for cut > 0 && !utf8.RuneStart(sig[cut]) {
			cut--
		}
		sig = sig[:cut]
	}
	return strings.Clone(sig)
}

func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, lineFeed)+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

var lineFeed = []byte{'\n'}

// lineOf maps a byte offset to a 1-based line.
func lineOf(starts []int, off int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}
