package anchors_test

import (
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// TestBodyPatternNeverMissesARename: for every declaration with a body, the
// prefilter says yes on an edited copy whose bodies hash the same
// (formatter output, comments, quote swaps, redundant parentheses,
// docstrings) — checked by parsing it — and no on unrelated code.
func TestBodyPatternNeverMissesARename(t *testing.T) {
	cases := []struct {
		lang        symbols.Language
		src, edited string
	}{
		{"go", "package p\n\nfunc F(a, b int) int {\n\tx := a*b + a - b\n\tc := 'x'\n\treturn x + len(\"s\") + int(c)\n}\n",
			"package p\n\n// F.\nfunc G(a, b int) int {\n  x:=a*b+a-b // note\n  c := 'x' /* c */\n  return x+len(\"s\")+int(c)\n}\n"},
		{"typescript", "export function shuffle(xs: string[], seed: number): string[] {\n  for (let i = xs.length - 1; i > 0; i--) {\n    const j = (seed * i) % (i + 1);\n    [xs[i], xs[j]] = [xs[j], xs[i]];\n  }\n  return xs.map(x => 'a' + x);\n}\n",
			"export function scramble(xs: string[], seed: number): string[] {\n  for (let i = (xs.length - 1); i > 0; i--) {\n    const j = ((seed * i)) % (i + 1) // note\n    ;[xs[i], xs[j]] = [xs[j], xs[i],]\n  }\n  return xs.map((x) => \"a\" + x)\n}\n"},
		{"python", "def f(x):\n    total = (x * 2)\n    return total + len('ab') + len(f'{x}')\n",
			"def g(x):\n    \"\"\"Docstring: total = nothing.\"\"\"\n    # note\n    total = x * 2\n    return total + len(\"ab\") + len(f\"{x}\")\n"},
		{"rust", "fn longest<'a>(x: &'a str, y: &'a str) -> &'a str {\n    if x.len() > y.len() { x } else { y }\n}\n",
			"fn pick<'a>(x: &'a str, y: &'a str) -> &'a str {\n    // which\n    if x.len() > y.len() {\n        x\n    } else {\n        y\n    }\n}\n"},
		{"rust", "pub fn shuffle(xs: &mut Vec<String>, seed: usize) {\n    for i in (1..xs.len()).rev() {\n        let j = (seed * i) % (i + 1);\n        xs.swap(i, j);\n    }\n}\n",
			"pub fn scramble(xs: &mut Vec<String>, seed: usize) {\n    for i in (1..xs.len()).rev() {\n        let j = (seed * i) % (i + 1); // 0x1F.max\n        xs.swap(i, j);\n    }\n}\n"},
		{"c", "int sum(int *xs, int n) {\n  int t = 0;\n  for (int i = 0; i < n; i++) t += xs[i];\n  return t;\n}\n",
			"#include <stdio.h>\nint total(int *xs, int n) {\n  int t = 0; /* acc */\n  for (int i = 0; i < n; i++)\n    t += xs[i];\n  return t;\n}\n"},
	}
	for _, c := range cases {
		before := symbols.Parse(c.lang, []byte(c.src), symbols.Options{KeepBodyTokens: true})
		after := symbols.Parse(c.lang, []byte(c.edited), symbols.Options{})
		afterBodies := map[string]bool{}
		for _, d := range after.Decls {
			afterBodies[d.BodyHash] = true
		}
		checked := 0
		for _, d := range before.Decls {
			if d.BodyHash == "" {
				continue
			}
			if !afterBodies[d.BodyHash] {
				t.Errorf("%s %s: the edited copy does not keep the body hash (fixture error)", c.lang, d.QualifiedName)
				continue
			}
			checked++
			p := anchors.NewBodyPattern(d.Body.Strings(), anchors.SyntaxFor(c.lang))
			if !p.MayOccur([]byte(c.edited)) {
				t.Errorf("%s %s: the prefilter would skip a file holding the body %q", c.lang, d.QualifiedName, strings.Join(d.Body.Strings(), " "))
			}
			if p.MayOccur([]byte("package q\nfunc H() { return nil }\nconst s = 'x'\n")) {
				t.Errorf("%s %s: the prefilter accepted unrelated code", c.lang, d.QualifiedName)
			}
		}
		if checked == 0 {
			t.Errorf("%s: no body checked", c.lang)
		}
	}
}

func FuzzBodyPattern(f *testing.F) {
	f.Add([]byte("func F() {\n\treturn 'x' /* */ + \"y\"\n}"), "{ return \"x\" + \"y\" }", uint8(0))
	f.Add([]byte("r#\"a\"# '''b''' `c 'a> #x"), "r#\"a\"# x y", uint8(7))
	f.Fuzz(func(t *testing.T, content []byte, toks string, flags uint8) {
		syn := anchors.Syntax{HashComments: flags&1 != 0, SingleQuoteStrings: flags&2 != 0, Preprocessor: flags&4 != 0}
		p := anchors.NewBodyPattern(strings.Fields(toks), syn)
		p.MayOccur(content)
	})
}

// TestBodyPatternUnscannedLanguages: the scan does not know Lua's `--`
// comments, PHP's `$` variables or shell words; a body of those languages
// written with comments and split words must still be found, so they are
// not scanned at all.
func TestBodyPatternUnscannedLanguages(t *testing.T) {
	cases := []struct {
		lang        symbols.Language
		src, edited string
	}{
		{"lua", "function M.f(xs, seed)\n  local total = seed * 2\n  for i = 1, #xs do total = total + xs[i] end\n  return total\nend\n",
			"function N.g(xs, seed)\n  local total = seed * 2 -- twice the seed\n  for i = 1, #xs do total = total + xs[i] end\n  return total\nend\n"},
		{"php", "<?php\nfunction f($xs, $seed) { $total = $seed * 2; foreach ($xs as $x) { $total += $x; } return $total; }\n",
			"<?php\nfunction g($xs, $seed) {\n  $total = $seed * 2;\n  foreach ($xs as $x) { $total += $x; }\n  return $total;\n}\n"},
		{"bash", "f() {\n  sort -n \"$1\" | cut -d' ' -f2 | head -n 3\n}\n",
			"g() {\n  sort -n \"$1\" |\n    cut -d' ' -f2 |\n    head -n 3\n}\n"},
	}
	for _, c := range cases {
		before := symbols.Parse(c.lang, []byte(c.src), symbols.Options{KeepBodyTokens: true})
		after := symbols.Parse(c.lang, []byte(c.edited), symbols.Options{})
		if len(before.Decls) == 0 || len(after.Decls) == 0 || before.Decls[0].BodyHash == "" || before.Decls[0].BodyHash != after.Decls[0].BodyHash {
			t.Fatalf("%s: fixture error: %+v / %+v", c.lang, before.Decls, after.Decls)
		}
		body := before.Decls[0].Body.Strings()
		if !anchors.NewBodyPattern(body, anchors.SyntaxFor(c.lang)).MayOccur([]byte(c.edited)) {
			t.Errorf("%s: the prefilter would skip a file holding the body %q", c.lang, strings.Join(body, " "))
		}
		if naive := anchors.NewBodyPattern(body, anchors.Syntax{}); naive.MayOccur([]byte(c.edited)) {
			t.Logf("%s: a plain scan would have found it too", c.lang)
		}
	}
}
