package contextmap

import (
	"bytes"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The lexical index prefilters the declaration search of the context
// compiler, so a request parses the few files that can matter instead of
// the workspace. It is deliberately crude and only ever narrows a search:
// every edge it leads to is confirmed on a real declaration table.
//
//   - occurs: the files whose bytes hold an identifier (comments and
//     strings included) — where a caller can be.
//   - declares: the files where an identifier sits where a declaration's
//     name does (after func/def/class/fn/type/…, a Go receiver, a method
//     line that ends in "{", `const x = (…) =>`) — where a callee's
//     definition can be. A declaration the hint misses is not found outside
//     the caller's file; the answer then lacks that edge, never invents one.
type cxLex struct {
	occurs   map[string][]int32 // identifier → indexes into ctxBase.files
	declares map[string][]int32
}

// cxLexFile is one file's identifiers and declaration hints.
type cxLexFile struct {
	idents []string
	decls  []string
}

// cxMemo is shared by the snapshots of one Load: files are scanned once per
// content.
type cxMemo struct {
	mu  sync.Mutex
	lex map[string]*cxLexFile
}

const maxLexMemo = 100000

func (m *cxMemo) lexFile(blob string, lang symbols.Language, data []byte) *cxLexFile {
	key := string(lang) + "\x00" + blob
	m.mu.Lock()
	lf, ok := m.lex[key]
	m.mu.Unlock()
	if ok {
		return lf
	}
	lf = lexScan(data, lang)
	m.mu.Lock()
	if len(m.lex) >= maxLexMemo {
		m.lex = map[string]*cxLexFile{}
	}
	m.lex[key] = lf
	m.mu.Unlock()
	return lf
}

func newCxLex(files []*cxLexFile) *cxLex {
	x := &cxLex{occurs: map[string][]int32{}, declares: map[string][]int32{}}
	for i, lf := range files {
		if lf == nil {
			continue
		}
		for _, id := range lf.idents {
			x.occurs[id] = append(x.occurs[id], int32(i))
		}
		for _, id := range lf.decls {
			x.declares[id] = append(x.declares[id], int32(i))
		}
	}
	return x
}

func identStart(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func identPart(c byte) bool { return identStart(c) || ('0' <= c && c <= '9') }

// isDeclKeyword: the word introduces a declaration's name in one of the
// supported languages. (A switch, not a map: it runs for every token.)
func isDeclKeyword(s string) bool {
	switch s {
	case "func", "def", "function", "fn", "class", "struct", "interface", "trait", "enum", "type", "record",
		"object", "protocol", "extension", "fun", "mod", "namespace", "union":
		return true
	}
	return false
}

// isControlWord: the word starts a statement, so a line that starts with
// it and ends in "{" declares nothing, and a call of it is no call.
func isControlWord(s string) bool {
	switch s {
	case "if", "for", "while", "switch", "catch", "return", "else", "do", "try", "synchronized", "with", "new",
		"await", "yield", "typeof", "delete", "void", "throw", "super", "this", "function", "foreach", "using",
		"lock", "when", "match", "loop", "unsafe", "go", "defer", "select", "case", "let", "const", "var":
		return true
	}
	return false
}

// lexTok is one token of a line: a view of its bytes, never copied unless
// it is kept (compared as string(b), which Go does without allocating).
type lexTok struct {
	b     []byte
	ident bool
}

func (t lexTok) is(s string) bool { return string(t.b) == s }

// lexScratch is one scan's reusable state: the map and token buffer are
// cleared, not reallocated, for each file.
type lexScratch struct {
	seen  map[string]struct{}
	decls map[string]struct{}
	toks  []lexTok
}

var lexScratchPool = sync.Pool{New: func() any {
	return &lexScratch{seen: make(map[string]struct{}, 512), decls: map[string]struct{}{}}
}}

// lexScan collects a file's identifiers and declaration hints, line by line.
func lexScan(src []byte, lang symbols.Language) *cxLexFile {
	sc := lexScratchPool.Get().(*lexScratch)
	defer lexScratchPool.Put(sc)
	clear(sc.seen)
	clear(sc.decls)
	seen, decls := sc.seen, sc.decls
	lf := &cxLexFile{}
	toks := sc.toks[:0]
	defer func() { sc.toks = toks[:0] }()
	inTypeGroup := false
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		toks = toks[:0]
		for i := 0; i < len(line); {
			c := line[i]
			switch {
			case identStart(c):
				j := i + 1
				for j < len(line) && identPart(line[j]) {
					j++
				}
				if _, ok := seen[string(line[i:j])]; !ok {
					s := string(line[i:j])
					seen[s] = struct{}{}
					lf.idents = append(lf.idents, s)
				}
				toks = append(toks, lexTok{b: line[i:j], ident: true})
				i = j
			case '0' <= c && c <= '9':
				j := i + 1
				for j < len(line) && identPart(line[j]) {
					j++
				}
				i = j
			case c == ' ' || c == '\t' || c == '\r':
				i++
			default:
				toks = append(toks, lexTok{b: line[i : i+1]})
				i++
			}
		}
		if len(toks) == 0 {
			continue
		}
		hint := func(t lexTok) {
			if t.ident && !isDeclKeyword(string(t.b)) && !isControlWord(string(t.b)) {
				decls[string(t.b)] = struct{}{}
			}
		}
		// Go's grouped type declarations: `type (` … `)`.
		if lang == symbols.Go {
			switch {
			case inTypeGroup && toks[0].is(")"):
				inTypeGroup = false
			case inTypeGroup:
				hint(toks[0])
			case len(toks) == 2 && toks[0].is("type") && toks[1].is("("):
				inTypeGroup = true
			}
		}
		// A keyword followed by the name; Go methods skip the receiver.
		for j := 0; j+1 < len(toks); j++ {
			if !toks[j].ident || !isDeclKeyword(string(toks[j].b)) {
				continue
			}
			k := j + 1
			if toks[j].is("func") && toks[k].is("(") {
				depth := 0
				for ; k < len(toks); k++ {
					if toks[k].is("(") {
						depth++
					} else if toks[k].is(")") {
						depth--
						if depth == 0 {
							k++
							break
						}
					}
				}
			}
			if k < len(toks) {
				hint(toks[k])
			}
		}
		trimmed := bytes.TrimSpace(line)
		first := toks[0]
		// A method-like line: `name(…) … {` after modifiers, not a statement.
		if lang != symbols.Go && lang != symbols.Python && len(trimmed) > 0 && trimmed[len(trimmed)-1] == '{' &&
			first.ident && !isControlWord(string(first.b)) {
			for k := 1; k < len(toks); k++ {
				if toks[k].is("(") {
					hint(toks[k-1])
					break
				}
				if toks[k].is("=") || toks[k].is(".") {
					break
				}
			}
		}
		// `const name = (…) =>` and `const name = function`.
		at := 0
		if first.is("export") {
			at = 1
		}
		if at+2 < len(toks) && (toks[at].is("const") || toks[at].is("let") || toks[at].is("var")) &&
			toks[at+2].is("=") && (bytes.Contains(line, []byte("=>")) || bytes.Contains(line, []byte("function"))) {
			hint(toks[at+1])
		}
		// A top-level constant or variable (`const Limit = 10`, `var t = …`,
		// Python's `LIMIT = 10`): what uses_value resolves to.
		if top := len(line) > 0 && line[0] != ' ' && line[0] != '\t'; top {
			if at+1 < len(toks) && (toks[at].is("const") || toks[at].is("let") || toks[at].is("var")) && toks[at+1].ident {
				hint(toks[at+1])
			} else if lang == symbols.Python && len(toks) > 1 && first.ident && toks[1].is("=") {
				hint(first)
			}
		}
	}
	for s := range decls {
		lf.decls = append(lf.decls, s)
	}
	// Unsorted: the index is built in file order, which is what makes it
	// deterministic.
	return lf
}

// isIdent reports whether a declaration's token is an ASCII identifier,
// by the rule the façade's repository-wide prefilter uses for rare tokens.
func isIdent(s string) bool {
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}
