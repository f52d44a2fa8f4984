package anchors

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// verify decides a hinted Go file's anchors without tree-sitter when the
// lexers find each one fresh (symbols.LexGoDecls, FreshInHint); the
// verdict must be the one Resolve gives over the table verify would
// otherwise parse (the kept declarations, ParseGoDecls, or the whole file
// when that part does not parse), and a file the lexers are unsure of must
// fall back to that parse.

// lexVerdict is what verify's cheap pass does with the lexers: the fresh
// result, ok false when it falls back to a parse.
func lexVerdict(a Anchor, src []byte) (Result, bool) {
	g, ok := symbols.LexGoLayout(src)
	if !ok {
		return Result{}, false
	}
	keep := mentioningBase(src, a)
	decls, ok := symbols.LexGoDecls(g, src, keep, a.QualifiedName)
	if !ok {
		return Result{}, false
	}
	r, ok := FreshInHint(a, decls)
	if !ok || !symbols.KeptIsGo(g, src, keep) {
		return Result{}, false
	}
	return r, true
}

// parseVerdict is Resolve's answer over the table verify parses of src
// for a: its kept declarations, or the whole file.
func parseVerdict(a Anchor, src []byte) Result {
	tab, ok := symbols.ParseGoDecls(src, mentioningBase(src, a), symbols.Options{KeepBodyTokens: true})
	if !ok {
		tab = symbols.Parse(symbols.Go, src, symbols.Options{KeepBodyTokens: true})
	}
	ix := NewIndex()
	ix.Add(a.Path, tab.Decls)
	return Resolve(a, Env{Index: ix, File: func(p string) ([]byte, FileStatus) {
		if p == a.Path {
			return src, FileOK
		}
		return nil, FileMissing
	}, NoSuggestions: true})
}

func mentioningBase(src []byte, a Anchor) func(start, end int) bool {
	w := []byte(BaseName(a.QualifiedName))
	return func(start, end int) bool { return bytes.Contains(src[start:end], w) }
}

// pinnedAnchors are anchors to every function, method and type Parse finds
// in src, pinned with its hashes.
func pinnedAnchors(src []byte) []Anchor {
	var out []Anchor
	for _, d := range symbols.Parse(symbols.Go, src, symbols.Options{}).Decls {
		switch d.Kind {
		case "function", "method", "struct", "interface", "type":
		default:
			continue
		}
		out = append(out, Anchor{Form: FormSymbol, Kind: d.Kind, QualifiedName: d.QualifiedName, Path: "p/f.go",
			DeclSHA: d.DeclHash, BodySHA: d.BodyHash, Scheme: symbols.HashScheme})
	}
	return out
}

