// Package symbols turns source bytes into the declarations that code anchors
// bind to (docs/anchors.md): kind, qualified name, byte and line spans, and the
// comment- and whitespace-free token hashes of each declaration and its body.
//
// It is pure: bytes in, values out. No file system, no git, no LSP.
package symbols

import (
	"bytes"
	"cmp"
	"slices"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// HashScheme is the version of the token rules and grammars behind DeclHash
// and BodyHash. Any change that can change a hash (a token rule, a grammar
// upgrade) raises it; pins carry it (`sha=v2:…`, none means 1), so an old
// pin is reported as written under another scheme instead of silently
// stale (docs/anchors.md, "Hash schemes"). A Decl's SchemeSensitive says
// whether its hash depends on what changed since scheme 1.
const HashScheme = 2

// MinBodyTokens is the smallest body that gets a body hash: shorter bodies
// ({}, return nil) collide across unrelated declarations (docs/anchors.md).
const MinBodyTokens = 8

// namePlaceholder stands in for a declaration's own name in its decl hash, so
// a pure rename keeps the hash.
const namePlaceholder = "\x00name"

// Decl is one indexed declaration.
type Decl struct {
	Kind          string // docs/anchors.md vocabulary
	Name          string // last segment of QualifiedName (Swift labels, overload suffix included)
	QualifiedName string // container path joined with "."
	Container     string // qualified name of the enclosing container; "" at top level

	StartLine, EndLine         int // 1-based, inclusive
	StartByte, EndByte         int // byte offsets into the input given to Parse
	NameStartByte, NameEndByte int

	DeclHash   string // all tokens of the declaration, own name replaced by a placeholder
	BodyHash   string // "" without a body or with fewer than MinBodyTokens body tokens
	BodyTokens int    // number of body tokens
	// SchemeSensitive is true when a rule new since hash scheme 1 shaped
	// one of the declaration's tokens: a scheme-1 pin of it cannot be
	// compared. False means its scheme-1 and current hashes are the same.
	SchemeSensitive bool
	Signature       string    // header text for previews, whitespace collapsed, ≤ 200 bytes
	Body            TokenList // body tokens, only with Options.KeepBodyTokens
}

// Options tune Parse.
type Options struct {
	KeepBodyTokens bool // fill Decl.Body (for similarity suggestions)
}

// Table is the result of parsing one file.
type Table struct {
	Language     Language
	Decls        []Decl // source order (by StartByte)
	SyntaxErrors int    // ERROR and MISSING nodes; what parses still resolves
	// Changes are the statements that change objects a CREATE made, in
	// source order (SQL's ALTER TABLE and DROP). ReplaySQL applies them,
	// over one file or a migrations folder.
	Changes []Change
	// GaveUp is true when tree-sitter gave up (the time limit) or walking
	// the tree failed: the table is empty and says nothing about the file,
	// so it must not be kept beyond this run.
	GaveUp bool
}

// Change ops.
const (
	ChangeAlter  = "alter"
	ChangeDrop   = "drop"
	ChangeRename = "rename"
)

// Change is one statement that alters, renames or drops an object: Kind
// and QualifiedName name the object (a column is table.column), the spans
// are the statement's (or its clause's), DeclHash hashes its tokens.
type Change struct {
	Decl
	Op      string // ChangeAlter, ChangeDrop or ChangeRename
	NewName string // ChangeRename: the new last segment of the name
}

var bom = []byte("\xef\xbb\xbf")

// Parse extracts the declarations of src. It never fails: an unknown language
// or unparsable input yields an empty table.
func Parse(lang Language, src []byte, opt Options) (t Table) {
	t.Language = lang
	if IsKeyLanguage(lang) {
		defer func() {
			if r := recover(); r != nil {
				t = Table{Language: lang}
			}
		}()
		src, off := splitBOM(src)
		return parseKeys(lang, src, off, opt)
	}
	spec, ok := specs[lang]
	if !ok {
		return t
	}
	// Last resort: a bug in a language table must not take the server down.
	defer func() {
		if r := recover(); r != nil {
			t = Table{Language: lang, GaveUp: true}
		}
	}()
	src, off := splitBOM(src)
	tree := parseTree(lang, src, nil)
	if tree == nil {
		t.GaveUp = true
		return t
	}
	defer tree.Close()
	return tableOf(lang, spec, tree, src, off, opt)
}

// splitBOM is src without a leading UTF-8 byte-order mark, and the mark's
// length (0 without one): tables count offsets in the file's bytes.
func splitBOM(src []byte) ([]byte, int) {
	if bytes.HasPrefix(src, bom) {
		return src[len(bom):], len(bom)
	}
	return src, 0
}

// tableOf is Parse's table from the tree of src (src without its BOM, which
// was off bytes long).
func tableOf(lang Language, spec *langSpec, tree *sitter.Tree, src []byte, off int, opt Options) (t Table) {
	t.Language = lang
	flat := flatten(tree.RootNode(), symbolsFor(lang), len(src))
	defer flat.release()
	// Tokens are substrings of the text, not one allocation each. They
	// are a view of src, not a copy: no token outlives this call (the
	// hashes and the packed body tokens copy what they keep, and
	// releaseTokens clears the array).
	toks, errs := collectTokens(spec, flat, unsafe.String(unsafe.SliceData(src), len(src)))
	t.SyntaxErrors = errs
	w := newWalker(src)
	if spec.walk != nil {
		spec.walk(w, flat.root())
	}
	t.Decls = w.finish(toks, off, opt)
	t.Changes = w.changes(toks, off)
	releaseTokens(toks)
	return t
}

// Tokens returns every hash token of a whole file in order.
func Tokens(lang Language, src []byte) (out []string) {
	spec, ok := specs[lang]
	if !ok {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			out = nil
		}
	}()
	src = bytes.TrimPrefix(src, bom)
	tree := parseTree(lang, src, nil)
	if tree == nil {
		return nil
	}
	defer tree.Close()
	flat := flatten(tree.RootNode(), symbolsFor(lang), len(src))
	toks, _ := collectTokens(spec, flat, string(src))
	flat.release()
	out = make([]string, len(toks))
	for i, tk := range toks {
		out[i] = tk.text
	}
	releaseTokens(toks)
	return out
}

// Innermost returns the smallest declaration whose [StartByte, EndByte)
// contains byteOffset.
func Innermost(t Table, byteOffset int) (Decl, bool) {
	best := -1
	for i, d := range t.Decls {
		if d.StartByte <= byteOffset && byteOffset < d.EndByte {
			if best < 0 || d.EndByte-d.StartByte < t.Decls[best].EndByte-t.Decls[best].StartByte {
				best = i
			}
		}
	}
	if best < 0 {
		return Decl{}, false
	}
	return t.Decls[best], true
}

// sortDecls orders by start, outer before inner on a tie.
func sortDecls(ds []Decl) {
	slices.SortStableFunc(ds, func(a, b Decl) int {
		if a.StartByte != b.StartByte {
			return cmp.Compare(a.StartByte, b.StartByte)
		}
		return cmp.Compare(b.EndByte, a.EndByte)
	})
}
