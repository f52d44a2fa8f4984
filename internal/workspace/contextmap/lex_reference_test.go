package contextmap

import (
	"bytes"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The lexical scan as it was before it became hash sets: identifiers and
// declaration hints as strings, through maps. TestLexScanMatchesReference
// and FuzzLexScan hold the fast scan to exactly its answers.

type refLexFile struct {
	idents []string
	decls  []string
}

// refScratch is one scan's reusable state: the map and token buffer are
// cleared, not reallocated, for each file.
type refScratch struct {
	seen  map[string]struct{}
	decls map[string]struct{}
	toks  []lexTok
}

var refPool = sync.Pool{New: func() any {
	return &refScratch{seen: make(map[string]struct{}, 512), decls: map[string]struct{}{}}
}}

// lexScanReference collects a file's identifiers and declaration hints, line by line.
func lexScanReference(src []byte, lang symbols.Language) *refLexFile {
	sc := refPool.Get().(*refScratch)
	defer refPool.Put(sc)
	clear(sc.seen)
	clear(sc.decls)
	seen, decls := sc.seen, sc.decls
	lf := &refLexFile{}
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
