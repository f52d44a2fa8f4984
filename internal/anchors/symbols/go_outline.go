package symbols

import (
	"go/parser"
	gotoken "go/token"
	"sort"
	"strings"
)

// The dev context reads every declaration of the few hundred files a
// seed's search reaches — names, spans, signatures and body tokens, never
// a hash — and parsing them was most of a first request's cost on a large
// tree. LexGoOutline gives those fields without tree-sitter, from the two
// lexers verify already trusts: the declaration lexer (GoDeclNames) for
// the declarations and their spans, the hash-token lexer (GoBodyHashes)
// for the tokens. Where Go's own parser accepts the file, both read Go's
// tokens and declarations, which are tree-sitter's leaves and the
// walker's declarations (TestLexGoOutlineIsParse: every Go file of
// GOROOT/src); where it does not, tree-sitter's error recovery decides
// and only Parse can say, so the answer is refused.

// LexGoOutline is the declarations Parse(Go, src, Options{KeepBodyTokens:
// true}) gives, each field but the hashes (DeclHash, BodyHash and
// SchemeSensitive are left empty; BodyTokens is the body's length). ok is
// false — the caller must parse — when either lexer refuses the file (see
// GoDeclNames) or go/parser rejects it.
func LexGoOutline(src []byte) (decls []Decl, ok bool) {
	p := &goNames{src: src, withSpans: true}
	p.next()
	if !p.file() || p.bad || !p.suffixOverloads() {
		return nil, false
	}
	toks, texts, _, ok := goBodyTokens(src)
	if !ok {
		return nil, false
	}
	if _, err := parser.ParseFile(gotoken.NewFileSet(), "", src, parser.SkipObjectResolution); err != nil {
		return nil, false
	}
	p.lines()
	pack := goTokenPack(src, toks, texts)
	w := &walker{src: src}
	decls = make([]Decl, len(p.out))
	for i, n := range p.out {
		sp := p.spans[i]
		d := &decls[i]
		*d = Decl{
			Kind: n.Kind, Name: n.Name, QualifiedName: n.QualifiedName, Container: n.Container,
			StartLine: n.StartLine, EndLine: n.EndLine, StartByte: n.StartByte, EndByte: n.EndByte,
			NameStartByte: sp.nameStart, NameEndByte: sp.nameEnd,
		}
		sigEnd := -1
		if sp.bodyStart >= 0 {
			bi, bj := goTokRange(toks, sp.bodyStart, sp.bodyEnd)
			d.BodyTokens = bj - bi
			d.Body = pack.sub(bi, bj)
			if sp.bodyStart > n.StartByte {
				sigEnd = sp.bodyStart
			}
		}
		d.Signature = w.signature(n.StartByte, n.EndByte, sigEnd)
	}
	sortDecls(decls)
	return decls, true
}

// goTokenPack is every token of a file as one list, as packOf makes it
// from the walker's tokens.
func goTokenPack(src []byte, toks []goTok, texts []string) TokenList {
	n := 0
	for _, t := range toks {
		if t.text > 0 {
			n += len(texts[t.text-1])
		} else {
			n += int(t.end - t.start)
		}
	}
	var b strings.Builder
	b.Grow(n)
	ends := make([]uint32, len(toks))
	for i, t := range toks {
		if t.text > 0 {
			b.WriteString(texts[t.text-1])
		} else {
			b.Write(src[t.start:t.end])
		}
		ends[i] = uint32(b.Len())
	}
	return TokenList{text: b.String(), ends: ends}
}

// goTokRange is the index range of the tokens that start in [start, end).
func goTokRange(toks []goTok, start, end int) (int, int) {
	i := sort.Search(len(toks), func(k int) bool { return int(toks[k].start) >= start })
	j := i + sort.Search(len(toks)-i, func(k int) bool { return int(toks[i+k].start) >= end })
	return i, j
}
