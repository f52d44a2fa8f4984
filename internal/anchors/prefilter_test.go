package anchors_test

import (
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// TestBodyPatternNeverMissesARename: for every function of a source, the
// prefilter says yes on the same source reformatted, commented and with its
// quotes swapped — the edits that keep the body hash — and no on unrelated
// code.
func TestBodyPatternNeverMissesARename(t *testing.T) {
	cases := []struct {
		lang        symbols.Language
		src, edited string
	}{
		{"go", "package p\n\nfunc F(a, b int) int {\n\tx := a*b + a - b\n\treturn x + len(\"s\")\n}\n",
			"package p\n\n// F.\nfunc G(a, b int) int {\n  x:=a*b+a-b // note\n  /* c */ return x+len(\"s\")\n}\n"},
		{"typescript", "export function f(x: number): string {\n  const y = [1, 2, 3];\n  return 'a' + y.join(',');\n}\n",
			"export function g(x: number): string {\n  const y = [\n    1,\n    2,\n    3,\n  ];\n  return \"a\" + y.join(\",\"); // joined\n}\n"},
		{"python", "def f(x):\n    total = x * 2\n    return total + len('ab')\n",
			"def g(x):\n    \"\"\"Docstring.\"\"\"\n    # note\n    total = x * 2\n    return total + len(\"ab\")\n"},
	}
	for _, c := range cases {
		tab := symbols.Parse(c.lang, []byte(c.src), symbols.Options{KeepBodyTokens: true})
		if len(tab.Decls) == 0 {
			t.Fatalf("%s: no declarations", c.lang)
		}
		for _, d := range tab.Decls {
			if len(d.Body) == 0 {
				continue
			}
			p := anchors.NewBodyPattern(d.Body, c.lang == "python")
			if !p.MayOccur([]byte(c.edited)) {
				t.Errorf("%s %s: the prefilter would skip a file holding the body %q", c.lang, d.QualifiedName, strings.Join(d.Body, " "))
			}
			if p.MayOccur([]byte("package q\nfunc H() { return nil }\nconst s = 'x'\n")) {
				t.Errorf("%s %s: the prefilter accepted unrelated code", c.lang, d.QualifiedName)
			}
		}
	}
}

func FuzzBodyPattern(f *testing.F) {
	f.Add([]byte("func F() {\n\treturn 'x' /* */ + \"y\"\n}"), "{ return \"x\" + \"y\" }")
	f.Add([]byte("r#\"a\"# '''b''' `c"), "r#\"a\"# x")
	f.Fuzz(func(t *testing.T, content []byte, toks string) {
		p := anchors.NewBodyPattern(strings.Fields(toks), len(toks)%2 == 0)
		p.MayOccur(content)
	})
}