func TestLexedVerdictIsParsed(t *testing.T) {
	const base = "package p\n\nimport \"fmt\"\n\n// Sum adds.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n\nfunc Other() { fmt.Println(\"x\") }\n"
	generic := "package p\n\ntype List[T any] struct {\n\thead *node[T]\n\tsize int\n}\n\nfunc (l *List[T]) Push(v T) {\n\tl.head = &node[T]{v: v, next: l.head}\n\tl.size++\n}\n\nfunc Map[T, U any](xs []T, f func(T) U) []U {\n\tout := make([]U, 0, len(xs))\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\n"
	ifElse := "package p\n\nfunc F(x bool) {\n\tif x {\n\t\ty()\n\t} else {\n\t\tz()\n\t}\n}\n"
	for _, c := range []struct {
		name   string
		pinned string // the source the anchors are pinned on
		now    string // the source checked
		kind   string // the anchor's kind and name
		qname  string
		lexed  bool // the lexers decide it (else verify parses)
	}{
		{"unchanged", base, base, "function", "Sum", true},
		{"comments and layout only", base, strings.Replace(base, "total := 0\n", "total := 0 // start\n\n", 1), "function", "Sum", true},
		{"body changed", base, strings.Replace(base, "total := 0", "total := 1", 1), "function", "Sum", false},
		{"renamed away", base, strings.Replace(base, "func Sum", "func Total", 1), "function", "Sum", false},
		{"CRLF line ends", base, strings.ReplaceAll(base, "\n", "\r\n"), "function", "Sum", true},
		{"byte order mark", base, "\xef\xbb\xbf" + base, "function", "Sum", false},
		{"unbalanced brackets elsewhere", base, base + "\nfunc Broken() {\n", "function", "Sum", false},
		{"statement at the top level", base, base + "\nx := 1\n", "function", "Sum", false},
		{"non-ASCII code", base, base + "\nvar é = 1\n", "function", "Sum", false},
		{"build tags", base, "//go:build linux && !race\n\n" + base, "function", "Sum", true},
		{"cgo preamble", base, strings.Replace(base, "import \"fmt\"", "/*\n#include <stdio.h>\nstatic int f(void) { return '}'; }\n*/\nimport \"C\"\nimport \"fmt\"", 1), "function", "Sum", true},
		{"generic type", generic, generic, "struct", "List", true},
		{"method on a generic pointer receiver", generic, generic, "method", "List.Push", true},
		{"generic function", generic, generic, "function", "Map", true},
		{"type the umbrella names", generic, generic, "type", "List", true},
		{"array type read two ways", "package p\n\nconst N, M = 2, 3\n\ntype A [N * M]int\n", "package p\n\nconst N, M = 2, 3\n\ntype A [N * M]int\n", "type", "A", false},
		{"method on a pointer receiver", "package p\n\ntype T struct{ n int }\n\nfunc (t *T) Inc() int {\n\tt.n++\n\treturn t.n\n}\n", "package p\n\ntype T struct{ n int }\n\nfunc (t *T) Inc() int {\n\tt.n++\n\treturn t.n\n}\n", "method", "T.Inc", true},
		{"interface", "package p\n\ntype I interface {\n\tM(int) error\n\tN()\n}\n", "package p\n\ntype I interface {\n\tM(int) error\n\tN()\n}\n", "interface", "I", true},
		{"interface method", "package p\n\ntype I interface {\n\tM(int) error\n\tN()\n}\n", "package p\n\ntype I interface {\n\tM(int) error\n\tN()\n}\n", "method", "I.M", false},
		{"alias", "package p\n\ntype A = map[string]int\n", "package p\n\ntype A = map[string]int\n", "type", "A", true},
		{"grouped type", "package p\n\ntype (\n\tA struct{ x, y int }\n\tB int\n)\n", "package p\n\ntype (\n\tA struct{ x, y int }\n\tB int\n)\n", "struct", "A", true},
		{"no body", "package p\n\nfunc Asm(x int) int\n", "package p\n\nfunc Asm(x int) int\n", "function", "Asm", true},
		{"two of the name", base, base + "\nfunc Sum() {}\n", "function", "Sum", false},
		{"a field of the name beside the method", "package p\n\ntype T struct{ F int }\n\nfunc (T) F() {}\n", "package p\n\ntype T struct{ F int }\n\nfunc (T) F() {}\n", "method", "T.F", false},
		{"a line break Go reads as a semicolon", ifElse, strings.Replace(ifElse, "} else {", "}\n\telse {", 1), "function", "F", false},
		{"a broken body that swallows the next function", "package p\n\nfunc G() {\n\t_ = m[]\n\t_ = m[x /* a */ a b c d]\n}\n", "package p\n\nfunc G() {\n\t_ = m[]\n\t_ = m[x /* a */ a b c d]\n}\n\nfunc H() {\n\treturn m[0\n\t]\n}\n", "function", "G", false},
		{"a syntax error in the body", ifElse, strings.Replace(ifElse, "z()", "z(", 1) + ")\n", "function", "F", false},
		{"literals rewritten", "package p\n\nfunc L() (string, float64) {\n\treturn \"a\\tb\", 0X1P+2\n}\n", "package p\n\nfunc L() (string, float64) {\n\treturn \"a\\u0009b\", 0x1p+2\n}\n", "function", "L", true},
		{"trailing commas", "package p\n\nfunc C() []int {\n\treturn []int{\n\t\t1,\n\t\t2,\n\t}\n}\n", "package p\n\nfunc C() []int {\n\treturn []int{1, 2}\n}\n", "function", "C", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var a Anchor
			for _, p := range pinnedAnchors([]byte(c.pinned)) {
				if p.Kind == c.kind && p.QualifiedName == c.qname || c.kind == "type" && p.QualifiedName == c.qname {
					a = p
				}
			}
			if a.QualifiedName == "" {
				t.Fatalf("no %s %s pinned", c.kind, c.qname)
			}
			a.Kind = c.kind
			got, lexed := lexVerdict(a, []byte(c.now))
			want := parseVerdict(a, []byte(c.now))
			if lexed != c.lexed {
				t.Errorf("lexed = %v, want %v (Parse says %s %s)", lexed, c.lexed, want.State, want.Detail.Reason)
			}
			if lexed && !reflect.DeepEqual(got, want) {
				t.Errorf("the lexers say\n %+v %+v\nParse says\n %+v %+v", got, got.Found, want, want.Found)
			}
		})
	}
}

// Whatever the pinned source and whatever was changed in it since: when
// the lexers decide an anchor fresh, Resolve over the table verify would
// parse gives the same result (a mismatch never turns green).
func FuzzLexedVerdict(f *testing.F) {
	for _, s := range []string{
		"package p\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n",
		"package p\ntype T struct{ a, b int; c string }\nfunc (t *T) M(x int) (int, error) { return t.a + x, nil }\n",
		"package p\ntype L[T any] struct{ h *n[T]; s int }\nfunc (l *L[T]) P(v T) { l.h = &n[T]{v, l.h}; l.s++ }\n",
		"package p\ntype I interface {\n\tM(int) error\n\tN()\n}\ntype A = map[string]int\n",
		"package p\nfunc F() {\n\tif x {\n\t\ty()\n\t} else {\n\t\tz()\n\t}\n}\n",
	} {
		f.Add([]byte(s), []byte("\n"), uint16(30))
	}
	f.Fuzz(func(t *testing.T, src, edit []byte, at uint16) {
		if len(src) > 4096 || len(edit) > 64 {
			return
		}
		now := append(append(append([]byte(nil), src[:int(at)%(len(src)+1)]...), edit...), src[int(at)%(len(src)+1):]...)
		for _, a := range pinnedAnchors(src) {
			got, ok := lexVerdict(a, now)
			if !ok {
				continue
			}
			if want := parseVerdict(a, now); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %s in %q: the lexers say %+v %+v, Parse %+v %+v", a.Kind, a.QualifiedName, now, got, got.Found, want, want.Found)
			}
		}
	})
}
