package symbols

import (
	"go/parser"
	gotoken "go/token"
	"slices"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// A pinned anchor to a Go function, method or type asks one thing of its
// file on most runs: is the declaration of that name still the one whose
// hashes were pinned. LexGoDecls answers it without tree-sitter: the
// declaration lexer (GoDeclNames) finds the declarations of the name in
// the text ParseGoDecls would parse, and the hash-token lexer of
// GoBodyHashes hashes them as the walker does (tokens of the declaration,
// its own name one placeholder, a type spec after the keyword `type`; the
// body's tokens). On a file both lexers read, their answers are the
// walker's where that text is Go (KeptIsGo; TestLexGoDeclsMatchesParse
// over GOROOT); a caller trusts an answer only there, and where it equals
// a pin Parse wrote, and parses otherwise.

// LexGoDecls lists the declarations whose qualified name is one of
// qnames that ParseGoDeclsIn(g, src, keep, opt) would give, those of
// qnames[0] first, then those of qnames[1], …, with the fields the
// ladder's first stage reads: kind, names, container, byte and line
// spans, name span, decl and body hashes, body token count and signature
// (not SchemeSensitive, not Body). The kept text is built and lexed once
// for all the names. ok is false — the caller must parse — when either
// lexer refuses the kept text (see GoDeclNames), when a declaration of
// one of the names is not a function, method or type spec (a field, an
// interface method, a const or var: their hashes are not computed here),
// or when a name is not a Go name.
func LexGoDecls(g *GoLayout, src []byte, keep func(start, end int) bool, qnames ...string) (decls []Decl, ok bool) {
	return KeepGo(g, src, keep).LexDecls(qnames...)
}

// GoKept is the text ParseGoDeclsIn(g, src, keep, …) would parse, built
// once for both questions a caller asks of it (LexDecls, then IsGo):
// LexGoDecls and KeptIsGo each build it.
type GoKept struct {
	text []byte     // the kept text: src itself when nothing is dropped
	segs []verbatim // where text's stretches are in src (nil: text is src)
}

// KeepGo builds the text ParseGoDeclsIn(g, src, keep, …) would parse
// (keep is asked once per declaration).
func KeepGo(g *GoLayout, src []byte, keep func(start, end int) bool) *GoKept {
	buf, segs := keptText(g.chunks, src, keep)
	if buf == nil {
		return &GoKept{text: src}
	}
	return &GoKept{text: buf, segs: segs}
}

// LexDecls is LexGoDecls(g, src, keep, qnames...) for the g, src and
// keep k was built from.
func (k *GoKept) LexDecls(qnames ...string) (decls []Decl, ok bool) {
	bases := make(map[string]bool, len(qnames))
	for _, qname := range qnames {
		base := qname
		if i := strings.IndexByte(base, '('); i >= 0 {
			base = base[:i] // an overload's own name (`init()`)
		}
		base = base[strings.LastIndexByte(base, '.')+1:]
		if base == "" {
			return nil, false
		}
		bases[base] = true
	}
	text, segs := k.text, k.segs
	p := &goNames{src: text, keep: func(name []byte) bool { return bases[string(name)] }, withSpans: true}
	p.next()
	if !p.file() || p.bad || !p.suffixOverloads() {
		return nil, false
	}
	p.lines()
	w := &walker{src: text}
	for q, qname := range qnames {
		if slices.Contains(qnames[:q], qname) {
			continue // listed once
		}
		for i, n := range p.out {
			if n.QualifiedName != qname {
				continue
			}
			sp := p.spans[i]
			if !sp.hashable {
				return nil, false
			}
			d := Decl{
				Kind: n.Kind, Name: n.Name, QualifiedName: n.QualifiedName, Container: n.Container,
				StartLine: n.StartLine, EndLine: n.EndLine, StartByte: n.StartByte, EndByte: n.EndByte,
				NameStartByte: sp.nameStart, NameEndByte: sp.nameEnd,
			}
			if !lexHashes(&d, text, sp) {
				return nil, false
			}
			sigEnd := -1
			if sp.bodyStart > n.StartByte {
				sigEnd = sp.bodyStart
			}
			d.Signature = w.signature(n.StartByte, n.EndByte, sigEnd)
			if segs != nil {
				mapBack(&d, segs)
			}
			decls = append(decls, d)
		}
	}
	return decls, true
}

// lexHashes fills d's decl hash, body hash and body token count from the
// hash tokens of text[sp.hashStart:sp.hashEnd].
func lexHashes(d *Decl, text []byte, sp goNameSpan) bool {
	frag := text[sp.hashStart:sp.hashEnd]
	toks, texts, _, ok := goBodyTokens(frag)
	if !ok {
		return false
	}
	appendTok := func(buf []byte, t *goTok) []byte {
		if t.text > 0 {
			return append(buf, texts[t.text-1]...)
		}
		return append(buf, frag[t.start:t.end]...)
	}
	var buf []byte
	if sp.prefix != "" {
		buf = append(buf, sp.prefix...)
	}
	first := sp.prefix == ""
	named := false
	nameStart, nameEnd := sp.nameStart-sp.hashStart, sp.nameEnd-sp.hashStart
	bodyStart, bodyEnd := sp.bodyStart-sp.hashStart, sp.bodyEnd-sp.hashStart
	bodyFirst, bodyN := -1, 0
	for i := range toks {
		t := &toks[i]
		s := int(t.start)
		if sp.bodyStart >= 0 && s >= bodyStart && s < bodyEnd {
			if bodyFirst < 0 {
				bodyFirst = i
			}
			bodyN++
		}
		if nameEnd > nameStart && s >= nameStart && s < nameEnd {
			if named {
				continue
			}
			named = true
			if !first {
				buf = append(buf, hash.Separator...)
			}
			buf = append(buf, namePlaceholder...)
			first = false
			continue
		}
		if !first {
			buf = append(buf, hash.Separator...)
		}
		buf = appendTok(buf, t)
		first = false
	}
	d.DeclHash = hash.OfJoined(buf)
	if sp.bodyStart >= 0 {
		d.BodyTokens = bodyN
		if bodyN >= MinBodyTokens {
			buf = buf[:0]
			for i := bodyFirst; i < bodyFirst+bodyN; i++ {
				if i > bodyFirst {
					buf = append(buf, hash.Separator...)
				}
				buf = appendTok(buf, &toks[i])
			}
			d.BodyHash = hash.OfJoined(buf)
		}
	}
	return true
}

// KeptIsGo reports whether Go's own parser (go/parser) accepts the text
// ParseGoDeclsIn(g, src, keep, …) would parse: LexGoDecls's answer is
// trusted only there. On text Go accepts, the two lexers read Go's
// tokens and declarations, which are tree-sitter's leaves and the
// walker's declarations (TestLexGoDeclsMatchesParse: every Go file of
// GOROOT/src); on text it refuses, tree-sitter's error recovery decides
// what a declaration holds — it may end one early, or swallow the next
// into it (FuzzLexedVerdict found such a file) — and only a parse can
// say. It costs about a fifth of tree-sitter's parse of the same text.
func KeptIsGo(g *GoLayout, src []byte, keep func(start, end int) bool) bool {
	return KeepGo(g, src, keep).IsGo()
}

// IsGo is KeptIsGo(g, src, keep) for the g, src and keep k was built
// from.
func (k *GoKept) IsGo() bool {
	_, err := parser.ParseFile(gotoken.NewFileSet(), "", k.text, parser.SkipObjectResolution)
	return err == nil
}
