package workspace

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

type lexTok struct {
	s     string
	ident bool
}

// lexScan collects a file's identifiers and declaration hints, line by line.
func lexScan(src []byte, lang symbols.Language) *cxLexFile {
	idents := make(map[string]string, 256) // interned: a repeated identifier allocates once
	decls := map[string]struct{}{}
	var toks []lexTok
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
				s, ok := idents[string(line[i:j])]
				if !ok {
					s = string(line[i:j])
					idents[s] = s
				}
				toks = append(toks, lexTok{s: s, ident: true})
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
				toks = append(toks, lexTok{s: punct[c]})
				i++
			}
		}
		if len(toks) == 0 {
			continue
		}
		hint := func(t lexTok) {
			if t.ident && !isDeclKeyword(t.s) && !isControlWord(t.s) {
				decls[t.s] = struct{}{}
			}
		}
		// Go's grouped type declarations: `type (` … `)`.
		if lang == symbols.Go {
			switch {
			case inTypeGroup && toks[0].s == ")":
				inTypeGroup = false
			case inTypeGroup:
				hint(toks[0])
			case len(toks) == 2 && toks[0].s == "type" && toks[1].s == "(":
				inTypeGroup = true
			}
		}
		// A keyword followed by the name; Go methods skip the receiver.
		for j := 0; j+1 < len(toks); j++ {
			if !toks[j].ident || !isDeclKeyword(toks[j].s) {
				continue
			}
			k := j + 1
			if toks[j].s == "func" && toks[k].s == "(" {
				depth := 0
				for ; k < len(toks); k++ {
					if toks[k].s == "(" {
						depth++
					} else if toks[k].s == ")" {
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
			first.ident && !isControlWord(first.s) {
			for k := 1; k < len(toks); k++ {
				if toks[k].s == "(" {
					hint(toks[k-1])
					break
				}
				if toks[k].s == "=" || toks[k].s == "." {
					break
				}
			}
		}
		// `const name = (…) =>` and `const name = function`.
		at := 0
		if first.s == "export" {
			at = 1
		}
		if at+2 < len(toks) && (toks[at].s == "const" || toks[at].s == "let" || toks[at].s == "var") &&
			toks[at+2].s == "=" && (bytes.Contains(line, []byte("=>")) || bytes.Contains(line, []byte("function"))) {
			hint(toks[at+1])
		}
	}
	lf := &cxLexFile{idents: make([]string, 0, len(idents)), decls: make([]string, 0, len(decls))}
	for s := range idents {
		lf.idents = append(lf.idents, s)
	}
	for s := range decls {
		lf.decls = append(lf.decls, s)
	}
	// Unsorted: the index is built in file order, which is what makes it
	// deterministic.
	return lf
}

var punct = func() [256]string {
	var p [256]string
	for i := range p {
		p[i] = string(rune(i))
	}
	return p
}()
