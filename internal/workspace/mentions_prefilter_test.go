package workspace

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The Go layout test of the mention prefilter: every place Go declares a
// name the walker indexes passes; uses in bodies, calls, types, strings and
// comments do not.
func TestGoNamePlaces(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string // the names in a name's place, "+" marking top-level ones
		ok   bool
	}{
		{"package p\nfunc Parse(s string) error { x := Parse(s); return nil }", "+Parse", true},
		{"func (p *Set[K]) Parse[T any](s T) (n int, err error) {}", "Parse", true},
		{"func /* c */ Parse() {}", "+Parse", true},
		{"type T struct {\n\tA, B int\n\t*pkg.Embedded\n\tio.Reader `tag`\n\tC struct{ D string }\n}", "+T A B pkg Embedded io Reader C D", true},
		{"type I interface {\n\tRead(p []byte) (n int, err error)\n\tio.Closer\n}", "+I Read io Closer", true},
		{"type I interface{ io.Reader; Close() error }", "+I io Reader Close", true},
		{"const (\n\tA = iota\n\tB\n\tC, D = 1, 2\n)", "+A +B +C +D", true},
		{"var ( a = 1; b = f(c, d) )", "+a +b", true},
		{"var x, y = f(a, b), g()", "+x +y", true},
		{"type (\n\tA = B\n\tC[T any] struct{ F T }\n)", "+A +C F", true},
		{"var f func(a int) bool\nvar s = struct{ X int }{X: 1}", "+f +s X", true},
		{"func f() {\n\tvar local = 1\n\ttype inner struct{ G int }\n\tcall(x)\n}", "+f", true},
		{"var s = \"func Fake() {}\" + `type Fake2 int`\n// func Fake3()\n/* var Fake4 */", "+s", true},
		{"import (\n\tfoo \"x/y\"\n)\nvar r = 'a'", "+foo +r", true},
		{"func f() { s := `unterminated }", "+f", false},
		{"func f() {", "+f", false},
		{"var s = \"line\nbreak\"", "+s", false},
		{"/* open", "", false},
		{"func f() }", "+f", false},
	} {
		var got []string
		ok := goNamePlaces([]byte(c.src), func(name []byte, top bool) bool {
			if top {
				got = append(got, "+"+string(name))
			} else {
				got = append(got, string(name))
			}
			return true
		})
		if strings.Join(got, " ") != c.want || ok != c.ok {
			t.Errorf("goNamePlaces(%q) = %q, %v; want %q, %v", c.src, strings.Join(got, " "), ok, c.want, c.ok)
		}
	}
	// A file that does not lex cleanly falls back to the word test.
	set := map[string]bool{"Hidden": true}
	if !mayDeclareAny(symbols.Go, []byte("func f() { Hidden := `open"), [][]byte{[]byte("Hidden")}, set) {
		t.Error("a file that does not lex is dropped instead of word-tested")
	}
	if mayDeclareAny(symbols.Go, []byte("func f() { Hidden() }"), [][]byte{[]byte("Hidden")}, set) {
		t.Error("a call in a body keeps the file")
	}
}

