package workspace

import (
	"crypto/sha256"
	"os"
	"slices"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// goPinned, where it decides, gives the whole parse's answer: the body of
// the first declaration pinned with the anchor's hashes, or none — for
// anchors pinned in the version itself and in another file.
func TestGoPinnedIsTheWholeParse(t *testing.T) {
	files := gorootGoFiles("net/http", "encoding/json", "math/cmplx")
	partial := func(_ [sha256.Size]byte, src []byte, l *symbols.GoLayout, keep func(start, end int) bool) (symbols.Table, bool) {
		return symbols.ParseGoDeclsIn(l, src, keep, symbols.Options{KeepBodyTokens: true})
	}
	var foreign anchors.Anchor // a body of the previous file
	cases, decided, found, absent := 0, 0, 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		full := symbols.Parse(symbols.Go, src, symbols.Options{KeepBodyTokens: true})
		var as []anchors.Anchor
		for _, d := range full.Decls {
			if d.BodyHash != "" {
				as = append(as, anchors.Anchor{Kind: d.Kind, QualifiedName: d.QualifiedName, DeclSHA: d.DeclHash, BodySHA: d.BodyHash, Scheme: symbols.HashScheme})
			}
		}
		if foreign.BodySHA != "" {
			as = append(as, foreign)
		}
		if len(as) > 0 {
			foreign = as[0]
		}
		for _, a := range as {
			cases++
			want, wantFound := pinnedIn(a, full.Decls)
			toks, got, ok := goPinned(a, src, partial)
			if !ok {
				continue
			}
			decided++
			if got != wantFound || !slices.Equal(toks, want) {
				t.Errorf("%s: %s %s: goPinned %v %d tokens, the whole parse %v %d", f, a.Kind, a.QualifiedName, got, len(toks), wantFound, len(want))
			}
			if got {
				found++
			} else {
				absent++
			}
		}
		if len(as) > 0 {
			old := as[0]
			old.Scheme = 1
			if _, _, ok := goPinned(old, src, partial); ok {
				t.Errorf("%s: a pin of another scheme decided without a parse", f)
			}
		}
	}
	t.Logf("%d anchors: %d decided (%d found, %d absent)", cases, decided, found, absent)
	if decided*10 < cases*9 || absent < 10 || found < 1000 {
		t.Fatalf("%d of %d decided (%d found, %d absent)", decided, cases, found, absent)
	}
}

// lexedDeclares, where it tells, is the table's answer: for every
// declaration of the files, under its own kind and another, and for
// names the file does not declare.
func TestLexedDeclaresIsTheTable(t *testing.T) {
	files := gorootGoFiles("net/http", "encoding/json", "math/cmplx")
	type ask struct{ kind, qname string }
	var prev []ask
	cases, told, yes := 0, 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		decls := symbols.Parse(symbols.Go, src, symbols.Options{}).Decls
		var asks []ask
		for i, d := range decls {
			if i%5 == 0 { // a fifth of them: each question lexes the file again
				asks = append(asks, ask{d.Kind, d.QualifiedName}, ask{"var", d.QualifiedName})
			}
		}
		mine := asks
		asks = append(asks, prev...)
		prev = mine[:min(len(mine), 20)]
		for _, q := range asks {
			cases++
			want := false
			for _, d := range decls {
				want = want || d.QualifiedName == q.qname && anchors.SameFamily(f, d.Kind, q.kind)
			}
			got, ok := lexedDeclares(f, src, q.kind, q.qname)
			if !ok {
				continue
			}
			told++
			if got != want {
				t.Errorf("%s: %s %s: lexed %v, the table %v", f, q.kind, q.qname, got, want)
			}
			if got {
				yes++
			}
		}
	}
	t.Logf("%d questions: %d told (%d declared)", cases, told, yes)
	if told*2 < cases || yes < 300 || told-yes < 300 {
		t.Fatalf("%d of %d told, %d declared", told, cases, yes)
	}
}
