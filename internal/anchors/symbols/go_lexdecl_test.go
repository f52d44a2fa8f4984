package symbols

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"testing"
)

// LexGoDecls gives, for every name of the Go testdata and GOROOT's large
// packages (every Go file of GOROOT/src with CLEW_TEST_GOROOT_ALL=1), the
// declarations of that name the table verify would parse gives —
// ParseGoDecls of the declarations mentioning the name, or the whole
// file's table where that part has a syntax error — field for field but
// SchemeSensitive and Body, which it does not fill; where it answers and
// that part is Go (KeptIsGo), that is. It refuses the fields, interface
// methods, consts and vars of a name, and files the lexers do not read
// plainly. On Go that tree-sitter's grammar reads with an error, the
// hashes differ (so a pin Parse wrote there sends verify to the parse).
func TestLexGoDeclsMatchesParse(t *testing.T) {
	compared, refusedFiles, refusedNames, unclean, gaps, files := 0, 0, 0, 0, 0, 0
	for _, f := range goFilesForChunkTest(t) {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 1000000 {
			continue
		}
		files++
		full := Parse(Go, src, Options{})
		if full.GaveUp {
			continue
		}
		g, ok := LexGoLayout(src)
		if !ok {
			refusedFiles++
			continue
		}
		seen := map[string]bool{}
		for _, d := range full.Decls {
			if seen[d.QualifiedName] {
				continue
			}
			seen[d.QualifiedName] = true
			base := []byte(d.QualifiedName)
			if i := bytes.IndexByte(base, '('); i >= 0 {
				base = base[:i]
			}
			base = base[bytes.LastIndexByte(base, '.')+1:]
			keep := func(start, end int) bool { return bytes.Contains(src[start:end], base) }
			got, ok := LexGoDecls(g, src, keep, d.QualifiedName)
			if !ok {
				refusedNames++
				continue
			}
			if !KeptIsGo(g, src, keep) {
				// Not Go: verify parses (and the lexers may differ).
				unclean++
				continue
			}
			// The table verify would use: the kept part's, or the whole
			// file's where that part does not parse.
			ref, clean := full, full.SyntaxErrors == 0
			if !clean {
				if part, ok := ParseGoDecls(src, keep, Options{}); ok {
					ref, clean = part, true
				}
			}
			var want []Decl
			for _, w := range ref.Decls {
				if w.QualifiedName == d.QualifiedName {
					w.SchemeSensitive, w.Body = false, TokenList{}
					want = append(want, w)
				}
			}
			if reflect.DeepEqual(got, want) {
				compared += len(want)
				continue
			}
			if clean || len(got) != len(want) {
				t.Errorf("%s: %s: the lexers give\n%+v\nParse gives\n%+v", f, d.QualifiedName, got, want)
				continue
			}
			// Go that tree-sitter's grammar does not read (new(expr),
			// valid since Go 1.26): its error recovery makes other
			// tokens, so a pin Parse wrote on this text is not the
			// lexers' hash and verify parses. Where the hashes are the
			// same, everything else must be too.
			gaps++
			for i := range got {
				if got[i].DeclHash == want[i].DeclHash && got[i].BodyHash == want[i].BodyHash && !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("%s: %s: the same hashes, other fields:\n%+v\n%+v", f, d.QualifiedName, got[i], want[i])
				}
			}
			t.Logf("%s: %s: Go that tree-sitter reads with an error; hashes %s/%s, Parse %s/%s", f, d.QualifiedName,
				got[0].DeclHash, got[0].BodyHash, want[0].DeclHash, want[0].BodyHash)
			continue
		}
	}
	t.Logf("%d files (%d refused by the layout lexer), %d declarations compared, %d names refused, %d in a kept part that is not Go, %d Go tree-sitter does not read",
		files, refusedFiles, compared, refusedNames, unclean, gaps)
	if compared < 2000 || refusedFiles*10 > files {
		t.Fatalf("only %d declarations compared (%d files refused of %d)", compared, refusedFiles, files)
	}
}

// LexGoDecls asked for several names at once (one lex of the kept text)
// gives what asking for each name alone gives, in the order the names are
// asked, a repeated name listed once; a name the lexers refuse refuses
// the whole call.
func TestLexGoDeclsOfSeveralNamesIsEachName(t *testing.T) {
	checked := 0
	for _, f := range goFilesForChunkTest(t)[:40] {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		g, ok := LexGoLayout(src)
		if !ok {
			continue
		}
		full := Parse(Go, src, Options{})
		var names []string
		for _, d := range full.Decls {
			if len(names) < 6 && !slices.Contains(names, d.QualifiedName) {
				names = append(names, d.QualifiedName)
			}
		}
		if len(names) < 2 {
			continue
		}
		slices.Reverse(names)           // not in file order
		names = append(names, names[0]) // a repeat
		keep := func(start, end int) bool { return true }
		var want []Decl
		wantOK := true
		for i, n := range names {
			if slices.Contains(names[:i], n) {
				continue
			}
			one, ok := LexGoDecls(g, src, keep, n)
			wantOK = wantOK && ok
			want = append(want, one...)
		}
		got, ok := LexGoDecls(g, src, keep, names...)
		if ok != wantOK {
			t.Errorf("%s %v: together ok=%v, one by one ok=%v", f, names, ok, wantOK)
			continue
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Errorf("%s %v: together\n%+v\none by one\n%+v", f, names, got, want)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d files compared", checked)
	}
}