// The mention prefilter never drops a file that declares a mentioned
// name: for every declaration of real files (every language's testdata,
// Go's net/http, and GOROOT's test inputs that do not parse as Go) whose
// base name a mention can have, the file passes for that name, alone and
// among others, whenever the word test alone keeps it.
// CLEW_PREFILTER_GOROOT=1 checks every Go file of GOROOT/src instead of
// the Go directories listed here (minutes).
func TestMentionPrefilterKeepsEveryDeclaration(t *testing.T) {
	files, _ := filepath.Glob("../anchors/symbols/testdata/*")
	src := filepath.Join(runtime.GOROOT(), "src")
	if os.Getenv("CLEW_PREFILTER_GOROOT") != "" {
		filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".go") {
				files = append(files, p)
			}
			return nil
		})
	} else {
		for _, dir := range []string{"net/http", "go/parser/testdata", "cmd/compile/internal/syntax/testdata",
			"internal/types/testdata/fixedbugs", "go/printer/testdata"} {
			more, _ := filepath.Glob(filepath.Join(src, dir, "*.go"))
			files = append(files, more...)
		}
	}
	checked, broken := 0, 0
	for _, f := range files {
		lang, ok := symbols.LanguageForPath(strings.TrimSuffix(strings.TrimSuffix(f, ".txt"), ".src"))
		if !ok || symbols.IsKeyLanguage(lang) {
			continue
		}
		text, err := os.ReadFile(f)
		if err != nil || len(text) > 1<<20 {
			continue
		}
		tab := symbols.Parse(lang, text, symbols.Options{})
		if tab.GaveUp {
			continue
		}
		all := map[string]bool{}
		var names [][]byte
		for _, d := range tab.Decls {
			b := anchors.BaseName(d.QualifiedName)
			if !all[b] {
				all[b] = true
				names = append(names, []byte(b))
			}
		}
		// A top-level declaration stands in a top-level place
		// (MentionCoverage parses those files first and trusts them).
		top := map[string]bool{}
		lexed := true
		if lang == symbols.Go {
			lexed = goNamePlaces(text, func(name []byte, isTop bool) bool {
				top[string(name)] = top[string(name)] || isTop
				return true
			})
			if !lexed {
				broken++
			}
		}
		if places := placesOf(lang, text, all); lexed {
			for _, d := range tab.Decls {
				b := anchors.BaseName(d.QualifiedName)
				if strings.Contains(anchors.BaseName(d.QualifiedName), ".") || d.Container != "" || !all[b] {
					continue
				}
				if lang == symbols.Go && !top[b] || !places.top {
					t.Errorf("%s: top-level %s %s is not in a top-level place", f, d.Kind, d.QualifiedName)
				}
			}
		}
		for _, d := range tab.Decls {
			b := anchors.BaseName(d.QualifiedName)
			if name, ok := anchors.MentionName(b); !ok || name != b {
				continue // no mention names it (`x`, a key "a.b")
			}
			if !holdsAnyWord(text, [][]byte{[]byte(b)}, map[string]bool{b: true}) {
				continue // the word test alone drops it too (`☹x`)
			}
			if !mayDeclareAny(lang, text, [][]byte{[]byte(b)}, map[string]bool{b: true}) {
				t.Errorf("%s: %s %s: the file declaring it is dropped for %q", f, d.Kind, d.QualifiedName, b)
			}
			checked++
		}
		// Among many names (the word test's other path).
		if len(names) > 0 && !mayDeclareAny(lang, text, names, all) {
			t.Errorf("%s: dropped for its own %d names", f, len(names))
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d declarations checked", checked)
	}
	t.Logf("%d declarations of %d files checked, %d Go files word-tested", checked, len(files), broken)
}

// FuzzGoNamePlaces: on any input that is Go (go/parser reads it without
// an error) the layout test keeps every name the Go walker declares, and
// on any input it never panics. (On input that is not Go, the parser's
// error recovery can declare names anywhere — `type{}A` declares A — which
// no layout test follows; see docs/performance.md.)
func FuzzGoNamePlaces(f *testing.F) {
	for _, s := range []string{
		"package p\nfunc F() {}\n", "type T struct{ A, B int; *pkg.E }\n", "const (\n\tA = iota\n\tB\n)\n",
		"type I interface{ M(); io.Reader }\n", "func (r *R[K]) M[T any]() {}\n", "var x, y = 1, 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		places := map[string]bool{}
		if !goNamePlaces(src, func(name []byte, _ bool) bool { places[string(name)] = true; return true }) {
			return
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "f.go", src, parser.SkipObjectResolution); err != nil {
			return
		}
		tab := symbols.Parse(symbols.Go, src, symbols.Options{})
		if tab.GaveUp {
			return
		}
		for _, d := range tab.Decls {
			if b := anchors.BaseName(d.QualifiedName); !places[b] {
				t.Fatalf("%q: %s %s not in a name's place", src, d.Kind, d.QualifiedName)
			}
		}
	})
}
