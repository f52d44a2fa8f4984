package symbols

import (
	"fmt"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// goNamesOfTable is what GoDeclNames must answer for a table.
func goNamesOfTable(t Table) []GoName {
	var out []GoName
	for _, d := range t.Decls {
		out = append(out, GoName{Kind: d.Kind, Name: d.Name, QualifiedName: d.QualifiedName, Container: d.Container,
			StartByte: d.StartByte, EndByte: d.EndByte, StartLine: d.StartLine, EndLine: d.EndLine})
	}
	SortGoNames(out)
	return out
}

// diffGoNames describes the first difference of two sorted lists, "" when
// they are equal.
func diffGoNames(got, want []GoName) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("missing %+v", want[i])
		case i >= len(want):
			return fmt.Sprintf("extra %+v", got[i])
		case got[i] != want[i]:
			return fmt.Sprintf("got %+v, want %+v", got[i], want[i])
		}
	}
	return ""
}

func withoutEnds(names []GoName) []GoName {
	out := make([]GoName, len(names))
	for i, n := range names {
		n.EndByte, n.EndLine = 0, 0
		out[i] = n
	}
	return out
}

func TestGoDeclNames(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string // kind qualified-name@line, or "!" when not ok
	}{
		{"package p\nfunc A() {}\nfunc (r *T[K]) B() (x struct{ y int }) { return }\n", "function A@2 method T.B@3"},
		{"package p\ntype (\n\tA int\n\tB struct {\n\t\tX, Y int\n\t\t*pkg.E `tag`\n\t\tS struct{ Z int }\n\t}\n)\n",
			"type A@3 struct B@4 field B.X@5 field B.Y@5 field B.E@6 field B.S@7 field B.S.Z@7"},
		{"package p\ntype I interface {\n\tM(a int) error\n\tio.Reader\n\t~int | ~string\n}\n", "interface I@2 method I.M@3"},
		{"package p\nconst (\n\tA = iota\n\tB\n\t_, C = 1, 2\n)\nvar x, y = f(func() {}), 2\n", "const A@3 const B@4 const ,@5 const C@5 var x@7 var y@7"},
		{"package p\ntype A[T any] struct{ F T }\ntype B [N]struct{ G int }\ntype C = struct{ H int }\n", "struct A@2 field A.F@2 type B@3 type C@4"},
		{"package p\nfunc init() {}\nfunc init() {}\n", "function init()@2 function init()@3"},
		{"package p\nvar s = \"func Fake() {}\" + `type Fake2 int` // func Fake3()\n", "var s@2"},
		{"package p\nfunc F() {\n", "!"},
		{"package p\nx := 1\n", "!"},
		{"package p\ntype A [N * M]int\n", "!"},
		{"package p\ntype A[P int] = struct{}\n", "!"},
		{"package p\ntype F {\n\tfloat64\n}\n", "!"},
		{"package p\nvar b = ~x\n", "!"},
		{"package p\nfunc f() { x := ~y }\n", "!"},
		{"package p\ntype C interface{ ~int | ~string }\nfunc g[T ~int](x T) {}\n", "interface C@2 function g@3"},
		{"package p\nvar é = 1\ntype T struct{ ρ [32]byte }\nfunc f() { θ := 1; _ = θ }\n", "var é@2 struct T@3 field T.ρ@3 function f@4"},
		{"package p\nvar \u037a = 1\n", "!"},                                                      // a letter tree-sitter does not start a name with
		{"package p\nvar 漢字 = 1\n", "!"},                                                          // beyond the runes the lexers read
		{"package p\nvar x = a · b\n", "!"},                                                       // a byte of no Go token
		{"package p\nfunc f() { x := a · b }\n", "!"},                                             // also in a body
		{"\xef\xbb\xbfpackage p\n", "!"},                                                          // a byte order mark
		{"package p\nfunc f() { s := \"\xff\" }\n", "function f@2"},                               // any bytes in a literal
		{"package p\nfunc f(a int) {}\nfunc f(b string) {}\n", "!"},                               // overloads the walker suffixes with types
		{"package p\nfunc f(m map[int]int) int {\n\treturn m[0 // c\n\t]\n}\nfunc g() {}\n", "!"}, // a statement ends inside brackets
		{"package p\nfunc f() {\n\tg(a /* c\n\t*/)\n}\n", "!"},
		{"package p\nvar x = f(a\n)\n", "!"},
		{"package p\nimport (\n\t\"fmt\"\n\tx \"os\"\n)\nfunc f() {\n\tg(a, // c\n\t\tb)\n\th(func() {\n\t\tx++\n\t})\n}\n", "function f@6"},
	} {
		names, ok := GoDeclNames([]byte(c.src), nil)
		got := "!"
		if ok {
			var parts []string
			for _, n := range names {
				parts = append(parts, fmt.Sprintf("%s %s@%d", n.Kind, n.QualifiedName, n.StartLine))
			}
			got = strings.Join(parts, " ")
		}
		if got != c.want {
			t.Errorf("GoDeclNames(%q) = %s\nwant %s", c.src, got, c.want)
		}
		if ok {
			want := goNamesOfTable(Parse(Go, []byte(c.src), Options{}))
			SortGoNames(names)
			if d := diffGoNames(names, want); d != "" {
				t.Errorf("GoDeclNames(%q) differs from Parse: %s", c.src, d)
			}
		}
	}
	// keep filters by own name; containers are read either way.
	names, ok := GoDeclNames([]byte("package p\ntype T struct{ A struct{ B int } }\nfunc B() {}\n"), func(n []byte) bool { return string(n) == "B" })
	if !ok || len(names) != 2 || names[0].QualifiedName != "T.A.B" || names[1].QualifiedName != "B" {
		t.Errorf("keep B: %+v, %v", names, ok)
	}
}

