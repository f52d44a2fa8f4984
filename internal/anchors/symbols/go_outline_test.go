package symbols

import (
	"fmt"
	"go/parser"
	gotoken "go/token"
	"os"
	"reflect"
	"testing"
)

// LexGoOutline gives, for every Go file of the testdata and GOROOT's large
// packages (every Go file of GOROOT/src with CLEW_TEST_GOROOT_ALL=1) it
// does not refuse, Parse's declarations with their body tokens, field for
// field but the hashes. It refuses few of the files go/parser accepts, and
// every file go/parser rejects.
func TestLexGoOutlineIsParse(t *testing.T) {
	files, answered, decls, rejected, grammarErrors := 0, 0, 0, 0, 0
	var refused []string
	for _, f := range goFilesForChunkTest(t) {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 1000000 {
			continue
		}
		full := Parse(Go, src, Options{KeepBodyTokens: true})
		if full.GaveUp {
			continue
		}
		files++
		got, ok := LexGoOutline(src)
		if !isGoSource(src) {
			rejected++
			if ok {
				t.Errorf("%s: go/parser rejects the file, and LexGoOutline answers", f)
			}
			continue
		}
		if !ok {
			refused = append(refused, f)
			continue
		}
		answered++
		want := withoutHashes(full.Decls)
		if !reflect.DeepEqual(got, want) {
			if full.SyntaxErrors > 0 {
				// Go that tree-sitter's grammar reads with an error: the
				// lexers read it as Go does.
				grammarErrors++
				continue
			}
			t.Errorf("%s: %s", f, firstDeclDiff(got, want))
			continue
		}
		decls += len(want)
	}
	t.Logf("%d files: %d answered (%d declarations; %d where tree-sitter's grammar reads Go with an error), %d refused, %d rejected by go/parser",
		files, answered, decls, grammarErrors, len(refused), rejected)
	if len(refused) > files/20 {
		t.Errorf("LexGoOutline refuses %d of %d files (first: %v)", len(refused), files, refused[:min(5, len(refused))])
	}
	if answered == 0 || decls == 0 {
		t.Fatal("nothing compared")
	}
}

func withoutHashes(ds []Decl) []Decl {
	out := make([]Decl, len(ds))
	for i, d := range ds {
		d.DeclHash, d.BodyHash, d.SchemeSensitive = "", "", false
		if d.Body.Len() == 0 {
			d.Body = TokenList{}
		}
		out[i] = d
	}
	return out
}

func firstDeclDiff(got, want []Decl) string {
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			return fmt.Sprintf("declaration %d: the lexers give\n%+v\nParse gives\n%+v", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("the lexers give %d declarations, Parse %d", len(got), len(want))
}

func isGoSource(src []byte) bool {
	_, err := parser.ParseFile(gotoken.NewFileSet(), "", src, parser.SkipObjectResolution)
	return err == nil
}

// FuzzLexGoOutline: on any input LexGoOutline answers only where go/parser
// accepts the text, and its answer is Parse's declarations without the
// hashes (unless tree-sitter's grammar reads that Go with an error).
func FuzzLexGoOutline(f *testing.F) {
	for _, s := range []string{
		"package p\nfunc F() { x := 1; _ = x }\n", "package p\ntype T struct{ A, B struct{ C int } `tag`; *pkg.E }\n",
		"package p\nconst (\n\tA, B = iota, 1\n\tC, D\n)\n", "package p\ntype I interface{ M(a int) (b error); io.Reader }\n",
		"package p\nfunc (r *R[K]) M() []int { return []int{1, 2,} }\n", "package p\nvar x, y = \"a\\x41\", 0X1F\n",
		"package p\ntype A[T any] struct{ F struct{ G T } }\n", "package p\nfunc init() {}\nfunc init() {}\n",
		"package p\nfunc F() {\n\tif x {\n}\n", "package p\nfunc F() { x := ; }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		got, ok := LexGoOutline(src)
		if !ok {
			return
		}
		if !isGoSource(src) {
			t.Fatalf("%q: go/parser rejects it, and LexGoOutline answers", src)
		}
		tab := Parse(Go, src, Options{KeepBodyTokens: true})
		if tab.GaveUp || tab.SyntaxErrors > 0 {
			return
		}
		if want := withoutHashes(tab.Decls); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %s", src, firstDeclDiff(got, want))
		}
	})
}
