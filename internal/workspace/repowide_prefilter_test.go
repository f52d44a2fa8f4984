package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The move prefilter: a word test for every language, the declaration
// shape for Go functions and methods. A miss here is a wrong verdict, so
// the declared forms must all pass.
func TestDeclaresName(t *testing.T) {
	for _, c := range []struct {
		content string
		goFunc  bool
		want    bool
	}{
		{"func Parse(s string) {}", true, true},
		{"func (p *Parser) Parse(s string) {}", true, true},
		{"func (p *Set[K]) Parse[T any](s T) {}", true, true},
		{"func  Parse (s string) {}", true, true},
		{"func Parse[T any](s T) {}", true, true},
		{"x := Parse(s)", true, false},
		{"p.Parse(s)", true, false},
		{"// Parse parses.", true, false},
		{"func ParseAll(s string) {}", true, false},
		{"func MustParse(s string) {}", true, false},
		{"notfunc Parse(s)", true, false},
		{"x := Parse(s)\nfunc Parse(s string) {}", true, true},
		{"def parse(self):", false, false},
		{"class Parse:", false, true},
		{"Parse", false, true},
		{"reparse = 1", false, false},
		{"Parser()", false, false},
		{"x.Parse()", false, true},
		{"éParse()", false, false},
	} {
		if got := declaresName([]byte(c.content), []byte("Parse"), c.goFunc); got != c.want {
			t.Errorf("declaresName(%q, goFunc=%v) = %v, want %v", c.content, c.goFunc, got, c.want)
		}
	}
	// A Go method is also declared by an interface.
	for _, c := range []struct {
		content string
		want    bool
	}{
		{"type P interface {\n\tParse(s string) error\n}", true},
		{"type P interface{ Parse() }", true},
		{"type P interface{ io.Reader; Parse() }", true},
		{"func (p *Parser) Parse(s string) {}", true},
		{"\tx.Parse(s)", false},
		{"\treturn Parse(s)", false},
		{"// Parse parses.", false},
	} {
		if got := declaresNameAs([]byte(c.content), []byte("Parse"), goMethod); got != c.want {
			t.Errorf("declaresNameAs(%q, goMethod) = %v, want %v", c.content, got, c.want)
		}
	}
}

// The whole prefilter never drops a file that holds the target: for every
// declaration of real files (every language's testdata, and Go's net/http
// from GOROOT), an anchor pinned on it and now looked for
// elsewhere — under its own name (a move), under another name with the
// same body (a rename), with and without the pinned body from history —
// wants the file that holds it.
func TestPrefilterKeepsTheTarget(t *testing.T) {
	files, _ := filepath.Glob("../anchors/symbols/testdata/*")
	files = append(files, gorootGoFiles("net/http")...)
	checked := 0
	for _, f := range files {
		lang, ok := symbols.LanguageForPath(strings.TrimSuffix(f, ".txt"))
		if !ok || symbols.IsKeyLanguage(lang) {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		file := &candidate{b: src, lang: lang} // read once for every need
		for _, d := range symbols.Parse(lang, src, symbols.Options{KeepBodyTokens: true}).Decls {
			a := anchors.Anchor{Form: anchors.FormSymbol, Kind: d.Kind, QualifiedName: d.QualifiedName,
				Path: "elsewhere/" + filepath.Base(f), DeclSHA: d.DeclHash, BodySHA: d.BodyHash}
			renamed := a
			renamed.QualifiedName = d.QualifiedName + "Zq"
			cases := []struct {
				name string
				a    anchors.Anchor
				body []string
			}{{"moved", a, d.Body.Strings()}, {"moved, no history", a, nil}}
			if d.BodyHash != "" {
				cases = append(cases, struct {
					name string
					a    anchors.Anchor
					body []string
				}{"renamed", renamed, d.Body.Strings()}, struct {
					name string
					a    anchors.Anchor
					body []string
				}{"renamed, no history", renamed, nil})
			}
			for _, c := range cases {
				if !needFor(c.a, lang, c.body).wantsIn(file) {
					t.Errorf("%s: %s %s %s: the file holding it is dropped", f, c.name, d.Kind, d.QualifiedName)
				}
				checked++
			}
		}
	}
	if checked < 3000 {
		t.Fatalf("only %d targets checked", checked)
	}
}

// Without history a renamed Go declaration is searched for by its pinned
// body hash: a file that does not list it is skipped unparsed, one that
// lists it (under any name) is kept, and one the lexer cannot read plainly
// is kept for the parse to decide.
func TestNoHistoryRenameSearchReadsBodyHashes(t *testing.T) {
	holder := []byte("package p\n\nfunc Renamed(a, b int) int {\n\tif a > b {\n\t\treturn a - b\n\t}\n\treturn b - a\n}\n")
	other := []byte("package p\n\nfunc Other(a, b int) int {\n\tif a < b {\n\t\treturn a + b\n\t}\n\treturn b * a\n}\n")
	unlexed := append(append([]byte{}, other...), "var x☹ = 1\n"...)
	greek := append(append([]byte{}, other...), "var é, θ = 1, 2\n"...)
	var d symbols.Decl
	for _, x := range symbols.Parse(symbols.Go, holder, symbols.Options{}).Decls {
		d = x
	}
	if d.BodyHash == "" {
		t.Fatal("no body hash to search for")
	}
	a := anchors.Anchor{Form: anchors.FormSymbol, Kind: "function", QualifiedName: "Original", Path: "a/gone.go",
		DeclSHA: d.DeclHash, BodySHA: d.BodyHash}
	n := needFor(a, symbols.Go, nil)
	for _, c := range []struct {
		name string
		src  []byte
		want bool
	}{{"holds the body", holder, true}, {"another body", other, false}, {"not plainly lexed", unlexed, true}, {"letters beyond ASCII", greek, false}} {
		if got := n.wants(c.src, symbols.Go); got != c.want {
			t.Errorf("%s: wants = %v, want %v", c.name, got, c.want)
		}
	}
	// The memo tells needs of two pinned bodies apart.
	b := a
	b.BodySHA = "0123456789ab"
	if needFor(b, symbols.Go, nil).key == n.key {
		t.Error("two pinned bodies share a prefilter memo key")
	}
}