// GoDeclNames answers Parse's declarations, field for field (kind, name,
// qualified name, container, span, lines), on every file it accepts: the
// Go testdata and GOROOT's large packages, or every Go file of GOROOT/src
// with CLEW_TEST_GOROOT_ALL=1. Files go/parser rejects are compared too.
func TestGoDeclNamesMatchesParse(t *testing.T) {
	files := goFilesForChunkTest(t)
	more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "internal/types/testdata/*/*.go"))
	files = append(files, more...)
	accepted, refused, invalid, decls, notGo := 0, 0, 0, 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 1000000 {
			continue
		}
		names, ok := GoDeclNames(src, nil)
		_, perr := parser.ParseFile(gotoken.NewFileSet(), f, src, parser.SkipObjectResolution)
		if !ok {
			refused++
			continue
		}
		accepted++
		if perr != nil {
			invalid++
		}
		tab := Parse(Go, src, Options{})
		if tab.GaveUp {
			continue
		}
		SortGoNames(names)
		want := goNamesOfTable(tab)
		decls += len(names)
		if perr == nil {
			if d := diffGoNames(names, want); d != "" {
				t.Errorf("%s (tree-sitter errors %d): %s", f, tab.SyntaxErrors, d)
			}
			continue
		}
		// A file go/parser rejects is not Go, and tree-sitter's error
		// recovery reads it its own way: a syntax error inside a body can
		// swallow the declaration after it, which a lexer that skips
		// bodies does not see (it refuses the errors it can see cheaply:
		// a statement ending inside brackets, `~` in an expression).
		// Where it ends a declaration differs more often. Those files are
		// counted and shown, not failed (GOROOT/src: 1 of the 29 it
		// accepts differs in names,
		// cmd/compile/internal/syntax/testdata/issue43527.go's `_[A, B]
		// int`); docs/performance.md says so.
		if d := diffGoNames(withoutEnds(names), withoutEnds(want)); d != "" {
			notGo++
			t.Logf("not Go, read otherwise: %s (%v): %s", f, perr, d)
		}
	}
	t.Logf("%d files accepted (%d that go/parser rejects, %d of them read otherwise), %d refused; %d declarations compared",
		accepted, invalid, notGo, refused, decls)
	if accepted < 100 {
		t.Fatalf("only %d files accepted", accepted)
	}
}

// FuzzGoDeclNames: on any input go/parser accepts, an ok answer is
// Parse's declarations; on any input it never panics.
func FuzzGoDeclNames(f *testing.F) {
	for _, s := range []string{
		"package p\nfunc F() {}\n", "package p\ntype T struct{ A, B int; *pkg.E }\n", "package p\nconst (\n\tA = iota\n\tB\n)\n",
		"package p\ntype I interface{ M(); io.Reader }\n", "package p\nfunc (r *R[K]) M() {}\n", "package p\nvar x, y = 1, 2\n",
		"package p\ntype A[T any] struct{ F struct{ G T } }\n", "package p\nfunc init() {}\nfunc init() {}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		names, ok := GoDeclNames(src, nil)
		if !ok {
			return
		}
		if _, err := parser.ParseFile(gotoken.NewFileSet(), "f.go", src, parser.SkipObjectResolution); err != nil {
			return
		}
		tab := Parse(Go, src, Options{})
		if tab.GaveUp {
			return
		}
		SortGoNames(names)
		if d := diffGoNames(names, goNamesOfTable(tab)); d != "" {
			t.Fatalf("%q: %s", src, d)
		}
	})
}

// BenchmarkGoDeclNames lists the declarations of net/http, go/types and
// encoding/json with GoDeclNames and with Parse, alternating file by
// file; x-parse is GoDeclNames's time over Parse's.
//
//	go test ./internal/anchors/symbols -run XXX -bench GoDeclNames
func BenchmarkGoDeclNames(b *testing.B) {
	files := goCorpus(b)
	var size int64
	for _, f := range files {
		size += int64(len(f))
	}
	b.SetBytes(size)
	var lexCPU, parseCPU time.Duration
	for b.Loop() {
		for _, f := range files {
			c0 := processCPU()
			if _, ok := GoDeclNames(f, nil); !ok {
				b.Fatal("refused")
			}
			c1 := processCPU()
			Parse(Go, f, Options{})
			lexCPU += c1 - c0
			parseCPU += processCPU() - c1
		}
	}
	b.ReportMetric(float64(size)*float64(b.N)/lexCPU.Seconds()/1e6, "lex-MB/s")
	b.ReportMetric(float64(lexCPU)/float64(parseCPU), "x-parse")
}

// FuzzGroupKeywordIsTheWord: groupKeyword, which looks at no more of the
// code before a `(` than a keyword can be, answers as the whole word
// there would: one of var, const, type, import, not after a byte of a
// Unicode letter.
func FuzzGroupKeywordIsTheWord(f *testing.F) {
	for _, s := range []string{"var", "x := const", "import", "ximport", "type", "éconst", "fmt.Print", "i", "Ltype", "3var", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		code := len(src) - 1
		want := false
		if code >= 0 && isGoLetter(src[code]) {
			j := code
			for j > 0 && (isGoLetter(src[j-1]) || isDigit(src[j-1])) {
				j--
			}
			switch string(src[j:]) {
			case "var", "const", "type", "import":
				want = j == 0 || src[j-1] < 0x80
			}
		}
		if got := groupKeyword(src, code); got != want {
			t.Fatalf("groupKeyword(%q) = %v, want %v", src, got, want)
		}
	})
}
